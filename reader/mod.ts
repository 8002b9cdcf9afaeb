// Copyright 2026 the brigade authors. MIT license.

/**
 * An incremental reader of Claude Code's own session transcript: the JSONL file whose path
 * Claude Code's hooks and status line receive as `transcript_path`. It yields two facts, the
 * model in use and the context tokens in use, and each {@linkcode TranscriptReader.refresh}
 * reads only what was appended since the last one.
 *
 * It is built for watchers and status lines that poll a live transcript: memory does not grow
 * with the file (a read buffer and at most one line), most lines are ruled out by a byte-level test before any decoding, a path that is not a
 * regular file is refused before a byte is read (a FIFO never blocks it), and a refresh never
 * rejects.
 *
 * ```ts
 * import { TranscriptReader } from "@brigade/transcript/reader";
 * import assert from "node:assert/strict";
 *
 * const path = await Deno.makeTempFile({ suffix: ".jsonl" });
 * await Deno.writeTextFile(
 *   path,
 *   JSON.stringify({
 *     type: "assistant",
 *     message: {
 *       model: "claude-opus-4-6",
 *       usage: { input_tokens: 3, cache_creation_input_tokens: 1_200, cache_read_input_tokens: 40_000 },
 *     },
 *   }) + "\n",
 * );
 * const reader = new TranscriptReader(path);
 * const { facts, error } = await reader.refresh();
 * assert.equal(error, undefined);
 * assert.deepEqual(facts, { model: "claude-opus-4-6", contextUsedTokens: 41_203, hasContext: true, compactedSinceUsage: false });
 * await Deno.remove(path);
 * ```
 *
 * @module
 */

import { type Facts, FactsState, isSavedFacts, type SavedFacts } from "./_facts.ts";
import { fingerprint, isFingerprint } from "./_fingerprint.ts";
import { type OpenTranscript, openTranscript } from "./_open.ts";
import {
  LATIN1_SCAN_BYTES,
  LATIN1_SCAN_BYTES_OPTION,
  LineScanner,
  READ_BUFFER_BYTES,
  READ_BUFFER_BYTES_OPTION,
} from "./_scanner.ts";
import { TranscriptError } from "./_error.ts";

export type { Facts, SavedFacts } from "./_facts.ts";
export { TranscriptError, type TranscriptErrorCode } from "./_error.ts";

// The reader stands alone (it imports only its own files), so it states the cap itself; the
// sources' `MAX_LINE_BYTES` (in lines/) is the same number, and tests/line_bounds_test.ts says so.

/**
 * The longest line read, in bytes, newline excluded: 64 MiB. A real line is
 * at most a few MB (a tool result, an image); a longer one is never held in
 * memory: the reader skips it whole and moves its offset past it, so a
 * runaway record never stalls the facts behind it. It is the same cap as
 * the sources' `MAX_LINE_BYTES` in `@brigade/transcript`.
 *
 * @example Usage
 * ```ts
 * import { MAX_LINE_BYTES } from "@brigade/transcript/reader";
 * import assert from "node:assert/strict";
 *
 * assert.equal(MAX_LINE_BYTES, 64 * 1024 * 1024);
 * ```
 */
export const MAX_LINE_BYTES: number = 64 << 20;

/** How many leading bytes of a file fingerprint it, to notice a replacement. */
const HEAD_BYTES = 1024;
/** How many bytes before the offset are fingerprinted, to notice a rewrite past the head. */
const TAIL_BYTES = 1024;

/**
 * The format version of {@linkcode TranscriptReaderState}; a state of another version is
 * ignored.
 *
 * @example Usage
 * ```ts
 * import { READER_STATE_VERSION } from "@brigade/transcript/reader";
 * import assert from "node:assert/strict";
 *
 * assert.equal(READER_STATE_VERSION, 1);
 * ```
 */
export const READER_STATE_VERSION = 1;

