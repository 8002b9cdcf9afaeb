// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

import { EventSourceError } from "../events/errors.ts";
import { excerpt } from "../redact/excerpt.ts";
import { MAX_LINE_BYTES } from "./max_line_bytes.ts";

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
  /**
   * Reads a byte stream with a BYOB reader, into one buffer used again for
   * every read: only for a stream known to answer BYOB requests, closing
   * included (a Deno file's), as a byte source written for default readers
   * alone may never answer a read pending when it closes.
   */
  byob?: boolean | undefined;
}

const NEWLINE = 0x0a;

/**
 * Splits a byte stream into lines (without their `\n`), numbered from 1, one
 * batch per chunk read, so a line costs no await of its own. Linear in the
 * input: a line split over many chunks is gathered as it comes, in one buffer
 * that doubles (or, past 1 MiB, grows in place).
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
  for await (const lines of lazyLineBatches(stream, options)) {
    const batch = [...lines];
    if (batch.length > 0) yield batch;
  }
}

/**
 * What a lazy split makes of each line: given its number and its bytes (a view
 * of the chunk read, or with `copied` the splitter's own copy; undefined for
 * a line over the cap), a value, or undefined for none.
 */
export type LineMapper<T> = (line: number, bytes: Uint8Array | undefined, copied: boolean) =>
  | T
  | undefined;

/** A line as {@linkcode byteLineBatches} gives it. */
const asByteLine: LineMapper<ByteLine> = (line, bytes, copied) =>
  bytes === undefined
    ? { line, overCap: true }
    : copied
    ? { line, bytes, copied: true }
    : { line, bytes };

/**
 * {@linkcode byteLineBatches}, each batch split as it is iterated, a line at a
 * time, and each line handed to `each` (which may parse it) as it is split: a
 * chunk's lines are never all made at once. A process reading many inputs at
 * once (a hundred dreams, each a line at a time in turn) would otherwise hold
 * every input's batch of line objects and views from its read to its last
 * line, long enough for the garbage collector to move them all to its old
 * generation.
 *
 * A batch is iterated before the next is asked for (a batch left part-way is
 * split to its end when the next is, its lines dropped unseen by `each`); a
 * batch may be empty. `each` may throw: the iteration of the batch throws.
 *
 * @param stream The bytes.
 * @param options The cap, the input's name and the signal.
 * @param each What to make of each line (by default, a {@linkcode ByteLine}).
 * @returns The batches of what `each` made, each split as it is iterated.
 */
