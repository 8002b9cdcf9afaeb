// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// Where a text's head of a UTF-8 budget ends, and its size, found by skipping the runs of ASCII
// (a unit is then a byte) and walking the runs of other characters. The native encoder
// (`encodeInto` into a buffer of the budget's size) found the same head at a greater cost: a
// native call, and every unit of the head encoded and written.

/** A text's head within a UTF-8 budget. */
export interface Utf8HeadCut {
  /** The head's length in UTF-16 units: the longest on a code point boundary within the budget. */
  units: number;
  /** The head's UTF-8 size. */
  bytes: number;
}

/** A unit that is not ASCII, searched for from `lastIndex`. */
const NON_ASCII = /[\x80-\uffff]/g;

/**
 * The longest head of `text` of at most `budget` UTF-8 bytes, cut on a code
 * point boundary (never between the two units of a surrogate pair), and its
 * size. A lone surrogate counts as the three bytes of the U+FFFD it becomes,
 * as the encoder writes it.
 *
 * @param text The text.
 * @param budget The most UTF-8 bytes of the head: an integer, 0 or more.
 * @returns The head's length and size.
 */
export function utf8HeadCut(text: string, budget: number): Utf8HeadCut {
  let bytes = 0; // the UTF-8 size of the units before `at`
  let at = 0;
  NON_ASCII.lastIndex = 0;
  while (NON_ASCII.test(text)) {
    const run = NON_ASCII.lastIndex - 1;
    if (bytes + run - at > budget) return { units: at + budget - bytes, bytes: budget };
    bytes += run - at;
    let i = run;
    while (i < text.length) {
      const unit = text.charCodeAt(i);
      if (unit < 0x80) break;
      let size = 3;
      let width = 1;
      if (unit < 0x800) size = 2;
      else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
        const next = text.charCodeAt(i + 1);
        if (next >= 0xdc00 && next <= 0xdfff) {
          size = 4; // four bytes over two units
          width = 2;
        }
      }
      if (bytes + size > budget) return { units: i, bytes };
      bytes += size;
      i += width;
    }
    // `i` is past the run, at an ASCII unit or the end: never inside a surrogate pair.
    at = i;
    NON_ASCII.lastIndex = i;
  }
  if (bytes + text.length - at > budget) return { units: at + budget - bytes, bytes: budget };
  return { units: text.length, bytes: bytes + text.length - at };
}
