// Copyright 2026 the brigade authors. MIT license.

/**
 * The test that rules out most lines without parsing them. A run of lines is turned into a
 * string once and searched there, where the runtime's string search is fast: as UTF-8 text
 * (candidate lines are then parsed from slices of it), or, for large reads, as a Latin-1
 * string (one character per byte; candidate lines are decoded from their bytes).
 *
 * The test is exact. A record is an assistant or a model attachment only if its `type` is
 * `"assistant"` or `"attachment"`, and a model attachment also has an `identity.modelId`.
 * Without an escape those names appear in the line literally, quotes included. A JSON string
 * can spell one of their letters only as an escape from `\u0040` to `\u007f` (no other escape
 * yields a letter), so a line with such an escape is a candidate too. `JSON.stringify` never
 * writes those escapes, so the common `\u001b` of terminal colours does not make a line a
 * candidate. A compaction is a `system` record whose `subtype` ends with `compact_boundary`,
 * found the same way, but only after the latest usage of a run: one before it changes no fact.
 *
 * @module
 */

/** The literal an assistant record holds unless its type is escaped. */
export const ASSISTANT = '"assistant"';
const ATTACHMENT = '"attachment"';
const MODEL_ID = '"modelId"';
/** The tail both compaction subtypes (`compact_boundary`, `microcompact_boundary`) share. */
const COMPACTION = 'compact_boundary"';
const Y_QUOTE = 'y"';
const COMPACTION_BEFORE = COMPACTION.length - Y_QUOTE.length;
/** The tail of {@linkcode MODEL_ID} searched first: a capital I is rare in transcripts. */
const ID = 'Id"';
const MODEL_ID_BEFORE = MODEL_ID.length - ID.length;
/** The longest literal searched, less one: what a search across two pieces must keep. */
const TAIL = COMPACTION.length - 1;

/** An escape that can spell a letter. */
const LETTER_ESCAPE = /\\u00[4-7]/;
/**
 * What a letter escape is found from: its `00`, in one search. The runtime's search stops at
 * every `0` whatever follows it, so the four searches of `004` to `007` an earlier version
 * made cost four times this one (a first read of 200 MB about 20% more CPU). This loop runs
 * over every `00` (timestamps and the `\u001b` of terminal colours hold a thousand a MiB), hot
 * enough on a large read for V8's optimizing compiler, whose code costs the read 1–2 MB of
 * peak RSS: the read stays within 48 MB, and on real transcripts the search of `Id"` is as hot.
 */
const ZEROS = "00";

/** Lenient UTF-8: invalid sequences become U+FFFD, a byte order mark is kept. */
const UTF8 = new TextDecoder("utf-8", { ignoreBOM: true });

/**
 * The text of `bytes[start, end)`, decoded as a line is (invalid UTF-8 as U+FFFD). Every
 * literal searched is ASCII, and UTF-8 keeps ASCII bytes as they are (a byte below 0x80 is
 * never part of a multi-byte sequence), so decoding first loses and makes up no match; but
 * string positions are not byte offsets.
 */
export function textOf(bytes: Uint8Array, start: number, end: number): string {
  return UTF8.decode(bytes.subarray(start, end));
}

interface BufferClass {
  from(
    buffer: ArrayBufferLike,
    byteOffset: number,
    length: number,
  ): { toString(e: "latin1"): string };
}

let buffer: BufferClass | undefined;

/**
 * Makes {@linkcode latin1} available: `Buffer` where it is a global (Node, Bun), else
 * `node:buffer`, imported on first use. Building a Latin-1 string is about 13 times faster
 * than any other way (V8 keeps it one byte a character, without decoding), but importing
 * `node:buffer` costs a Deno process milliseconds at start, so the scanner asks for it only
 * before a large read (a first read of a big transcript, never a status line's small one).
 * The ways without `node:buffer` cost a large read more than its import saves: a
 * `TextDecoder("latin1")` is windows-1252 (the encoding standard's name for Latin-1) and makes
 * two-byte strings, about five times the CPU of `Buffer` on 200 MB in Deno 2.9; and
 * `atob(bytes.toBase64())`, one byte a character too, about twice it (a first refresh of 200 MB
 * past 1.5 times a newline scan). Returns whether it is available.
 */
export async function loadLatin1(): Promise<boolean> {
  if (buffer !== undefined) return true;
  try {
    buffer = (globalThis as { Buffer?: BufferClass }).Buffer ??
      (await import("node:buffer")).Buffer as unknown as BufferClass;
    return true;
  } catch {
    return false;
  }
}

/**
 * A Latin-1 string of `bytes[start, end)`: one character per byte, so positions are byte
 * offsets. Only after {@linkcode loadLatin1} resolved `true`.
 */
export function latin1(bytes: Uint8Array, start: number, end: number): string {
  return buffer!.from(bytes.buffer, bytes.byteOffset + start, end - start).toString("latin1");
}

