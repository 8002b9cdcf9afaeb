// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

import { EventSourceError } from "./errors.ts";
import { excerpt } from "./_excerpt.ts";
import { MAX_LINE_BYTES } from "./_max_line_bytes.ts";

export { MAX_LINE_BYTES };

/**
 * One line of a byte stream: its bytes, or the mark that it passed the cap.
 * `copied` says the bytes are the splitter's own copy (a line gathered over
 * chunks), not a view of a chunk read: {@linkcode releaseLine} may free them.
 */
export type ByteLine =
  | { line: number; bytes: Uint8Array; copied?: true; overCap?: undefined }
  | { line: number; bytes?: undefined; copied?: undefined; overCap: true };

/** How {@linkcode byteLineBatches} reads. */
export interface ByteLinesOptions {
  /** The longest line kept, in bytes. */
  maxLineBytes: number;
  /** The input's name, for the error a failed read becomes. */
  name: string;
  /** Stops the splitting with the signal's reason when aborted. */
  signal?: AbortSignal | undefined;
}

const NEWLINE = 0x0a;

/**
 * Splits a byte stream into lines (without their `\n`), numbered from 1, one
 * batch per chunk read, so a line costs no await of its own. Linear in the
 * input: a line split over many chunks is gathered once, at its end.
 *
 * A line longer than `maxLineBytes` is never held: it is reported once, with
 * `overCap`, as soon as it passes the cap (so a caller that stops there reads
 * no further), and its remaining bytes are dropped up to its newline. A final
 * line without a newline is yielded too. A failed read is an
 * {@linkcode EventSourceError} naming the input. The reader is cancelled
 * (closing a file behind it) however the iteration ends.
 *
 * A batch's `bytes` may be views of the chunk just read: use them before
 * asking for the next batch.
 *
 * @param stream The bytes.
 * @param options The cap, the input's name and the signal.
 * @returns The batches of lines.
 */
export async function* byteLineBatches(
  stream: ReadableStream<Uint8Array>,
  options: ByteLinesOptions,
): AsyncGenerator<ByteLine[], void, undefined> {
  const { maxLineBytes, signal } = options;
  const reader = chunkReader(stream);
  let parts: Uint8Array<ArrayBuffer>[] = [];
  let length = 0;
  let skipping = false;
  let lineNumber = 0;
  try {
    while (true) {
      signal?.throwIfAborted();
      const { done, value } = await reader.read().catch((error: unknown) => {
        throw new EventSourceError(`Cannot read the input: ${excerpt(String(error))}`, {
          source: options.name,
          cause: error,
        });
      });
      if (done) break;
      const batch: ByteLine[] = [];
      let start = 0;
      while (start <= value.length) {
        const newline = value.indexOf(NEWLINE, start);
        const end = newline === -1 ? value.length : newline;
        if (!skipping) {
          const segment = value.subarray(start, end);
          if (length + segment.length > maxLineBytes) {
            batch.push({ line: lineNumber + 1, overCap: true });
            skipping = true;
            parts.forEach(detach);
            parts = [];
          } else if (newline !== -1 && parts.length === 0) {
            batch.push({ line: lineNumber + 1, bytes: segment });
          } else if (segment.length > 0) {
            parts.push(segment.slice());
          }
          length += segment.length;
        }
        if (newline === -1) break;
        if (!skipping && parts.length > 0) {
          batch.push({ line: lineNumber + 1, bytes: concat(parts, length), copied: true });
        }
        lineNumber++;
        parts = [];
        length = 0;
        skipping = false;
        start = newline + 1;
      }
      if (batch.length > 0) yield batch;
    }
    signal?.throwIfAborted();
    if (length > 0 && !skipping) {
      yield [{ line: lineNumber + 1, bytes: concat(parts, length), copied: true }];
    }
  } finally {
    await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}

/** The size of a read from a byte stream: that of a Deno file's own chunks. */
const CHUNK_BYTES = 64 * 1024;

/** What {@linkcode byteLineBatches} reads through. */
interface ChunkReader {
  read(): Promise<ReadableStreamReadResult<Uint8Array>>;
  cancel(): Promise<void>;
  releaseLock(): void;
}

/**
 * A reader of the stream's chunks. A byte stream (a file, standard input, a
 * response body) is read into one buffer, used again for every read, where
 * its default reader would allocate a chunk a read: a long line would leave
 * as many chunks again behind it for the garbage collector. Any other stream
 * is read as it comes.
 */
function chunkReader(stream: ReadableStream<Uint8Array>): ChunkReader {
  let byob: ReadableStreamBYOBReader;
  try {
    byob = stream.getReader({ mode: "byob" });
  } catch {
    return stream.getReader();
  }
  let buffer = new ArrayBuffer(CHUNK_BYTES);
  return {
    async read(): Promise<ReadableStreamReadResult<Uint8Array>> {
      const result = await byob.read(new Uint8Array(buffer));
      if (result.value !== undefined) buffer = result.value.buffer;
      return result;
    },
    cancel: (): Promise<void> => byob.cancel(),
    releaseLock: (): void => byob.releaseLock(),
  };
}

/**
 * Frees a line's bytes at once when they are the splitter's own copy, so a
 * long line's bytes are not left to the garbage collector while its text and
 * its value are made (each as large again). A view of a chunk read is left
 * alone: the chunk is the stream's. The bytes are empty afterwards.
 *
 * @param line A line the splitter gave, once its bytes are used.
 */
export function releaseLine(line: ByteLine): void {
  if (line.copied) detach(line.bytes);
}

/** The parts joined; the parts (the splitter's own copies) are freed as soon as they are copied. */
function concat(parts: Uint8Array<ArrayBuffer>[], length: number): Uint8Array<ArrayBuffer> {
  if (parts.length === 1) return parts[0]!;
  const bytes = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    bytes.set(part, offset);
    offset += part.length;
    detach(part);
  }
  return bytes;
}

/**
 * Frees the memory behind bytes no one else holds: a detached buffer's memory
 * goes at once, where a dropped one waits for a full garbage collection (a
 * long line's parts and its joined copy would otherwise pile up). A runtime
 * without `ArrayBuffer.prototype.transfer` leaves them to the collector.
 */
function detach(bytes: Uint8Array): void {
  (bytes.buffer as ArrayBuffer).transfer?.(0);
}
