// Copyright 2026 the brigade authors. MIT license.

/**
 * An incremental reader of Claude Code's own session transcript: the JSONL file whose path
 * Claude Code's hooks and status line receive as `transcript_path`. It yields two facts, the
 * model in use and the context tokens in use, and each {@linkcode TranscriptReader.refresh}
 * reads only what was appended since the last one.
 *
 * It is built for watchers and status lines that poll a live transcript: memory does not grow
 * with the file (one read buffer and at most one line), most lines are ruled out by a
 * byte-level test before any decoding, a path that is not a regular file is refused before a
 * byte is read (a FIFO never blocks it), and a refresh never rejects.
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
 * assert.deepEqual(facts, { model: "claude-opus-4-6", contextUsedTokens: 41_203, hasContext: true });
 * await Deno.remove(path);
 * ```
 *
 * @module
 */

import { type Facts, FactsState } from "./_facts.ts";
import { type OpenTranscript, openTranscript } from "./_open.ts";
import { LineScanner, READ_BUFFER_BYTES, READ_BUFFER_BYTES_OPTION } from "./_scanner.ts";
import { TranscriptError } from "./_error.ts";
import { MAX_LINE_BYTES } from "../events/_byte_lines.ts";

export type { Facts } from "./_facts.ts";
export { TranscriptError, type TranscriptErrorCode } from "./_error.ts";

// One cap for the reader and the sources (fromNdjson, fromClaudeCode), defined beside the
// sources' line splitter.
export { MAX_LINE_BYTES };

/** How many leading bytes of a file fingerprint it, to notice a replacement. */
const HEAD_BYTES = 1024;

/** Options for {@linkcode TranscriptReader}. */
export interface TranscriptReaderOptions {
  /**
   * The longest line read, in bytes, newline excluded; a longer line is skipped whole, and
   * is never held in memory, even while it is still being written. A positive integer.
   *
   * @default {MAX_LINE_BYTES}
   */
  maxLineBytes?: number;
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
 * it. A file shorter than what was read, or replaced by another (a new `dev`/`ino`, or new
 * first bytes), is read again from the start. Nothing is opened until the first refresh, and
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
 * assert.deepEqual(facts, { model: "", contextUsedTokens: 0, hasContext: false });
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
  /** The file identity seen last (`undefined` before the first open). */
  #identity: string | null | undefined = undefined;
  /** The first bytes of the file, as examined so far. */
  #head: Uint8Array = new Uint8Array(0);
  #queue: Promise<unknown> = Promise.resolve();

  /**
   * Makes a reader of the transcript at `path`. Nothing is opened until
   * {@linkcode TranscriptReader.refresh}.
   *
   * @param path The transcript's path (symlinks are followed).
   * @param options Options; see {@linkcode TranscriptReaderOptions}.
   * @throws {RangeError} When `maxLineBytes` is not a positive integer.
   */
  constructor(path: string, options: TranscriptReaderOptions = {}) {
    const maxLineBytes = options.maxLineBytes ?? MAX_LINE_BYTES;
    if (!Number.isSafeInteger(maxLineBytes) || maxLineBytes < 1) {
      throw new RangeError(
        `Cannot create a transcript reader as maxLineBytes must be a positive integer: current value is ${maxLineBytes}`,
      );
    }
    this.#path = path;
    const hidden = (options as { [READ_BUFFER_BYTES_OPTION]?: number })[READ_BUFFER_BYTES_OPTION];
    this.#scanner = new LineScanner(maxLineBytes, hidden ?? READ_BUFFER_BYTES);
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
      await this.#updateHead(file);
      return { facts: this.#state.facts() };
    } catch (error) {
      const failure = error instanceof TranscriptError ? error : new TranscriptError("unreadable");
      return { facts: this.#state.facts(), error: failure };
    } finally {
      await file?.close();
    }
  }

  /** Starts over when the file is not the one read so far: another identity, shorter, new head. */
  async #startOverIfReplaced(file: OpenTranscript): Promise<void> {
    const scanner = this.#scanner;
    let replaced = this.#identity !== undefined && file.identity !== this.#identity;
    this.#identity = file.identity;
    if (!replaced && file.size < scanner.offset) replaced = true;
    if (!replaced && this.#head.length > 0) {
      const head = await readHead(file, this.#head.length);
      replaced = !equalBytes(head, this.#head);
    }
    if (replaced) {
      this.#state.reset();
      scanner.reset();
      this.#head = new Uint8Array(0);
    } else if (file.size < scanner.examined) {
      scanner.forgetPending();
    }
  }

  /** Keeps the first bytes examined, up to {@linkcode HEAD_BYTES}, as the file's fingerprint. */
  async #updateHead(file: OpenTranscript): Promise<void> {
    const want = Math.min(HEAD_BYTES, this.#scanner.examined);
    if (this.#head.length < want) this.#head = await readHead(file, want);
  }
}

async function readHead(file: OpenTranscript, length: number): Promise<Uint8Array> {
  const head = new Uint8Array(length);
  let filled = 0;
  while (filled < length) {
    const read = await file.readAt(head.subarray(filled), filled);
    if (read === 0) return head.subarray(0, filled);
    filled += read;
  }
  return head;
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
