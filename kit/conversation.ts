// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

import type { EntryIterable } from "../events/types.ts";
import { type Resolved, sessionItems } from "./_conversation.ts";
import { DREAM_EVENT_BUDGET, GRADER_ITEM_BUDGET, GRADER_TRANSCRIPT_BUDGET } from "./budget.ts";
import type { ConversationItem } from "./conversation_item.ts";

/** Which items {@linkcode conversation} yields, and in which order. */
export type ConversationView = "grader" | "dream";

/** Options for {@linkcode conversation}. */
export interface ConversationOptions {
  /**
   * `"grader"`: every thread, in consumption order, each thread message and
   * each cross-posted tool call once (what `grader` and `json` show).
   * `"dream"`: the primary thread's rows (`thread_id === null`) in log order,
   * a delegated task read as the report that came back (what `dream` shows).
   *
   * @default {"grader"}
   */
  view?: ConversationView;
  /**
   * The most UTF-8 bytes of an item's text; a longer text is cut on a code
   * point boundary and ends with a `[cut: N more bytes]` note. `Infinity`
   * keeps every text whole.
   *
   * @default {GRADER_ITEM_BUDGET in the grader view, DREAM_EVENT_BUDGET in the dream view}
   */
  itemBudget?: number;
  /**
   * The grader view's memory bound, in UTF-8 bytes: messages held for
   * consumption order are released after everything shown before them, so
   * once what was yielded plus what is held (labels and texts) exceeds this,
   * a further message to hold could never be shown under the budget and is
   * dropped instead of kept. `Infinity` keeps every held message.
   *
   * @default {GRADER_TRANSCRIPT_BUDGET}
   */
  transcriptBudget?: number;
  /**
   * Whether texts, speakers, labels, thread ids and `processedAt` go through
   * `redact` (texts before any cut, so a cut never leaves half a secret).
   *
   * @default {true in the dream view, false in the grader view}
   */
  redact?: boolean;
  /**
   * Told the `seq` of each message the grader view drops under
   * `transcriptBudget` (counted for a cut note, never kept); a renderer
   * whose own budget is larger than `transcriptBudget` learns here that its
   * transcript is incomplete.
   *
   * @default {undefined}
   */
  onDropped?: (seq: number) => void;
  /**
   * Stops the iteration with the signal's reason when aborted.
   *
   * @default {undefined}
   */
  signal?: AbortSignal;
}

/**
 * The conversation of one session as items: what the built-in renderers
 * format, public so that a team's renderer inherits consumption order, the
 * rule that shows each thread message and each cross-posted call once, tool
 * names linked to their results, the grader's speakers and labels, content
 * flattening, byte-safe cuts and redaction.
 *
 * In the grader view (the default), a message that arrives on a thread while
 * its model request is in flight is yielded where that thread's next request
 * consumed it. Items are produced as the source is read: the source is not
 * pulled further when the consumer stops (a `break` out of `for await`).
 *
 * @param source One session's entries.
 * @param options The view, the budgets, redaction and a signal.
 * @returns The items, as an async iterable.
 * @throws {RangeError} When a budget is not a positive integer or `Infinity`.
 * @throws {EventSourceError} (while iterating) When an entry is malformed (code `invalid_entry`)
 * or a second session appears (`second_session`).
 *
 * @example Usage
 * ```ts
 * import { conversation, fromEntries, type SessionEvent } from "@brigade/transcript";
 * import assert from "node:assert/strict";
 *
 * const events: SessionEvent[] = [
 *   { id: "sevt_1", type: "user.message", content: "List the files." },
 *   { id: "sevt_2", type: "agent.tool_use", name: "bash", input: { command: "ls" } },
 *   { id: "sevt_3", type: "agent.tool_result", tool_use_id: "sevt_2", content: "README.md" },
 * ];
 * const source = fromEntries(
 *   events.map((event, i) => ({ seq: i + 1, session_id: "sesn_1", thread_id: null, event })),
 * );
 * const items = await Array.fromAsync(conversation(source));
 * assert.deepEqual(items.map((item) => [item.kind, item.from, item.to, item.label]), [
 *   ["message", "user", "agent", "user"],
 *   ["tool_call", "agent", "tool bash", "agent → tool bash"],
 *   ["tool_result", "tool bash", "agent", "tool bash → agent"],
 * ]);
 * assert.equal(items[1]!.text, '{"command":"ls"}');
 * assert.equal(items[2]!.tool, "bash");
 * assert.equal(items[2]!.isError, false);
 * ```
 *
 * @example The dream's view is redacted
 * ```ts
 * import { conversation } from "@brigade/transcript";
 * import assert from "node:assert/strict";
 *
 * const [item] = await Array.fromAsync(conversation([{
 *   seq: 1,
 *   session_id: "sesn_1",
 *   thread_id: null,
 *   event: { id: "sevt_1", type: "user.message", content: "key sk-proj-Q7xv2LmN9pR4sT8wZ1bC5dF3" },
 * }], { view: "dream" }));
 * assert.equal(item!.text, "key [REDACTED_SECRET]");
 * ```
 */
export function conversation(
  source: EntryIterable,
  options: ConversationOptions = {},
): AsyncGenerator<ConversationItem, void, undefined> {
  const view = options.view ?? "grader";
  if (view !== "grader" && view !== "dream") {
    throw new RangeError(`Cannot read a conversation: view must be "grader" or "dream": ${view}`);
  }
  const itemBudget = budget(
    "itemBudget",
    options.itemBudget ?? (view === "dream" ? DREAM_EVENT_BUDGET : GRADER_ITEM_BUDGET),
  );
  const transcriptBudget = budget(
    "transcriptBudget",
    options.transcriptBudget ?? GRADER_TRANSCRIPT_BUDGET,
  );
  const resolved: Resolved = {
    view,
    itemBudget,
    transcriptBudget,
    redact: options.redact ?? view === "dream",
  };
  if (options.onDropped !== undefined) resolved.onDropped = options.onDropped;
  return sessionItems(source, "conversation", options.signal, resolved);
}

function budget(name: string, value: number): number {
  if (value === Infinity || (Number.isSafeInteger(value) && value >= 1)) return value;
  throw new RangeError(
    `Cannot read a conversation: ${name} must be a positive integer or Infinity: ${value}`,
  );
}
