// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

/**
 * A dream as a page of a folder: a front-matter block holding what its
 * INDEX.md row needs (redacted), then the dream's text unchanged; and the
 * read-back of such a page, so a folder's INDEX.md is rebuilt from the
 * folder itself.
 *
 * @module
 */

import { redact, utf8Length } from "../../kit/mod.ts";
import type { FolderPage, PageHead, RendererFolder } from "../registry.ts";
import { indexRow, indexText, type RowFields } from "./_index_row.ts";

/** A front-matter value: each is written as JSON, so it stays on its one line. */
export type FrontMatterValue = string | number;

/** The fields of a front-matter block, in the order written. */
export type FrontMatter = Record<string, FrontMatterValue>;

const FENCE = "---";

/**
 * A front-matter block: `---`, one `key: value` line per field (the value as
 * JSON, which YAML reads too), `---`, each line ending in `\n`.
 */
export function frontMatter(fields: FrontMatter): string {
  const lines = Object.entries(fields).map(([key, value]) => `${key}: ${JSON.stringify(value)}`);
  return `${FENCE}\n${lines.join("\n")}\n${FENCE}\n`;
}

/** A page split into its front matter and the text after it. */
export interface Page {
  fields: FrontMatter;
  body: string;
}

/** Reads a page written with {@linkcode frontMatter}; undefined when it has none. */
export function parsePage(text: string): Page | undefined {
  if (!text.startsWith(`${FENCE}\n`)) return undefined;
  const end = text.indexOf(`\n${FENCE}\n`, FENCE.length);
  if (end === -1) return undefined;
  const fields: FrontMatter = {};
  for (const line of text.slice(FENCE.length + 1, end).split("\n")) {
    const colon = line.indexOf(": ");
    if (colon <= 0) return undefined;
    let value: unknown;
    try {
      value = JSON.parse(line.slice(colon + 2));
    } catch {
      return undefined;
    }
    if (typeof value !== "string" && typeof value !== "number") return undefined;
    fields[line.slice(0, colon)] = value;
  }
  return { fields, body: text.slice(end + FENCE.length + 2) };
}

/** The `renderer` field that marks a dream page. */
const DREAM_PAGE = "dream";

/**
 * A dream as a page of a folder: its front matter (what its INDEX.md row
 * needs, redacted) and then its text, unchanged.
 */
export function dreamPage(dream: RowFields & { text: string }): string {
  return frontMatter({
    renderer: DREAM_PAGE,
    session_id: redact(dream.sessionId),
    created_at: redact(dream.createdAt),
    turns: dream.turns,
    elided_bytes: dream.elidedBytes,
    first_user: redact(dream.firstUser),
  }) + dream.text;
}

/** What a dream page's front matter says, and the size of the dream's text. */
export interface DreamPageSummary extends RowFields {
  /** The UTF-8 size of the dream's text: the page's size less its front matter's. */
  bytes: number;
}

/** What a dream page's front matter says; undefined when the fields are not a dream page's. */
export function pageFields(fields: FrontMatter): RowFields | undefined {
  const text = (key: string): string | undefined =>
    typeof fields[key] === "string" ? fields[key] as string : undefined;
  const count = (key: string): number | undefined =>
    Number.isSafeInteger(fields[key]) && (fields[key] as number) >= 0
      ? fields[key] as number
      : undefined;
  if (fields.renderer !== DREAM_PAGE) return undefined;
  const sessionId = text("session_id");
  const createdAt = text("created_at");
  const firstUser = text("first_user");
  const turns = count("turns");
  const elidedBytes = count("elided_bytes");
  if (
    sessionId === undefined || createdAt === undefined || firstUser === undefined ||
    turns === undefined || elidedBytes === undefined
  ) {
    return undefined;
  }
  return { sessionId, createdAt, turns, elidedBytes, firstUser };
}

/** Orders strings by code unit, as the index sorts its rows. */
function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The dream's folder format, the page itself aside (`dream.ts` adds it): a
 * page's summary read back from its front matter, and the INDEX.md of every
 * dream page in the folder, rows ordered by `created_at`, then `session_id`
 * (then file name, so the order is total), numbered from 1 in that order, so
 * an index rebuilt after an interrupted run is byte-identical to an
 * uninterrupted run's.
 */
export const dreamFolderIndex: RendererFolder<unknown, DreamPageSummary> = {
  indexName: "INDEX.md",
  // Room for a front matter whose session id or timestamp is a few hundred kilobytes long.
  headBytes: 256 * 1024,
  summary({ head, size }: PageHead): DreamPageSummary | undefined {
    const page = parsePage(head);
    const fields = page === undefined ? undefined : pageFields(page.fields);
    if (page === undefined || fields === undefined) return undefined;
    const bytes = size - utf8Length(head.slice(0, head.length - page.body.length));
    return bytes < 0 ? undefined : { ...fields, bytes };
  },
  ownsIndex(head: string): boolean {
    return head.startsWith(indexText([]));
  },
  buildIndex(pages: FolderPage<DreamPageSummary>[]): string {
    const sorted = [...pages].sort((a, b) =>
      compareStrings(a.summary.createdAt, b.summary.createdAt) ||
      compareStrings(a.summary.sessionId, b.summary.sessionId) || compareStrings(a.name, b.name)
    );
    return indexText(sorted.map(({ summary }, i) => indexRow(i + 1, summary, summary.bytes)));
  },
};
