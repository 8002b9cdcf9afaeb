// Copyright 2026 the brigade authors. MIT license.

/**
 * The test that rules out most lines without parsing them. A run of lines is turned into a
 * string once and searched there, where the runtime's string search is fast: as UTF-8 text
 * (candidate lines are then parsed from slices of it), or, for large reads, as a Latin-1
 * string (one character per byte; candidate lines are decoded from their bytes).
 *
 * A small read (a status line's, whatever the transcript's size) is searched in its bytes
 * themselves, through a {@linkcode ByteText}: decoding it first would cost more than every
 * search of it (UTF-8 decodes at about 3 ms a MB in a fresh Deno process, while the runtime's
 * search of a typed array for a 16-bit value goes about two bytes a nanosecond).
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

import { isLent, nextPair, previousPair } from "./_pair_search.ts";

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
/*
 * The pairs a search of bytes finds each literal from (see ByteText.indexOf), one at an even
 * and one at an odd position of the literal, the rarer first: its rarest of each in the real
 * transcripts of the tests' data and a generated one (per 3.8 MB, either parity: `lI` 238 and `Id` 1,398 of
 * `"modelId"`; `_b` 17 and `bo` 482 of the compaction's tail; of `me` 8,565 and `hm` 48, searched only within a line that holds `"modelId"`;
 * `"a` 1,268 and `t"` 3,755 of `"assistant"`; `\u` 55 and `u0` 85 of an escape).
 */
const MODEL_ID_ANCHORS: Anchors = [MODEL_ID.indexOf("lI"), MODEL_ID.indexOf("Id")];
const COMPACTION_ANCHORS: Anchors = [COMPACTION.indexOf("_b"), COMPACTION.indexOf("bo")];
const ATTACHMENT_ANCHORS: Anchors = [ATTACHMENT.indexOf("hm"), ATTACHMENT.indexOf("me")];
const ASSISTANT_ANCHORS: Anchors = [0, ASSISTANT.indexOf('t"')];
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
/** A letter escape's head but its last digit, searched for in bytes. */
const ESCAPE = "\\u00";

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
 * What the prefilter searches: the text of a run of complete lines, indexed by byte offset
 * from the run's start. A Latin-1 string of the run (one character per byte), or a
 * {@linkcode ByteText} over its bytes: both answer the few string methods the searches use,
 * alike for every ASCII literal.
 */
export type Text = string | ByteText;

/** Whether the platform stores a 16-bit value's low byte first. */
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** The 16-bit value whose bytes, in memory, are `first` then `second`. */
function pairValue(first: number, second: number): number {
  return LITTLE_ENDIAN ? first | (second << 8) : (first << 8) | second;
}

/**
 * Where in a literal a {@linkcode ByteText} search finds it from: the starts of two pairs of its
 * bytes, one at an even and one at an odd position of the literal (each at most its length
 * less two), the rarer first. A search of the lent buffer finds it from the first alone.
 * `[0, 1]` are its first two pairs.
 */
export type Anchors = readonly [rarer: number, other: number];

/**
 * Where one 16-bit value occurs in a view, remembered: searches for the same value go on
 * from the last hit (forwards) or back from it (backwards), so that a run of searches that
 * each start past the last costs one pass over the view, not one each.
 */
class PairHits {
  readonly #view: Uint16Array;
  readonly #value: number;
  #nextFrom = Number.POSITIVE_INFINITY;
  #next = -1;
  #previousFrom = Number.NEGATIVE_INFINITY;
  #previous = -1;

  constructor(view: Uint16Array, value: number) {
    this.#view = view;
    this.#value = value;
  }

