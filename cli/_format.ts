// Copyright 2026 the brigade authors. MIT license.

/**
 * Which format a stream is, told from its first records: a log (Managed
 * Agents log entries or events) or a Claude Code transcript.
 *
 * @module
 */

import { byteLineBatches, releaseLine } from "../lines/byte_lines.ts";
import { type TopLevel, topLevel } from "./_format_scan.ts";
import { CLAUDE_CODE_TYPES } from "./_claude_code_types.ts";

/** A format an input can be read as. */
export type InputFormat = "log" | "claude-code";

/** How many non-blank lines are looked at, at most, before the format is decided. */
const PEEKED_LINES = 5;

/**
 * What one record says of its input's format: an `event` object member or a
 * dotted `type` is a log, a Claude Code record type a transcript;
 * `"unknown"` for any other JSON object, undefined for a line that is not one.
 */
export function recordFormat(line: string): InputFormat | "unknown" | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const { event, type } = value as { event?: unknown; type?: unknown };
  return formatOf({
    eventObject: typeof event === "object" && event !== null && !Array.isArray(event),
    type: typeof type === "string" ? type : undefined,
    typeHasDot: typeof type === "string" && type.includes("."),
  });
}

/** The format a record's top-level members say. */
function formatOf({ eventObject, type, typeHasDot }: TopLevel): InputFormat | "unknown" {
  if (eventObject || typeHasDot) return "log";
  if (type !== undefined && CLAUDE_CODE_TYPES.has(type)) return "claude-code";
  return "unknown";
}

/** A line longer than this is told by its top-level members' bytes, not decoded and parsed. */
const SCAN_FROM_BYTES = 64 * 1024;

/** What one line says of its input's format, as {@linkcode recordFormat}; null for a blank one. */
function lineFormat(bytes: Uint8Array): InputFormat | "unknown" | undefined | null {
  if (bytes.length > SCAN_FROM_BYTES) {
    const members = topLevel(bytes);
    return members === undefined ? undefined : formatOf(members);
  }
  const text = new TextDecoder().decode(bytes).trim();
  return text === "" ? null : recordFormat(text);
}

/** What {@linkcode peekFormat} found, and the whole stream to read from the start. */
export interface Peeked {
  /** The format; `"unknown"` when the first record is neither a log's nor a transcript's. */
  format: InputFormat | "unknown";
  /** The stream again, from its first byte: what was peeked, then the rest. */
  stream: ReadableStream<Uint8Array>;
}

/**
 * Tells the format of a stream by its first JSON object, read through the
 * shared line splitter: at most {@linkcode PEEKED_LINES} non-blank lines and
 * at most `maxLineBytes` bytes are held. Lines that are not JSON objects are
 * passed over (the source reports them); when none is found the stream is
 * read as a log, which then says what is wrong with it. An empty stream is a
 * log too (with no entries).
 */
export async function peekFormat(
  stream: ReadableStream<Uint8Array>,
  maxLineBytes: number,
): Promise<Peeked> {
  let format: InputFormat | "unknown" = "log";
  let looked = 0;
  const replayed = await peekLines(stream, maxLineBytes, (bytes) => {
    const found = lineFormat(bytes);
    if (found === null) return false;
    if (found !== undefined) {
      format = found;
      return true;
    }
    return ++looked === PEEKED_LINES;
  });
  return { format, stream: replayed };
}

/** How many records are looked at, at most, for a transcript's `sessionId`. */
const SESSION_ID_RECORDS = 16;
/** A record longer than this is passed over by {@linkcode peekSessionId}, not parsed. */
const SESSION_ID_LINE_BYTES = 64 * 1024;

/** What {@linkcode peekSessionId} found, and the whole stream to read from the start. */
export interface PeekedSessionId {
  /** The first top-level string `sessionId` of the first records; undefined when none has one. */
  sessionId: string | undefined;
  /** The stream again, from its first byte. */
  stream: ReadableStream<Uint8Array>;
}

/**
 * The session a Claude Code transcript read from a stream belongs to, told by
 * its records' own `sessionId` (a transcript from standard input or a pipe has
 * no file name to go by): the first of at most {@linkcode SESSION_ID_RECORDS}
 * records that carries one, records over {@linkcode SESSION_ID_LINE_BYTES}
 * passed over. At most `maxLineBytes` bytes are held.
 */
