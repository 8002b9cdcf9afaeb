// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// How the grader and the dream keep a body from speaking as the renderer: every line of a body is
// written behind an indent, so no byte sequence inside it can start a line of its own. The labels,
// headings and notes the renderer writes start at column 0; a body line never does. The indent
// counts in the item budget, as any byte of the body does.

import { knownAscii } from "./_ascii.ts";
import { utf8Head, utf8Length } from "./utf8.ts";
import { rememberedSize, rememberSize } from "./_utf8_memo.ts";
import { utf8HeadCut } from "./_utf8_cut.ts";

/**
 * What a reader may take for the end of a line: CommonMark's (LF, CR, CRLF), and what
 * plain-text readers also break at (VT, FF, NEL, LS, PS). Each becomes `\n` in a framed body.
 */
const BREAK_CHARS = "\\n\\r\\v\\f\\x85\\u2028\\u2029";
const LINE_BREAK = new RegExp(`\\r\\n|[${BREAK_CHARS}]`, "g");
const BREAK_CHAR = new RegExp(`[${BREAK_CHARS}]`);

/**
 * Whether the character of `text` at `index` breaks a line, for CommonMark or a plain-text
 * reader.
 */
export function isLineBreak(text: string, index: number): boolean {
  return BREAK_CHAR.test(text[index] ?? "");
}

/**
 * `text` from its first whole line: what precedes the first line break is dropped.
 *
 * @param text A text that starts inside a line.
 * @returns The text after its first line break; `""` when it has none.
 */
export function fromNextLine(text: string): string {
  LINE_BREAK.lastIndex = 0;
  const match = LINE_BREAK.exec(text);
  return match === null ? "" : text.slice(match.index + match[0].length);
}

/** A framed body and the UTF-8 bytes of the body the framing's budget left out. */
export interface FramedBody {
  /** Every line of the body behind the indent (an empty line stays empty), joined by `\n`. */
  text: string;
  /** Bytes of the body that did not fit: 0 when it fit whole. */
  cutBytes: number;
}

/**
 * Frames `body`: each of its lines, however a reader breaks lines, is written
 * behind `indent`, and the framed text is at most `budget` UTF-8 bytes (the
 * indents and line breaks count), cut on a code point boundary when longer.
 *
 * @param body The item's text, without its cut note.
 * @param indent What every non-empty line starts with.
 * @param budget The most UTF-8 bytes of the framed text.
 * @returns The framed text and the body's bytes left out.
 */
export function frameBody(body: string, indent: string, budget: number): FramedBody {
  const indentBytes = utf8Length(indent);
  const whole = framedWhole(body, indent, indentBytes, budget);
  if (whole !== undefined) return { text: whole, cutBytes: 0 };
  let text = "";
  let used = 0;
  let start = 0;
  LINE_BREAK.lastIndex = 0;
  for (let first = true;; first = false) {
    const match = LINE_BREAK.exec(body);
    const end = match === null ? body.length : match.index;
    const line = body.slice(start, end);
    const lead = (first ? 0 : 1) + (line === "" ? 0 : indentBytes);
    const size = utf8Length(line);
    if (used + lead + size > budget) {
      const room = budget - used - lead;
      const kept = room > 0 ? utf8Head(line, room) : "";
      if (kept !== "") text += (first ? "" : "\n") + indent + kept;
      return { text, cutBytes: utf8Length(body) - utf8Length(body.slice(0, start + kept.length)) };
    }
    text += (first ? "" : "\n") + (line === "" ? "" : indent) + line;
    used += lead + size;
    if (match === null) return { text, cutBytes: 0 };
    start = LINE_BREAK.lastIndex;
  }
}

/** A line break other than LF: a body without one is framed in one replace. */
const OTHER_BREAK = /[\r\v\f\x85\u2028\u2029]/;
/** Where a non-empty line of an LF-only text starts. */
const LINE_START = /^(?=[^\n])|\n(?=[^\n])/g;

/**
 * The common case of {@linkcode frameBody}, without a piece per line: a body
 * whose only line break is LF and whose framed size fits the budget is framed
 * in one replace (its size counted, not built). `undefined` otherwise.
 */
