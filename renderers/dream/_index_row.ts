// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// The INDEX.md row format, in one place: the `index` renderer writes it from a dream, the
// dream's folder index from what a page's front matter says (the text's size from the file's).

import { redact, visibleControls } from "../../kit/mod.ts";

/** The INDEX.md line that names the columns of a row. */
export const COLUMNS =
  "Columns: seq · session_id · created_at · turns · bytes · digest · first user message";

/** The columns line of an index marked against a previous one: a change column after seq. */
export const MARKED_COLUMNS =
  "Columns: seq · change · session_id · created_at · turns · bytes · digest · first user message";

/** The columns line of the INDEX.md of versions before the digest column. */
export const DIGESTLESS_COLUMNS =
  "Columns: seq · session_id · created_at · turns · bytes · first user message";

/** What a row's digest column says when the digest is not known (a page of an earlier version). */
export const NO_DIGEST = "-";

/** How a session's row compares with the previous index's. */
export type Change = "added" | "changed" | "retained";

/** What an INDEX.md row says of a dream, its text's size in UTF-8 bytes aside. */
export interface RowFields {
  sessionId: string;
  createdAt: string;
  turns: number;
  elidedBytes: number;
  firstUser: string;
  /** The dream's digest (`sha256:…`); `""` when not known. */
  digest: string;
}

/** A text field of a row: redacted, on one line (controls and line breaks as escapes). */
export function rowField(text: string): string {
  return visibleControls(redact(text), { oneLine: true });
}

/** A row's columns from session_id on: `{id} · {created_at} · {turns} · {bytes} · {digest} · {first}`. */
export function rowColumns(fields: RowFields, bytes: number): string {
  const size = fields.elidedBytes > 0 ? `${bytes} (+${fields.elidedBytes} elided)` : `${bytes}`;
  const digest = /^sha256:[0-9a-f]{64}$/.test(fields.digest) ? fields.digest : NO_DIGEST;
  const [id, at, first] = [fields.sessionId, fields.createdAt, fields.firstUser].map(rowField);
  return `${id} · ${at} · ${fields.turns} · ${size} · ${digest} · ${first}`;
}

/**
 * One INDEX.md row, without a line end; `bytes` is the UTF-8 size of the
 * dream's text; `change`, when the index is marked against a previous one,
 * is written after the seq.
 */
export function indexRow(seq: number, fields: RowFields, bytes: number, change?: Change): string {
  const marked = change === undefined ? "" : `${change} · `;
  return `- ${seq} · ${marked}${rowColumns(fields, bytes)}`;
}

/** The whole INDEX.md around its rows (each without a line end). */
export function indexText(rows: string[]): string {
  return `# Index\n\n${COLUMNS}\n\n${rows.map((row) => `${row}\n`).join("")}`;
}

/** Whether a file's head is an INDEX.md this package wrote, of this version or an earlier one. */
export function isIndexHead(head: string): boolean {
  return [COLUMNS, MARKED_COLUMNS, DIGESTLESS_COLUMNS].some((columns) =>
    head.startsWith(`# Index\n\n${columns}\n\n`)
  );
}
