// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// An INDEX.md read back as the previous run's, and a new index marked against it: each row
// added, changed (its digest differs) or retained, the previous rows no session matched listed
// as removed. Rows are matched by their session_id column as written (redacted, on one line).

import {
  type Change,
  COLUMNS,
  DIGESTLESS_COLUMNS,
  indexRow,
  indexText,
  MARKED_COLUMNS,
  NO_DIGEST,
  rowField,
  type RowFields,
} from "./_index_row.ts";

/**
 * The previous index given to the `index` renderer or to the dream's folder
 * index (option `previous`) is not an INDEX.md this package writes.
 *
 * @example Usage
 * ```ts
 * import { PreviousIndexError, renderIndex } from "@brigade/transcript";
 * import assert from "node:assert/strict";
 *
 * await assert.rejects(
 *   () => renderIndex([], { previous: "# Index\n\nnot a columns line\n", previousName: "old/INDEX.md" }),
 *   (error) =>
 *     error instanceof PreviousIndexError && error.code === "malformed_previous_index" &&
 *     error.line === 3 && error.message.includes("old/INDEX.md"),
 * );
 * ```
 */
export class PreviousIndexError extends SyntaxError {
  /** What went wrong: always `"malformed_previous_index"`. */
  readonly code: "malformed_previous_index" = "malformed_previous_index";
  /** The line of the previous index, from 1, that is not what an INDEX.md holds there. */
  readonly line: number;

  /**
   * Constructs a new instance.
   *
   * @param name What the previous index is called in the message (its path).
   * @param line The line, from 1.
   * @param expected What an INDEX.md holds there.
   */
  constructor(name: string, line: number, expected: string) {
    super(`Cannot read the previous index "${name}": line ${line} is not ${expected}`);
    this.name = "PreviousIndexError";
    this.line = line;
  }
}

/** A row of the previous index. */
export interface PreviousRow {
  /** Its session_id column as written. */
  id: string;
  /** Its digest; `""` when it has none (an index of an earlier version, or `-`). */
  digest: string;
  /** Its columns from session_id on, written again (redacted, one-lined) for the removed list. */
  columns: string;
}

const CHANGES: readonly string[] = ["added", "changed", "retained"];
const BYTES = /^\d+(?: \(\+\d+ elided\))?$/;
const DIGEST = /^sha256:[0-9a-f]{64}$/;
const SINCE = "Since the previous index: ";
const REMOVED = "## Removed";

/**
 * The rows of a previous INDEX.md (its `## Removed` list left out: those
 * sessions were gone already). Any version's index is read: without a digest
 * column, every row's digest is unknown.
 *
 * @throws {PreviousIndexError} When the text is not an INDEX.md, naming the line.
 */
export function parsePreviousIndex(text: string, name: string): PreviousRow[] {
  const lines = text.split("\n").map((line) => line.endsWith("\r") ? line.slice(0, -1) : line);
  if (lines[0] !== "# Index") throw new PreviousIndexError(name, 1, 'the heading "# Index"');
  if (lines[1] !== "") throw new PreviousIndexError(name, 2, "blank");
  const columns = lines[2];
  if (columns !== COLUMNS && columns !== MARKED_COLUMNS && columns !== DIGESTLESS_COLUMNS) {
    throw new PreviousIndexError(name, 3, "a columns line an INDEX.md starts with");
  }
  const shape = { marked: columns === MARKED_COLUMNS, digests: columns !== DIGESTLESS_COLUMNS };
  const rows: PreviousRow[] = [];
  for (let i = 3; i < lines.length; i++) {
    const line = lines[i]!;
    if (line === "" || (rows.length === 0 && shape.marked && line.startsWith(SINCE))) continue;
    if (line === REMOVED) break;
    const row = line.startsWith("- ") ? parseRow(line.slice(2), shape) : undefined;
    if (row === undefined) {
      throw new PreviousIndexError(name, i + 1, "a row of the columns named on line 3");
    }
    rows.push(row);
  }
  return rows;
}

