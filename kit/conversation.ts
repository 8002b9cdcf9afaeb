// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

import type { EntryIterable, LogEntry } from "../events/types.ts";
import { forEachSessionItem, type Resolved, sessionItems } from "./_conversation.ts";
import { DREAM_EVENT_BUDGET, GRADER_ITEM_BUDGET, GRADER_TRANSCRIPT_BUDGET } from "./budget.ts";
import type { ConversationItem, ItemText } from "./conversation_item.ts";

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
   * In the grader view, which part of the transcript the caller keeps when
   * `transcriptBudget` is reached: the head (a further message to hold is
   * dropped) or both ends (the oldest held message is dropped instead), as
   * the grader's `keep` option.
   *
   * @default {"head"}
   */
  keep?: "head" | "ends";
  /**
   * The renderer's name, in the error a second session raises
   * (`Cannot render two sessions with the NAME renderer`).
   *
   * @default {"conversation"}
   */
  renderer?: string;
  /**
   * Told each entry of the source once it is checked (a log entry of the
   * session), before the items it completes are worked out: a renderer
   * learns here what no item carries (the session id, timestamps, spans).
   *
   * @default {undefined}
   */
  onEntry?: (entry: LogEntry) => void;
  /**
   * Told each item's whole text (flattened, redacted when the view redacts)
   * before it is cut to `itemBudget`, with the entry it came from: a
   * renderer reads the head it needs of a long text (a first prompt) without
   * flattening or redacting it again.
   *
   * @default {undefined}
   */
  onText?: (entry: LogEntry, text: ItemText) => void;
  /**
   * Stops the iteration with the signal's reason when aborted.
   *
   * @default {undefined}
   */
  signal?: AbortSignal | undefined;
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
  const resolved = resolve(options);
  return sessionItems(source, resolved, options.signal, options.onEntry);
}

/**
 * {@linkcode conversation}'s items, each handed to `each` as it completes,
 * with the same options: one loop over the source, no async generator between
 * an entry and its item, for a renderer that writes each item at once (the
 * dream does). The source is read to its end, or until `each` throws.
 *
 * @param source One session's entries.
 * @param each Told each item, in order.
 * @param options The view, the budgets, redaction, hooks and a signal.
 * @returns When the source is read.
 * @throws {RangeError} When a budget is not a positive integer or `Infinity`.
 * @throws {EventSourceError} When an entry is malformed (code `invalid_entry`) or a second
 * session appears (`second_session`).
 *
 * @example Usage
 * ```ts
 * import { forEachItem } from "@brigade/transcript/kit";
 * import assert from "node:assert/strict";
 *
 * const labels: string[] = [];
 * await forEachItem([
 *   { seq: 1, session_id: "s", thread_id: null, event: { id: "e1", type: "user.message", content: "Hi" } },
 *   { seq: 2, session_id: "s", thread_id: null, event: { id: "e2", type: "agent.message", content: "Hello" } },
 * ], (item) => labels.push(item.label));
 * assert.deepEqual(labels, ["user", "agent"]);
 * ```
 */
export function forEachItem(
  source: EntryIterable,
  each: (item: ConversationItem) => void,
  options: ConversationOptions = {},
): Promise<void> {
  const resolved = resolve(options);
  return forEachSessionItem(source, resolved, options.signal, options.onEntry, each);
}

/** The options checked, their defaults filled in. */
function resolve(options: ConversationOptions): Resolved {
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
  const keep = options.keep ?? "head";
  if (keep !== "head" && keep !== "ends") {
    throw new RangeError(`Cannot read a conversation: keep must be "head" or "ends": ${keep}`);
  }
  const resolved: Resolved = {
    view,
    itemBudget,
    transcriptBudget,
    redact: options.redact ?? view === "dream",
    keep,
    renderer: options.renderer ?? "conversation",
  };
  if (options.onDropped !== undefined) resolved.onDropped = options.onDropped;
  if (options.onText !== undefined) resolved.onText = options.onText;
  return resolved;
}

function budget(name: string, value: number): number {
  if (value === Infinity || (Number.isSafeInteger(value) && value >= 1)) return value;
  throw new RangeError(
    `Cannot read a conversation: ${name} must be a positive integer or Infinity: ${value}`,
  );
}