/**
 * A reader's position in its transcript and what it remembers, as plain JSON data: what
 * {@linkcode TranscriptReader.saveState} returns and {@linkcode TranscriptReaderOptions.state}
 * takes back, so that a short-lived process (a status line) reads only what was appended
 * since the last one. It holds offsets, fingerprints (hashes, not bytes) and the facts'
 * model ids and counts: no other transcript text, and not the path.
 */
export interface TranscriptReaderState {
  /** The format version: {@linkcode READER_STATE_VERSION}. */
  version: typeof READER_STATE_VERSION;
  /** The `maxLineBytes` the state was read with; a reader with another ignores it. */
  maxLineBytes: number;
  /** The file position just past the last complete line read. */
  offset: number;
  /** The bytes seen past `offset` of a line longer than the read buffer, still unfinished. */
  pending: number;
  /** The file's `dev:ino` (`null` where the platform gives none). */
  identity: string | null;
  /** How many leading bytes `headHash` covers (up to 1 KiB). */
  headLength: number;
  /** The fingerprint of the first `headLength` bytes. */
  headHash: string;
  /** Where the bytes `tailHash` covers end (at most `offset`). */
  tailEnd: number;
  /** How many bytes before `tailEnd` `tailHash` covers (up to 1 KiB; 0 for none). */
  tailLength: number;
  /** The fingerprint of the `tailLength` bytes before `tailEnd`. */
  tailHash: string;
  /** What the records read so far say. */
  facts: SavedFacts;
}

/** A fingerprint of `length` bytes ending at `end`. */
interface Window {
  end: number;
  length: number;
  hash: string;
}

const EMPTY_HASH = fingerprint(new Uint8Array(0));

/** Options for {@linkcode TranscriptReader}. */
export interface TranscriptReaderOptions {
  /**
   * The longest line read, in bytes, newline excluded; a longer line is skipped whole, and
   * is never held in memory, even while it is still being written. A positive integer.
   *
   * @default {MAX_LINE_BYTES}
   */
  maxLineBytes?: number;
  /**
   * A state saved by {@linkcode TranscriptReader.saveState} for the same path (in this
   * process or an earlier one, e.g. parsed back from JSON), to go on from. It is checked: a
   * state of another version or `maxLineBytes`, or that is malformed, is ignored and the file
   * is read from the start; one that no longer matches the file (another identity, shorter,
   * other fingerprinted bytes) is dropped at the first refresh, which reads from the start.
   * A state never changes the facts of a file it matches.
   *
   * @default {undefined}
   */
  state?: unknown;
}

/** Options for {@linkcode TranscriptReader.refresh}. */
export interface RefreshOptions {
  /**
   * Stops the refresh early, between two reads of the file (at most one read buffer, 1 MiB,
   * apart). An aborted refresh resolves, never rejects: with the facts of the lines read so
   * far and no error; the next refresh reads on from there. Check `signal.aborted` to know
   * the facts may be behind the file.
   *
   * @default {undefined}
   */
  signal?: AbortSignal;
}

/** What {@linkcode TranscriptReader.refresh} returns. */
export interface RefreshResult {
  /** The facts of every complete line read so far (the last facts, on an error). */
  facts: Facts;
  /** Why the transcript could not be read this time; absent when it was. */
  error?: TranscriptError;
}

