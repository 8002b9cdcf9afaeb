// Copyright 2026 the brigade authors. MIT license.

import { EventSourceError } from "./errors.ts";
import { baseName, openFile, pathText } from "./_file_source.ts";
import type { LogEntry, SessionEvent } from "./types.ts";
import { entryProblem, eventProblem } from "./_validate.ts";

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
   * Called with the 1-based line number and the reason for each line skipped
   * under `skipInvalid`.
   *
   * @default {undefined}
   */
  onInvalid?: (line: number, reason: string) => void;
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
 * Blank lines, CRLF line ends and a leading byte order mark are accepted.
 *
 * The file is opened when iteration starts, read a chunk at a time, and
 * closed when the iteration ends, however it ends. Reading a path needs Deno
 * (`--allow-read`); a stream works on any runtime.
 *
 * @param input A path, a `file:` URL, or a stream of UTF-8 bytes.
 * @param options Options.
 * @returns A lazy event source.
 * @throws {EventSourceError} When the file cannot be opened, or a line is not
 * JSON, not an object, or not a valid entry (unless `skipInvalid`); the error
 * names the input and the line.
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
 */
export async function* fromNdjson(
  input: NdjsonInput,
  options: FromNdjsonOptions = {},
): AsyncGenerator<LogEntry, void, undefined> {
  const isStream = input instanceof ReadableStream;
  const name = options.name ?? (isStream ? "stream" : pathText(input));
  const sessionId = options.sessionId ?? (isStream ? "stream" : baseName(pathText(input)));
  const stream = isStream ? input : await openFile(input, name, "file");
  const parse = lineParser({ ...options, name, sessionId });
  let lineNumber = 0;
  for await (const batch of lineBatches(stream, name, options.signal)) {
    for (const line of batch) {
      const entry = parse(line, ++lineNumber);
      if (entry !== undefined) yield entry;
    }
  }
}

/**
 * Splits a byte stream into text lines (without their `\n`), decoding UTF-8
 * leniently; one batch per chunk read, so a line costs no await of its own.
 * The stream is cancelled, closing a file behind it, when the consumer stops
 * early.
 */
async function* lineBatches(
  stream: ReadableStream<Uint8Array>,
  name: string,
  signal: AbortSignal | undefined,
): AsyncGenerator<string[], void, undefined> {
  const decoder = new TextDecoder();
  const reader = stream.getReader();
  let rest = "";
  try {
    while (true) {
      signal?.throwIfAborted();
      const { done, value } = await reader.read().catch((error: unknown) => {
        throw new EventSourceError(`Cannot read the input: ${(error as Error)?.message}`, {
          source: name,
          cause: error,
        });
      });
      if (done) break;
      const text = rest + decoder.decode(value, { stream: true });
      const batch: string[] = [];
      let start = 0;
      for (let end = text.indexOf("\n"); end !== -1; end = text.indexOf("\n", start)) {
        batch.push(text.slice(start, end));
        start = end + 1;
      }
      rest = text.slice(start);
      if (batch.length > 0) yield batch;
    }
    rest += decoder.decode();
    if (rest !== "") yield [rest];
  } finally {
    await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}

type ParseOptions = FromNdjsonOptions & { name: string; sessionId: string };

/** Turns one line into an entry, undefined for a blank or skipped line. */
function lineParser(options: ParseOptions): (line: string, n: number) => LogEntry | undefined {
  return (line, n) => {
    const text = line.endsWith("\r") ? line.slice(0, -1) : line;
    if (text.trim() === "") return undefined;
    const result = toEntry(text, n, options.sessionId);
    if (typeof result !== "string") return result;
    if (!options.skipInvalid) {
      throw new EventSourceError(result, { source: options.name, line: n });
    }
    options.onInvalid?.(n, result);
    return undefined;
  };
}

/** Parses one non-blank line: the entry, or why it is not one. */
function toEntry(text: string, n: number, sessionId: string): LogEntry | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return `Cannot parse the line as JSON: ${(error as SyntaxError).message}`;
  }
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
