// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

/**
 * The parts every built-in renderer is made of, for a team's own renderer:
 * {@linkcode conversation} yields a session as {@linkcode ConversationItem}s
 * (the grader's view: every thread, in the order the model read them; or the
 * dream's: the primary thread, in log order), each cut to its item budget;
 * beside it, byte-safe UTF-8 cuts ({@linkcode utf8Head},
 * {@linkcode utf8Tail}), the budget helpers ({@linkcode cutBody},
 * {@linkcode joinWithinBudget}) and their defaults, the capped text of the
 * dream ({@linkcode CappedText}: a head, a rolling tail and a marker), the
 * content helpers and {@linkcode redact}. Sizes are UTF-8 bytes throughout.
 *
 * The built-in renderers are written against this module alone: an item's
 * body framed so that nothing in it reads as a label ({@linkcode framedItemBody}),
 * one-line fields with their controls made visible ({@linkcode visibleControls}),
 * the chunked forms of the budgeted joins for a renderer's `stream()`
 * ({@linkcode streamWithinBudget}, {@linkcode streamCapped}), the items handed
 * over without a generator ({@linkcode forEachItem}) and the budget check the
 * built-ins' errors share ({@linkcode checkBudget}).
 *
 * ```ts
 * import { conversation, cutBody, redact } from "@brigade/transcript/kit";
 * import type { LogEntry } from "@brigade/transcript";
 * import assert from "node:assert/strict";
 *
 * const entries: LogEntry[] = [
 *   { seq: 1, session_id: "s", thread_id: null, event: { id: "e1", type: "user.message", content: "Deploy it" } },
 *   { seq: 2, session_id: "s", thread_id: null, event: { id: "e2", type: "agent.message", content: "Key sk-proj-4fJx9Qe2mZpR8tWc3YvHs is set" } },
 * ];
 *
 * // A renderer of one line per item: who spoke, then at most 21 bytes, redacted first.
 * const lines = [];
 * for await (const item of conversation(entries)) {
 *   lines.push(`${item.from}: ${cutBody(redact(item.text), 21)}`);
 * }
 * assert.deepEqual(lines, [
 *   "user: Deploy it",
 *   "agent: Key [REDACTED_SECRET]\n[cut: 7 more bytes]",
 * ]);
 * ```
 *
 * @module
 */

export * from "./conversation.ts";
export * from "./agent_label.ts";
export * from "./conversation_item.ts";
export * from "./budget.ts";
export * from "./utf8.ts";
export * from "./capped_text.ts";
export * from "./content.ts";
export * from "./framed_item.ts";
export * from "./stream.ts";
export * from "./check_budget.ts";
export * from "./session_title.ts";
export * from "../redact/mod.ts";
export { visibleControls, type VisibleControlsOptions } from "../redact/excerpt.ts";
// The event model the kit's names are made of, so that this entry point documents whole on its own.
export type * from "../events/types.ts";
