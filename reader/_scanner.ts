// Copyright 2026 the brigade authors. MIT license.

/**
 * The incremental line scanner: reads what was appended since the last scan into one reused
 * buffer, splits it into complete lines, and folds the candidate lines into the facts.
 *
 * The buffer holds a run of complete lines plus the start of the next one. A run is folded as
 * one batch, walked backwards from its last candidate (see `_facts.ts`), so a batch usually
 * costs the prefilter plus one or two `JSON.parse` calls whatever its size. A line that does
 * not fit in the buffer is searched piece by piece and never held whole: if it may matter and
 * is within the cap, it is read again alone once its newline arrives; a line over the cap is
 * skipped whole. A final line without its newline is left for a later scan (the state of a
 * long one is kept, so its bytes are not searched twice).
 *
 * @module
 */

import { decodeLine } from "./_decode.ts";
import { BatchSummary, classifyRecord, type FactsState } from "./_facts.ts";
import {
  ByteText,
  collectCompactions,
  collectSpecialLines,
  lastAssistant,
  latin1,
  LineFlags,
  loadLatin1,
  type Text,
  textOf,
} from "./_prefilter.ts";
import { lendBuffer, returnBuffer } from "./_pair_search.ts";

/** The read buffer's size: large enough to amortise a read, small enough to never matter. */
export const READ_BUFFER_BYTES = 1 << 20;

/**
 * How many bytes a scan given an abort signal reads between two turns of the event loop it
 * gives timers. Reads through the thread pool complete one after another without letting
 * timers run (an `AbortSignal.timeout` went unfired through a whole 64 MiB first refresh, now
 * and then), so a long scan waits for a timer's turn every so often: a dozen turns on 200 MB.
 * A scan without a signal has no timer of its own to let fire and takes no turn: the first
 * `setTimeout` of a process makes Deno load its timers, about 2.5 MB of a status line's peak
 * RSS (other timers of the process still run between its reads: a 5 ms interval ticked on
 * through a first refresh of 200 MB without turns).
 */
const TURN_BYTES = 16 << 20;

/** Resolves at the event loop's next timer turn, after the timers already due. */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * The key of a hidden {@linkcode TranscriptReader} option that sets the read buffer's size,
 * so that tests can drive lines longer than the buffer with small files.
 * `TranscriptReader` is in `mod.ts`.
 */
export const READ_BUFFER_BYTES_OPTION: unique symbol = Symbol("readBufferBytes");

/**
 * From how many bytes to read a scan searches Latin-1 strings (see `loadLatin1`): below
 * it, a scan does not pay for loading them, and searches the bytes themselves (a `ByteText`).
 * In a fresh Deno process, importing `node:buffer` loads about 25 of Deno's Node modules, some
 * 8 ms or more, while a Latin-1 string is then fast to make and search: so a status line's first
 * read of a transcript of 8 MiB or more loads it, and its first read of a smaller one, and its
 * reads of what was appended since, do not (a first call at 1.6 MB took about 0.8× the time it
 * took with this at 1 MiB, `bench/reader_statusline.ts`, when the small reads were decoded as
 * UTF-8 text, about 3 ms a MB in a fresh process; searching their bytes saves the status line's
 * first refresh at 1.6 MB 1–2 ms of CPU more).
 */
export const LATIN1_SCAN_BYTES = 8 << 20;

/** The key of a hidden option that sets {@linkcode LATIN1_SCAN_BYTES}, for tests. */
export const LATIN1_SCAN_BYTES_OPTION: unique symbol = Symbol("latin1ScanBytes");

/** Reads a file by position; returns the bytes read, 0 at its end. */
export interface ReadAt {
  /** Reads into `into` from `position`. */
  readAt(into: Uint8Array, position: number): Promise<number>;
}

/**
 * Read buffers not in use, shared by every scanner: a refresh takes one and gives it back,
 * so a watcher holding many readers holds no buffer per reader, and buffers are reused.
 */
