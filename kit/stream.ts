// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// The incremental forms of the budgeted joins, for a renderer's `stream()`: each piece is given
// out as soon as no later cut can take it back, so that the chunks, joined, are exactly the text
// the whole-output form returns.

import { toLastLine } from "./_frame.ts";
import type { JoinWithinBudgetOptions } from "./budget.ts";
import type { CappedText } from "./capped_text.ts";
import { utf8Head, utf8Length } from "./utf8.ts";

/**
 * {@linkcode joinWithinBudget}'s text, in chunks, for following a live
 * session: a piece is yielded as soon as it fits with the cut note after it
 * (no cut can reach it then); the pieces past that point are held (less than
 * the note's size) until the source ends or the budget is passed, then the
 * rest is yielded at once. Joined, the chunks are exactly
 * {@linkcode joinWithinBudget}'s text for the same arguments, and the pieces
 * are no longer pulled once the budget is passed.
 *
 * @param pieces The pieces, in order.
 * @param budget The most UTF-8 bytes of the joined chunks, note included.
 * @param note The note that ends a cut text, given the budget.
 * @param options Where the kept text may end.
 * @returns The chunks.
 *
 * @example Usage
 * ```ts
 * import { joinWithinBudget, streamWithinBudget } from "@brigade/transcript/kit";
 * import assert from "node:assert/strict";
 *
 * const note = (): string => "\n[cut]\n";
 * async function* pieces(): AsyncGenerator<string> {
 *   for (let i = 0; i < 10; i++) yield `line ${i}\n`;
 * }
 * const chunks = await Array.fromAsync(streamWithinBudget(pieces(), 40, note, { cutAt: "line" }));
 * assert.deepEqual(chunks.slice(0, 2), ["line 0\n", "line 1\n"]);
 * assert.equal(chunks.join(""), await joinWithinBudget(pieces(), 40, note, { cutAt: "line" }));
 * ```
 */
export async function* streamWithinBudget(
  pieces: AsyncIterable<string>,
  budget: number,
  note: (budget: number) => string,
  options: JoinWithinBudgetOptions = {},
): AsyncGenerator<string, void, undefined> {
  const cutAt = options.cutAt ?? "any";
  const noteText = note(budget);
  const room = budget - utf8Length(noteText);
  const iterator = pieces[Symbol.asyncIterator]();
  const held: string[] = [];
  let used = 0;
  let over = false;
  try {
    while (true) {
      const next = await iterator.next();
      if (next.done) break;
      used += utf8Length(next.value);
      if (used > budget) {
        held.push(next.value);
        over = true;
        break;
      }
      if (held.length === 0 && used <= room) {
        yield next.value;
      } else {
        held.push(next.value);
      }
    }
  } finally {
    await iterator.return?.();
  }
  if (!over) {
    if (held.length > 0) yield held.join("");
    return;
  }
  // The bytes already given out are whole pieces within `room`: the head keeps them.
  const given = used - held.reduce((sum, piece) => sum + utf8Length(piece), 0);
  const rest = utf8Head(held.join(""), Math.max(0, room - given));
  // A cut at a line looks back into what was given only when the rest holds no line end.
  const tail = cutAt === "line" ? toLastLine(rest) : rest;
  yield tail + noteText;
}

/**
 * A piece given by its UTF-8 size and a way to build it, for
 * {@linkcode streamCapped} and {@linkcode CappedText.pushBuilt}: a renderer past
 * the head of a long session measures each piece and builds only those kept.
 *
 * @example Usage
 * ```ts
 * import { CappedText, type SizedPiece, streamCapped } from "@brigade/transcript/kit";
 * import assert from "node:assert/strict";
 *
 * let built = 0;
 * async function* pieces(): AsyncGenerator<SizedPiece> {
 *   for (let i = 0; i < 100; i++) {
 *     yield { size: 4, build: () => (built++, `${String(i).padStart(3, "0")}\n`) };
 *   }
 * }
 * const text = (await Array.fromAsync(streamCapped(pieces(), new CappedText(200)))).join("");
 * assert.ok(text.startsWith("000\n") && text.endsWith("099\n"));
 * assert.ok(built < 100); // the elided middle was never built
 * ```
 */
export interface SizedPiece {
  /** The UTF-8 size of what `build` returns. */
  size: number;
  /** Builds the piece: a text of exactly `size` UTF-8 bytes, the same each time. */
  build: () => string;
}

/**
 * A {@linkcode CappedText}'s text as `text.text({ cutAt: "line" })` writes
 * it, in chunks, for following a live session: each piece is pushed into
 * `text`, and yielded at once while the pieces so far fit the head and end
 * at a line break (the head keeps them whatever comes next); the rest (the
 * marker and the tail, when the cap is reached) is yielded at the end, when
 * the tail is known. A piece may be given by its size and a way to build it
 * ({@linkcode SizedPiece}): it is built while the head takes it, and past
 * the head only if the tail still holds it at the end, as
 * {@linkcode CappedText.pushBuilt} builds.
 *
 * @param pieces The pieces, in order: texts, or sized pieces built when needed.
 * @param text An empty capped text, of the cap wanted.
 * @returns The chunks.
 *
 * @example Usage
 * ```ts
 * import { CappedText, streamCapped } from "@brigade/transcript/kit";
 * import assert from "node:assert/strict";
 *
 * async function* pieces(): AsyncGenerator<string> {
 *   for (let i = 0; i < 100; i++) yield `line ${i}\n`;
 * }
 * const chunks = await Array.fromAsync(streamCapped(pieces(), new CappedText(200)));
 * assert.equal(chunks[0], "line 0\n");
 * const whole = new CappedText(200);
 * for await (const piece of pieces()) whole.push(piece);
 * assert.equal(chunks.join(""), whole.text({ cutAt: "line" }));
 * ```
 */
export async function* streamCapped(
  pieces: AsyncIterable<string | SizedPiece>,
  text: CappedText,
): AsyncGenerator<string, void, undefined> {
  let givenBytes = 0;
  let givenChars = 0;
  let giving = true;
  for await (const piece of pieces) {
    if (!giving) {
      if (typeof piece === "string") text.push(piece);
      else text.pushBuilt(piece.size, piece.build);
      continue;
    }
    const built = typeof piece === "string" ? piece : piece.build();
    const size = typeof piece === "string" ? utf8Length(piece) : piece.size;
    text.push(built);
    if (givenBytes + size <= text.half && /[\n\r]$/.test(built)) {
      givenBytes += size;
      givenChars += built.length;
      yield built;
    } else {
      giving = false;
    }
  }
  const rest = text.capped({ cutAt: "line" }).text.slice(givenChars);
  if (rest !== "") yield rest;
}
