// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

import { CappedPieces, MARKER_ROOM, markerText } from "./_capped_pieces.ts";

/**
 * The marker that stands where a {@linkcode CappedText} elided the middle of
 * its text.
 *
 * @param bytes The UTF-8 bytes elided.
 * @returns The marker, with the blank lines around it.
 *
 * @example Usage
 * ```ts
 * import { elisionMarker } from "@brigade/transcript";
 * import assert from "node:assert/strict";
 *
 * assert.equal(elisionMarker(42), "\n\n[… 42 bytes elided …]\n\n");
 * ```
 */
export function elisionMarker(bytes: number): string {
  return markerText(bytes);
}

/**
 * The smallest cap a {@linkcode CappedText} takes: the room its marker needs
 * for any byte count, reserved before the cap is split into head and tail.
 *
 * @example Usage
 * ```ts
 * import { CAPPED_TEXT_MIN_CAP, CappedText } from "@brigade/transcript/kit";
 * import assert from "node:assert/strict";
 *
 * assert.throws(() => new CappedText(CAPPED_TEXT_MIN_CAP - 1), RangeError);
 * assert.equal(new CappedText(CAPPED_TEXT_MIN_CAP).text(), "");
 * ```
 */
export const CAPPED_TEXT_MIN_CAP: number = MARKER_ROOM;

/** Options for {@linkcode CappedText.text}. */
export interface CappedTextOptions {
  /**
   * Given the head of a text that was cut, what to write after it, before
   * the marker: a format closes what the cut left open here (the dream closes
   * a code fence). Its room is taken from the end of the head, so the text
   * stays within the cap; the head bytes it replaces count as elided.
   *
   * @default {undefined}
   */
  closeHead?: (head: string) => string;
  /**
   * Where the head may end and the tail start: anywhere (`"any"`), or only at
   * a line break (`"line"`): a format whose lines mean something by how they
   * start (the grader's and the dream's bodies are indented, their labels are
   * not) keeps no fragment of a line next to the marker. A dropped fragment
   * counts as elided. A line ends at LF, CR or CRLF, and at VT, FF, NEL, LS or
   * PS.
   *
   * @default {"any"}
   */
  cutAt?: "any" | "line";
  /**
   * The most UTF-8 bytes of this text, marker included, when it must be
   * less than the cap the text was built with: a format that writes
   * something before the text learns its size only at the end (the dream's
   * front matter holds the session's end and the text's digest). The head
   * and the tail are then each at most half of what this cap leaves beside
   * the marker. At least {@linkcode CAPPED_TEXT_MIN_CAP}, at most the
   * constructor's cap.
   *
   * @default {the constructor's cap}
   */
  cap?: number;
}

/**
 * A text built piece by piece and capped at a number of UTF-8 bytes: while
 * the whole fits it is kept whole; past the cap only a head and a rolling
 * tail are held, each at most half of what the marker leaves, so memory stays
 * near the cap however much is pushed. It knows no format: the marker is
 * {@linkcode elisionMarker}, and `closeHead` lets a format close what a cut
 * leaves open.
 *
 * @example Usage
 * ```ts
 * import { CappedText, utf8Length } from "@brigade/transcript";
 * import assert from "node:assert/strict";
 *
 * const capped = new CappedText(1_024);
 * for (let i = 0; i < 1_000; i++) capped.push(`line ${i}\n`);
 * const text = capped.text();
 * assert.ok(utf8Length(text) <= 1_024);
 * assert.ok(text.startsWith("line 0\n"));
 * assert.ok(text.endsWith("line 999\n"));
 * assert.match(text, /\[… \d+ bytes elided …\]/);
 * assert.ok(capped.elidedBytes > 0);
 * ```
 */
export class CappedText {
  #pieces: CappedPieces;

  /**
   * A capped text, empty.
   *
   * @param cap The most UTF-8 bytes of {@linkcode CappedText.text}, marker
   * included; at least the marker's room (about 50 bytes).
   * @throws {RangeError} When `cap` leaves no room around the marker.
   */
  constructor(cap: number) {
    if (!Number.isSafeInteger(cap) || cap < MARKER_ROOM) {
      throw new RangeError(
        `Cannot cap a text at ${cap} bytes: the cap must be an integer of at least ${MARKER_ROOM}`,
      );
    }
    this.#pieces = new CappedPieces(cap);
  }

  /** The bytes a head or a tail holds at most: what {@linkcode push} keeps in each buffer. */
  get half(): number {
    return this.#pieces.half;
  }

