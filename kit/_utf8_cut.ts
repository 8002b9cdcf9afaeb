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
 * After this many runs of characters that are not ASCII, a text whose runs and gaps average
 * fewer than {@linkcode SHORT_RUNS_UNITS} units is walked a unit at a time: a search a run costs
 * more than the run.
 */
const SEARCHED_RUNS = 32;
const SHORT_RUNS_UNITS = 16;

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
  // No head holds more units than bytes: nothing past the first `budget` units is looked at (a
  // search would run to the text's end). A surrogate at the last of them, a pair's or lone, would
  // not fit: the units before it take all but a byte.
  const looked = text.length > budget ? text.slice(0, budget) : text;
  let bytes = 0; // the UTF-8 size of the units before `at`
  let at = 0;
  let runs = 0;
  NON_ASCII.lastIndex = 0;
  while (NON_ASCII.test(looked)) {
    const run = NON_ASCII.lastIndex - 1;
    if (bytes + run - at > budget) return { units: at + budget - bytes, bytes: budget };
    bytes += run - at;
    if (++runs > SEARCHED_RUNS && runs * SHORT_RUNS_UNITS > run) {
      return walked(looked, budget, run, bytes);
    }
    const end = walkRun(looked, budget, run, bytes);
    if (end.stopped) return end.cut;
    // `at` is past the run, at an ASCII unit or the end: never inside a surrogate pair.
    at = end.cut.units;
    bytes = end.cut.bytes;
    NON_ASCII.lastIndex = at;
  }
  if (bytes + looked.length - at > budget) return { units: at + budget - bytes, bytes: budget };
  return { units: looked.length, bytes: bytes + looked.length - at };
}

/** The UTF-8 size of the unit at `i` (4 for a pair's first), and how many units it takes. */
function sizeAt(text: string, i: number, unit: number): number {
  if (unit < 0x800) return 2;
  if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
    const next = text.charCodeAt(i + 1);
    if (next >= 0xdc00 && next <= 0xdfff) return 4; // four bytes over two units
  }
  return 3;
}

/**
 * Walks the run of units that are not ASCII from `from`, the head before it
 * of `bytes`: where the run ends (`stopped` false), or the head within the
 * budget if it ends inside the run.
 */
function walkRun(
  text: string,
  budget: number,
  from: number,
  bytes: number,
): { stopped: boolean; cut: Utf8HeadCut } {
  let i = from;
  while (i < text.length) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) break;
    const size = sizeAt(text, i, unit);
    if (bytes + size > budget) return { stopped: true, cut: { units: i, bytes } };
    bytes += size;
    i += size === 4 ? 2 : 1;
  }
  return { stopped: false, cut: { units: i, bytes } };
}

/** {@linkcode utf8HeadCut} from `from`, the head before it of `bytes`, a unit at a time. */
function walked(text: string, budget: number, from: number, bytes: number): Utf8HeadCut {
  let i = from;
  while (i < text.length) {
    const unit = text.charCodeAt(i);
    const size = unit < 0x80 ? 1 : sizeAt(text, i, unit);
    if (bytes + size > budget) return { units: i, bytes };
    bytes += size;
    i += size === 4 ? 2 : 1;
  }
  return { units: i, bytes };
}
