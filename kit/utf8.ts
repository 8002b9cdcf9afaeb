// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// UTF-8 sizes and cuts on code point boundaries, computed from the UTF-16
// string without encoding it. A lone surrogate counts as the three bytes of
// the U+FFFD it becomes when the text is written as UTF-8.

import { rememberedSize, rememberSize } from "./_utf8_memo.ts";
import { utf8HeadCut } from "./_utf8_cut.ts";

function isHigh(unit: number): boolean {
  return unit >= 0xd800 && unit <= 0xdbff;
}

function isLow(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}

const encoder = new TextEncoder();
// Short texts are measured by the native encoder into this reused buffer: about
// twice as fast as a JavaScript loop, and no allocation per call.
const scratch = new Uint8Array(3 * 8192);

/**
 * The UTF-8 size of `text` in bytes, measured without encoding it (a lone
 * surrogate counts as the three bytes of the U+FFFD it is written as).
 *
 * @param text The text.
 * @returns Its size in UTF-8 bytes.
 *
 * @example Usage
 * ```ts
 * import { utf8Length } from "@brigade/transcript";
 * import assert from "node:assert/strict";
 *
 * assert.equal(utf8Length("a€😀"), 1 + 3 + 4);
 * ```
 */
export function utf8Length(text: string): number {
  const remembered = rememberedSize(text);
  if (remembered !== -1) return remembered;
  const bytes = measure(text);
  rememberSize(text, bytes);
  return bytes;
}

function measure(text: string): number {
  // A label or a note costs less to count here than to hand to the encoder.
  if (text.length <= TINY_UNITS) return countBytes(text);
  // Most text is ASCII with a few runs of other characters: a native search
  // skips to each run, counted here, which costs less than encoding the
  // whole text. Text dense with them is encoded from where that shows.
  let extra = 0;
  let walked = 0;
  NON_ASCII.lastIndex = 0;
  while (NON_ASCII.test(text)) {
    let i = NON_ASCII.lastIndex - 1;
    for (; i < text.length; i++, walked++) {
      const unit = text.charCodeAt(i);
      if (unit < 0x80) break;
      if (unit < 0x800) extra += 1;
      else if (isHigh(unit) && i + 1 < text.length && isLow(text.charCodeAt(i + 1))) {
        extra += 2; // four bytes over two units
        i++;
        walked++;
      } else extra += 2;
    }
    // `i` is past the run, at an ASCII unit or the end: never inside a surrogate pair.
    if (walked > DENSE_UNITS && walked * 4 > i) return i + extra + encoded(text, i);
    NON_ASCII.lastIndex = i;
  }
  return text.length + extra;
}

/** A unit that is not ASCII, searched for from `lastIndex`. */
const NON_ASCII = /[\x80-\uffff]/g;
/** Past this many units of runs, text of more than a quarter of them is encoded instead. */
const DENSE_UNITS = 1024;

/** The UTF-8 size of `text` from `from` on, encoded natively. */
function encoded(text: string, from: number): number {
  const rest = from === 0 ? text : text.slice(from);
  if (rest.length <= CHUNK_UNITS) return encoder.encodeInto(rest, scratch).written;
  // A long text is measured a chunk at a time by the native encoder, a chunk
  // never ending between the two halves of a surrogate pair.
  let bytes = 0;
  for (let start = 0; start < rest.length;) {
    let end = Math.min(start + CHUNK_UNITS, rest.length);
    if (end < rest.length && isHigh(rest.charCodeAt(end - 1))) end--;
    bytes += encoder.encodeInto(rest.slice(start, end), scratch).written;
    start = end;
  }
  return bytes;
}

/** Texts up to this many units are counted in JavaScript. */
const TINY_UNITS = 24;

/** The UTF-8 size of `text`, counted a unit at a time. */
function countBytes(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) continue;
    if (unit < 0x800) bytes += 1;
    else if (isHigh(unit) && i + 1 < text.length && isLow(text.charCodeAt(i + 1))) {
      bytes += 2; // four bytes over two units
      i++;
    } else bytes += 2;
  }
  return bytes;
}

/** The most UTF-16 units measured at once: their UTF-8 fits the scratch buffer. */
const CHUNK_UNITS = 8192;

/**
 * The longest prefix of `text` whose UTF-8 size is at most `maxBytes`, cut on
 * a code point boundary (never inside a character, never between the two
 * halves of a surrogate pair).
 *
 * @param text The text.
 * @param maxBytes The most UTF-8 bytes to keep.
 * @returns The prefix.
 *
 * @example Usage
 * ```ts
 * import { utf8Head } from "@brigade/transcript";
 * import assert from "node:assert/strict";
 *
 * assert.equal(utf8Head("ab😀cd", 5), "ab"); // the emoji's 4 bytes would make 6
 * assert.equal(utf8Head("ab😀cd", 6), "ab😀");
 * ```
 */
export function utf8Head(text: string, maxBytes: number): string {
  if (text.length <= maxBytes / 3) return text; // fast path: even all-3-byte text fits
  // The runs of ASCII skipped natively, the others walked: less than encoding the head.
  if (Number.isInteger(maxBytes) && maxBytes >= 0) {
    return text.slice(0, utf8HeadCut(text, maxBytes).units);
  }
  if (maxBytes <= scratch.length) {
    // encodeInto stops at the last whole code point that fits: `read` is that prefix's length.
    return text.slice(0, encoder.encodeInto(text, scratch.subarray(0, maxBytes)).read);
  }
  let bytes = 0;
  let i = 0;
  while (i < text.length) {
    const unit = text.charCodeAt(i);
    const pair = isHigh(unit) && i + 1 < text.length && isLow(text.charCodeAt(i + 1));
    const size = pair ? 4 : unit < 0x80 ? 1 : unit < 0x800 ? 2 : 3;
    if (bytes + size > maxBytes) break;
    bytes += size;
    i += pair ? 2 : 1;
  }
  return text.slice(0, i);
}

/**
 * The longest suffix of `text` whose UTF-8 size is at most `maxBytes`, cut on
 * a code point boundary.
 *
 * @param text The text.
 * @param maxBytes The most UTF-8 bytes to keep.
 * @returns The suffix.
 *
 * @example Usage
 * ```ts
 * import { utf8Tail } from "@brigade/transcript";
 * import assert from "node:assert/strict";
 *
 * assert.equal(utf8Tail("ab😀cd", 5), "cd");
 * assert.equal(utf8Tail("ab😀cd", 6), "😀cd");
 * ```
 */
export function utf8Tail(text: string, maxBytes: number): string {
  if (text.length <= maxBytes / 3) return text;
  let bytes = 0;
  let i = text.length;
  while (i > 0) {
    const unit = text.charCodeAt(i - 1);
    const pair = isLow(unit) && i >= 2 && isHigh(text.charCodeAt(i - 2));
    const size = pair ? 4 : unit < 0x80 ? 1 : unit < 0x800 ? 2 : 3;
    if (bytes + size > maxBytes) break;
    bytes += size;
    i -= pair ? 2 : 1;
  }
  return text.slice(i);
}
