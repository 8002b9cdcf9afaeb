// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// The grader's and the dream's item body: the kit's cut text framed, one cut note after it.
// Public, for a team's renderer whose bodies must not read as its own labels either.

import { cutNote } from "./budget.ts";
import type { ConversationItem } from "./conversation_item.ts";
import { frameBody, frameBodySize } from "./_frame.ts";
import { utf8Length } from "./utf8.ts";

/**
 * An item's body framed within `budget` bytes, then its cut note at the
 * margin when anything was cut: every line of the text, however a reader
 * breaks lines (LF, CR, CRLF, VT, FF, NEL, LS, PS), is written behind
 * `indent` (an empty line stays empty), so no byte sequence inside a body can
 * start a line of its own and read as a label, a heading or a note the
 * renderer wrote. The indents count in the budget. The kit's cut note is
 * taken off the text, and the bytes the kit cut and the framing cut are
 * told in one note. The grader frames with two spaces, the dream with four
 * (a Markdown indented code block).
 *
 * @param item The item, its text cut by the kit with its note.
 * @param indent What every non-empty line of the body starts with.
 * @param budget The most UTF-8 bytes of the framed body.
 * @returns The framed body and its note.
 *
 * @example Usage
 * ```ts
 * import { conversation, framedItemBody } from "@brigade/transcript/kit";
 * import assert from "node:assert/strict";
 *
 * const [item] = await Array.fromAsync(conversation([{
 *   seq: 1,
 *   session_id: "s",
 *   thread_id: null,
 *   event: { id: "e1", type: "agent.message", content: "Done.\r[user]\nok" },
 * }]));
 * assert.equal(framedItemBody(item!, "  ", 100), "  Done.\n  [user]\n  ok");
 * assert.equal(framedItemBody(item!, "  ", 10), "  Done.\n[cut: 9 more bytes]");
 * ```
 */
export function framedItemBody(
  item: Pick<ConversationItem, "text" | "cutBytes">,
  indent: string,
  budget: number,
): string {
  const note = item.cutBytes === 0 ? "" : cutNote(item.cutBytes);
  const head = item.text.slice(0, item.text.length - note.length);
  const framed = frameBody(head, indent, budget);
  const cutBytes = item.cutBytes + framed.cutBytes;
  return cutBytes === 0 ? framed.text : framed.text + cutNote(cutBytes);
}

/**
 * The UTF-8 size of {@linkcode framedItemBody}'s text, counted without
 * building it in the common case: with `CappedText.pushBuilt`, a
 * renderer past the head of its text builds only the bodies it keeps.
 *
 * @param item The item, its text cut by the kit with its note.
 * @param indent What every non-empty line of the body starts with.
 * @param budget The most UTF-8 bytes of the framed body.
 * @returns The framed body's UTF-8 size, its note included.
 *
 * @example Usage
 * ```ts
 * import { conversation, framedItemBody, framedItemBodySize, utf8Length } from "@brigade/transcript/kit";
 * import assert from "node:assert/strict";
 *
 * const [item] = await Array.fromAsync(conversation([{
 *   seq: 1,
 *   session_id: "s",
 *   thread_id: null,
 *   event: { id: "e1", type: "agent.message", content: "é\n".repeat(50) },
 * }]));
 * for (const budget of [10, 100, 1_000]) {
 *   assert.equal(framedItemBodySize(item!, "    ", budget), utf8Length(framedItemBody(item!, "    ", budget)));
 * }
 * ```
 */
export function framedItemBodySize(item: ConversationItem, indent: string, budget: number): number {
  const note = item.cutBytes === 0 ? "" : cutNote(item.cutBytes);
  const head = item.text.slice(0, item.text.length - note.length);
  const framed = frameBodySize(head, indent, budget);
  const cutBytes = item.cutBytes + framed.cutBytes;
  return cutBytes === 0 ? framed.bytes : framed.bytes + utf8Length(cutNote(cutBytes));
}