const SPARE_BUFFERS: Uint8Array[] = [];
const MAX_SPARE_BUFFERS = 4;

function takeBuffer(size: number): Uint8Array {
  const at = SPARE_BUFFERS.findIndex((buffer) => buffer.length === size);
  return at === -1 ? new Uint8Array(size) : SPARE_BUFFERS.splice(at, 1)[0]!;
}

function giveBack(buffer: Uint8Array): void {
  if (returnBuffer(buffer)) return;
  if (SPARE_BUFFERS.length < MAX_SPARE_BUFFERS) SPARE_BUFFERS.push(buffer);
}

/** Whether `signal` was aborted (a function, so that the compiler does not narrow it). */
function isAborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}

/**
 * Reads into `buffer` from `at` up to its end or the file's `size`, from file position
 * `position`.
 */
function readInto(
  file: ReadAt,
  buffer: Uint8Array,
  at: number,
  position: number,
  size: number,
): Promise<number> {
  const want = Math.min(buffer.length - at, size - position);
  return file.readAt(buffer.subarray(at, at + want), position);
}

/**
 * How far back from the end of a read its last newline is looked for backwards: a backward
 * search goes a byte at a time, a forward one jumps from newline to newline.
 */
const NEAR_END = 1 << 14;

/**
 * The first newline of `buffer[0, fill)`, or -1: searched in `whole`, its Latin-1 string, if
 * there is one (which goes on past `fill` with an earlier read's bytes).
 */
function firstNewline(buffer: Uint8Array, whole: string | null, fill: number): number {
  if (whole === null) return buffer.subarray(0, fill).indexOf(NEWLINE);
  const at = whole.indexOf("\n");
  return at < fill ? at : -1;
}

/** The last newline of `buffer[start, fill)`, or -1; `whole` as for {@linkcode firstNewline}. */
function lastNewline(
  buffer: Uint8Array,
  whole: string | null,
  start: number,
  fill: number,
): number {
  if (whole === null) {
    const at = buffer.lastIndexOf(NEWLINE, fill - 1);
    return at >= start ? at : -1;
  }
  const near = Math.max(start, fill - NEAR_END);
  const at = whole.slice(near, fill).lastIndexOf("\n");
  if (at !== -1) return near + at;
  // The last line is long: newline by newline up to it, from the start.
  let last = -1;
  for (
    let at = whole.indexOf("\n", start);
    at !== -1 && at < near;
    at = whole.indexOf("\n", at + 1)
  ) {
    last = at;
  }
  return last;
}

/**
 * The text of `buffer[0, end)` for a long line's flags: a slice of `whole` where there is
 * one (every literal searched is ASCII, found alike in Latin-1 and in UTF-8 text), else
 * decoded.
 */
function pieceOf(buffer: Uint8Array, whole: string | null, end: number): string {
  return whole === null ? textOf(buffer, 0, end) : whole.slice(0, end);
}

/** Where a scan is: its buffer, the file position of the buffer's first byte, its bytes. */
interface Cursor {
  readonly buffer: Uint8Array;
  start: number;
  fill: number;
}

/** A line longer than the read buffer, searched so far. */
interface LongLine {
  /** Bytes of it seen so far, from its start (the scanner's offset). */
  seen: number;
  /** What those bytes held. */
  flags: LineFlags;
}

const NEWLINE = 10;

/** Scans one transcript file incrementally. */
export class LineScanner {
  readonly #maxLineBytes: number;
  readonly #bufferBytes: number;
  readonly #latin1Bytes: number;
  readonly #summary = new BatchSummary();
  readonly #special: number[] = [];
  readonly #compactions: number[] = [];
  /** The file position of the first line not yet consumed. */
  #offset = 0;
  #long: LongLine | null = null;