  /** The first index from `k` on holding the value, or -1. */
  next(k: number): number {
    if (!(k >= this.#nextFrom && (this.#next === -1 || k <= this.#next))) {
      this.#nextFrom = k;
      this.#next = this.#view.indexOf(this.#value, k);
    }
    return this.#next;
  }

  /** The last index up to `k` holding the value, or -1. */
  previous(k: number): number {
    // A negative start counts back from a typed array's end: none is asked for.
    if (k < 0) return -1;
    if (!(k <= this.#previousFrom && (this.#previous === -1 || k >= this.#previous))) {
      this.#previousFrom = k;
      this.#previous = this.#view.lastIndexOf(this.#value, k);
    }
    return this.#previous;
  }
}

/**
 * The bytes `[start, end)` of a read buffer, searched for ASCII literals without decoding
 * them, nor copying them. The buffer is seen as 16-bit values (the pairs of bytes at even
 * positions), which the runtime searches about twice as fast as bytes. A literal at an even
 * position has each pair at an even position of the literal at an even position of the
 * buffer, and one at an odd position has each pair at an odd position of the literal there:
 * so it is found from two of its pairs (its {@linkcode Anchors}), one of each, each searched
 * as a 16-bit value, and then compared byte by byte. A literal of two bytes is found from its
 * first byte. Positions count bytes from `start`. Its methods answer as the string methods of
 * the same names answer on a Latin-1 string of the same bytes, for the literals the prefilter
 * searches (ASCII, a newline alone or at least two bytes long).
 *
 * A read buffer lent by `_pair_search.ts` is searched there instead: a pair at any position,
 * sixteen positions at a time, so each literal is found from its rarer pair alone.
 *
 * An earlier version searched one pair in two views, the buffer's and a copy of it shifted by
 * a byte: a status line's first read of 1.6 MB spent about 1 ms of its CPU making that copy,
 * most of it the first touch of the copy's fresh memory.
 *
 * @example Usage
 * ```ts
 * import { ByteText } from "./_prefilter.ts";
 * import assert from "node:assert/strict";
 *
 * const bytes = new TextEncoder().encode('{"type":"assistant"}\n{"type":"user"}\n');
 * const text = new ByteText(bytes, 0, bytes.length);
 * assert.equal(text.indexOf('"assistant"'), 8);
 * assert.equal(text.indexOf('"assistant"', 0, [0, 9]), 8); // from its `"a` or its `t"`
 * assert.equal(text.indexOf('"user"', 0, [0, 1], 20), -1); // not within the first line
 * assert.equal(text.lastIndexOf("\n"), bytes.length - 1);
 * ```
 */
export class ByteText {
  /** The run's length in bytes. */
  readonly length: number;
  readonly #bytes: Uint8Array;
  readonly #start: number;
  readonly #end: number;
  readonly #pairs: Uint16Array;
  readonly #hits = new Map<number, PairHits>();
  /** Whether the bytes are the lent buffer, searched by `_pair_search.ts`. */
  readonly #lent: boolean;

  /**
   * @param bytes The read buffer (at an even byte offset of its memory).
   * @param start Where the run starts in it.
   * @param end Where the run ends (exclusive).
   */
  constructor(bytes: Uint8Array, start: number, end: number) {
    this.length = end - start;
    this.#bytes = bytes;
    this.#start = start;
    this.#end = end;
    this.#pairs = new Uint16Array(bytes.buffer, bytes.byteOffset, end >> 1);
    this.#lent = isLent(bytes);
  }

  /** The byte at `at`, or `NaN` outside the run (as `charCodeAt`). */
  charCodeAt(at: number): number {
    return at >= 0 && at < this.length ? this.#bytes[this.#start + at]! : Number.NaN;
  }

  /** Whether `literal` starts at `at` (clamped into the run, as `startsWith`). */
  startsWith(literal: string, at: number): boolean {
    const from = Math.min(Math.max(at, 0), this.length);
    return this.#matches(this.#start + from, literal);
  }

  /**
   * The first position from `from` on where `literal` starts, or -1 (as `indexOf`). It is
   * found from its two pairs at `anchors` (its rarest, if the caller knows them). With
   * `limit`, only a literal that ends by that position is found (as `indexOf` on the run's
   * first `limit` bytes): a search within one line stops at its end, not at the next
   * occurrence of the literal's pairs anywhere in the run (which, line after line, walked the
   * run's rest again for each).
   */
  indexOf(
    literal: string,
    from = 0,
    anchors: Anchors = [0, 1],
    limit = Number.POSITIVE_INFINITY,
  ): number {
    const start = this.#start;
    const end = Math.min(this.#end, start + limit);
    let at = start + Math.min(Math.max(from, 0), this.length);
    if (this.#lent && literal.length >= 2) {
      const anchor = anchors[0];
      const first = literal.charCodeAt(anchor);
      const second = literal.charCodeAt(anchor + 1);
      for (;;) {
        const pair = nextPair(at + anchor, end, first, second);
        if (pair === -1 || pair - anchor + literal.length > end) return -1;
        if (this.#matches(pair - anchor, literal)) return pair - anchor - start;
        at = pair - anchor + 1;
      }
    }
    if (literal.length <= 2) {
      const bytes = this.#bytes;
      const first = literal.charCodeAt(0);
      for (;;) {
        const found = at < end ? bytes.indexOf(first, at) : -1;
        if (found === -1 || found + literal.length > end) return -1;
        if (this.#matches(found, literal)) return found - start;
        at = found + 1;
      }
    }
    const [even, odd] = anchors[0] % 2 === 0 ? anchors : [anchors[1], anchors[0]];
    const atEven = this.#pairHits(literal, even);
    const atOdd = this.#pairHits(literal, odd);
    for (;;) {
      // The literal at `k` has the pair at `even` at an even position when `k` is even, and
      // the pair at `odd` there when `k` is odd: the first of either from `at` on.
      const e = atEven.next((at + even + 1) >> 1);
      const o = atOdd.next((at + odd + 1) >> 1);
      const k = Math.min(
        e === -1 ? Infinity : 2 * e - even,
        o === -1 ? Infinity : 2 * o - odd,
      );
      if (k + literal.length > end) return -1;
      if (this.#matches(k, literal)) return k - start;
      at = k + 1;
    }
  }

  /**
   * The last position up to `from` where `literal` starts, or -1 (as `lastIndexOf`), found
   * as {@linkcode ByteText.indexOf} finds it.
   */
  lastIndexOf(
    literal: string,
    from: number = Number.POSITIVE_INFINITY,
    anchors: Anchors = [0, 1],
  ): number {
    const start = this.#start;
    let at = start + Math.min(Math.max(from, 0), this.length - literal.length);
    if (at < start) return -1;
    if (this.#lent && literal.length >= 2) {
      const anchor = anchors[0];
      const first = literal.charCodeAt(anchor);
      const second = literal.charCodeAt(anchor + 1);
      for (;;) {
        const pair = previousPair(at + anchor, start + anchor, first, second);
        if (pair === -1) return -1;
        if (this.#matches(pair - anchor, literal)) return pair - anchor - start;
        at = pair - anchor - 1;
        if (at < start) return -1;
      }
    }
    if (literal.length <= 2) {
      const bytes = this.#bytes;
      const first = literal.charCodeAt(0);
      for (;;) {
        const found = bytes.lastIndexOf(first, at);
        if (found < start) return -1;
        if (this.#matches(found, literal)) return found - start;
        at = found - 1;
        if (at < start) return -1;
      }
    }
    const [even, odd] = anchors[0] % 2 === 0 ? anchors : [anchors[1], anchors[0]];
    const atEven = this.#pairHits(literal, even);
    const atOdd = this.#pairHits(literal, odd);
    for (;;) {
      const e = atEven.previous((at + even) >> 1);
      const o = atOdd.previous((at + odd) >> 1);
      const k = Math.max(e === -1 ? -1 : 2 * e - even, o === -1 ? -1 : 2 * o - odd);
      if (k < start) return -1;
      if (this.#matches(k, literal)) return k - start;
      at = k - 1;
    }
  }

  /** The search of `literal`'s pair at `anchor`, made once a run. */
  #pairHits(literal: string, anchor: number): PairHits {
    const value = pairValue(literal.charCodeAt(anchor), literal.charCodeAt(anchor + 1));
    let hits = this.#hits.get(value);
    if (hits === undefined) {
      hits = new PairHits(this.#pairs, value);
      this.#hits.set(value, hits);
    }
    return hits;
  }

  /** Whether `literal` is at buffer position `at`, whole within the run. */
  #matches(at: number, literal: string): boolean {
    if (at + literal.length > this.#end) return false;
    const bytes = this.#bytes;
    for (let i = 0; i < literal.length; i++) {
      if (bytes[at + i] !== literal.charCodeAt(i)) return false;
    }
    return true;
  }
}

/** Whether `literal` is within `text[start, end)`, found in bytes from its `anchors`. */
function contains(
  text: Text,
  literal: string,
  anchors: Anchors,
  start: number,
  end: number,
): boolean {
  if (typeof text === "string") return text.slice(start, end).includes(literal);
  const at = text.indexOf(literal, start, anchors, end);
  return at !== -1 && at + literal.length <= end;
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
export function collectSpecialLines(text: Text, out: number[]): void {
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
  for (let at = modelId(text, 0); at !== -1; at = modelId(text, at + 1)) {
    const start = text.lastIndexOf("\n", at) + 1;
    const end = lineEnd(text, at);
    while (e < escapes && out[e]! < start) e += 2;
    if (e < escapes && out[e] === start) { // already collected for an escape
      at = end;
      continue;
    }
    if (contains(text, ATTACHMENT, ATTACHMENT_ANCHORS, start, end)) {
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
export function collectCompactions(text: Text, from: number, out: number[]): void {
  out.length = 0;
  for (let at = compaction(text, from); at !== -1; at = compaction(text, at + 1)) {
    const start = text.lastIndexOf("\n", at) + 1;
    const end = lineEnd(text, at);
    out.push(start, end);
    at = end;
  }
}

/**
 * The position of the `y"` of the next compaction's tail of `text` whose `y"` starts from `from`
 * on, or -1. In a string, from its `y"`: a short search is several times faster than the whole
 * literal; in bytes, from its `_b` and `bo` (see {@linkcode COMPACTION_ANCHORS}).
 */
function compaction(text: Text, from: number): number {
  if (typeof text !== "string") {
    const at = text.indexOf(COMPACTION, from - COMPACTION_BEFORE, COMPACTION_ANCHORS);
    return at === -1 ? -1 : at + COMPACTION_BEFORE;
  }
  for (let at = text.indexOf(Y_QUOTE, from); at !== -1; at = text.indexOf(Y_QUOTE, at + 1)) {
    if (text.startsWith(COMPACTION, at - COMPACTION_BEFORE)) return at;
  }
  return -1;
}

/**
 * The position of the first letter escape's `00` in `text` from `from` on; -1 if none. A
 * function of its own, so that the optimizing compiler compiles this loop alone.
 */
function letterEscape(text: Text, from: number): number {
  if (typeof text !== "string") {
    // In bytes, from `\u` and `u0`: far rarer than `00` (timestamps hold many).
    for (let at = text.indexOf(ESCAPE, from - 2); at !== -1; at = text.indexOf(ESCAPE, at + 1)) {
      const digit = text.charCodeAt(at + ESCAPE.length);
      if (digit >= 0x34 && digit <= 0x37) return at + 2;
    }
    return -1;
  }
  for (let at = text.indexOf(ZEROS, from); at !== -1; at = text.indexOf(ZEROS, at + 1)) {
    const digit = text.charCodeAt(at + 2);
    if (
      digit >= 0x34 && digit <= 0x37 && text.charCodeAt(at - 1) === 0x75 &&
      text.charCodeAt(at - 2) === 0x5c
    ) return at;
  }
  return -1;
}

/**
 * The position of the `Id"` of the next `"modelId"` of `text` whose `Id"` starts from `from` on,
 * or -1. In a string, from its `Id"`; in bytes, from its `lI` and its `Id` (see
 * {@linkcode MODEL_ID_ANCHORS}).
 */
function modelId(text: Text, from: number): number {
  if (typeof text !== "string") {
    const at = text.indexOf(MODEL_ID, from - MODEL_ID_BEFORE, MODEL_ID_ANCHORS);
    return at === -1 ? -1 : at + MODEL_ID_BEFORE;
  }
  for (let at = text.indexOf(ID, from); at !== -1; at = text.indexOf(ID, at + 1)) {
    if (text.startsWith(MODEL_ID, at - MODEL_ID_BEFORE)) return at;
  }
  return -1;
}

/**
 * The last position up to `from` where {@linkcode ASSISTANT} starts in `text`, or -1 (as
 * `lastIndexOf`); in bytes, found from its `"a` and its `t"`.
 */
export function lastAssistant(text: Text, from: number = Number.POSITIVE_INFINITY): number {
  return typeof text === "string"
    ? text.lastIndexOf(ASSISTANT, from)
    : text.lastIndexOf(ASSISTANT, from, ASSISTANT_ANCHORS);
}

function lineEnd(text: Text, at: number): number {
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