/**
 * The incremental reader of one Claude Code transcript.
 *
 * The facts follow these rules. The model is the latest model attachment's full id
 * (`attachment.identity.modelId`, e.g. `"claude-opus-5[1m]"`), unless the latest usable
 * assistant record since then names a bare id (`message.model`) that the attachment's id does
 * not begin with (a switch the attachment missed); the latest bare id when no attachment was
 * seen; `""` when neither was. The context is `input_tokens + cache_creation_input_tokens +
 * cache_read_input_tokens` of the latest usable assistant record with a valid usage. A usable
 * record is neither a sidechain (`isSidechain: true`, a subagent's turn; a sidechain model
 * attachment is skipped too) nor a `"<synthetic>"` turn. A count is valid when it is an
 * integer ≥ 0 (absent or `null` is 0): a negative count voids the usage (the record still
 * names its model), a count of another type voids the whole record. A `null` member reads as
 * absent; an empty id names no model. Lines that are not JSON, not objects, of other record
 * types or with a member of the wrong type are skipped. Invalid UTF-8 and lone surrogates read
 * as U+FFFD; a duplicated member takes its last value.
 *
 * Reading is incremental and by complete lines: a final line without its newline waits for
 * it. A file shorter than what was read, replaced by another (a new `dev`/`ino`, or new
 * first bytes), or rewritten (other bytes just before where the last refresh stopped) is read
 * again from the start. {@linkcode TranscriptReader.saveState} and the `state` option carry
 * that position to another reader, e.g. in the next process. Nothing is opened until the first refresh, and
 * no file handle is held between refreshes. One reader is meant for one caller; concurrent
 * refreshes are run one after another.
 *
 * @example Follow a growing transcript
 * ```ts
 * import { TranscriptReader } from "@brigade/transcript/reader";
 * import assert from "node:assert/strict";
 *
 * const path = await Deno.makeTempFile({ suffix: ".jsonl" });
 * const reader = new TranscriptReader(path);
 * const attachment = {
 *   type: "attachment",
 *   attachment: { type: "model", identity: { modelId: "claude-opus-5[1m]" } },
 * };
 * await Deno.writeTextFile(path, JSON.stringify(attachment) + "\n");
 * assert.deepEqual((await reader.refresh()).facts, {
 *   model: "claude-opus-5[1m]",
 *   contextUsedTokens: 0,
 *   hasContext: false,
 *   compactedSinceUsage: false,
 * });
 *
 * const turn = {
 *   type: "assistant",
 *   message: { model: "claude-opus-5", usage: { input_tokens: 5, cache_read_input_tokens: 90_000 } },
 * };
 * // Half a line is not read until its newline arrives.
 * const line = JSON.stringify(turn) + "\n";
 * await Deno.writeTextFile(path, line.slice(0, 20), { append: true });
 * assert.equal((await reader.refresh()).facts.hasContext, false);
 * await Deno.writeTextFile(path, line.slice(20), { append: true });
 * assert.deepEqual((await reader.refresh()).facts, {
 *   model: "claude-opus-5[1m]",
 *   contextUsedTokens: 90_005,
 *   hasContext: true,
 *   compactedSinceUsage: false,
 * });
 * await Deno.remove(path);
 * ```
 *
 * @example Errors leave the last facts standing
 * ```ts
 * import { TranscriptReader } from "@brigade/transcript/reader";
 * import assert from "node:assert/strict";
 *
 * const dir = await Deno.makeTempDir();
 * const reader = new TranscriptReader(`${dir}/session.jsonl`);
 * const { facts, error } = await reader.refresh();
 * assert.equal(error?.code, "missing");
 * assert.deepEqual(facts, { model: "", contextUsedTokens: 0, hasContext: false, compactedSinceUsage: false });
 * assert.ok(!error.message.includes(dir));
 *
 * const directory = await new TranscriptReader(dir).refresh();
 * assert.equal(directory.error?.code, "not_regular");
 * await Deno.remove(dir);
 * ```
 */
export class TranscriptReader {
  readonly #path: string;
  readonly #state = new FactsState();
  readonly #scanner: LineScanner;
  readonly #maxLineBytes: number;
  /** The file identity seen last (`undefined` before the first open). */
  #identity: string | null | undefined = undefined;
  /** The fingerprint of the first bytes of the file, as examined so far. */
  #head: Window = { end: 0, length: 0, hash: EMPTY_HASH };
  /** The fingerprint of the bytes before a recent offset. */
  #tail: Window = { end: 0, length: 0, hash: EMPTY_HASH };
  #queue: Promise<unknown> = Promise.resolve();

