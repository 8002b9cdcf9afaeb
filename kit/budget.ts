// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

import { toLastLine } from "./_frame.ts";
import { utf8Head, utf8Length } from "./utf8.ts";
import { rememberSize } from "./_utf8_memo.ts";
import { utf8HeadCut } from "./_utf8_cut.ts";

/** Options for {@linkcode joinWithinBudget}. */
export interface JoinWithinBudgetOptions {
  /**
   * Where the kept text may end before the note: anywhere (`"any"`), or only
   * at a line break (`"line"`), so no fragment of a line stands before the
   * note (a line ends at LF, CR or CRLF, and at VT, FF, NEL, LS or PS).
   *
   * @default {"any"}
   */
  cutAt?: "any" | "line";
}

// The default budgets of the kit and of the built-ins that read it: the kit names them, so they
// live here and the built-ins import them (never the kit a built-in).

/**
 * The most UTF-8 bytes of any single grader item's body, its indent included
 * (its label and cut note not counted). A tool result can be 100 KiB on its own; the grader needs
 * its shape, not every byte.
 *
 * @example Usage
 * ```ts
 * import { GRADER_ITEM_BUDGET, renderGrader } from "@brigade/transcript";
 * import assert from "node:assert/strict";
 *
 * const text = await renderGrader([{
 *   seq: 1,
 *   session_id: "sesn_1",
 *   thread_id: null,
 *   event: { id: "sevt_1", type: "agent.message", content: "x".repeat(5_000) },
 * }]);
 * // The body's two-space indent counts in the budget.
 * assert.equal(text, `[agent]\n  ${"x".repeat(GRADER_ITEM_BUDGET - 2)}\n[cut: 1002 more bytes]\n`);
 * ```
 */
export const GRADER_ITEM_BUDGET: number = 4_000;

/**
 * The most UTF-8 bytes of the grader's whole transcript, its final note included.
 *
 * @example Usage
 * ```ts
 * import { GRADER_TRANSCRIPT_BUDGET, renderGrader } from "@brigade/transcript";
 * import assert from "node:assert/strict";
 *
 * const entries = Array.from({ length: 100 }, (_, i) => ({
 *   seq: i + 1,
 *   session_id: "sesn_1",
 *   thread_id: null,
 *   event: { id: `sevt_${i}`, type: "agent.message", content: "y".repeat(3_000) },
 * }));
 * const text = await renderGrader(entries);
 * assert.ok(new TextEncoder().encode(text).length <= GRADER_TRANSCRIPT_BUDGET);
 * assert.match(text, /\[transcript cut: the 200000-byte budget is reached/);
 * ```
 */
export const GRADER_TRANSCRIPT_BUDGET: number = 200_000;

/**
 * The most UTF-8 bytes of one event's body in a dream, its indent included,
 * cut after redaction.
 *
 * @example Usage
 * ```ts
 * import { DREAM_EVENT_BUDGET, renderDream } from "@brigade/transcript";
 * import assert from "node:assert/strict";
 *
 * const dream = await renderDream([{
 *   seq: 1,
 *   session_id: "sesn_1",
 *   thread_id: null,
 *   event: { id: "sevt_1", type: "agent.message", content: "x".repeat(5_000) },
 * }]);
 * // The body is an indented code block; its four-space indent counts in the budget.
 * assert.ok(dream.text.includes(`    ${"x".repeat(DREAM_EVENT_BUDGET - 4)}\n[cut: 3004 more bytes]`));
 * ```
 */
export const DREAM_EVENT_BUDGET: number = 2_000;

/**
 * The note that follows a body cut by {@linkcode cutBody}.
 *
 * @param bytes The UTF-8 bytes cut.
 * @returns The note, with the line break before it.
 *
 * @example Usage
 * ```ts
 * import { cutNote } from "@brigade/transcript";
 * import assert from "node:assert/strict";
 *
 * assert.equal(cutNote(1000), "\n[cut: 1000 more bytes]");
 * ```
 */
export function cutNote(bytes: number): string {
  return `\n[cut: ${bytes} more bytes]`;
}

/** What {@linkcode cutBodyParts} returns. */
export interface CutBody {
  /** The kept head: the whole body when it fits. */
  head: string;
  /** The UTF-8 bytes cut from the end; 0 when the body fits. */
  cutBytes: number;
}

/**
 * The per-item budget: the longest head of `body` within `budget` UTF-8
 * bytes, on a code point boundary, and how many bytes were cut. The head is
 * a copy, so keeping it never keeps a huge body alive.
 *
 * @param body The item's text.
 * @param budget The most UTF-8 bytes to keep.
 * @returns The head and the bytes cut.
 *
 * @example Usage
 * ```ts
 * import { cutBodyParts } from "@brigade/transcript";
 * import assert from "node:assert/strict";
 *
 * assert.deepEqual(cutBodyParts("héllo", 3), { head: "hé", cutBytes: 3 });
 * assert.deepEqual(cutBodyParts("hi", 3), { head: "hi", cutBytes: 0 });
 * ```
 */
