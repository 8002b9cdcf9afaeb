// Copyright 2026 the brigade authors. MIT license.

/**
 * The byte-level test that rules out most lines without decoding them. Lines are searched
 * as Latin-1 strings (one character per byte, so positions are byte offsets), where the
 * runtime's string search is fast.
 *
 * The test is exact. A record is an assistant or a model attachment only if its `type` is
 * `"assistant"` or `"attachment"`, and a model attachment also has an `identity.modelId`.
 * Without an escape those names appear in the line literally, quotes included. A JSON string
 * can spell one of their letters only as an escape from `\u0040` to `\u007f` (no other escape
 * yields a letter), so a line with such an escape is a candidate too. `JSON.stringify` never
 * writes those escapes, so the common `\u001b` of terminal colours does not make a line a
 * candidate.
 *
 * @module
 */

import { Buffer } from "node:buffer";

/** The literal an assistant record holds unless its type is escaped. */
export const ASSISTANT = '"assistant"';
const ATTACHMENT = '"attachment"';
const MODEL_ID = '"modelId"';
/** The longest literal searched, less one: what a search across two pieces must keep. */
const TAIL = ATTACHMENT.length - 1;

/** An attachment literal, or an escape that can spell a letter. */
const SPECIAL = /"attachment"|\\u00[4-7]/g;
/** An escape that can spell a letter. */
const LETTER_ESCAPE = /\\u00[4-7]/;

/** A Latin-1 string of `bytes[start, end)`: one character per byte. */
export function latin1(bytes: Uint8Array, start: number, end: number): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset + start, end - start).toString("latin1");
}

/**
 * Collects, into `out`, the `[start, end)` pairs of the lines of `text` (complete lines,
 * each ending with a newline) that may be a model attachment or hold a letter escape, in
 * file order. Lines found only by {@linkcode ASSISTANT} are not collected: the caller walks
 * those backwards with `lastIndexOf`.
 */
export function collectSpecialLines(text: string, out: number[]): void {
  out.length = 0;
  SPECIAL.lastIndex = 0;
  for (let match = SPECIAL.exec(text); match !== null; match = SPECIAL.exec(text)) {
    const at = match.index;
    const start = text.lastIndexOf("\n", at) + 1;
    let end = text.indexOf("\n", at);
    if (end === -1) end = text.length;
    let special = match[0] !== ATTACHMENT;
    if (!special) {
      const line = text.slice(at, end);
      special = LETTER_ESCAPE.test(line) || text.slice(start, end).includes(MODEL_ID);
    }
    if (special) out.push(start, end);
    SPECIAL.lastIndex = end + 1;
  }
}

/** What the pieces of a line too long for the read buffer held, searched piece by piece. */
export class LineFlags {
  #assistant = false;
  #attachment = false;
  #modelId = false;
  #escape = false;
  #tail = "";

  /** Searches the next piece of the line (as a Latin-1 string). */
  scan(piece: string): void {
    const text = this.#tail + piece;
    this.#assistant ||= text.includes(ASSISTANT);
    this.#attachment ||= text.includes(ATTACHMENT);
    this.#modelId ||= text.includes(MODEL_ID);
    this.#escape ||= LETTER_ESCAPE.test(text);
    this.#tail = text.slice(-TAIL);
  }

  /** Whether the line may be an assistant record or a model attachment. */
  get candidate(): boolean {
    return this.#assistant || this.#escape || (this.#attachment && this.#modelId);
  }
}
