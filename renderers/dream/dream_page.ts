// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

/**
 * A dream's front matter, the dream as a page of a folder (its text, whose
 * front matter holds what its INDEX.md row needs), and the read-back of such
 * a page, so a folder's INDEX.md is rebuilt from the folder itself.
 *
 * @module
 */

import { redact } from "../../kit/mod.ts";
import type { FolderPage, PageHead, RendererFolder } from "../registry.ts";
import { type FrontMatter, frontMatter, parsePage } from "./_front_matter.ts";
import { isIndexHead, type RowFields } from "./_index_row.ts";
import { previousRows, sessionsIndexText } from "./_previous_index.ts";

/** The options the folder's index reads: the previous run's index (`PreviousIndexOptions`). */
export interface PreviousIndex {
  previous?: string;
  previousName?: string;
}

/** The `renderer` field that marks a dream page. */
const DREAM_PAGE = "dream";

/** What a dream's front matter says of its session, beside its row's fields. */
export interface FrontMatterFacts extends RowFields {
  title: string;
  project: string;
  cwd: string;
  models: readonly string[];
  endedAt: string;
  terminalState: string;
  lastError: string;
}

/**
 * The front matter a dream's text starts with, at most `budget` UTF-8 bytes
 * where it can be (see {@linkcode frontMatter}): the session's facts, each
 * string quoted and escaped so that no value leaves its scalar, the values
 * redacted again (they are redacted when learnt; a second pass changes
 * nothing then, and keeps a caller's value honest).
 */
export function dreamFrontMatter(facts: FrontMatterFacts, budget: number): string {
  return frontMatter({
    renderer: DREAM_PAGE,
    session_id: redact(facts.sessionId),
    title: redact(facts.title),
    project: redact(facts.project),
    cwd: redact(facts.cwd),
    models: facts.models.map(redact),
    start: redact(facts.createdAt),
    end: redact(facts.endedAt),
    turns: facts.turns,
    terminal_state: redact(facts.terminalState),
    last_error: redact(facts.lastError),
    elided_bytes: facts.elidedBytes,
    digest: facts.digest,
    first_user: redact(facts.firstUser),
  }, budget);
}

/**
 * A dream as a page of a folder: its text, whose front matter holds what
 * its INDEX.md row needs.
 */
export function dreamPage(dream: { text: string }): string {
  return dream.text;
}

/** What a dream page's front matter says, and the size of the dream's text. */
export interface DreamPageSummary extends RowFields {
  /** The UTF-8 size of the dream's text: the page's size less its front matter's. */
  bytes: number;
}

/**
 * What a dream page's front matter says, and whether the page is the dream's
 * text itself (a page of this version, its front matter the dream's) or an
 * earlier version's (a front matter of its own before the text, no digest);
 * undefined when the fields are not a dream page's.
 */
export function pageFields(
  fields: FrontMatter,
): { row: RowFields; whole: boolean } | undefined {
  const text = (key: string): string | undefined =>
    typeof fields[key] === "string" ? fields[key] as string : undefined;
  const count = (key: string): number | undefined =>
    Number.isSafeInteger(fields[key]) && (fields[key] as number) >= 0
      ? fields[key] as number
      : undefined;
  if (fields.renderer !== DREAM_PAGE) return undefined;
  const digest = text("digest");
  const whole = digest !== undefined;
  const sessionId = text("session_id");
  const createdAt = text(whole ? "start" : "created_at");
  const firstUser = text("first_user");
  const turns = count("turns");
  const elidedBytes = count("elided_bytes");
  if (
    sessionId === undefined || createdAt === undefined || firstUser === undefined ||
    turns === undefined || elidedBytes === undefined
  ) {
    return undefined;
  }
  return {
    row: { sessionId, createdAt, turns, elidedBytes, firstUser, digest: digest ?? "" },
    whole,
  };
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
 * uninterrupted run's; marked against the previous run's index when the
 * options give one.
 */
export const dreamFolderIndex: RendererFolder<PreviousIndex, DreamPageSummary> = {
  indexName: "INDEX.md",
  // Room for a front matter whose session id or timestamp is a few hundred kilobytes long.
  headBytes: 256 * 1024,
  summary({ head, size }: PageHead): DreamPageSummary | undefined {
    const page = parsePage(head);
    const fields = page === undefined ? undefined : pageFields(page.fields);
    if (page === undefined || fields === undefined) return undefined;
    // An earlier version's page wrote its own front matter before the dream's text.
    const bytes = fields.whole ? size : size - page.bytes;
    return bytes < 0 ? undefined : { ...fields.row, bytes };
  },
  ownsIndex(head: string): boolean {
    return isIndexHead(head);
  },
  buildIndex(pages: FolderPage<DreamPageSummary>[], options: PreviousIndex = {}): string {
    // Read first: a malformed previous index fails the same with no pages.
    const previous = previousRows(options);
    const sorted = [...pages].sort((a, b) =>
      compareStrings(a.summary.createdAt, b.summary.createdAt) ||
      compareStrings(a.summary.sessionId, b.summary.sessionId) || compareStrings(a.name, b.name)
    );
    const sessions = sorted.map(({ summary }) => ({ fields: summary, bytes: summary.bytes }));
    return sessionsIndexText(sessions, previous);
  },
};