  /** UTF-8 bytes currently held in the head and tail buffers. */
  get heldBytes(): number {
    return this.#pieces.heldBytes;
  }

  /**
   * Appends a piece.
   *
   * @param piece The text to append.
   */
  push(piece: string): void {
    this.#pieces.push(piece);
  }

  /**
   * Appends a piece given by its UTF-8 size and a way to build it: once the
   * head is full, the piece is built only if the tail still holds it when the
   * text is asked for, so a renderer past the head of a long session builds
   * the few pieces it keeps, not every one. `build` must return a text of
   * exactly `size` UTF-8 bytes, the same each time.
   *
   * Given a `part`, the piece is `build(part)`: one `build` shared by many
   * pieces, each with its part, and the tail holds the parts alone, not a
   * closure per piece nor what a closure would keep alive beside (a
   * renderer's item, say), so what it drops is short-lived garbage.
   *
   * @param size The piece's UTF-8 size.
   * @param build Builds the piece (from `part`, when given).
   * @param part What the piece is built from.
   *
   * @example Usage
   * ```ts
   * import { CappedText } from "@brigade/transcript/kit";
   * import assert from "node:assert/strict";
   *
   * const text = new CappedText(200);
   * let built = 0;
   * for (let i = 0; i < 100; i++) {
   *   text.pushBuilt(4, () => (built++, `${String(i).padStart(3, "0")}\n`));
   * }
   * const capped = text.text();
   * assert.ok(capped.startsWith("000\n001\n") && capped.endsWith("098\n099\n"));
   * assert.ok(built < 100); // the elided middle was never built
   * ```
   *
   * @example One build for many pieces, each given by its part
   * ```ts
   * import { CappedText } from "@brigade/transcript/kit";
   * import assert from "node:assert/strict";
   *
   * const text = new CappedText(200);
   * const line = (n: number): string => `${String(n).padStart(3, "0")}\n`;
   * for (let i = 0; i < 100; i++) text.pushBuilt(4, line, i);
   * assert.ok(text.text().endsWith("098\n099\n"));
   * ```
   */
  pushBuilt<P = undefined>(size: number, build: (part: P) => string, part?: P): void {
    if (part === undefined) this.#pieces.pushBuilt(size, build as () => string);
    else this.#pieces.pushPart(size, build, part);
  }

  /** The bytes the cap removed: 0 while the whole fits. */
  get elidedBytes(): number {
    return this.#pieces.elidedBytes;
  }

  /**
   * The text: whole when it fits the cap, else head, marker and tail.
   *
   * @param options A hook that closes what the cut leaves open in the head.
   * @returns The text, at most `cap` UTF-8 bytes.
   */
  text(options: CappedTextOptions = {}): string {
    return this.capped(options).text;
  }

  /**
   * The text and the bytes elided from it, as {@linkcode CappedText.text}
   * writes it with the same options.
   *
   * @param options A hook that closes what the cut leaves open in the head, where to cut, a
   *   smaller cap.
   * @returns The text and the UTF-8 bytes elided (0 while the whole fits).
   * @throws {RangeError} When `cap` is under {@linkcode CAPPED_TEXT_MIN_CAP} or over the
   *   constructor's cap.
   *
   * @example A cap lowered at the end, for what is written before the text
   * ```ts
   * import { CappedText, utf8Length } from "@brigade/transcript/kit";
   * import assert from "node:assert/strict";
   *
   * const text = new CappedText(1_024);
   * for (let i = 0; i < 200; i++) text.push(`line ${i}\n`);
   * const preface = "known only at the end: 200 lines\n";
   * const { text: body, elidedBytes } = text.capped({ cap: 1_024 - utf8Length(preface) });
   * assert.ok(utf8Length(preface + body) <= 1_024);
   * assert.ok(body.startsWith("line 0\n") && body.endsWith("line 199\n"));
   * assert.ok(elidedBytes > 0);
   * ```
   */
  capped(options: CappedTextOptions = {}): { text: string; elidedBytes: number } {
    const cap = options.cap;
    if (
      cap !== undefined &&
      (!Number.isSafeInteger(cap) || cap < MARKER_ROOM || cap > this.#pieces.cap)
    ) {
      throw new RangeError(
        `Cannot cap a text at ${cap} bytes: the cap must be an integer from ${MARKER_ROOM} to ${this.#pieces.cap}`,
      );
    }
    return this.#pieces.capped(options);
  }
}
