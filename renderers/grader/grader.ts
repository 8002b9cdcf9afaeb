// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

import type { EntryIterable } from "../../events/types.ts";
import type { Renderer } from "../registry.ts";
import { graderPlan, streamText, wholeText } from "./_plan.ts";
import type { GraderOptions } from "./options.ts";

export * from "./options.ts";

/** What a bad option stops, in its error. */
const WHAT = "render with the grader";

/**
 * Renders a whole session (every thread) as the role-labelled plain text an
 * outcome grader reads. It does not redact: the grader reads the session as
 * it was.
 *
 * Each item is `[label]` on a line, then its text, items separated by a
 * blank line. Labels name who spoke to whom: `user`, `agent` (the primary
 * thread), `@name` (a child thread, by agent name, else thread id),
 * `agent → tool bash` (a call, its input as JSON), `tool bash → agent` (its
 * result; `, error` marks a failed one), `agent → @name` (a thread message,
 * rendered once), `session error`, and the user's acts: `user → agent, task`
 * (the outcome the session was given), `user → every thread, interrupt`,
 * `user → tool bash, denied` (the reason as text). Spans, status, thinking,
 * usage, outcome evaluations, allowed tool confirmations and workflow runs are
 * not rendered; unknown event types are skipped.
 *
 * Messages render in consumption order: a user message (or a thread message
 * whose sent half is not in the input) that arrives while its thread has a
 * model request in flight renders just before that thread's next request;
 * while a thread holds one, a later message of that thread joins it, so the
 * messages keep the order the model read them in. Memory is bounded by the
 * budget: a held message the transcript could no longer show is dropped, not
 * kept. The items are {@linkcode conversation}'s, in its grader view.
 *
 * A body longer than `itemBudget` bytes is cut with a note; the transcript
 * stops at `transcriptBudget` bytes with a final note, and the source is not
 * pulled further.
 *
 * @param source The session's entries (one session; every thread for the whole picture).
 * @param options Budgets and a signal.
 * @returns The transcript; `""` for an empty source.
 * @throws {EventSourceError} When an entry is malformed (code `invalid_entry`) or a second
 * session appears (`second_session`).
 * @throws {RangeError} When a budget is not a positive integer (`transcriptBudget` may be
 * `Infinity`).
 *
 * @example Usage
 * ```ts
 * import { fromEntries, renderGrader, type SessionEvent } from "@brigade/transcript";
 * import assert from "node:assert/strict";
 *
 * const events: SessionEvent[] = [
 *   { id: "sevt_1", type: "user.message", content: [{ type: "text", text: "List the files." }] },
 *   { id: "sevt_2", type: "agent.tool_use", name: "bash", input: { command: "ls" } },
 *   { id: "sevt_3", type: "agent.tool_result", tool_use_id: "sevt_2", content: "README.md" },
 *   { id: "sevt_4", type: "agent.message", content: [{ type: "text", text: "One file." }] },
 * ];
 * const source = fromEntries(
 *   events.map((event, i) => ({ seq: i + 1, session_id: "sesn_1", thread_id: null, event })),
 * );
 * assert.equal(
 *   await renderGrader(source),
 *   '[user]\n  List the files.\n\n[agent → tool bash]\n  {"command":"ls"}\n\n' +
 *     "[tool bash → agent]\n  README.md\n\n[agent]\n  One file.\n",
 * );
 * ```
 */
export function renderGrader(source: EntryIterable, options: GraderOptions = {}): Promise<string> {
  return wholeText(graderPlan(source, options, WHAT));
}

/**
 * Renders a session as {@linkcode renderGrader} does, in chunks given out as
 * the items complete: each item's text as soon as it is known (a held
 * message when its thread's next request starts, as in the whole text), for
 * following a live session. Joined, the chunks are exactly
 * {@linkcode renderGrader}'s text for the same source and options. Only
 * what a cut could still change waits: the items within the cut note's room
 * of the budget, or with `keep: "ends"` everything past the head's half,
 * which comes at the end with the tail. The options are checked when it is
 * called.
 *
 * @param source The session's entries, e.g. a followed session.
 * @param options Budgets and a signal.
 * @returns The transcript's chunks.
 * @throws {RangeError} When a budget is not a positive integer.
 *
 * @example Usage
 * ```ts
 * import { renderGrader, streamGrader } from "@brigade/transcript";
 * import assert from "node:assert/strict";
 *
 * const entries = ["Hi", "Hello"].map((text, i) => ({
 *   seq: i + 1,
 *   session_id: "sesn_1",
 *   thread_id: null,
 *   event: { id: `sevt_${i}`, type: i === 0 ? "user.message" : "agent.message", content: text },
 * }));
 * const chunks = await Array.fromAsync(streamGrader(entries));
 * assert.deepEqual(chunks, ["[user]\n  Hi\n", "\n[agent]\n  Hello\n"]);
 * assert.equal(chunks.join(""), await renderGrader(entries));
 * ```
 */
export function streamGrader(
  source: EntryIterable,
  options: GraderOptions = {},
): AsyncIterable<string> {
  return streamText(graderPlan(source, options, WHAT));
}

/**
 * The `grader` renderer: {@linkcode renderGrader} under the registry's contract.
 *
 * @example Usage
 * ```ts
 * import { graderRenderer } from "@brigade/transcript";
 * import assert from "node:assert/strict";
 *
 * assert.equal(graderRenderer.name, "grader");
 * assert.equal(await graderRenderer.render([]), "");
 * ```
 */
export const graderRenderer: Renderer<GraderOptions, "grader"> = {
  name: "grader",
  optionNames: [
    "itemBudget",
    "transcriptBudget",
    "keep",
    "ids",
    "thread",
    "threads",
    "outcome",
    "envelope",
    "chunks",
  ],
  description: "Role-labelled plain text of the whole session for an outcome grader (not redacted)",
  render: renderGrader,
  stream: streamGrader,
};