/**
 * Collects, into `out`, the `[start, end)` pairs of the lines of `text` (complete lines,
 * each ending with a newline) that may be a model attachment or hold a letter escape, in
 * file order. Lines found only by {@linkcode ASSISTANT} are not collected: the caller walks
 * those backwards with `lastIndexOf`.
 *
 * The searches start from rare characters, where the runtime's string search is fastest: a
 * model attachment without escapes holds `"modelId"`, found from its `Id"` (a capital I is
 * rare in transcripts), and a letter escape holds `00`, far rarer than its backslash.
 * Compactions are collected apart, by {@linkcode collectCompactions}: only those after the
 * latest usage can matter.
 */
export function collectSpecialLines(text: string, out: number[]): void {
  out.length = 0;
  // Letter escapes: `\u00` then 4 to 7.
  for (let at = letterEscape(text, 0); at !== -1; at = letterEscape(text, at)) {
    const start = text.lastIndexOf("\n", at) + 1;
    at = lineEnd(text, at);
    out.push(start, at);
  }
  const escapes = out.length;
  // Model attachments spelled without escapes: `"modelId"` and `"attachment"` on one line.
  let e = 0;
  let merged = false;
  for (let at = text.indexOf(ID); at !== -1; at = text.indexOf(ID, at + 1)) {
    if (!text.startsWith(MODEL_ID, at - MODEL_ID_BEFORE)) continue;
    const start = text.lastIndexOf("\n", at) + 1;
    const end = lineEnd(text, at);
    while (e < escapes && out[e]! < start) e += 2;
    if (e < escapes && out[e] === start) { // already collected for an escape
      at = end;
      continue;
    }
    if (text.slice(start, end).includes(ATTACHMENT)) {
      out.push(start, end);
      merged = true;
    }
    at = end;
  }
  if (merged && escapes > 0) sortPairs(out);
}

/**
 * Collects, into `out`, the `[start, end)` pairs of the lines of `text` from position
 * `from` on that may be a compaction, in file order.
 */
export function collectCompactions(text: string, from: number, out: number[]): void {
  out.length = 0;
  // Found from its tail `y"`: a short search is several times faster than the whole literal.
  for (let at = text.indexOf(Y_QUOTE, from); at !== -1; at = text.indexOf(Y_QUOTE, at + 1)) {
    if (!text.startsWith(COMPACTION, at - COMPACTION_BEFORE)) continue;
    const start = text.lastIndexOf("\n", at) + 1;
    const end = lineEnd(text, at);
    out.push(start, end);
    at = end;
  }
}

/**
 * The position of the first letter escape's `00` in `text` from `from` on; -1 if none. A
 * function of its own, so that the optimizing compiler compiles this loop alone.
 */
function letterEscape(text: string, from: number): number {
  for (let at = text.indexOf(ZEROS, from); at !== -1; at = text.indexOf(ZEROS, at + 1)) {
    const digit = text.charCodeAt(at + 2);
    if (
      digit >= 0x34 && digit <= 0x37 && text.charCodeAt(at - 1) === 0x75 &&
      text.charCodeAt(at - 2) === 0x5c
    ) return at;
  }
  return -1;
}

function lineEnd(text: string, at: number): number {
  const end = text.indexOf("\n", at);
  return end === -1 ? text.length : end;
}

/** Sorts `[start, end)` pairs by start, keeping one pair per line. */
function sortPairs(pairs: number[]): void {
  const sorted: [number, number][] = [];
  for (let i = 0; i < pairs.length; i += 2) sorted.push([pairs[i]!, pairs[i + 1]!]);
  sorted.sort((a, b) => a[0] - b[0]);
  pairs.length = 0;
  for (const [start, end] of sorted) {
    if (pairs.length === 0 || pairs[pairs.length - 2] !== start) pairs.push(start, end);
  }
}

/** What the pieces of a line too long for the read buffer held, searched piece by piece. */
export class LineFlags {
  #assistant = false;
  #attachment = false;
  #modelId = false;
  #escape = false;
  #compaction = false;
  #tail = "";

  /**
   * Flags for a line whose pieces were searched by an earlier process and are not known
   * here: it is taken as a candidate, so it is decoded once its newline arrives.
   */
  static unknown(): LineFlags {
    const flags = new LineFlags();
    flags.#assistant = true;
    return flags;
  }

  /** Searches the next piece of the line (decoded). */
  scan(piece: string): void {
    const text = this.#tail + piece;
    this.#assistant ||= text.includes(ASSISTANT);
    this.#attachment ||= text.includes(ATTACHMENT);
    this.#modelId ||= text.includes(MODEL_ID);
    this.#escape ||= LETTER_ESCAPE.test(text);
    this.#compaction ||= text.includes(COMPACTION);
    this.#tail = text.slice(-TAIL);
  }

  /** Whether the line may be an assistant record, a model attachment or a compaction. */
  get candidate(): boolean {
    return this.#assistant || this.#escape || this.#compaction ||
      (this.#attachment && this.#modelId);
  }
}
