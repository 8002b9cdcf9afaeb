// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

/** One line of a byte stream: its bytes, or how long it was when over the cap. */
export type ByteLine =
  | { line: number; bytes: Uint8Array; over?: undefined }
  | { line: number; bytes?: undefined; over: number };

const NEWLINE = 0x0a;

/**
 * Splits a byte stream into lines (without their `\n`), numbered from 1. A
 * line longer than `maxLineBytes` is never held: its bytes are dropped as
 * soon as it passes the cap and only its length is counted, then it is
 * reported with `over` set to that length. A final line without a newline is
 * yielded too. The reader is cancelled (closing a file behind it) however the
 * iteration ends.
 *
 * @param stream The bytes.
 * @param maxLineBytes The longest line kept, in bytes.
 * @param signal Stops the splitting with the signal's reason when aborted.
 * @returns The lines.
 */
export async function* byteLines(
  stream: ReadableStream<Uint8Array>,
  maxLineBytes: number,
  signal?: AbortSignal,
): AsyncGenerator<ByteLine, void, undefined> {
  const reader = stream.getReader();
  let parts: Uint8Array[] = [];
  let length = 0;
  let lineNumber = 0;
  const finish = (): ByteLine => {
    const line = ++lineNumber;
    const result: ByteLine = length > maxLineBytes
      ? { line, over: length }
      : { line, bytes: concat(parts, length) };
    parts = [];
    length = 0;
    return result;
  };
  const add = (segment: Uint8Array): void => {
    length += segment.length;
    if (length > maxLineBytes) parts = [];
    else if (segment.length > 0) parts.push(segment.slice());
  };
  try {
    while (true) {
      signal?.throwIfAborted();
      const { done, value } = await reader.read();
      if (done) break;
      let start = 0;
      for (let end = value.indexOf(NEWLINE); end !== -1; end = value.indexOf(NEWLINE, start)) {
        add(value.subarray(start, end));
        yield finish();
        start = end + 1;
      }
      add(value.subarray(start));
    }
    signal?.throwIfAborted();
    if (length > 0) yield finish();
  } finally {
    await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}

function concat(parts: Uint8Array[], length: number): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const bytes = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    bytes.set(part, offset);
    offset += part.length;
  }
  return bytes;
}
