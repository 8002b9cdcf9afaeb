// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

import { redactedPieces, secretSpans } from "../redact/spans.ts";
import { isAscii, rememberAscii } from "./_ascii.ts";
import { type CutBody, cutBodyParts } from "./budget.ts";
import { utf8Head, utf8Length } from "./utf8.ts";

/**
 * A text's redaction, exactly as `redact` gives it, read in part: its size
 * and its head come from the secrets' ranges in the original text, so a huge
 * text (a 60 MiB message) is scanned but never copied whole to be redacted,
 * when only a head of it is shown. The secrets are still found on the whole
 * text, so one that straddles where a head ends goes, and the size of what
 * is cut is that of the whole redacted text.
 */
export class Redacted {
  /** The text, or its redaction when that is built whole (see {@linkcode WHOLE_UNITS}). */
  readonly #text: string;
  /**
   * The redacted text's pieces (slices of the text and markers), or none when it has no secret
   * or its redaction is built whole.
   */
  readonly #pieces: readonly string[] | undefined;
  #utf8Length: number | undefined;
  /** The redacted text's length, in UTF-16 code units. */
  readonly length: number;

  constructor(text: string) {
    this.#text = text;
    const spans = secretSpans(text);
    // Most texts hold no secret: they are their own redaction, with no piece to work out.
    if (spans.length === 0) {
      this.#pieces = undefined;
      this.length = text.length;
      return;
    }
    // Worked out once, as slices (views, not copies) and markers; every query reads this list.
    const pieces = redactedPieces(text, spans);
    if (text.length <= WHOLE_UNITS) {
      // A text of a few pages costs less redacted whole, once, than read in part: it is then
      // cut and measured as any text is (a session dense with keys has many such).
      let whole = "";
      for (const piece of pieces) whole += piece;
      this.#text = whole;
      this.#pieces = undefined;
      this.length = whole.length;
      return;
    }
    let length = 0;
    for (const piece of pieces) length += piece.length;
    this.#pieces = pieces;
    this.length = length;
  }

  /** The redacted text's first `units` code units, or all of it when it is shorter. */
  head(units: number): string {
    const pieces = this.#pieces;
    if (pieces === undefined) {
      return units >= this.#text.length ? this.#text : this.#text.slice(0, units);
    }
    let head = "";
    for (const piece of pieces) {
      if (head.length + piece.length >= units) return head + piece.slice(0, units - head.length);
      head += piece;
    }
    return head;
  }

  /** The redacted text's size in UTF-8 bytes. */
  utf8Length(): number {
    if (this.#utf8Length === undefined) {
      if (this.#pieces === undefined) {
        this.#utf8Length = utf8Length(this.#text);
      } else {
        // A kept slice is always followed by a marker, so no surrogate pair is
        // split between pieces: the sizes of the pieces add up to the whole's.
        let bytes = 0;
        for (const piece of this.#pieces) bytes += utf8Length(piece);
        this.#utf8Length = bytes;
      }
    }
    return this.#utf8Length;
  }

  /**
   * The redacted text cut to `budget` UTF-8 bytes, as `cutBodyParts` cuts it:
   * the head on a code point boundary, and the bytes cut.
   */
  cut(budget: number): CutBody {
    if (this.#pieces === undefined) return cutText(this.#text, budget);
    // No unit takes more than three bytes: a redaction this short fits unmeasured.
    if (this.length <= budget / 3) return { head: this.head(Infinity), cutBytes: 0 };
    if (Number.isSafeInteger(budget) && isAscii(this.#text)) {
      // ASCII, and so is the marker: a unit is a byte.
      if (this.length <= budget) return { head: this.head(Infinity), cutBytes: 0 };
      return { head: asciiHead(this.head(budget)), cutBytes: this.length - budget };
    }
    const size = this.utf8Length();
    if (size <= budget) return { head: this.head(Infinity), cutBytes: 0 };
    // A head of `budget` bytes holds at most `budget` units; one more shows
    // whether the last of them ends a surrogate pair.
    const head = detach(utf8Head(this.head(budget + 1), budget));
    return { head, cutBytes: size - utf8Length(head) };
  }
}

/**
 * The longest text whose redaction is built whole: cutting it copies no more than this
 * (a head it keeps is a copy of its own), and a longer one is read in part.
 */
const WHOLE_UNITS = 8192;

/**
 * `cutBodyParts(text, budget)`, with no text measured when it is ASCII (most
 * is): one scan says so, and a unit is then a byte.
 */
function cutText(text: string, budget: number): CutBody {
  if (text.length <= budget / 3 || !Number.isSafeInteger(budget) || !isAscii(text)) {
    return cutBodyParts(text, budget);
  }
  if (text.length <= budget) return { head: text, cutBytes: 0 };
  return { head: asciiHead(text.slice(0, budget)), cutBytes: text.length - budget };
}

/** The head of an ASCII text, detached, and remembered as ASCII: the framing asks next. */
function asciiHead(head: string): string {
  const kept = detach(head);
  rememberAscii(kept);
  return kept;
}

/** A copy of a short slice, so that it does not keep its long parent alive. */
function detach(text: string): string {
  return (text + " ").slice(0, -1);
}