function framedWhole(
  body: string,
  indent: string,
  indentBytes: number,
  budget: number,
): string | undefined {
  if (OTHER_BREAK.test(body) || indent.includes("$")) return undefined;
  const lines = nonEmptyLines(body);
  if (utf8Length(body) + lines * indentBytes > budget) return undefined;
  return lines === 0 ? body : body.replace(LINE_START, `$&${indent}`);
}

/**
 * The UTF-8 size of {@linkcode frameBody}'s text and the bytes it cuts,
 * counted without building the text when the body is framed whole in the
 * common way (LF line breaks, within the budget).
 */
export function frameBodySize(
  body: string,
  indent: string,
  budget: number,
): { bytes: number; cutBytes: number } {
  const indentBytes = utf8Length(indent);
  // Most bodies are ASCII broken by LF alone: one scan says so, and a unit is then a byte. A
  // body the cut just found ASCII is looked at for its breaks alone.
  const known = knownAscii(body);
  const first = body.search(known ? OTHER_BREAK : NON_ASCII_OR_OTHER_BREAK);
  if (first === -1) {
    const bytes = body.length + nonEmptyLines(body) * indentBytes;
    return bytes <= budget ? { bytes, cutBytes: 0 } : measureAsciiFramed(body, indentBytes, budget);
  }
  if (!known) {
    const size = lfOnlySize(body, first);
    if (size === -1) return measureFramed(body, indentBytes, budget);
    const lines = nonEmptyLines(body);
    const bytes = size + lines * indentBytes;
    if (bytes <= budget) return { bytes, cutBytes: 0 };
    // A cut in the second half of what the framing would write (a head cut to the item budget,
    // which its indents push over it) is found from the end, a few lines measured.
    if (budget * 2 >= bytes) return measureFramedFromEnd(body, indentBytes, budget, size, lines);
    if (body.length <= ENCODED_UNITS) return measureEncodedFramed(body, indentBytes, budget);
  }
  return measureFramed(body, indentBytes, budget);
}

/**
 * {@linkcode measureFramed} for a body broken by LF alone, of `size` UTF-8
 * bytes and `lines` non-empty lines, whose framing is over `budget`: from
 * the end, each line is taken off what the framing writes until what is
 * written before it fits, the line the cut falls in. A head the item budget
 * cut, framed, overflows by its indents: a few lines at its end are measured,
 * where {@linkcode measureEncodedFramed} encodes the whole body.
 */
function measureFramedFromEnd(
  body: string,
  indentBytes: number,
  budget: number,
  size: number,
  lines: number,
): { bytes: number; cutBytes: number } {
  // What the framing writes before the line that ends at `end` (at first, all of it), and
  // where that line ends in the body's UTF-8 bytes.
  let used = size + lines * indentBytes;
  let end = body.length;
  let endByte = size;
  for (;;) {
    const newline = end === 0 ? -1 : body.lastIndexOf("\n", end - 1);
    const first = newline === -1;
    const line = body.slice(newline + 1, end);
    const lineBytes = utf8Length(line);
    const lead = (first ? 0 : 1) + (lineBytes > 0 ? indentBytes : 0);
    used -= lead + lineBytes;
    const startByte = endByte - lineBytes;
    // What precedes this line fits, and the line does not (else it would not have been reached).
    if (used <= budget || first) {
      const room = budget - used - lead;
      const kept = room <= 0
        ? 0
        : Number.isInteger(room)
        ? utf8HeadCut(line, room).bytes
        : utf8Length(utf8Head(line, room));
      const written = kept === 0 ? 0 : (first ? 0 : 1) + indentBytes + kept;
      return { bytes: used + written, cutBytes: size - startByte - kept };
    }
    end = newline;
    endByte = startByte - 1;
  }
}

