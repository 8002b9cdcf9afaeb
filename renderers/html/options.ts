// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// The html renderer's budgets and options, apart from the renderer: `.` exports them without
// loading the page's Markdown parser and diff library.

/**
 * The most UTF-8 bytes of one item's text on a session page; a longer text is
 * cut there, with a note naming the bytes cut. Twice the grader's: a person
 * scrolls past a long tool result more easily than a model reads it.
 *
 * @example Usage
 * ```ts
 * import { HTML_ITEM_BUDGET, renderHtml } from "@brigade/transcript";
 * import assert from "node:assert/strict";
 *
 * const page = await renderHtml([{
 *   seq: 1,
 *   session_id: "sesn_1",
 *   thread_id: null,
 *   event: { id: "sevt_1", type: "agent.message", content: "x".repeat(HTML_ITEM_BUDGET + 10) },
 * }]);
 * assert.match(page, /\[cut: 10 more bytes\]/);
 * ```
 */
export const HTML_ITEM_BUDGET: number = 8_000;

/**
 * The most UTF-8 bytes of items on one session page: every byte of an item's
 * block counts (its label, names, markup and text), so no log can grow a page
 * past it. The page ends with a note there, and the source is no longer read.
 * About 1,600 items of a long agent session: as many as when only the items'
 * text counted against 1,000,000 bytes.
 *
 * @example Usage
 * ```ts
 * import { HTML_TRANSCRIPT_BUDGET } from "@brigade/transcript";
 * import assert from "node:assert/strict";
 *
 * assert.equal(HTML_TRANSCRIPT_BUDGET, 2_000_000);
 * ```
 */
export const HTML_TRANSCRIPT_BUDGET: number = 2_000_000;

/** Options for {@linkcode renderHtml}. */
export interface HtmlOptions {
  /**
   * The most UTF-8 bytes of one item's text; a longer text is cut, with a note.
   *
   * @default {HTML_ITEM_BUDGET}
   */
  itemBudget?: number;
  /**
   * The most UTF-8 bytes of items on the page, markup included; the page ends with a note there.
   *
   * @default {HTML_TRANSCRIPT_BUDGET}
   */
  transcriptBudget?: number;
  /**
   * Show the agent's thinking, where the log records its text (a Claude Code
   * transcript read with `fromClaudeCode(…, { thinking: true })`), folded
   * where it happened. `false` leaves it out.
   *
   * @default {true}
   */
  thinking?: boolean;
  /**
   * Replace secret-shaped text with `[REDACTED_SECRET]` (see `redact`). Pages
   * get shared: turn it off only for a page that stays with you.
   *
   * @default {true}
   */
  redact?: boolean;
  /**
   * Stops the rendering with the signal's reason when aborted.
   *
   * @default {undefined}
   */
  signal?: AbortSignal;
}

/**
 * What both faces of the html renderer (`./html`'s and `.`'s lazy one) declare of themselves, kept
 * once so that the two can never tell the registry different things.
 *
 * @example Usage
 * ```ts
 * import { HTML_RENDERER_FACTS } from "@brigade/transcript/html";
 * import assert from "node:assert/strict";
 *
 * assert.equal(HTML_RENDERER_FACTS.extension, ".html");
 * ```
 */
export const HTML_RENDERER_FACTS: {
  readonly name: "html";
  readonly optionNames: readonly string[];
  readonly description: string;
  readonly extension: ".html";
} = {
  name: "html",
  optionNames: ["itemBudget", "transcriptBudget", "redact", "thinking"],
  description:
    "A self-contained HTML page of the session for people (redacted, no remote loads, find and filter)",
  extension: ".html",
};
