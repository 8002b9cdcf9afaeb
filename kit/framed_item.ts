// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// The grader's and the dream's item body: the kit's cut text framed, one cut note after it.

import { cutNote } from "./budget.ts";
import type { ConversationItem } from "./conversation_item.ts";
import { frameBody, frameBodySize } from "./_frame.ts";
import { utf8Length } from "./utf8.ts";

/**
 * An item's body framed within `budget` bytes, then its cut note at the
 * margin when anything was cut: the kit's note is taken off the text, and
 * the bytes the kit cut and the framing cut are told as one.
 *
 * @param item The item, its text cut by the kit with its note.
 * @param indent What every non-empty line of the body starts with.
 * @param budget The most UTF-8 bytes of the framed body.
 * @returns The framed body and its note.
 */
export function framedItemBody(item: ConversationItem, indent: string, budget: number): string {
  const note = item.cutBytes === 0 ? "" : cutNote(item.cutBytes);
  const head = item.text.slice(0, item.text.length - note.length);
  const framed = frameBody(head, indent, budget);
  const cutBytes = item.cutBytes + framed.cutBytes;
  return cutBytes === 0 ? framed.text : framed.text + cutNote(cutBytes);
}

/**
 * The UTF-8 size of {@linkcode framedItemBody}'s text, counted without
 * building it in the common case.
 */
export function framedItemBodySize(item: ConversationItem, indent: string, budget: number): number {
  const note = item.cutBytes === 0 ? "" : cutNote(item.cutBytes);
  const head = item.text.slice(0, item.text.length - note.length);
  const framed = frameBodySize(head, indent, budget);
  const cutBytes = item.cutBytes + framed.cutBytes;
  return cutBytes === 0 ? framed.bytes : framed.bytes + utf8Length(cutNote(cutBytes));
}
