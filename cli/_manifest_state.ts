// Copyright 2026 the brigade authors. MIT license.

/**
 * The folder's record's last line: the folder as the record's run left it (a
 * {@linkcode FolderState}), which a rerun that finds nothing changed reads alone, told from
 * stats (`_quick_rerun.ts`). Its own module, so that such a rerun loads none of the rest of the
 * record's reading and writing (`_manifest_file.ts`, which re-exports what it uses of this).
 *
 * @module
 */

/** The record's file name in the folder: hidden, and no session's (those never start with "."). */
export const MANIFEST_NAME = ".transcript-manifest.json";

/**
 * The largest record read or written: an entry is 300 to 500 bytes, so 4 MiB holds some 10,000
 * inputs (read, about 6 MiB of memory). A larger file is not read at all, and the run goes on as
 * in a folder without a record.
 */
export const MAX_MANIFEST_BYTES = 4 * 1024 * 1024;

/**
 * Names and their stamps, as a JSON object: what a name that is no own key gives (undefined, or
 * an `Object.prototype` member) is never a stamp, a string.
 */
export type Stamps = Readonly<Record<string, unknown>>;

/**
 * The folder as the run that wrote the record left it: what a rerun compares with stats alone to
 * know that nothing changed, and the index need not be built again.
 */
export interface FolderState {
  /** The options' fingerprint of the run, which built the index with it (every entry's key). */
  key: string;
  /** Every entry's input path and stamp (an object as JSON reads it: no copy to take). */
  inputs: Stamps;
  /** Each page of the folder and its stamp (or kind) when the index was built (`pagesListing()`). */
  pages: Stamps;
  /** The index's stamp right after it was written. */
  index: string;
  /** How many outputs the entries hold. */
  outputs: number;
  /** The UTF-8 size of the record's text before the state's line (see {@linkcode stateOfText}). */
  bytes: number;
}

/** The start of the state's line, the record's last. */
export const STATE_LINE = '"state":';

/** What closes the entries before the state's line. */
export const BEFORE_STATE = "},\n";

/** The record's state, as {@linkcode FolderState}; undefined when it is not one. */
export function toState(value: unknown): FolderState | undefined {
  const v = value as Record<keyof FolderState, unknown> | null;
  if (typeof v !== "object" || v === null || typeof v.key !== "string") return undefined;
  const { key, index, outputs, bytes } = v;
  const inputs = stamps(v.inputs);
  const pages = stamps(v.pages);
  if (inputs === undefined || pages === undefined || typeof index !== "string") return undefined;
  if (!Number.isSafeInteger(outputs) || !Number.isSafeInteger(bytes)) return undefined;
  return { key, inputs, pages, index, outputs: outputs as number, bytes: bytes as number };
}

/**
 * A JSON object of names and stamps, as it is (its values are compared with stamps, which a value
 * that is not a string never equals); undefined when it is not an object.
 */
function stamps(value: unknown): Stamps | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  return value as Stamps;
}
/** The record's text of a {@linkcode recordBody} and a state. */
export function recordWithState(body: string, state: FolderState): string {
  const { key, inputs, pages, index, outputs, bytes } = state;
  const json = JSON.stringify({ key, inputs, pages, index, outputs, bytes });
  return `${body}${BEFORE_STATE}${STATE_LINE}${json}}\n`;
}

/** A record's state, and the size of the text before its line. */
export interface RecordedState {
  state: FolderState;
  /** The UTF-8 size of the record's text before the state's line. */
  bodyBytes: number;
}

/**
 * The state a record's bytes end with, and the size of the text before its line (which its
 * `bytes` gives when the record is as its run wrote it); undefined when they end with none. The
 * entries are not parsed.
 */
export function stateOfText(bytes: Uint8Array): RecordedState | undefined {
  const found = stateOfEnd(bytes, 0);
  return found === "more" ? undefined : found;
}

/**
 * {@linkcode stateOfText} of a record's end, its bytes from `offset` on: "more" when its last
 * line starts before them.
 */