  /**
   * @param maxLineBytes The longest line read; a longer one is skipped whole.
   * @param bufferBytes The read buffer's size (capped at `maxLineBytes + 1`).
   * @param latin1Bytes From how many bytes to read a scan searches Latin-1 strings.
   */
  constructor(
    maxLineBytes: number,
    bufferBytes: number = READ_BUFFER_BYTES,
    latin1Bytes: number = LATIN1_SCAN_BYTES,
  ) {
    this.#maxLineBytes = maxLineBytes;
    this.#latin1Bytes = latin1Bytes;
    this.#bufferBytes = Math.max(1, Math.min(bufferBytes, maxLineBytes + 1));
  }

  /** The file position of the first line not yet consumed. */
  get offset(): number {
    return this.#offset;
  }

  /** The bytes examined so far: every consumed line and what was seen of a long last one. */
  get examined(): number {
    return this.#offset + (this.#long?.seen ?? 0);
  }

  /** Starts over from the beginning of the file. */
  reset(): void {
    this.#offset = 0;
    this.#long = null;
  }

  /** Forgets what was seen past the offset (the unterminated last line changed). */
  forgetPending(): void {
    this.#long = null;
  }

  /** The bytes seen of the unterminated long line past the offset; 0 when there is none. */
  get pending(): number {
    return this.#long?.seen ?? 0;
  }

  /**
   * Goes on from a saved position: `offset`, and `pending` bytes seen of a long line past it
   * (searched by another scanner, so it is taken as a candidate).
   */
  restore(offset: number, pending: number): void {
    this.#offset = offset;
    this.#long = pending > 0 ? { seen: pending, flags: LineFlags.unknown() } : null;
  }