/**
 * A row's columns, split at ` · `. The session_id and created_at columns
 * are free text, so the row is read from its fixed columns: the first turns
 * count, bytes and digest in a row after two columns; created_at is the
 * column before them (a timestamp holds no ` · `), session_id all before it.
 */
function parseRow(
  rest: string,
  shape: { marked: boolean; digests: boolean },
): PreviousRow | undefined {
  const parts = rest.split(" · ");
  if (!/^\d+$/.test(parts[0] ?? "")) return undefined;
  if (shape.marked && !CHANGES.includes(parts[1] ?? "")) return undefined;
  const from = shape.marked ? 2 : 1;
  const fixed = shape.digests ? 3 : 2;
  for (let at = from + 2; at + fixed < parts.length; at++) {
    if (!/^\d+$/.test(parts[at]!) || !BYTES.test(parts[at + 1]!)) continue;
    const digest = shape.digests ? parts[at + 2]! : NO_DIGEST;
    if (digest !== NO_DIGEST && !DIGEST.test(digest)) continue;
    const id = parts.slice(from, at - 1).join(" · ");
    const first = parts.slice(at + fixed).join(" · ");
    const columns = [id, parts[at - 1]!].map(rowField).join(" · ") +
      ` · ${parts[at]} · ${parts[at + 1]} · ${digest} · ${rowField(first)}`;
    return { id, digest: digest === NO_DIGEST ? "" : digest, columns };
  }
  return undefined;
}

/** A session of the new index: its row's fields and its text's size. */
export interface IndexedSession {
  fields: RowFields;
  bytes: number;
}

/**
 * The INDEX.md of `sessions`, numbered from 1 in the order given, each row
 * marked against the previous index's, then the previous rows no session
 * matched, as removed.
 */
export function markedIndexText(sessions: IndexedSession[], previous: PreviousRow[]): string {
  const byId = new Map<string, PreviousRow[]>();
  for (const row of previous) {
    const same = byId.get(row.id);
    if (same === undefined) byId.set(row.id, [row]);
    else same.push(row);
  }
  const counts: Record<Change, number> = { added: 0, changed: 0, retained: 0 };
  const rows = sessions.map(({ fields, bytes }, i) => {
    // A session id that appears twice (one per project) takes the previous rows in order.
    const match = byId.get(rowField(fields.sessionId))?.shift();
    const change: Change = match === undefined
      ? "added"
      : match.digest !== "" && match.digest === fields.digest
      ? "retained"
      : "changed";
    counts[change]++;
    return `${indexRow(i + 1, fields, bytes, change)}\n`;
  });
  const removed = new Set([...byId.values()].flat());
  const ordered = previous.filter((row) => removed.has(row));
  const since = `${SINCE}${counts.added} added · ${counts.changed} changed · ` +
    `${counts.retained} retained · ${ordered.length} removed`;
  const gone = ordered.length === 0
    ? ""
    : `\n${REMOVED}\n\n${ordered.map((row) => `- ${row.columns}\n`).join("")}`;
  return `# Index\n\n${MARKED_COLUMNS}\n\n${since}\n\n${rows.join("")}${gone}`;
}

/**
 * The previous index's rows, read before anything is rendered; undefined
 * when there is none.
 */
export function previousRows(
  options: { previous?: string | undefined; previousName?: string | undefined },
): PreviousRow[] | undefined {
  if (options.previous === undefined) return undefined;
  return parsePreviousIndex(options.previous, options.previousName ?? "the previous index");
}

/** The INDEX.md of sessions in the order given, marked when there is a previous index. */
export function sessionsIndexText(
  sessions: IndexedSession[],
  previous: PreviousRow[] | undefined,
): string {
  if (previous !== undefined) return markedIndexText(sessions, previous);
  return indexText(sessions.map(({ fields, bytes }, i) => indexRow(i + 1, fields, bytes)));
}
