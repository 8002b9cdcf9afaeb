// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

import type { EntryIterable, LogEntry } from "../../events/types.ts";
import {
  CAPPED_TEXT_MIN_CAP,
  CappedText,
  checkBudget,
  conversation,
  GRADER_ITEM_BUDGET,
  GRADER_TRANSCRIPT_BUDGET,
  joinWithinBudget,
  streamCapped,
  streamWithinBudget,
  utf8Length,
} from "../../kit/mod.ts";
import type { Renderer } from "../registry.ts";
import { filtered, graderPieces, sectionPieces } from "./_pieces.ts";
import { inThread, ThreadNames } from "./_threads.ts";

/** What a bad option stops, in its error. */
const WHAT = "render with the grader";

/** Options for {@linkcode renderGrader}. */
export interface GraderOptions {
  /**
   * The most UTF-8 bytes of one item's body; a longer body is cut, with a note.
   *
   * @default {GRADER_ITEM_BUDGET}
   */
  itemBudget?: number;
  /**
   * The most UTF-8 bytes of the whole transcript, its final note included;
   * `Infinity` shows every item (as `render --follow` does, so a long live
   * session is followed to its end), and memory is then not bounded by it.
   *
   * @default {GRADER_TRANSCRIPT_BUDGET}
   */
  transcriptBudget?: number;
  /**
   * Which part of a transcript over its budget is kept: `"head"`, the
   * session's start up to the budget, then a note (and the source is not read
   * further); or `"ends"`, its start and its end, each up to about half the
   * budget, with one note between them naming the bytes elided, so a grader
   * sees how the session ended (the whole source is read; memory stays near
   * the budget).
   *
   * @default {"head"}
   */
  keep?: GraderKeep;
  /**
   * Whether each label starts with the entry's `seq` as a citable id,
   * `[M12 · user]`: the number json's `seq` carries for the same item, so a
   * judge's citation resolves to the entry. The ids count in the transcript
   * budget.
   *
   * @default {false}
   */
  ids?: boolean;
  /**
   * Renders one thread only: `"primary"`, a child thread's id, or its agent
   * name (`"Reader"` or `"@Reader"`). Its items keep their consumption
   * order; a thread message is in the thread of each of its ends.
   *
   * @default {undefined}
   */
  thread?: string;
  /**
   * `"each"`: each thread as a section of its own, headed `[thread agent]`
   * or `[thread @name · id]` at the margin, the threads in the order they
   * first appear, the items of each in consumption order (a thread message
   * in both its ends' sections). Within the transcript budget, from the
   * head; not with `keep: "ends"` or `thread`.
   *
   * @default {undefined}
   */
  threads?: "each";
  /**
   * Stops the rendering with the signal's reason when aborted.
   *
   * @default {undefined}
   */
  signal?: AbortSignal;
}

/** Which part of a transcript over its budget the grader keeps: see {@linkcode GraderOptions.keep}. */
export type GraderKeep = "head" | "ends";

/** The note that ends a transcript cut at its budget. */
function transcriptNote(budget: number): string {
  return `\n[transcript cut: the ${budget}-byte budget is reached; the rest of the session is not shown]\n`;
}

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
  const { pieces, transcriptBudget, keep } = graderSetup(source, options);
  return keep === "head"
    ? joinWithinBudget(pieces, transcriptBudget, transcriptNote, { cutAt: "line" })
    : keepEnds(pieces, transcriptBudget);
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
  const { pieces, transcriptBudget, keep } = graderSetup(source, options);
  if (keep === "head") {
    return streamWithinBudget(pieces, transcriptBudget, transcriptNote, { cutAt: "line" });
  }
  return streamCapped(pieces, new CappedText(transcriptBudget));
}

/** The options checked, and the pieces of the grader's text. */
function graderSetup(
  source: EntryIterable,
  options: GraderOptions,
): { pieces: AsyncIterable<string>; transcriptBudget: number; keep: GraderKeep } {
  const itemBudget = checkBudget(WHAT, "itemBudget", options.itemBudget ?? GRADER_ITEM_BUDGET);
  const given = options.transcriptBudget ?? GRADER_TRANSCRIPT_BUDGET;
  // Infinity, as `render --follow` passes it: every item is shown, nothing is cut.
  const transcriptBudget = given === Infinity
    ? Infinity
    : checkBudget(WHAT, "transcriptBudget", given);
  const asked = options.keep ?? "head";
  if (asked !== "head" && asked !== "ends") {
    throw new RangeError(`Cannot ${WHAT}: keep must be "head" or "ends": ${String(asked)}`);
  }
  // Without a budget there is no middle to elide: the head is the whole.
  const keep = transcriptBudget === Infinity ? "head" : asked;
  const least = keep === "ends"
    ? CAPPED_TEXT_MIN_CAP
    : utf8Length(transcriptNote(transcriptBudget));
  if (transcriptBudget < least) {
    throw new RangeError(
      `Cannot ${WHAT}: transcriptBudget must leave room for its cut note, at least ${least} bytes: ${transcriptBudget}`,
    );
  }
  const scope = threadScope(options, keep);
  const names = new ThreadNames();
  const items = conversation(source, {
    view: "grader",
    itemBudget,
    // Scoped, the items of other threads are not shown: what the budget holds cannot be told
    // while they are held, so none is dropped.
    transcriptBudget: scope === undefined ? transcriptBudget : Infinity,
    redact: false,
    keep,
    renderer: "grader",
    signal: options.signal,
    ...(scope === undefined ? {} : { onEntry: (entry: LogEntry) => names.learn(entry) }),
  });
  const ids = options.ids === true;
  let pieces;
  if (scope === "each") {
    pieces = sectionPieces(items, names, itemBudget, ids, transcriptBudget);
  } else if (scope !== undefined) {
    pieces = graderPieces(filtered(items, (item) => inThread(item, scope, names)), itemBudget, ids);
  } else {
    pieces = graderPieces(items, itemBudget, ids);
  }
  return { pieces, transcriptBudget, keep };
}

/** The thread option checked: one thread's name, `"each"`, or undefined for the whole session. */
function threadScope(options: GraderOptions, keep: GraderKeep): string | undefined {
  const { thread, threads } = options;
  if (threads !== undefined && threads !== "each") {
    throw new RangeError(`Cannot ${WHAT}: threads must be "each": ${String(threads)}`);
  }
  if (thread !== undefined && (typeof thread !== "string" || thread.trim() === "")) {
    throw new RangeError(`Cannot ${WHAT}: thread must name a thread: ${JSON.stringify(thread)}`);
  }
  if (thread !== undefined && threads !== undefined) {
    throw new RangeError(`Cannot ${WHAT}: thread and threads "each" are one or the other`);
  }
  if (threads === "each" && keep === "ends") {
    throw new RangeError(`Cannot ${WHAT}: threads "each" keeps the head, not keep "ends"`);
  }
  return threads ?? thread?.trim();
}

/** The head and the tail of the pieces within `budget` bytes, one elision note between them. */
async function keepEnds(pieces: AsyncIterable<string>, budget: number): Promise<string> {
  const text = new CappedText(budget);
  for await (const piece of pieces) text.push(piece);
  return text.text({ cutAt: "line" });
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
  optionNames: ["itemBudget", "transcriptBudget", "keep", "ids", "thread", "threads"],
  description: "Role-labelled plain text of the whole session for an outcome grader (not redacted)",
  render: renderGrader,
  stream: streamGrader,
};