/** A unit that is not ASCII, or a line break other than LF (each of {@linkcode OTHER_BREAK}'s). */
const NON_ASCII_OR_OTHER_BREAK = /[\v\f\r\x80-\uffff]/;
/** {@linkcode NON_ASCII_OR_OTHER_BREAK}, searched for from `lastIndex`. */
const NON_ASCII_OR_OTHER_BREAK_FROM = /[\v\f\r\x80-\uffff]/g;
/** {@linkcode OTHER_BREAK}, searched for from `lastIndex`. */
const OTHER_BREAK_FROM = /[\r\v\f\x85\u2028\u2029]/g;
/** Past this many units of runs, text of more than a quarter of them is measured by `utf8Length`. */
const DENSE_UNITS = 1024;

/**
 * The UTF-8 size of `body` when LF is its only line break, else -1, in one
 * pass from `from` (its first unit that is not ASCII or is a break other
 * than LF): a native search skips to each such unit, and each run of units
 * that are not ASCII is counted here, where the other breaks that are not
 * ASCII (NEL, LS, PS) are seen too. Two searches and a measure, in one. A
 * text whose size was just worked out (the cut measured it), or dense with
 * such runs, is searched for its breaks and measured by `utf8Length`.
 */
function lfOnlySize(body: string, from: number): number {
  if (rememberedSize(body) !== -1) return lfOnlyMeasured(body, from);
  let extra = 0;
  let walked = 0;
  let i = from;
  for (;;) {
    if (body.charCodeAt(i) < 0x80) return -1; // CR, VT or FF
    for (; i < body.length; i++, walked++) {
      const unit = body.charCodeAt(i);
      if (unit < 0x80) break;
      if (unit < 0x800) {
        if (unit === 0x85) return -1;
        extra += 1;
      } else if (unit === 0x2028 || unit === 0x2029) return -1;
      else if (unit <= 0xdbff && unit >= 0xd800 && i + 1 < body.length) {
        const next = body.charCodeAt(i + 1);
        extra += 2; // three bytes for a lone surrogate, four over two units for a pair
        if (next >= 0xdc00 && next <= 0xdfff) {
          i++;
          walked++;
        }
      } else extra += 2;
    }
    if (walked > DENSE_UNITS && walked * 4 > i) return lfOnlyMeasured(body, from);
    NON_ASCII_OR_OTHER_BREAK_FROM.lastIndex = i;
    if (!NON_ASCII_OR_OTHER_BREAK_FROM.test(body)) {
      rememberSize(body, body.length + extra);
      return body.length + extra;
    }
    i = NON_ASCII_OR_OTHER_BREAK_FROM.lastIndex - 1;
  }
}

/** {@linkcode lfOnlySize} by a search for the other breaks from `from`, then `utf8Length`. */
function lfOnlyMeasured(body: string, from: number): number {
  // Every other break is one of those units: none comes before the first, nor need be looked for.
  OTHER_BREAK_FROM.lastIndex = from;
  return OTHER_BREAK_FROM.test(body) ? -1 : utf8Length(body);
}

/** {@linkcode measureFramed} for an ASCII body broken by LF alone: a unit is a byte. */
function measureAsciiFramed(
  body: string,
  indentBytes: number,
  budget: number,
): { bytes: number; cutBytes: number } {
  let used = 0;
  let start = 0;
  for (let first = true;; first = false) {
    const next = body.indexOf("\n", start);
    const end = next === -1 ? body.length : next;
    const size = end - start;
    const lead = (first ? 0 : 1) + (size > 0 ? indentBytes : 0);
    if (used + lead + size > budget) {
      const kept = Math.max(0, budget - used - lead);
      const written = kept === 0 ? 0 : (first ? 0 : 1) + indentBytes + kept;
      return { bytes: used + written, cutBytes: body.length - start - kept };
    }
    used += lead + size;
    if (next === -1) return { bytes: used, cutBytes: 0 };
    start = next + 1;
  }
}

const encoder = new TextEncoder();
/** The most UTF-16 units {@linkcode measureEncodedFramed} encodes: their UTF-8 fits `encoded`. */
const ENCODED_UNITS = 8192;
// One byte more than the longest encoding, for the line break put after it.
const encoded = new Uint8Array(3 * ENCODED_UNITS + 1);

/**
 * {@linkcode measureFramed} for a body broken by LF alone, read as its UTF-8
 * bytes (encoded once, natively): a line's size is the distance between two
 * breaks, and a cut backs off continuation bytes to a code point boundary.
 */