function stateOfEnd(bytes: Uint8Array, offset: number): RecordedState | "more" | undefined {
  const end = bytes.length - 1;
  if (end < 0 || bytes[end] !== 0x0a) return undefined;
  // (A negative start of the search would count from the end, and find the last byte.)
  const start = end === 0 ? 0 : bytes.lastIndexOf(0x0a, end - 1) + 1;
  if (start === 0 && offset > 0) return "more";
  const line = new TextDecoder().decode(bytes.subarray(start, end));
  if (!line.startsWith(STATE_LINE) || offset + start < BEFORE_STATE.length) return undefined;
  const state = lineState(line);
  return state === undefined
    ? undefined
    : { state, bodyBytes: offset + start - BEFORE_STATE.length };
}

/**
 * The state the record at `path` ends with ({@linkcode stateOfText}), read from its end: its last
 * `tail` bytes first, the whole file only when its last line is longer. Undefined when it is not
 * a regular file of at most {@linkcode MAX_MANIFEST_BYTES} (a link is none), or ends with no
 * state. A rerun of hundreds of inputs reads the state's line, not their entries before it.
 *
 * @example Usage
 * ```ts
 * import { recordWithState, stateOfFile } from "./_manifest_state.ts";
 * import assert from "node:assert/strict";
 *
 * const dir = await Deno.makeTempDir();
 * const state = { key: "k", inputs: { "/a.jsonl": "1:2:3:4" }, pages: {}, index: "", outputs: 0 };
 * const body = `{"entries":[${"1".repeat(100)}]`;
 * await Deno.writeTextFile(`${dir}/record`, recordWithState(body, { ...state, bytes: 113 }));
 * // Its last 200 bytes hold the state's line; 16 do not, and it is then read whole.
 * assert.deepEqual(stateOfFile(`${dir}/record`, 200)?.state.inputs, state.inputs);
 * assert.equal(stateOfFile(`${dir}/record`, 200)?.bodyBytes, 113);
 * assert.equal(stateOfFile(`${dir}/record`, 16)?.bodyBytes, 113);
 * await Deno.remove(dir, { recursive: true });
 * ```
 *
 * @param path The record's path.
 * @param tail How many bytes of its end to read first.
 * @returns The state and the size of the text before its line, or undefined.
 * @throws {Deno.errors.NotFound} When there is no record (or another error of the file system).
 */
export function stateOfFile(
  path: string,
  tail: number,
): RecordedState | undefined {
  const info = Deno.lstatSync(path);
  if (!info.isFile || info.size > MAX_MANIFEST_BYTES) return undefined;
  using file = Deno.openSync(path);
  // The file opened is the one looked at (a record is replaced whole, never written in place).
  const opened = file.statSync();
  if (opened.ino !== info.ino || opened.dev !== info.dev || opened.size !== info.size) {
    return undefined;
  }
  const size = opened.size;
  const from = size - Math.min(size, Math.max(tail, 1));
  const first = readAt(file, from, size);
  if (first === undefined) return undefined;
  const found = stateOfEnd(first, from);
  if (found !== "more") return found;
  const whole = readAt(file, 0, size);
  return whole === undefined ? undefined : stateOfText(whole);
}

/** The bytes of an open file from `start` to `end`; undefined when it ends before (it changed). */
function readAt(file: Deno.FsFile, start: number, end: number): Uint8Array | undefined {
  const bytes = new Uint8Array(end - start);
  file.seekSync(start, Deno.SeekMode.Start);
  for (let filled = 0; filled < bytes.length;) {
    const read = file.readSync(bytes.subarray(filled));
    if (read === null) return undefined;
    filled += read;
  }
  return bytes;
}

/** The state of its line, `"state":{…}}`; undefined when it is not one. */
export function lineState(line: string): FolderState | undefined {
  try {
    return toState(JSON.parse(`{${line}`).state);
  } catch {
    return undefined;
  }
}
