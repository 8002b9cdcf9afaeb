// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

import type { EntryIterable } from "../../events/types.ts";
import { splitSessions } from "../../events/split_sessions.ts";
import { type Dream, type DreamOptions, type PreviousIndexOptions, renderDream } from "./dream.ts";
import { utf8Length } from "../../kit/mod.ts";
import type { Renderer } from "../registry.ts";
import { COLUMNS, indexRow, type RowFields } from "./_index_row.ts";
import { type IndexedSession, previousRows, sessionsIndexText } from "./_previous_index.ts";

export { PreviousIndexError } from "./_previous_index.ts";

/**
 * The INDEX.md line that names the columns of {@linkcode indexLine}'s rows.
 *
 * @example Usage
 * ```ts
 * import { INDEX_COLUMNS, renderIndex } from "@brigade/transcript";
 * import assert from "node:assert/strict";
 *
 * const index = await renderIndex([]);
 * assert.equal(index, `# Index\n\n${INDEX_COLUMNS}\n\n`);
 * ```
 */
export const INDEX_COLUMNS: string = COLUMNS;

/**
 * One INDEX.md row for a dreamed session:
 * `- {seq} · {session_id} · {created_at} · {turns} · {bytes} · {digest} · {first user message}`.
 * `{bytes}` is the UTF-8 size of the dream's text, marker included; when the
 * cap elided something it says so inside the column (`24576 (+103877 elided)`),
 * so the one free-text field stays last and a `·` inside it cannot look like
 * another column. `{digest}` is the dream's ({@linkcode Dream.digest}, `-`
 * when not known), so two runs' rows tell whether a session's dream changed.
 * The text fields are redacted and written on one line:
 * control characters and line breaks show as escapes (`\n`, `\x1b`), so no
 * field can add a row or a heading.
 *
 * @param seq The row's number, from 1.
 * @param dream The dreamed session.
 * @returns The row, without a line end.
 *
 * @example Usage
 * ```ts
 * import { indexLine } from "@brigade/transcript";
 * import assert from "node:assert/strict";
 *
 * const digest = `sha256:${"0".repeat(64)}`;
 * const row = indexLine(3, {
 *   sessionId: "sesn_1",
 *   createdAt: "2026-09-14T10:02:11Z",
 *   text: "x".repeat(24_576),
 *   turns: 4,
 *   elidedBytes: 103_877,
 *   digest,
 *   firstUser: "Fix the build · then ship",
 * });
 * assert.equal(
 *   row,
 *   `- 3 · sesn_1 · 2026-09-14T10:02:11Z · 4 · 24576 (+103877 elided) · ${digest} · Fix the build · then ship`,
 * );
 * ```
 */
export function indexLine(seq: number, dream: IndexedDream): string {
  return indexRow(seq, dream, utf8Length(dream.text));
}

/** What {@linkcode indexLine} reads of a {@linkcode Dream}. */
export type IndexedDream = Pick<
  Dream,
  "sessionId" | "createdAt" | "text" | "turns" | "elidedBytes" | "digest" | "firstUser"
>;

/** Options for {@linkcode renderIndex}: each session is dreamed with them. */
export interface IndexOptions extends DreamOptions, PreviousIndexOptions {}

/**
 * Dreams each session of a source that holds several (one after another),
 * numbers them from 1 in input order, and returns the batch's INDEX.md: a
 * `# Index` heading, the {@linkcode INDEX_COLUMNS} line, then one
 * {@linkcode indexLine} row per session. One dream is held at a time. With
 * `previous`, the rows are marked against the previous run's index
 * ({@linkcode PreviousIndexOptions}), which is read before the source.
 *
 * @param source The entries of one or more sessions.
 * @param options The dream options (cap, signal) and the previous index.
 * @returns The INDEX.md text.
 * @throws {PreviousIndexError} When `previous` is not an INDEX.md, naming its line.
 *
 * @example Usage
 * ```ts
 * import { renderIndex, type LogEntry } from "@brigade/transcript";
 * import assert from "node:assert/strict";
 *
 * const ask = (session_id: string, text: string): LogEntry => ({
 *   seq: 1,
 *   session_id,
 *   thread_id: null,
 *   event: { id: "sevt_1", type: "user.message", processed_at: "2026-09-14T10:00:00Z", content: text },
 * });
 * const index = await renderIndex([ask("sesn_a", "Fix CI"), ask("sesn_b", "Ship it")]);
 * const rows = index.split("\n").filter((line) => line.startsWith("- "));
 * assert.equal(rows.length, 2);
 * assert.match(rows[1]!, /^- 2 · sesn_b · 2026-09-14T10:00:00Z · 1 · \d+ · sha256:[0-9a-f]{64} · Ship it$/);
 *
 * // The next run, marked against this one: sesn_b is gone, sesn_c is new.
 * const next = await renderIndex([ask("sesn_a", "Fix CI"), ask("sesn_c", "Plan")], { previous: index });
 * const marked = next.split("\n");
 * assert.match(marked.find((line) => line.includes("sesn_a"))!, /^- 1 · retained · sesn_a · /);
 * assert.match(marked.find((line) => line.includes("sesn_c"))!, /^- 2 · added · sesn_c · /);
 * assert.match(next, /\n## Removed\n\n- sesn_b · .* · Ship it\n$/);
 * ```
 */
export async function renderIndex(
  source: EntryIterable,
  options: IndexOptions = {},
): Promise<string> {
  const previous = previousRows(options);
  const { previous: _, previousName: __, ...dreamOptions } = options;
  const sessions: IndexedSession[] = [];
  for await (const group of splitSessions(source)) {
    const dream = await renderDream(group.entries, dreamOptions);
    sessions.push({ fields: rowFields(dream), bytes: utf8Length(dream.text) });
  }
  return sessionsIndexText(sessions, previous);
}

/** What a row says of a dream: its fields alone, so the text is let go. */
function rowFields(dream: Dream): RowFields {
  const { sessionId, createdAt, turns, elidedBytes, firstUser, digest } = dream;
  return { sessionId, createdAt, turns, elidedBytes, firstUser, digest };
}

/**
 * The `index` renderer: {@linkcode renderIndex} under the registry's contract.
 *
 * @example Usage
 * ```ts
 * import { indexRenderer } from "@brigade/transcript";
 * import assert from "node:assert/strict";
 *
 * assert.equal(indexRenderer.name, "index");
 * assert.ok((await indexRenderer.render([])).startsWith("# Index\n"));
 * ```
 */
export const indexRenderer: Renderer<IndexOptions, "index"> = {
  name: "index",
  optionNames: ["cap", "previous", "previousName"],
  description: "The INDEX.md rows of a batch of dreamed sessions",
  extension: ".md",
  render: renderIndex,
  batch: { fileName: "INDEX.md" },
};