  /**
   * Reads `[examined, size)` of `file` and folds every complete line into `state`. Stops
   * early, between two reads, once `signal` is aborted. Rejects only with what `file.readAt`
   * rejects with. Either way what was folded stays folded and the next scan goes on from it.
   */
  async scan(file: ReadAt, size: number, state: FactsState, signal?: AbortSignal): Promise<void> {
    // A scan that searches bytes reads into the pair search's buffer when it is free (see
    // ByteText): a first read of 1.6 MB then searches in about a third of the time.
    const bytes = size - this.examined < this.#latin1Bytes;
    const buffer = (bytes ? lendBuffer(this.#bufferBytes) : undefined) ??
      takeBuffer(this.#bufferBytes);
    try {
      await this.#scan(buffer, file, size, state, signal);
    } finally {
      giveBack(buffer);
    }
  }

  /**
   * The scan: a read into the buffer, behind the start of the line the last one cut; the
   * end of a long line it finishes (which may read that line again); its lines folded.
   */
  async #scan(
    buffer: Uint8Array,
    file: ReadAt,
    size: number,
    state: FactsState,
    signal: AbortSignal | undefined,
  ): Promise<void> {
    const at: Cursor = { buffer, start: this.examined, fill: 0 };
    if (at.start >= size || isAborted(signal)) return;
    const fast = size - at.start >= this.#latin1Bytes && await loadLatin1();
    let sinceTurn = 0;
    let reading: Promise<number> | null = readInto(file, at.buffer, 0, at.start, size);
    while (reading !== null) {
      const read = await reading;
      if (read === 0) break;
      at.fill += read;
      sinceTurn += read;
      let from = 0;
      const long = this.#long;
      if (long !== null) {
        const newline = this.#continueLong(long, at.buffer, at.fill, fast);
        if (newline === -1) {
          from = at.fill;
        } else {
          await this.#finishLong(file, long, state);
          from = newline + 1;
        }
      }
      reading = this.#consume(at, from, file, size, state, fast, signal);
      if (reading !== null && signal !== undefined && sinceTurn >= TURN_BYTES) {
        sinceTurn = 0;
        await nextTurn();
      }
      if (reading !== null && isAborted(signal)) {
        // Stopped between two reads: the one in flight is waited for, and its bytes left.
        await reading.catch(() => 0);
        reading = null;
      }
    }
  }

  /**
   * Searches the read's first piece of the long line `long` (up to its newline, or the whole
   * read), synchronously, so that no string made for it outlives the call. Returns where its
   * newline is, or -1.
   */
  #continueLong(long: LongLine, buffer: Uint8Array, fill: number, fast: boolean): number {
    // Only `buffer[0, fill)` is this read's: the rest may hold an earlier scan's bytes.
    const whole = fast ? latin1(buffer, 0, buffer.length) : null;
    const newline = firstNewline(buffer, whole, fill);
    this.#scanLong(long, buffer, whole, newline === -1 ? fill : newline);
    return newline;
  }

  /**
   * Folds the lines of `at.buffer[from, at.fill)`, moves what follows them (the start of a
   * line) to the buffer's start, and asks for the next read behind it unless the file's
   * `size` is reached or `signal` aborted. Synchronous, so that a large read's Latin-1 string
   * (searched many times) dies before the next await: a string that lives across one is
   * kept by the scavenges and reaches the old generation, where it raised the peak RSS of a
   * first read of 200 MB by 20 MB. Returns the read asked for, or `null` when there is none.
   *
   * The next read is not made while the string is searched, though it could be (the string
   * is a copy of the buffer): that needs a second buffer or the candidate lines' bytes taken
   * back from the string, and both raised the peak RSS of a first read of 200 MB by about a
   * MB, more than their overlap took off its wall time on a loaded 2-core machine.
   */
  #consume(
    at: Cursor,
    from: number,
    file: ReadAt,
    size: number,
    state: FactsState,
    fast: boolean,
    signal: AbortSignal | undefined,
  ): Promise<number> | null {
    const { buffer, fill, start: bufferStart } = at;
    const capacity = buffer.length;
    // A large read searches the buffer as one Latin-1 string, newlines included (see
    // #foldRun): the string's search finds a byte tens of times faster than the array's.
    const whole = fast && fill > from ? latin1(buffer, 0, capacity) : null;
    const last = fill > from ? lastNewline(buffer, whole, from, fill) : -1;
    let start = last >= from ? last + 1 : from;
    if (last >= from) {
      this.#foldRun(buffer, whole, from, last + 1, bufferStart + from, state);
      this.#offset = bufferStart + last + 1;
    } else if (start === 0 && fill === capacity) {
      // No newline in a full buffer: a line longer than the buffer starts here.
      const flags = new LineFlags();
      if (capacity <= this.#maxLineBytes) flags.scan(pieceOf(buffer, whole, fill));
      this.#long = { seen: fill, flags };
      start = fill;
    }
    buffer.copyWithin(0, start, fill);
    at.start = bufferStart + start;
    at.fill = fill - start;
    if (bufferStart + fill >= size || isAborted(signal)) return null;
    const reading = readInto(file, buffer, at.fill, bufferStart + fill, size);
    // Marked handled: a read that fails while a timer's turn runs must not reject unhandled;
    // it rejects the scan when awaited.
    reading.catch(() => {});
    return reading;
  }

  /** Searches the next `piece` bytes of the long line `long`, which continue it. */
  #scanLong(long: LongLine, buffer: Uint8Array, whole: string | null, piece: number): void {
    if (long.seen <= this.#maxLineBytes) long.flags.scan(pieceOf(buffer, whole, piece));
    long.seen += piece;
  }

  /** Folds the long line that ends here (its newline was found), then moves past it. */
  async #finishLong(file: ReadAt, long: LongLine, state: FactsState): Promise<void> {
    const start = this.#offset;
    this.#long = null;
    this.#offset = start + long.seen + 1;
    if (long.seen > this.#maxLineBytes || !long.flags.candidate) return;
    const line = new Uint8Array(long.seen);
    let filled = 0;
    while (filled < line.length) {
      const read = await file.readAt(line.subarray(filled), start + filled);
      if (read === 0) return; // The file shrank under us: a later scan starts over.
      filled += read;
    }
    const summary = this.#summary;
    summary.clear();
    summary.offer(classifyRecord(decodeLine(line, start === 0)));
    state.merge(summary);
  }

  /**
   * Folds the complete lines in `buffer[from, to)` (`to` just past a newline), which start
   * at file position `position`, as one batch walked backwards. `whole` is the buffer's
   * Latin-1 string on a large read, else `null` (the bytes are searched as they are, through
   * a {@linkcode ByteText}). Either way positions are byte offsets, and a candidate line is
   * decoded from its bytes alone.
   */
  #foldRun(
    buffer: Uint8Array,
    whole: string | null,
    from: number,
    to: number,
    position: number,
    state: FactsState,
  ): void {
    // The Latin-1 string is a slice of one of the whole buffer: strings of one size let V8
    // reuse the memory of the last one, while strings of each run's own size raised the peak
    // RSS of a first read of 200 MB by about 5 MB. A slice shares its string's characters. A
    // run's bytes are searched where they are (see ByteText).
    const text = whole !== null ? whole.slice(from, to) : new ByteText(buffer, from, to);
    this.#foldText(buffer, from, text, position, state);
  }