export async function peekSessionId(
  stream: ReadableStream<Uint8Array>,
  maxLineBytes: number,
): Promise<PeekedSessionId> {
  const look = firstStringField("sessionId", SESSION_ID_RECORDS);
  const replayed = await peekLines(stream, maxLineBytes, look.line);
  return { sessionId: look.found(), stream: replayed };
}

/**
 * Reads the first lines of a stream through the shared line splitter, each
 * given to `look` until it returns true, holding what was read (at most
 * `maxLineBytes` bytes past the last line looked at); returns the stream
 * again from its first byte.
 */
async function peekLines(
  stream: ReadableStream<Uint8Array>,
  maxLineBytes: number,
  look: (bytes: Uint8Array) => boolean,
): Promise<ReadableStream<Uint8Array>> {
  const reader = stream.getReader();
  const held: Uint8Array[] = [];
  let heldBytes = 0;
  let ended = false;
  const recording = new ReadableStream<Uint8Array>({
    async pull(controller): Promise<void> {
      if (heldBytes > maxLineBytes) return controller.close();
      const { done, value } = await reader.read();
      if (done) {
        ended = true;
        return controller.close();
      }
      held.push(value);
      heldBytes += value.length;
      controller.enqueue(value);
    },
    // The splitter cancels what it reads when it stops: the input itself stays open.
  }, { highWaterMark: 0 }); // No read ahead: a chunk read after the peek would be lost.
  const batches = byteLineBatches(recording, { maxLineBytes, name: "the input" });
  peek: for await (const batch of batches) {
    for (const line of batch) {
      if (line.bytes === undefined) break peek;
      const done = look(line.bytes);
      releaseLine(line); // a long first line's copy goes now, not when collected
      if (done) break peek;
    }
  }
  return replay(held, ended ? undefined : reader);
}

/** A stream of the chunks already read, then of what the reader still holds. */
function replay(
  held: Uint8Array[],
  reader: ReadableStreamDefaultReader<Uint8Array> | undefined,
): ReadableStream<Uint8Array> {
  let next = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller): Promise<void> {
      if (next < held.length) {
        controller.enqueue(held[next]!);
        held[next++] = new Uint8Array(0);
        return;
      }
      if (reader === undefined) return controller.close();
      const { done, value } = await reader.read();
      if (done) {
        reader.releaseLock();
        return controller.close();
      }
      controller.enqueue(value);
    },
    async cancel(reason): Promise<void> {
      await reader?.cancel(reason);
    },
  });
}

/** How many records are looked at, at most, for a transcript's `cwd`. */
const CWD_RECORDS = 64;
/** The most bytes read for a transcript's `cwd`. */
const CWD_BYTES = 4 * 1024 * 1024;

/**
 * The directory a Claude Code transcript's session ran in: the first
 * top-level string `cwd` of at most {@linkcode CWD_RECORDS} first records
 * (records over {@linkcode SESSION_ID_LINE_BYTES} passed over, at most
 * {@linkcode CWD_BYTES} read); undefined when none has one or the file cannot be
 * read (its reading reports why).
 */
export async function transcriptCwd(path: string): Promise<string | undefined> {
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path);
  } catch {
    return undefined;
  }
  const look = firstStringField("cwd", CWD_RECORDS);
  try {
    const rest = await peekLines(file.readable, CWD_BYTES, look.line);
    await rest.cancel();
  } catch {
    // A read that fails here fails again when the transcript is read, and is reported then.
    try {
      file.close();
    } catch { /* closed with its stream */ }
  }
  return look.found();
}

/**
 * Looks at a transcript's first records, a line at a time, for the first top-level non-empty
 * string `field`: `line` says when to stop (found, or `records` records looked at); records over
 * {@linkcode SESSION_ID_LINE_BYTES} and lines that are not JSON are passed over (the transcript's
 * reading reports those).
 */
function firstStringField(
  field: string,
  records: number,
): { line: (bytes: Uint8Array) => boolean; found: () => string | undefined } {
  let value: string | undefined;
  let looked = 0;
  const line = (bytes: Uint8Array): boolean => {
    if (bytes.length <= SESSION_ID_LINE_BYTES) {
      const text = new TextDecoder().decode(bytes).trim();
      if (text === "") return false;
      try {
        const found = (JSON.parse(text) as Record<string, unknown> | null)?.[field];
        if (typeof found === "string" && found !== "") value = found;
      } catch {
        // Not a record: the transcript's reading reports it.
      }
    }
    return value !== undefined || ++looked === records;
  };
  return { line, found: () => value };
}
