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
 * included. When everything fits, everything is kept, note-free. Otherwise the
 * head is kept up to the budget less the note's room, the note follows, and
 * the pieces are no longer pulled: the iterator is returned as soon as the
 * budget overflows, so a source behind it stops too.
 */
export async function joinWithinBudget(
  pieces: AsyncIterable<string>,
  budget: number,
  note: (budget: number) => string,
): Promise<string> {
  const iterator = pieces[Symbol.asyncIterator]();
  const parts: string[] = [];
  let used = 0;
  while (true) {
    const next = await iterator.next();
    if (next.done) return parts.join("");
    parts.push(next.value);
    used += utf8Length(next.value);
    if (used > budget) break;
  }
  await iterator.return?.();
  const noteText = note(budget);
  return utf8Head(parts.join(""), Math.max(0, budget - utf8Length(noteText))) + noteText;
}
