// Copyright 2026 the brigade authors. MIT license.

/**
 * The folder's record as bytes: one JSON document with one entry a line, so that each entry is
 * read on its own (a line that is not one is passed over), never more than
 * {@linkcode MAX_MANIFEST_BYTES} of the file, and any JSON reader reads it whole:
 *
 * ```text
 * {"version":2,"entries":{
 * "/abs/a.ndjson":{"key":"…","input":"dev:ino:size:mtime","outputs":[["sesn_a.md","dev:ino:size:mtime","<sha-256>","<head>"]]},
 * "/abs/b.ndjson":{…}
 * }}
 * ```
 *
 * An output's fourth field, when there, is the shortest head of the page that gives the summary
 * the folder's index needs (at most {@linkcode MAX_RECORDED_HEAD} code units): a rerun builds the
 * index from it instead of reading the page back. The record's bound counts the entries without
 * their heads first, so that it holds as many inputs as before; heads fill the room left.
 *
 * After the entries, on the last line, the record may keep the folder as its run left it (a
 * {@linkcode FolderState}): the run's key, each input's path and stamp, each page's name and stamp
 * when the index was built, the index's stamp once written, how many outputs the entries hold, and
 * the size of the record's text before that line. A rerun that finds the same reads no other line
 * of it; a reader of an earlier version passes over it:
 *
 * ```text
 * },
 * "state":{"key":"…","inputs":{"/abs/a.ndjson":"dev:ino:size:mtime"},"pages":{"sesn_a.md":"dev:ino:size:mtime"},"index":"dev:ino:size:mtime","outputs":1,"bytes":1234}}
 * ```
 *
 * @module
 */

import { type FolderState, lineState, STATE_LINE, toState } from "./_manifest_state.ts";

export {
  type FolderState,
  MANIFEST_NAME,
  MAX_MANIFEST_BYTES,
  recordWithState,
  type Stamps,
  stateOfText,
} from "./_manifest_state.ts";

/**
 * The longest head of a page the record keeps: a dream page's front matter is some hundreds of
 * bytes, an html page's summary and its site-search words (at most 4,096 bytes) some kilobytes.
 */
export const MAX_RECORDED_HEAD = 16 * 1024;

const HEADER = '{"version":2,"entries":{';
const FOOTER = "}}";

/** An output an input wrote, as written: its name in the folder, stamp and SHA-256. */
export interface RecordedOutput {
  name: string;
  /** Its stamp right after it was written (device, inode, size, modification time). */
  stamp: string;
  /** The SHA-256 of the bytes written, in hex. */
  digest: string;
  /** The shortest head of the page that gives its summary, when recorded. */
  head?: string;
}

/** What the record holds of one input. */
export interface ManifestEntry {
  /** The options' fingerprint. */
  key: string;
  /** The input's fingerprint; empty when the input must be read again (an output went). */
  input: string;
  outputs: RecordedOutput[];
}

/** A record as read: its entries by input path, whether a file was there, what was wrong. */
export interface ReadRecord {
  entries: Map<string, ManifestEntry>;
  /** The folder as the record's run left it, when the record keeps it. */
  state?: FolderState;
  existed: boolean;
  /** Why a record that was there was not read (over the bound, an earlier version). */
  problem?: string;
}

const HEX = /^[0-9a-f]{64}$/;

/** An output name this command writes: no folder in it, not hidden. */
function isOutputName(name: unknown): name is string {
  return typeof name === "string" && name !== "" && !name.includes("/") && !name.startsWith(".");
}

function toOutput(value: unknown): RecordedOutput | undefined {
  if (!Array.isArray(value) || (value.length !== 3 && value.length !== 4)) return undefined;
  const [name, stamp, digest, head] = value as unknown[];
  if (!isOutputName(name) || typeof stamp !== "string") return undefined;
  if (typeof digest !== "string" || !HEX.test(digest)) return undefined;
  // A head that is not one is left out: the page is read back instead.
  if (typeof head !== "string" || head.length > MAX_RECORDED_HEAD) return { name, stamp, digest };
  return { name, stamp, digest, head };
}

/** One line's entry, `"path":{…}` with or without its comma; undefined when it is not one. */
export function parseEntryLine(line: string): [string, ManifestEntry] | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(`{${line.endsWith(",") ? line.slice(0, -1) : line}}`);
  } catch {
    return undefined;
  }
  const pairs = Object.entries(parsed as Record<string, unknown>);
  if (pairs.length !== 1) return undefined;
  const [path, value] = pairs[0]!;
  const entry = toEntry(value);
  return entry === undefined ? undefined : [path, entry];
}

/** An entry's value as the record holds it; undefined when it is not one. */
function toEntry(value: unknown): ManifestEntry | undefined {
  const v = value as { key?: unknown; input?: unknown; outputs?: unknown } | null;
  if (typeof v !== "object" || v === null || typeof v.key !== "string") return undefined;
  if (typeof v.input !== "string" || !Array.isArray(v.outputs)) return undefined;
  const outputs = v.outputs.map(toOutput);
  if (outputs.some((o) => o === undefined)) return undefined;
  return { key: v.key, input: v.input, outputs: outputs as RecordedOutput[] };
}

/** What a record's text holds: its entries, and its state when it keeps one. */
interface RecordContent {
  entries: Iterable<[string, ManifestEntry]>;
  state: FolderState | undefined;
}