  /** {@linkcode LineScanner.#foldRun}'s walk over the run's `text`. */
  #foldText(
    buffer: Uint8Array,
    from: number,
    text: Text,
    position: number,
    state: FactsState,
  ): void {
    const special = this.#special;
    collectSpecialLines(text, special);
    const summary = this.#summary;
    summary.clear();
    let next = special.length - 2;
    let assistantAt = lastAssistant(text);
    for (;;) {
      let assistantStart = -1;
      if (assistantAt !== -1 && summary.needsAssistant) {
        assistantStart = text.lastIndexOf("\n", assistantAt) + 1;
      }
      const specialStart = next >= 0 ? special[next]! : -1;
      let start: number;
      let end: number;
      if (assistantStart === -1 && specialStart === -1) break;
      if (assistantStart >= specialStart) {
        start = assistantStart;
        end = text.indexOf("\n", assistantAt);
        if (specialStart === assistantStart) next -= 2;
        assistantAt = start === 0 ? -1 : lastAssistant(text, start - 1);
      } else {
        start = specialStart;
        end = special[next + 1]!;
        next -= 2;
      }
      const record = classifyRecord(decodeAt(buffer, from, position, start, end));
      if (record?.kind === "assistant" && record.usage !== null && summary.usage === null) {
        // The latest usage of the batch: only compactions after it can matter.
        this.#offerCompactions(buffer, from, text, position, end);
      }
      summary.offer(record);
      if (summary.done) break;
    }
    if (summary.usage === null) this.#offerCompactions(buffer, from, text, position, 0);
    state.merge(summary);
  }

  /**
   * Offers to the summary every compaction among the lines of `text` from `after` on. They
   * come after every usage offered so far, and a compaction changes only whether one came
   * after the latest usage, so offering them out of order with other records is the same.
   */
  #offerCompactions(
    buffer: Uint8Array,
    from: number,
    text: Text,
    position: number,
    after: number,
  ): void {
    const lines = this.#compactions;
    collectCompactions(text, after, lines);
    for (let i = 0; i < lines.length; i += 2) {
      const record = classifyRecord(decodeAt(buffer, from, position, lines[i]!, lines[i + 1]!));
      if (record?.kind === "compaction") {
        this.#summary.offer(record);
        return;
      }
    }
  }
}

/**
 * Decodes the line `[start, end)` of a run folded by {@linkcode LineScanner.#foldRun}, whose
 * text starts at `buffer[from]` and at file position `position`: positions are byte offsets,
 * so the line is decoded from its bytes alone.
 */
function decodeAt(
  buffer: Uint8Array,
  from: number,
  position: number,
  start: number,
  end: number,
): unknown {
  return decodeLine(buffer.subarray(from + start, from + end), position + start === 0);
}
