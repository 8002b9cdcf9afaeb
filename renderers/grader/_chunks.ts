// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// The grader's chunks (`chunks: { bytes }`): the whole session as ordered chunks of at most that
// many bytes, cut at item boundaries, each headed with its number and its items' numbers, one
// chunk in memory at a time.

import type { ConversationItem } from "../../kit/conversation_item.ts";
import { cutNote } from "../../kit/budget.ts";
import { utf8Length } from "../../kit/utf8.ts";
import { itemText, labelLine } from "./_pieces.ts";

/** The smallest chunk: room for its heading, the longest label the kit writes, a body head and its cut note. */
export const CHUNK_MIN_BYTES = 4_096;

/**
 * A chunk's heading: `[chunk i · items a–b]`, and for the last chunk, which
 * alone knows how many there are, `[chunk i of i · items a–b]`.
 */
function heading(index: number, first: number, last: number, final: boolean): string {
  const items = first === last ? `item ${first}` : `items ${first}–${last}`;
  return `[chunk ${index}${final ? ` of ${index}` : ""} · ${items}]\n`;
}

/**
 * The chunks of the items, each given out as soon as the next item does not
 * fit it (the last at the end): each at most `bytes` UTF-8 bytes, its
 * heading included; an item too long for a chunk of its own has its body cut
 * with a note, as the item budget cuts.
 */
export async function* chunkPieces(
  items: AsyncIterable<ConversationItem>,
  bytes: number,
  itemBudget: number,
  ids: boolean,
): AsyncGenerator<string, void, undefined> {
  let index = 1;
  let first = 1;
  let number = 0;
  let texts: string[] = [];
  let used = 0;
  for await (const item of items) {
    number++;
    let text = itemText(item, itemBudget, ids);
    let size = utf8Length(text);
    if (texts.length > 0 && fits(index, first, number, used + 1 + size, bytes)) {
      texts.push(`\n${text}`);
      used += 1 + size;
      continue;
    }
    if (texts.length > 0) {
      yield heading(index, first, number - 1, false) + texts.join("");
      index++;
      first = number;
    }
    if (!fits(index, first, number, size, bytes)) {
      text = cutToFit(item, bytes - utf8Length(heading(index, first, number, true)), ids);
      size = utf8Length(text);
    }
    texts = [text];
    used = size;
  }
  if (texts.length > 0) yield heading(index, first, number, true) + texts.join("");
}

/** Whether a chunk of `used` bytes of items fits, under its heading in its longest form. */
function fits(index: number, first: number, last: number, used: number, bytes: number): boolean {
  return utf8Length(heading(index, first, last, true)) + used <= bytes;
}

/** An item's text within `room` bytes: its body framed within what its label and note leave. */
function cutToFit(item: ConversationItem, room: number, ids: boolean): string {
  const label = utf8Length(labelLine(item, ids)) + 2;
  const note = utf8Length(cutNote(Number.MAX_SAFE_INTEGER));
  return itemText(item, Math.max(0, room - label - note), ids);
}
