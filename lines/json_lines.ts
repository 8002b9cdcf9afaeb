// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

import {
  type ByteLinesOptions,
  lazyLineBatches,
  type LineMapper,
  releaseLine,
} from "./byte_lines.ts";
import { excerpt } from "../redact/excerpt.ts";

/**
 * One non-blank line of a JSON-lines input: its value, or why it has none
 * (`overCap` when the reason is that it passed the cap, else it is not JSON).
 */
export type JsonLine =
  | { line: number; value: unknown; reason?: undefined; overCap?: undefined }
  | { line: number; value?: undefined; reason: string; overCap?: true };

/**
 * The non-blank lines of a byte stream parsed as JSON, one batch per chunk
 * read. Each line is decoded as UTF-8 on its own (invalid bytes become
 * U+FFFD, a leading byte order mark and a trailing `\r` go). A line that is
 * not JSON or is over the cap comes with a reason instead of a value; a
 * reason quotes the input only through {@linkcode excerpt} (redacted, cut,
 * control characters visible).
 *
 * A batch is parsed as it is iterated, a line at a time, and must be iterated
 * before the next batch is asked for (its lines may be views of the chunk
 * read): a chunk's values are never all alive at once, so a process reading
 * many inputs at a time (a hundred dreams) holds one value each, not a
 * chunk's worth, and the garbage collector's young generation is not
 * outlived by every chunk's values.
 *
 * @param stream The bytes.
 * @param options The cap, the input's name and the signal.
 * @param then What to make of each parsed line, as it is parsed (undefined: nothing, the line
 * is skipped); by default the line itself.
 * @returns The batches of parsed lines (or of what `then` made of them).
 */
export function jsonLineBatches<T = JsonLine>(
  stream: ReadableStream<Uint8Array>,
  options: ByteLinesOptions,
  then?: (line: JsonLine) => T | undefined,
): AsyncGenerator<Iterable<T>, void, undefined> {
  const decoder = new TextDecoder();
  const max = options.maxLineBytes;
  // Each line parsed as the split reaches it, and handed on at once: no batch of lines, and no
  // generator between the split and the caller's own use of the value.
  const each: LineMapper<T> = then === undefined
    ? (line, bytes, copied) => parseLine(line, bytes, copied, decoder, max) as T | undefined
    : (line, bytes, copied) => {
      const parsed = parseLine(line, bytes, copied, decoder, max);
      return parsed === undefined ? undefined : then(parsed);
    };
  return lazyLineBatches(stream, options, each);
}

/**
 * One line parsed, or undefined for a blank one. Its bytes are freed once
 * decoded and its text is let go when this returns, so of a long line only the
 * value outlives the parse (and is what the caller holds while it uses it).
 */
function parseLine(
  line: number,
  bytes: Uint8Array | undefined,
  copied: boolean,
  decoder: TextDecoder,
  maxLineBytes: number,
): JsonLine | undefined {
  if (bytes === undefined) {
    return { line, reason: `the line is over the ${maxLineBytes}-byte cap`, overCap: true };
  }
  let text = decoder.decode(bytes);
  // A long line's copy goes now, not when collected (a view of a chunk read is the stream's).
  if (copied) releaseLine({ line, bytes, copied: true });
  if (text.endsWith("\r")) text = text.slice(0, -1);
  if (isBlank(text)) return undefined;
  try {
    return { line, value: JSON.parse(text) };
  } catch (error) {
    if (SSE_FIELD.test(text)) {
      return {
        line,
        reason: "Cannot parse the line as JSON: it is a line of a server-sent event stream " +
          "(text/event-stream: `event:` and `data:` lines), not NDJSON; to read a recorded " +
          "stream, keep the JSON after each `data: `, one a line",
      };
    }
    return { line, reason: `Cannot parse the line as JSON: ${parseProblem(error, text)}` };
  }
}

/** The start of a line of a server-sent event stream: a field the format names, or a comment. */
const SSE_FIELD = /^(?:(?:event|data|id|retry):|:)/;

/** V8's quote of a line it cannot parse: its first characters, cut before anything could redact them. */
const V8_QUOTE = /, "[^]*"(?:\.\.\.)? is not valid JSON$/;

/**
 * Why `JSON.parse` refused a line, safe to show: where the runtime quotes the
 * line itself (ten characters, which may be the start of a key), the quote is
 * replaced by an excerpt of the line redacted before it is cut.
 */
function parseProblem(error: unknown, text: string): string {
  const message = String((error as Error)?.message);
  const quoted = V8_QUOTE.test(message)
    ? message.replace(V8_QUOTE, `, "${excerpt(text, { maxCodePoints: 40 })}" is not valid JSON`)
    : message;
  return excerpt(quoted, { maxCodePoints: 120 });
}

/** Whether a line holds only whitespace, without copying a long one. */
function isBlank(text: string): boolean {
  const first = text.charCodeAt(0);
  if (text.length > 0 && first !== 0x20 && first !== 0x09 && first !== 0x0d) return false;
  return text.trim() === "";
}

/** Checks a `maxLineBytes` option: a positive safe integer. */
export function checkMaxLineBytes(value: number, what: string): number {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new RangeError(
      `Cannot read ${what} as maxLineBytes must be a positive integer: current value is ${value}`,
    );
  }
  return value;
}
