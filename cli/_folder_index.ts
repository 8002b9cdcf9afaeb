// Copyright 2026 the brigade authors. MIT license.

/**
 * The read-back of an output folder: the index of a folder (dream's INDEX.md,
 * html's index.html) is rebuilt from the pages in it, whatever runs wrote them
 * (interrupted, rerun, partly forced), and comes out byte-identical to the one
 * an uninterrupted run writes. What a page carries and how an index looks are
 * the renderers' (`renderers/dream_page.ts`, `renderers/html_index.ts`); this
 * module only walks the folder.
 *
 * @module
 */

import { join } from "node:path";
import { INDEX_COLUMNS, indexLine } from "../renderers/dream_index.ts";
import { pageDream, parsePage } from "../renderers/dream_page.ts";
import { type IndexedPage, pageSummary } from "../renderers/html_index.ts";

/** The html index's file name; no session page can take it (see `sessionFileName`). */
export const HTML_INDEX = "index.html";

/** A file of the folder and its text (or the text before a marker, see {@linkcode folderFiles}). */
interface FolderFile {
  name: string;
  text: string;
}

/** Options for {@linkcode folderFiles}. */
interface FolderFilesOptions {
  /**
   * Read each file only up to this marker (its text ends before it), for
   * files whose index facts are at the top: a 1 MB page is not read whole.
   *
   * @default {undefined}
   */
  until?: string;
}

/**
 * The files of `dir` whose names end in `extension`, hidden ones (temporary
 * files) left out, in name order, with their text. A file that cannot be read
 * is passed over: the index lists what it can.
 */
async function* folderFiles(
  dir: string,
  extension: string,
  options: FolderFilesOptions = {},
): AsyncGenerator<FolderFile, void, undefined> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    if (entry.isFile && entry.name.endsWith(extension) && !entry.name.startsWith(".")) {
      names.push(entry.name);
    }
  }
  names.sort();
  for (const name of names) {
    const text = await readText(join(dir, name), options.until).catch(() => undefined);
    if (text !== undefined) yield { name, text };
  }
}

/** A file's text, or the part before `until`. */
async function readText(path: string, until: string | undefined): Promise<string> {
  if (until === undefined) return await Deno.readTextFile(path);
  using file = await Deno.open(path);
  const decoder = new TextDecoder();
  const buffer = new Uint8Array(16 * 1024);
  let text = "";
  for (;;) {
    const read = await file.read(buffer);
    if (read === null) return text + decoder.decode();
    const from = Math.max(0, text.length - until.length);
    text += decoder.decode(buffer.subarray(0, read), { stream: true });
    const at = text.indexOf(until, from);
    if (at !== -1) return text.slice(0, at);
  }
}

/** Orders strings by code unit, as the indexes sort their rows. */
function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

interface Row {
  createdAt: string;
  sessionId: string;
  name: string;
  /** The row with its number left out: what follows `- {seq}`. */
  tail: string;
}

/** Orders rows by `created_at`, then `session_id` (then file name, so the order is total). */
function compareRows(a: Row, b: Row): number {
  return compareStrings(a.createdAt, b.createdAt) || compareStrings(a.sessionId, b.sessionId) ||
    compareStrings(a.name, b.name);
}

/**
 * The INDEX.md of every dream page in a folder: rows ordered by `created_at`,
 * then `session_id`, numbered from 1 in that order. Pages are read one at a
 * time and only their rows are kept.
 */
export async function folderIndex(dir: string): Promise<string> {
  const rows: Row[] = [];
  for await (const { name, text } of folderFiles(dir, ".md")) {
    const page = parsePage(text);
    const dream = page === undefined ? undefined : pageDream(page);
    if (dream === undefined) continue;
    // indexLine is the one place the row format lives; its number is set once sorted.
    const line = indexLine(0, dream);
    rows.push({
      createdAt: dream.createdAt,
      sessionId: dream.sessionId,
      name,
      tail: line.slice("- 0".length),
    });
  }
  rows.sort(compareRows);
  const lines = rows.map((row, i) => `- ${i + 1}${row.tail}\n`).join("");
  return `# Index\n\n${INDEX_COLUMNS}\n\n${lines}`;
}

/**
 * The session pages of a folder, read one at a time, ordered by start time,
 * then session id, then file name (a total order, so the index is the same
 * whichever run wrote which page).
 */
export async function folderPages(dir: string): Promise<IndexedPage[]> {
  const pages: IndexedPage[] = [];
  // The summary is in the head: a page's body (up to a megabyte) is not read.
  for await (const { name, text } of folderFiles(dir, ".html", { until: "</head>" })) {
    const summary = name === HTML_INDEX ? undefined : pageSummary(text);
    if (summary !== undefined) pages.push({ name, summary });
  }
  return pages.sort((a, b) =>
    compareStrings(a.summary.startedAt, b.summary.startedAt) ||
    compareStrings(a.summary.sessionId, b.summary.sessionId) || compareStrings(a.name, b.name)
  );
}
