// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

import type { EntryIterable } from "../../events/types.ts";
import { splitSessions } from "../../events/split_sessions.ts";
import { type Dream, type DreamOptions, renderDream } from "./dream.ts";
import { utf8Length } from "../../kit/mod.ts";
import type { Renderer } from "../registry.ts";
import { COLUMNS, indexRow, indexText } from "./_index_row.ts";

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
 * `- {seq} · {session_id} · {created_at} · {turns} · {bytes} · {first user message}`.
 * `{bytes}` is the UTF-8 size of the dream's text, marker included; when the
 * cap elided something it says so inside the column (`24576 (+103877 elided)`),
 * so the one free-text field stays last and a `·` inside it cannot look like
 * another column. The text fields are redacted and written on one line:
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
 * const row = indexLine(3, {
 *   sessionId: "sesn_1",
 *   createdAt: "2026-09-14T10:02:11Z",
 *   text: "x".repeat(24_576),
 *   turns: 4,
 *   elidedBytes: 103_877,
 *   firstUser: "Fix the build · then ship",
 * });
 * assert.equal(
 *   row,
 *   "- 3 · sesn_1 · 2026-09-14T10:02:11Z · 4 · 24576 (+103877 elided) · Fix the build · then ship",
 * );
 * ```
 */
export function indexLine(seq: number, dream: Dream): string {
  return indexRow(seq, dream, utf8Length(dream.text));
}

/** Options for {@linkcode renderIndex}: each session is dreamed with them. */
export type IndexOptions = DreamOptions;

/**
 * Dreams each session of a source that holds several (one after another),
 * numbers them from 1 in input order, and returns the batch's INDEX.md: a
 * `# Index` heading, the {@linkcode INDEX_COLUMNS} line, then one
 * {@linkcode indexLine} row per session. One dream is held at a time.
 *
 * @param source The entries of one or more sessions.
 * @param options The dream options (cap, signal).
 * @returns The INDEX.md text.
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
 * assert.match(rows[1]!, /^- 2 · sesn_b · 2026-09-14T10:00:00Z · 1 · \d+ · Ship it$/);
 * ```
 */
export async function renderIndex(
  source: EntryIterable,
  options: IndexOptions = {},
): Promise<string> {
  const rows: string[] = [];
  for await (const group of splitSessions(source)) {
    rows.push(indexLine(rows.length + 1, await renderDream(group.entries, options)));
  }
  return indexText(rows);
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
  optionNames: ["cap"],
  description: "The INDEX.md rows of a batch of dreamed sessions",
  extension: ".md",
  render: renderIndex,
  batch: { fileName: "INDEX.md" },
};
