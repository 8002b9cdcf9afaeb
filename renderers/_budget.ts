// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

import { utf8Head, utf8Length } from "./_utf8.ts";

/** A body cut to at most `budget` UTF-8 bytes, with a note naming the bytes cut. */
export function cutBody(body: string, budget: number): string {
  const size = utf8Length(body);
  if (size <= budget) return body;
  const head = utf8Head(body, budget);
  return `${head}\n[cut: ${size - utf8Length(head)} more bytes]`;
}

/**
 * Joins pieces into a text of at most `budget` UTF-8 bytes, final note
 * included. The head is kept; when a piece does not fit, what fits of it is
 * kept, the note follows, and the pieces are no longer pulled (the iterator is
 * returned, so a source behind it stops too). One piece is looked ahead so
 * that a last piece that fits without the note's room is kept whole.
 */
export async function joinWithinBudget(
  pieces: AsyncIterable<string>,
  budget: number,
  note: (budget: number) => string,
): Promise<string> {
  const noteText = note(budget);
  const room = budget - utf8Length(noteText);
  const iterator = pieces[Symbol.asyncIterator]();
  const parts: string[] = [];
  let used = 0;
  let next = await iterator.next();
  try {
    while (!next.done) {
      const size = utf8Length(next.value);
      if (used + size <= room) {
        parts.push(next.value);
        used += size;
        next = await iterator.next();
        continue;
      }
      const piece = next.value;
      next = await iterator.next();
      if (next.done && used + size <= budget) return parts.join("") + piece;
      return parts.join("") + utf8Head(piece, Math.max(0, room - used)) + noteText;
    }
    return parts.join("");
  } finally {
    if (!next.done) await iterator.return?.();
  }
}