function measureEncodedFramed(
  body: string,
  indentBytes: number,
  budget: number,
): { bytes: number; cutBytes: number } {
  const total = encoder.encodeInto(body, encoded).written;
  encoded[total] = 0x0a; // the last line ends here, whatever the buffer held before
  let used = 0;
  let start = 0;
  for (let first = true;; first = false) {
    const end = encoded.indexOf(0x0a, start);
    const size = end - start;
    const lead = (first ? 0 : 1) + (size > 0 ? indentBytes : 0);
    if (used + lead + size > budget) {
      let kept = Math.max(0, budget - used - lead);
      while (kept > 0 && (encoded[start + kept]! & 0xc0) === 0x80) kept--;
      const written = kept === 0 ? 0 : (first ? 0 : 1) + indentBytes + kept;
      return { bytes: used + written, cutBytes: total - start - kept };
    }
    used += lead + size;
    if (end === total) return { bytes: used, cutBytes: 0 };
    start = end + 1;
  }
}

/** {@linkcode frameBody}'s loop, counting what it would write: no line, no match, no text built. */
function measureFramed(
  body: string,
  indentBytes: number,
  budget: number,
): { bytes: number; cutBytes: number } {
  let used = 0;
  let prefix = 0; // bytes of the body before `start`
  let start = 0;
  for (let first = true;; first = false) {
    let end = start;
    let size = 0;
    let unit = 0;
    while (end < body.length) {
      unit = body.charCodeAt(end);
      if (isBreakUnit(unit)) break;
      const bytes = unitBytes(body, end, unit);
      size += bytes;
      end += bytes === 4 ? 2 : 1;
    }
    const lead = (first ? 0 : 1) + (end > start ? indentBytes : 0);
    if (used + lead + size > budget) {
      const room = budget - used - lead;
      let kept = 0;
      for (let i = start; i < end && room > 0;) {
        const bytes = unitBytes(body, i, body.charCodeAt(i));
        if (kept + bytes > room) break;
        kept += bytes;
        i += bytes === 4 ? 2 : 1;
      }
      const written = kept === 0 ? 0 : (first ? 0 : 1) + indentBytes + kept;
      return { bytes: used + written, cutBytes: utf8Length(body) - prefix - kept };
    }
    used += lead + size;
    if (end === body.length) return { bytes: used, cutBytes: 0 };
    const breakUnits = unit === 0x0d && body.charCodeAt(end + 1) === 0x0a ? 2 : 1;
    prefix += size + (breakUnits === 2 ? 2 : unit === 0x85 ? 2 : unit > 0x7ff ? 3 : 1);
    start = end + breakUnits;
  }
}

/** Whether a UTF-16 unit is one of the line-break characters. */
function isBreakUnit(unit: number): boolean {
  return (unit >= 0x0a && unit <= 0x0d) || unit === 0x85 || unit === 0x2028 || unit === 0x2029;
}

/** The UTF-8 bytes of the code point at `i` (4 for a surrogate pair, 3 for a lone surrogate). */
function unitBytes(text: string, i: number, unit: number): number {
  if (unit < 0x80) return 1;
  if (unit < 0x800) return 2;
  if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
    const next = text.charCodeAt(i + 1);
    if (next >= 0xdc00 && next <= 0xdfff) return 4;
  }
  return 3;
}

/** How many lines of an LF-only text are not empty. */
function nonEmptyLines(body: string): number {
  let lines = 0;
  let start = 0;
  for (let end = body.indexOf("\n"); end !== -1; end = body.indexOf("\n", start)) {
    if (end > start) lines++;
    start = end + 1;
  }
  return start < body.length ? lines + 1 : lines;
}

/**
 * `text` up to its last line break, included: a fragment of a line after it is dropped.
 *
 * @param text A text that may end inside a line.
 * @returns The text through its last line break; `""` when it has none.
 */
export function toLastLine(text: string): string {
  for (let i = text.length - 1; i >= 0; i--) if (isLineBreak(text, i)) return text.slice(0, i + 1);
  return "";
}
