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
/** The tail of {@linkcode MODEL_ID} searched first: a capital I is rare in transcripts. */
const ID = 'Id"';
const MODEL_ID_BEFORE = MODEL_ID.length - ID.length;
/** The longest literal searched, less one: what a search across two pieces must keep. */
const TAIL = ATTACHMENT.length - 1;

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
 *
 * The searches start from rare characters, where the runtime's string search is fastest: a
 * model attachment without escapes holds `"modelId"`, found from its `Id"` (a capital I is
 * rare in transcripts), and a letter escape holds `00`, far rarer than its backslash.
 */
export function collectSpecialLines(text: string, out: number[]): void {
  out.length = 0;
  let escapes = 0;
  // Letter escapes: `\u00` then 4 to 7.
  for (let at = text.indexOf("00"); at !== -1; at = text.indexOf("00", at + 1)) {
    const next = text.charCodeAt(at + 2);
    if (
      next >= 0x34 && next <= 0x37 && text.charCodeAt(at - 1) === 0x75 &&
      text.charCodeAt(at - 2) === 0x5c
    ) {
      const start = text.lastIndexOf("\n", at) + 1;
      const end = lineEnd(text, at);
      out.push(start, end);
      escapes += 2;
      at = end;
    }
  }
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

function lineEnd(text: string, at: number): number {
  const end = text.indexOf("\n", at);
  return end === -1 ? text.length : end;
}

/** Sorts `[start, end)` pairs by start. */
function sortPairs(pairs: number[]): void {
  const sorted: [number, number][] = [];
  for (let i = 0; i < pairs.length; i += 2) sorted.push([pairs[i]!, pairs[i + 1]!]);
  sorted.sort((a, b) => a[0] - b[0]);
  pairs.length = 0;
  for (const [start, end] of sorted) pairs.push(start, end);
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
