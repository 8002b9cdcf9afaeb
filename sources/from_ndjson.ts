// Copyright 2026 the brigade authors. MIT license.

import { EventSourceError } from "../events/errors.ts";
import { baseName, openFile, pathText } from "../lines/file_source.ts";
import { MAX_LINE_BYTES } from "../lines/byte_lines.ts";
import { checkMaxLineBytes, type JsonLine, jsonLineBatches } from "../lines/json_lines.ts";
import { batchedEntries } from "../events/entry_batches.ts";
import type { LogEntry, SessionEvent } from "../events/types.ts";
import { entryProblem, eventProblem } from "../events/validate.ts";

export { MAX_LINE_BYTES };

/** Options for {@linkcode fromNdjson}. */
export interface FromNdjsonOptions {
  /**
   * The `session_id` of entries read from bare event lines.
   *
   * @default {the file's base name without its extension; "stream" for a stream}
   */
  sessionId?: string;
  /**
   * Skip a malformed line (reporting it through `onInvalid`) instead of failing.
   *
   * @default {false}
   */
  skipInvalid?: boolean;
  /**
   * Called, as it happens, with the 1-based line number and the reason for
   * each line skipped under `skipInvalid`: not JSON, not an object, not a
   * valid entry, or over `maxLineBytes`. A reason quotes the line only
   * redacted, cut short and with its control characters visible.
   *
   * @default {undefined}
   */
  onInvalid?: (line: number, reason: string) => void;
  /**
   * The longest line read, in bytes. A longer line is never held whole: it is
   * an error as soon as it passes the cap, or under `skipInvalid` reported
   * and skipped.
   *
   * @default {MAX_LINE_BYTES}
   */
  maxLineBytes?: number;
  /**
   * The name errors give the input.
   *
   * @default {the path as given; "stream" for a stream}
   */
  name?: string;
  /**
   * Stops the reading (and closes the file) with the signal's reason when aborted.
   *
   * @default {undefined}
   */
  signal?: AbortSignal;
}

/** What {@linkcode fromNdjson} reads: a file path, a `file:` URL or a byte stream. */
export type NdjsonInput = string | URL | ReadableStream<Uint8Array>;

/**
 * Reads newline-delimited JSON, one value a line, as an event source. A line
 * whose value has an object member `event` is a {@linkcode LogEntry}; any
 * other object is a bare API event, given `seq` = its line number (from 1),
 * `thread_id: null` and the `sessionId` option (else the file's base name).
 * Blank lines, CRLF line ends and a leading byte order mark are accepted;
 * invalid UTF-8 decodes as U+FFFD.
 *
 * A recorded session stream reads back: its events as bare events, and its
 * previews (`event_start` and `event_delta` records, which the API streams
 * while an event is produced and never stores) skipped, as the stream's
 * rules say: the event they preview follows with its whole content. A file
 * of the stream's raw text (`event:` and `data:` lines) is not NDJSON: its
 * first such line fails (or is reported) as a line of a server-sent event
 * stream, with how to turn it into NDJSON.
 *
 * The file is opened when iteration starts, read a chunk at a time (its next
 * chunk while the lines of the last are parsed; a stream given is pulled only
 * as its lines are needed), and closed when the iteration ends, however it
 * ends. Time is linear in the input, however long a line; memory holds two
 * chunks of 64 KiB and one line (a file's chunks are smaller while more than
 * 64 files are read at once in the process: all of them share 8 MiB of read
 * buffers, so a hundred read 32 KiB at a time), and a line longer than `maxLineBytes` is
 * never held whole: it fails the reading as soon as it passes the cap, or
 * under `skipInvalid` is reported and skipped. A path is read with Deno's
 * file API (`--allow-read`), or with `node:fs` on Node and Bun; a stream works
 * on any runtime.
 *
 * @param input A path, a `file:` URL, or a stream of UTF-8 bytes.
 * @param options Options.
 * @returns A lazy event source.
 * @throws {EventSourceError} When the file cannot be opened or read (code
 * `unreadable`), or a line is not JSON, not an object or not a valid entry
 * (`invalid_entry`) or is over `maxLineBytes` (`line_too_long`), unless
 * `skipInvalid`; the error names the input and the line, and quotes the line
 * only redacted, cut short and with its control characters visible.
 * @throws {RangeError} When `maxLineBytes` is not a positive integer.
 *
 * @example Usage
 * ```ts
 * import { fromNdjson } from "@brigade/transcript";
 * import assert from "node:assert/strict";
 *
 * const text = '{"id":"sevt_1","type":"user.message","content":"Hi"}\n\n' +
 *   '{"id":"sevt_2","type":"agent.message","content":"Hello"}\n';
 * const stream = ReadableStream.from([new TextEncoder().encode(text)]);
 * const entries = await Array.fromAsync(fromNdjson(stream, { sessionId: "sesn_1" }));
 * assert.deepEqual(entries.map((e) => [e.seq, e.session_id, e.event.type]), [
 *   [1, "sesn_1", "user.message"],
 *   [3, "sesn_1", "agent.message"],
 * ]);
 * ```
 *
 * @example Bad lines skipped and reported as they are met
 * ```ts
 * import { fromNdjson } from "@brigade/transcript";
 * import assert from "node:assert/strict";
 *
 * const text = '{"id":"sevt_1","type":"user.message","content":"Hi"}\n' +
 *   "password=hunter2abc\n" + `{"id":"sevt_3","type":"user.message","content":"${"x".repeat(100)}"}\n`;
 * const invalid: string[] = [];
 * const entries = await Array.fromAsync(
 *   fromNdjson(ReadableStream.from([new TextEncoder().encode(text)]), {
 *     skipInvalid: true,
 *     maxLineBytes: 80,
 *     onInvalid: (line, reason) => invalid.push(`${line}: ${reason}`),
 *   }),
 * );
 * assert.deepEqual(entries.map((e) => e.event.id), ["sevt_1"]);
 * assert.deepEqual(invalid, [
 *   `2: Cannot parse the line as JSON: Unexpected token 'p', "password=[REDACTED_SECRET]" is not valid JSON`,
 *   "3: the line is over the 80-byte cap",
 * ]);
 * ```
 *
 * @example A recorded stream, previews and all
 * ```ts
 * import { fromNdjson } from "@brigade/transcript";
 * import assert from "node:assert/strict";
 *
 * const records = [
 *   { type: "event_start", event: { type: "agent.message", id: "sevt_2" } },
 *   { type: "event_delta", event_id: "sevt_2", delta: { type: "content_delta", content: { type: "text", text: "Hel" } } },
 *   { id: "sevt_2", type: "agent.message", processed_at: null, content: [{ type: "text", text: "Hello" }] },
 * ];
 * const text = records.map((record) => JSON.stringify(record) + "\n").join("");
 * const stream = ReadableStream.from([new TextEncoder().encode(text)]);
 * const entries = await Array.fromAsync(fromNdjson(stream));
 * assert.deepEqual(entries.map((e) => [e.seq, e.event.id]), [[3, "sevt_2"]]);
 * ```
 */
