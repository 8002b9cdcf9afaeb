// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// The INDEX.md row format, in one place: the `index` renderer writes it from a dream, the
// dream's folder index from what a page's front matter says (the text's size from the file's).

import { redact, visibleControls } from "../../kit/mod.ts";

/** The INDEX.md line that names the columns of a row. */
export const COLUMNS =
  "Columns: seq · session_id · created_at · turns · bytes · first user message";

/** What an INDEX.md row says of a dream, its text's size in UTF-8 bytes aside. */
export interface RowFields {
  sessionId: string;
  createdAt: string;
  turns: number;
  elidedBytes: number;
  firstUser: string;
}

/** One INDEX.md row, without a line end; `bytes` is the UTF-8 size of the dream's text. */
export function indexRow(seq: number, fields: RowFields, bytes: number): string {
  const size = fields.elidedBytes > 0 ? `${bytes} (+${fields.elidedBytes} elided)` : `${bytes}`;
  const [id, at, first] = [fields.sessionId, fields.createdAt, fields.firstUser].map((field) =>
    visibleControls(redact(field), { oneLine: true })
  );
  return `- ${seq} · ${id} · ${at} · ${fields.turns} · ${size} · ${first}`;
}

/** The whole INDEX.md around its rows (each without a line end). */
export function indexText(rows: string[]): string {
  return `# Index\n\n${COLUMNS}\n\n${rows.map((row) => `${row}\n`).join("")}`;
}