  /**
   * Makes a reader of the transcript at `path`. Nothing is opened until
   * {@linkcode TranscriptReader.refresh}.
   *
   * @param path The transcript's path (symlinks are followed).
   * @param options Options; see {@linkcode TranscriptReaderOptions}.
   * @throws {RangeError} When `maxLineBytes` is not a positive integer. (A `state` that
   * cannot be used is ignored, never thrown.)
   */
  constructor(path: string, options: TranscriptReaderOptions = {}) {
    const maxLineBytes = options.maxLineBytes ?? MAX_LINE_BYTES;
    if (!Number.isSafeInteger(maxLineBytes) || maxLineBytes < 1) {
      throw new RangeError(
        `Cannot create a transcript reader as maxLineBytes must be a positive integer: current value is ${maxLineBytes}`,
      );
    }
    this.#path = path;
    this.#maxLineBytes = maxLineBytes;
    const hidden = options as {
      [READ_BUFFER_BYTES_OPTION]?: number;
      [LATIN1_SCAN_BYTES_OPTION]?: number;
    };
    this.#scanner = new LineScanner(
      maxLineBytes,
      hidden[READ_BUFFER_BYTES_OPTION] ?? READ_BUFFER_BYTES,
      hidden[LATIN1_SCAN_BYTES_OPTION] ?? LATIN1_SCAN_BYTES,
    );
    if (options.state !== undefined) this.#restore(options.state);
  }

  /**
   * The reader's position and what it remembers, as plain JSON data to store (e.g. with
   * `JSON.stringify`) and hand to a later reader of the same path through
   * {@linkcode TranscriptReaderOptions.state}. Call it once a refresh has settled.
   *
   * @example Go on in another process from where this one stopped
   * ```ts
   * import { TranscriptReader } from "@brigade/transcript/reader";
   * import assert from "node:assert/strict";
   *
   * const path = await Deno.makeTempFile({ suffix: ".jsonl" });
   * const turn = (input: number): string =>
   *   JSON.stringify({ type: "assistant", message: { model: "m", usage: { input_tokens: input } } }) +
   *   "\n";
   * await Deno.writeTextFile(path, turn(100));
   * const first = new TranscriptReader(path);
   * await first.refresh();
   * const saved = JSON.stringify(first.saveState());
   *
   * await Deno.writeTextFile(path, turn(250), { append: true });
   * const next = new TranscriptReader(path, { state: JSON.parse(saved) });
   * assert.equal((await next.refresh()).facts.contextUsedTokens, 250); // read only the new line
   * await Deno.remove(path);
   * ```
   *
   * @returns The state, a new object.
   */
  saveState(): TranscriptReaderState {
    const scanner = this.#scanner;
    return {
      version: READER_STATE_VERSION,
      maxLineBytes: this.#maxLineBytes,
      offset: scanner.offset,
      pending: scanner.pending,
      identity: this.#identity ?? null,
      headLength: this.#head.length,
      headHash: this.#head.hash,
      tailEnd: this.#tail.end,
      tailLength: this.#tail.length,
      tailHash: this.#tail.hash,
      facts: this.#state.save(),
    };
  }

  /** Takes over a saved state if it is one this reader could have saved; else ignores it. */
  #restore(value: unknown): void {
    if (!isReaderState(value, this.#maxLineBytes)) return;
    this.#scanner.restore(value.offset, value.pending);
    this.#identity = value.identity;
    this.#head = { end: value.headLength, length: value.headLength, hash: value.headHash };
    this.#tail = { end: value.tailEnd, length: value.tailLength, hash: value.tailHash };
    this.#state.restore(value.facts);
  }

  /**
   * Reads whatever was appended since the last refresh and returns the facts so far. Never
   * rejects: when the transcript cannot be read, the result carries a
   * {@linkcode TranscriptError} and the last facts.
   *
   * @param options Options; see {@linkcode RefreshOptions}.
   * @returns The facts of every complete line read so far, and the error, if any.
   */
  refresh(options: RefreshOptions = {}): Promise<RefreshResult> {
    const { signal } = options;
    const result = this.#queue.then(() => this.#refresh(signal));
    this.#queue = result;
    return result;
  }

  async #refresh(signal: AbortSignal | undefined): Promise<RefreshResult> {
    if (signal?.aborted === true) return { facts: this.#state.facts() };
    let file: OpenTranscript | undefined;
    try {
      file = await openTranscript(this.#path);
      await this.#startOverIfReplaced(file);
      await this.#scanner.scan(file, file.size, this.#state, signal);
      await this.#updateFingerprints(file);
      return { facts: this.#state.facts() };
    } catch (error) {
      const failure = error instanceof TranscriptError ? error : new TranscriptError("unreadable");
      return { facts: this.#state.facts(), error: failure };
    } finally {
      await file?.close();
    }
  }

  /**
   * Starts over when the file is not the one read so far: another identity, shorter than
   * the offset, other first bytes, or other bytes just before a recent offset (truncated and
   * written again past where the last refresh stopped, with the same head). Costs two small
   * reads, whatever the file's size.
   */
  async #startOverIfReplaced(file: OpenTranscript): Promise<void> {
    const scanner = this.#scanner;
    let replaced = this.#identity !== undefined && file.identity !== this.#identity;
    this.#identity = file.identity;
    if (!replaced && file.size < scanner.offset) replaced = true;
    if (!replaced) replaced = !(await matches(file, this.#head));
    if (!replaced && this.#tail.end > this.#head.length) {
      replaced = !(await matches(file, this.#tail));
    }
    if (replaced) {
      this.#state.reset();
      scanner.reset();
      this.#head = { end: 0, length: 0, hash: EMPTY_HASH };
      this.#tail = { end: 0, length: 0, hash: EMPTY_HASH };
    } else if (file.size < scanner.examined) {
      scanner.forgetPending();
    }
  }

  /**
   * Fingerprints the first bytes examined (up to {@linkcode HEAD_BYTES}) and the bytes
   * before the offset (up to {@linkcode TAIL_BYTES}) for the next refresh to check.
   */
  async #updateFingerprints(file: OpenTranscript): Promise<void> {
    const headLength = Math.min(HEAD_BYTES, this.#scanner.examined);
    if (this.#head.length < headLength) this.#head = await windowOf(file, headLength, headLength);
    const offset = this.#scanner.offset;
    if (this.#tail.end !== offset) {
      this.#tail = await windowOf(file, offset, Math.min(TAIL_BYTES, offset));
    }
  }
}

/** Reads `length` bytes of `file` from `position`; fewer at its end. */
async function readAt(file: OpenTranscript, position: number, length: number): Promise<Uint8Array> {
  const bytes = new Uint8Array(length);
  let filled = 0;
  while (filled < length) {
    const read = await file.readAt(bytes.subarray(filled), position + filled);
    if (read === 0) return bytes.subarray(0, filled);
    filled += read;
  }
  return bytes;
}

async function windowOf(file: OpenTranscript, end: number, length: number): Promise<Window> {
  const bytes = await readAt(file, end - length, length);
  return { end, length: bytes.length, hash: fingerprint(bytes) };
}

/** Whether the bytes of `window` are still in `file`. */
async function matches(file: OpenTranscript, window: Window): Promise<boolean> {
  if (window.length === 0) return true;
  const bytes = await readAt(file, window.end - window.length, window.length);
  return bytes.length === window.length && fingerprint(bytes) === window.hash;
}

function isSafeCount(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}

/** Whether `value` is a state a reader with `maxLineBytes` could have saved. */
function isReaderState(value: unknown, maxLineBytes: number): value is TranscriptReaderState {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const state = value as Record<string, unknown>;
  const { offset, pending, headLength, tailEnd, tailLength } = state;
  return state.version === READER_STATE_VERSION && state.maxLineBytes === maxLineBytes &&
    isSafeCount(offset) && isSafeCount(pending) &&
    (state.identity === null || typeof state.identity === "string") &&
    isSafeCount(headLength) && headLength <= HEAD_BYTES && isFingerprint(state.headHash) &&
    isSafeCount(tailEnd) && tailEnd <= offset &&
    isSafeCount(tailLength) && tailLength <= TAIL_BYTES && tailLength <= tailEnd &&
    isFingerprint(state.tailHash) && isSavedFacts(state.facts);
}