export function fromNdjson(
  input: NdjsonInput,
  options: FromNdjsonOptions = {},
): AsyncGenerator<LogEntry, void, undefined> {
  return batchedEntries(entryBatches(input, options));
}

/** {@linkcode fromNdjson}'s entries, a batch a read, each batch parsed as it is iterated. */
async function* entryBatches(
  input: NdjsonInput,
  options: FromNdjsonOptions,
): AsyncGenerator<Iterable<LogEntry>, void, undefined> {
  const maxLineBytes = checkMaxLineBytes(options.maxLineBytes ?? MAX_LINE_BYTES, "NDJSON");
  const isStream = input instanceof ReadableStream;
  const name = options.name ?? (isStream ? "stream" : pathText(input));
  const sessionId = options.sessionId ?? (isStream ? "stream" : baseName(pathText(input)));
  const stream = isStream ? input : await openFile(input, name, "file");
  const entry = (parsed: JsonLine): LogEntry | undefined =>
    toEntryOrSkip(parsed, sessionId, name, options);
  yield* jsonLineBatches(stream, {
    maxLineBytes,
    name,
    signal: options.signal,
    // A file this source opened answers BYOB reads; a stream given may not.
    byob: !isStream,
  }, entry);
}

/** A parsed line's entry; undefined for a preview, or for a bad line reported under `skipInvalid`. */
function toEntryOrSkip(
  { line, value, reason, overCap }: JsonLine,
  sessionId: string,
  name: string,
  options: FromNdjsonOptions,
): LogEntry | undefined {
  const result = reason ?? toEntry(value, line, sessionId);
  if (result === null) return undefined;
  if (typeof result !== "string") return result;
  if (!options.skipInvalid) {
    const code = overCap ? "line_too_long" : "invalid_entry";
    throw new EventSourceError(result, { code, source: name, line });
  }
  options.onInvalid?.(line, result);
  return undefined;
}

/**
 * The types of a session stream's previews (`event_start`, `event_delta`):
 * never stored, and superseded by the event they preview, which carries the
 * whole content (a preview whose request ended early has none, and its
 * request's `span.model_request_end` closes it).
 */
const PREVIEW_TYPES: ReadonlySet<string> = new Set(["event_start", "event_delta"]);

/** Whether a line's value is a stream preview, bare or in an entry. */
function isPreview(value: unknown): boolean {
  if (typeof value !== "object" || value === null) return false;
  const { type, seq, event } = value as { type?: unknown; seq?: unknown; event?: unknown };
  if (seq === undefined && typeof type === "string") return isPreviewType(type);
  const inner = (event as { type?: unknown } | null | undefined)?.type;
  return typeof inner === "string" && isPreviewType(inner);
}

/**
 * Whether a type is a preview's: both start with `e`, and no stored event's
 * does (`user.…`, `agent.…`, `session.…`, `span.…`), so most types are
 * turned down without being hashed for the set.
 */
function isPreviewType(type: string): boolean {
  return type.charCodeAt(0) === 0x65 && PREVIEW_TYPES.has(type);
}

/** One line's value as an entry, null for a preview, or why it is not an entry. */
function toEntry(value: unknown, n: number, sessionId: string): LogEntry | string | null {
  if (isPreview(value)) return null;
  const member = (value as { event?: unknown } | null)?.event;
  if (typeof member === "object" && member !== null && !Array.isArray(member)) {
    const problem = entryProblem(value);
    return problem === undefined
      ? value as LogEntry
      : `Cannot read the line as a log entry: ${problem}`;
  }
  const problem = eventProblem(value);
  if (problem !== undefined) return `Cannot read the line as an event: ${problem}`;
  return { seq: n, session_id: sessionId, thread_id: null, event: value as SessionEvent };
}