export function cutBodyParts(body: string, budget: number): CutBody {
  // No code unit takes more than three bytes: a body this short fits unmeasured.
  if (body.length <= budget / 3) return { head: body, cutBytes: 0 };
  if (!Number.isInteger(budget) || budget < 0) {
    const size = utf8Length(body);
    if (size <= budget) return { head: body, cutBytes: 0 };
    const head = detach(utf8Head(body, budget));
    return { head, cutBytes: size - utf8Length(head) };
  }
  // A body of more units than bytes allowed is cut (a unit is at least a byte): its head is
  // found first, with its size, and only the rest is measured.
  if (body.length > budget) return cutLongBody(body, budget);
  const size = utf8Length(body);
  if (size <= budget) return { head: body, cutBytes: 0 };
  return cutHead(body, budget, size);
}

/**
 * {@linkcode cutBodyParts} for a body certain to be cut: its head is found as
 * `utf8Head` cuts, with its size, and only the rest is measured; the head's
 * size is remembered, for the framing that measures it again.
 */
function cutLongBody(body: string, budget: number): CutBody {
  const cut = utf8HeadCut(body, budget);
  const head = detach(body.slice(0, cut.units));
  const cutBytes = utf8Length(body.slice(cut.units));
  rememberSize(head, cut.bytes);
  return { head, cutBytes };
}

/** {@linkcode cutBodyParts} for a body of `size` bytes, over `budget`: the head and its size in one walk. */
function cutHead(body: string, budget: number, size: number): CutBody {
  const cut = utf8HeadCut(body, budget);
  const head = detach(body.slice(0, cut.units));
  rememberSize(head, cut.bytes);
  return { head, cutBytes: size - cut.bytes };
}

/**
 * The per-item budget as the built-ins apply it: a body of more than
 * `budget` UTF-8 bytes is cut on a code point boundary and followed by
 * {@linkcode cutNote}, which is not counted in the budget.
 *
 * @param body The item's text.
 * @param budget The most UTF-8 bytes of the body to keep.
 * @returns The body, whole or cut with its note.
 *
 * @example Usage
 * ```ts
 * import { cutBody } from "@brigade/transcript";
 * import assert from "node:assert/strict";
 *
 * assert.equal(cutBody("x".repeat(10), 4), "xxxx\n[cut: 6 more bytes]");
 * assert.equal(cutBody("short", 10), "short");
 * ```
 */
export function cutBody(body: string, budget: number): string {
  const { head, cutBytes } = cutBodyParts(body, budget);
  return cutBytes === 0 ? head : head + cutNote(cutBytes);
}

/**
 * The per-transcript budget: joins pieces into a text of at most `budget`
 * UTF-8 bytes, final note included. When everything fits, everything is
 * kept, note-free. Otherwise the head is kept up to the budget less the
 * note's room, the note follows, and the pieces are no longer pulled: the
 * iterator is returned as soon as the budget overflows, so a source behind it
 * stops too.
 *
 * @param pieces The pieces, in order.
 * @param budget The most UTF-8 bytes of the result, note included.
 * @param note The note that ends a cut text, given the budget.
 * @param options Where the kept text may end.
 * @returns The joined text.
 *
 * @example Usage
 * ```ts
 * import { joinWithinBudget } from "@brigade/transcript";
 * import assert from "node:assert/strict";
 *
 * let pulled = 0;
 * async function* pieces(): AsyncGenerator<string> {
 *   for (let i = 0; i < 1_000; i++, pulled++) yield "0123456789";
 * }
 * const text = await joinWithinBudget(pieces(), 30, () => "\n[cut]\n");
 * assert.equal(text, "01234567890123456789012\n[cut]\n");
 * assert.ok(pulled < 10);
 * ```
 */
export async function joinWithinBudget(
  pieces: AsyncIterable<string>,
  budget: number,
  note: (budget: number) => string,
  options: JoinWithinBudgetOptions = {},
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
  const head = utf8Head(parts.join(""), Math.max(0, budget - utf8Length(noteText)));
  return (options.cutAt === "line" ? toLastLine(head) : head) + noteText;
}

/**
 * A copy of a short string cut from a long one. An engine may keep a slice
 * as a view of its parent, so holding a 2 KB head would hold a 60 MB message;
 * flattening a concatenation forces a string of its own.
 */
function detach(text: string): string {
  return (text + " ").slice(0, -1);
}