/**
 * The entries of a record whose text is one whole JSON document, as this command writes it:
 * parsed at once, which costs a rerun a fraction of a parse a line; undefined when the text is
 * not one (a line was cut or edited), for the lines to be read one by one.
 */
function wholeEntries(text: string): RecordContent | undefined {
  let parsed: { version?: unknown; entries?: unknown; state?: unknown };
  try {
    parsed = JSON.parse(text);
  } catch {
    return undefined;
  }
  const entries = parsed.entries;
  if (typeof entries !== "object" || entries === null || Array.isArray(entries)) return undefined;
  const found: [string, ManifestEntry][] = [];
  for (const [path, value] of Object.entries(entries)) {
    // A line that is not an entry is passed over, as when the lines are read one by one.
    const entry = toEntry(value);
    if (entry !== undefined) found.push([path, entry]);
  }
  return { entries: found, state: toState(parsed.state) };
}

/** An entry's line, without its comma; with its outputs' heads unless `heads` is false. */
export function entryLine(path: string, entry: ManifestEntry, heads = true): string {
  const outputs = entry.outputs.map((o) =>
    heads && o.head !== undefined
      ? [o.name, o.stamp, o.digest, o.head]
      : [o.name, o.stamp, o.digest]
  );
  return `${JSON.stringify(path)}:${
    JSON.stringify({ key: entry.key, input: entry.input, outputs })
  }`;
}

/** The record's text of entry lines (see {@linkcode entryLine}), in the order given. */
export function recordText(lines: readonly string[]): string {
  return `${recordBody(lines)}${FOOTER}\n`;
}

/** The record's text up to its entries' end: {@linkcode FolderState}'s `bytes` counts it. */
export function recordBody(lines: readonly string[]): string {
  return `${HEADER}\n${lines.join(",\n")}${lines.length > 0 ? "\n" : ""}`;
}

/** The UTF-8 size of the record {@linkcode recordText} makes of no lines. */
export const EMPTY_RECORD_BYTES: number = recordText([]).length;

/** A text's UTF-8 size. */
export function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0x80) bytes += unit >= 0x800 && (unit < 0xd800 || unit > 0xdfff) ? 2 : 1;
  }
  return bytes;
}

/**
 * Reads the record at `path`, at most `maxBytes` of it: a larger one is not read (its problem
 * says so), one that is not of this version gives no entries, a line that is not an entry is
 * passed over.
 */
export async function readRecord(path: string, maxBytes: number): Promise<ReadRecord> {
  const entries = new Map<string, ManifestEntry>();
  let info: Deno.FileInfo;
  try {
    info = await Deno.lstat(path);
  } catch {
    return { entries, existed: false };
  }
  if (!info.isFile) return { entries, existed: true };
  if (info.size > maxBytes) {
    return { entries, existed: true, problem: `it is over the ${mib(maxBytes)} a record may be` };
  }
  const text = await readWhole(path, info.size);
  if (!text.startsWith(`${HEADER}\n`)) {
    const earlier = /^\{"version":1,/.test(text);
    return earlier ? { entries, existed: true, problem: "an earlier version wrote it" } : {
      entries,
      existed: true,
    };
  }
  // The options' fingerprint is the same in most entries: held once.
  const keys = new Map<string, string>();
  const content = wholeEntries(text) ?? eachLine(text);
  for (const [path, { key, input, outputs }] of content.entries) {
    if (!keys.has(key)) keys.set(key, key);
    entries.set(path, { key: keys.get(key)!, input, outputs });
  }
  return content.state === undefined
    ? { entries, existed: true }
    : { entries, state: content.state, existed: true };
}

/** The entries and state of a record's lines, each read on its own. */
function eachLine(text: string): RecordContent {
  const entries: [string, ManifestEntry][] = [];
  let state: FolderState | undefined;
  for (const line of linesOf(text, HEADER.length + 1)) {
    if (line === FOOTER || line === "") continue;
    if (line.startsWith(STATE_LINE)) {
      state = lineState(line);
      continue;
    }
    const entry = parseEntryLine(line);
    if (entry !== undefined) entries.push(entry);
  }
  return { entries, state };
}

function* linesOf(text: string, from: number): Generator<string, void, undefined> {
  let start = from;
  while (start < text.length) {
    const end = text.indexOf("\n", start);
    const stop = end === -1 ? text.length : end;
    yield text.slice(start, stop);
    start = stop + 1;
  }
}

/**
 * A file's text, when it still holds the `size` bytes its stat said, never reading more; "" when
 * it cannot be read or changed size (no record, then).
 */
async function readWhole(path: string, size: number): Promise<string> {
  try {
    using file = await Deno.open(path);
    const buffer = new Uint8Array(size + 1);
    let filled = 0;
    while (filled < buffer.length) {
      const read = await file.read(buffer.subarray(filled));
      if (read === null) break;
      filled += read;
    }
    return filled === size ? new TextDecoder().decode(buffer.subarray(0, filled)) : "";
  } catch {
    return "";
  }
}

/** A size in MiB, for a message. */
export function mib(bytes: number): string {
  const value = bytes / (1024 * 1024);
  return `${Number.isInteger(value) ? value : value.toFixed(1)} MiB`;
}