export async function* lazyLineBatches<T = ByteLine>(
  stream: ReadableStream<Uint8Array>,
  options: ByteLinesOptions,
  each: LineMapper<T> = asByteLine as unknown as LineMapper<T>,
): AsyncGenerator<Iterable<T>, void, undefined> {
  const { signal } = options;
  const reader = chunkReader(stream, options.byob === true);
  let dropping = false;
  const mapped: LineMapper<T> = (line, bytes, copied) => {
    if (!dropping) return each(line, bytes, copied);
    if (copied) detach(bytes!);
    return undefined;
  };
  const splitter = new LineSplitter<T>(options.maxLineBytes, mapped);
  let current: Generator<T, void, undefined> | undefined;
  try {
    while (true) {
      // The batch before is split to its end before its chunk's buffer is read into again.
      if (current !== undefined) {
        dropping = true;
        for (const _ of current);
        dropping = false;
      }
      signal?.throwIfAborted();
      const { done, value } = await reader.read().catch((error: unknown) => {
        throw new EventSourceError(`Cannot read the input: ${excerpt(String(error))}`, {
          code: "unreadable",
          source: options.name,
          cause: error,
        });
      });
      if (done) break;
      const lines = splitter.lines(value);
      current = lines;
      // Without a `return`, a loop that leaves the batch does not end its split part-way.
      yield { [Symbol.iterator]: () => ({ next: () => lines.next() }) };
    }
    signal?.throwIfAborted();
    const last = splitter.last();
    if (last !== undefined) yield [last];
  } finally {
    await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
}

/** The state of a split carried from one chunk to the next: the line being gathered. */
class LineSplitter<T> {
  #max: number;
  #each: LineMapper<T>;
  #gathered: LineBuffer;
  /** The bytes of the line so far (also those dropped when it is over the cap). */
  #length = 0;
  #skipping = false;
  #lineNumber = 0;

  constructor(max: number, each: LineMapper<T>) {
    this.#max = max;
    this.#each = each;
    this.#gathered = new LineBuffer(max);
  }

  /** What `each` makes of the lines a chunk ends; the start of the next line is gathered. */
  *lines(value: Uint8Array): Generator<T, void, undefined> {
    const gathered = this.#gathered;
    const each = this.#each;
    let start = 0;
    while (start <= value.length) {
      const newline = value.indexOf(NEWLINE, start);
      const end = newline === -1 ? value.length : newline;
      let made: T | undefined;
      if (!this.#skipping) {
        const size = end - start;
        if (this.#length + size > this.#max) {
          this.#skipping = true;
          gathered.drop();
          made = each(this.#lineNumber + 1, undefined, false);
        } else if (newline !== -1 && gathered.length === 0) {
          made = each(this.#lineNumber + 1, value.subarray(start, end), false);
        } else if (size > 0) {
          gathered.append(value.subarray(start, end));
        }
        this.#length += size;
      }
      if (newline !== -1) {
        if (!this.#skipping && gathered.length > 0) {
          made = each(this.#lineNumber + 1, gathered.take(), true);
        }
        this.#lineNumber++;
        this.#length = 0;
        this.#skipping = false;
        start = newline + 1;
      }
      // The state is brought up to date first: a loop that stops here leaves it whole.
      if (made !== undefined) yield made;
      if (newline === -1) break;
    }
  }

  /** What `each` makes of the final line, when the input does not end with a newline. */
  last(): T | undefined {
    if (this.#length === 0 || this.#skipping) return undefined;
    return this.#each(this.#lineNumber + 1, this.#gathered.take(), true);
  }
}

/** The size of a read from a byte stream: that of a Deno file's own chunks. */
const CHUNK_BYTES = 64 * 1024;

/**
 * The most bytes the read buffers of every file read through BYOB hold at
 * once in a process, whatever how many are open: a source reads 64 KiB at a
 * time while 64 or fewer are open, and its reads shrink (to no less than
 * {@linkcode MIN_CHUNK_BYTES}) as more are, so a hundred dreams at once hold
 * 6.25 MiB of read buffers, not 12.5 MiB. One source alone reads as before.
 */
const READ_BUFFERS_BUDGET: number = 8 * 1024 * 1024;

/** The smallest read of a file read through BYOB, however many are open. */
const MIN_CHUNK_BYTES = 8 * 1024;

/** How many readers of {@linkcode chunkReader} read through BYOB now, each into two buffers. */
let openByobReaders = 0;

/**
 * The size of the next read of a BYOB reader, given how many are open: its
 * share of {@linkcode READ_BUFFERS_BUDGET} (two buffers each), down to a
 * power of two, between {@linkcode MIN_CHUNK_BYTES} and {@linkcode CHUNK_BYTES}.
 */
function chunkBytes(): number {
  const share = READ_BUFFERS_BUDGET / (2 * Math.max(1, openByobReaders));
  let size = CHUNK_BYTES;
  while (size > MIN_CHUNK_BYTES && size > share) size >>= 1;
  return size;
}

/** `buffer` if it is the size the next read takes, else a buffer of that size (`buffer` freed). */
function sized(buffer: ArrayBuffer): ArrayBuffer {
  const size = chunkBytes();
  if (buffer.byteLength === size) return buffer;
  // Freed now, not when collected: its bytes are the caller's no longer (its batch is split).
  buffer.transfer?.(0);
  return new ArrayBuffer(size);
}

/** What {@linkcode byteLineBatches} reads through. */
interface ChunkReader {
  read(): Promise<ReadableStreamReadResult<Uint8Array>>;
  cancel(): Promise<void>;
  releaseLock(): void;
}

/**
 * A reader of the stream's chunks. With `byob`, a byte stream (a Deno file's)
 * is read into two buffers in turn, used again for every read, where its
 * default reader would allocate a chunk a read: a long line would leave as
 * many chunks again behind it for the garbage collector. The next chunk is
 * asked for as soon as one is given, so a file is read while its lines are
 * parsed. The buffers are 64 KiB, or smaller when many such readers are
 * open at once in the process ({@linkcode READ_BUFFERS_BUDGET}), each read
 * taking the size that fits how many are open then. Any other stream is read
 * as it comes, never ahead (a caller may pull a stream of its own only so far).
 */
function chunkReader(stream: ReadableStream<Uint8Array>, useByob: boolean): ChunkReader {
  if (!useByob) return stream.getReader();
  let byob: ReadableStreamBYOBReader;
  try {
    byob = stream.getReader({ mode: "byob" });
  } catch {
    return stream.getReader();
  }
  openByobReaders++;
  let open = true;
  // Two buffers, read into in turn: the next chunk is read into one while the caller splits the
  // other (the one read last), so the input is read while its lines are parsed.
  let free = new ArrayBuffer(chunkBytes());
  let ahead = readInto(byob, new ArrayBuffer(chunkBytes()));
  return {
    async read(): Promise<ReadableStreamReadResult<Uint8Array>> {
      const result = await ahead;
      if (result.done) return result;
      ahead = readInto(byob, sized(free));
      free = result.value.buffer as ArrayBuffer;
      return result;
    },
    cancel: (): Promise<void> => byob.cancel(),
    releaseLock: (): void => {
      if (open) openByobReaders--;
      open = false;
      byob.releaseLock();
    },
  };
}

/** A read into `buffer`, its failure left to whoever awaits it (none if the reading stops first). */
function readInto(
  reader: ReadableStreamBYOBReader,
  buffer: ArrayBuffer,
): Promise<ReadableStreamReadResult<Uint8Array>> {
  const read = reader.read(new Uint8Array(buffer));
  read.catch(() => {});
  return read;
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

/** A line gathered up to this size is copied as it grows; a longer one grows in place. */
const GROW_IN_PLACE_FROM = 1 << 20;
/** The most address space a line growing in place reserves at first. */
const RESERVED_BYTES = 1 << 30;

/**
 * The bytes of a line read over several chunks, gathered in one buffer as
 * they come, so a long line is never held twice (as its parts and joined).
 * A short one is copied to a buffer twice as large as it grows; past 1 MiB it
 * moves once to a buffer that grows in place (a resizable `ArrayBuffer`, whose
 * memory is taken as it is written): growing it copies nothing.
 */
class LineBuffer {
  #cap: number;
  #buffer = new ArrayBuffer(0);
  #length = 0;

  constructor(cap: number) {
    this.#cap = cap;
  }

  /** The bytes gathered. */
  get length(): number {
    return this.#length;
  }

  /** Adds `segment`; the caller keeps the line within the cap. */
  append(segment: Uint8Array): void {
    const needed = this.#length + segment.length;
    if (needed > this.#buffer.byteLength) this.#grow(needed);
    new Uint8Array(this.#buffer, this.#length, segment.length).set(segment);
    this.#length = needed;
  }

  /** The line gathered, handed over (the caller frees it, see {@linkcode releaseLine}); empty again. */
  take(): Uint8Array {
    const bytes = new Uint8Array(this.#buffer, 0, this.#length);
    this.#buffer = new ArrayBuffer(0);
    this.#length = 0;
    return bytes;
  }

  /** Frees the bytes gathered at once; empty again. */
  drop(): void {
    this.#buffer.transfer?.(0);
    this.#buffer = new ArrayBuffer(0);
    this.#length = 0;
  }

  #grow(needed: number): void {
    const old = this.#buffer;
    const size = Math.min(this.#cap, Math.max(needed, 2 * old.byteLength, 256));
    if (old.resizable && size <= old.maxByteLength) return old.resize(size);
    const next = size < GROW_IN_PLACE_FROM ? new ArrayBuffer(size) : growable(size, this.#cap);
    new Uint8Array(next).set(new Uint8Array(old, 0, this.#length));
    old.transfer?.(0);
    this.#buffer = next;
  }
}

/**
 * A buffer of `size` bytes that may grow in place up to the cap (or 1 GiB
 * first): a fixed one where the runtime has no resizable buffers or cannot
 * reserve the space.
 */
function growable(size: number, cap: number): ArrayBuffer {
  try {
    return new ArrayBuffer(size, { maxByteLength: Math.max(size, Math.min(cap, RESERVED_BYTES)) });
  } catch {
    return new ArrayBuffer(size);
  }
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
