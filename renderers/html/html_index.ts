// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

/**
 * The html renderer's folder index: the summary each session page carries
 * as JSON in a `<meta name="brigade-transcript-session">` is read back from
 * the page, and the `index.html` of a folder is built from those summaries,
 * so the index of a folder that several runs wrote (interrupted, resumed,
 * forced) lists every page in it, in the order an uninterrupted run gives:
 * grouped by project, projects and sessions newest first.
 *
 * @module
 */

import {
  cutPoints,
  FIELD_CODE_POINTS,
  pageHead,
  pageScript,
  type PageSummary,
  readableTime,
  SUMMARY_META,
} from "./_page.ts";
import { type Html, markup } from "./_html.ts";
import { readWords, WORDS_META } from "./_find.ts";
import { siteSearch } from "./_site_search.ts";
import { redact, visibleControls } from "../../kit/mod.ts";
import type { FolderPage, PageHead, RendererFolder } from "../registry.ts";

/** What a page of the folder says of itself: its summary, and its words for the site's search. */
export type IndexedSummary = PageSummary & {
  /** The page's words (its `<meta name="brigade-transcript-words">`), read back as untrusted. */
  words?: string;
};

/** A page of the folder and what its meta says. */
export interface IndexedPage {
  /** The page's file name in the folder. */
  name: string;
  summary: IndexedSummary;
}

/**
 * A page's summary and its words for the site's search, read back from its
 * head; undefined when the text is not a session page of ours (see
 * {@linkcode pageSummary}). Its words are kept to word characters and spaces
 * and cut to the page's bound.
 */
export function indexedSummary(html: string): IndexedSummary | undefined {
  const summary = pageSummary(html);
  if (summary === undefined) return undefined;
  const head = html.slice(0, html.indexOf("</head>") >>> 0);
  const words = head.match(new RegExp(`<meta name="${WORDS_META}" content="([^"]*)">`))?.[1];
  return words === undefined ? summary : { ...summary, words: readWords(words) };
}

const ENTITIES: Record<string, string> = {
  "&amp;": "&",
  "&lt;": "<",
  "&gt;": ">",
  "&quot;": '"',
  "&#39;": "'",
};

/**
 * The summary a page carries; undefined when the text is not a session page of
 * ours. A page in the folder may have been planted or edited: its texts are
 * read as untrusted, redacted again, their controls (bidi overrides, line
 * breaks) made visible, and cut (a session id, a time, a project and a
 * directory to 200 code points, the first user message to its 200; a cut
 * text ends in `…`).
 */
export function pageSummary(html: string): PageSummary | undefined {
  const head = html.slice(0, html.indexOf("</head>") >>> 0);
  const match = head.match(new RegExp(`<meta name="${SUMMARY_META}" content="([^"]*)">`));
  if (match === null) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(match[1]!.replace(/&(?:amp|lt|gt|quot|#39);/g, (e) => ENTITIES[e]!));
  } catch {
    return undefined;
  }
  if (!isSummary(value)) return undefined;
  return {
    sessionId: untrusted(value.sessionId),
    startedAt: untrusted(value.startedAt),
    turns: value.turns,
    threads: value.threads,
    items: value.items,
    firstUser: untrusted(value.firstUser),
    ...(value.title === undefined ? {} : { title: untrusted(value.title) }),
    cut: value.cut,
    ...(value.project === undefined ? {} : { project: untrusted(value.project) }),
    ...(value.cwd === undefined ? {} : { cwd: untrusted(value.cwd) }),
    ...(value.bytes === undefined ? {} : { bytes: value.bytes }),
  };
}

/** The most code points of a text read back from a page: a header field's bound. */
const READ_BACK_CODE_POINTS = FIELD_CODE_POINTS;

/** A text read back from a page, made safe to show: redacted, controls visible, cut with `…`. */
function untrusted(text: string): string {
  // Only a head is read: a planted page's megabyte field costs what a line costs.
  const head = text.length > 64 * 1024 ? `${text.slice(0, 64 * 1024)}…` : text;
  return cutPoints(visibleControls(redact(head), { oneLine: true }), READ_BACK_CODE_POINTS);
}

function isSummary(value: unknown): value is PageSummary {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  const count = (x: unknown): boolean => Number.isSafeInteger(x) && (x as number) >= 0;
  const optional = (x: unknown, test: (x: unknown) => boolean): boolean =>
    x === undefined || test(x);
  const text = (x: unknown): boolean => typeof x === "string";
  return text(v.sessionId) && text(v.startedAt) && text(v.firstUser) &&
    typeof v.cut === "boolean" && count(v.turns) && count(v.threads) && count(v.items) &&
    optional(v.project, text) && optional(v.cwd, text) && optional(v.bytes, count) &&
    optional(v.title, text);
}

/** The index page's title, by which an index.html this renderer wrote is known. */
const INDEX_TITLE = "Index of sessions";

/** The start of an index page this renderer wrote, and its title line: what a read-back matches. */
const INDEX_START = markup`<!DOCTYPE html>\n`.toString();
const INDEX_TITLE_LINE = markup`\n<title>${INDEX_TITLE}</title>\n`.toString();

/** The sessions of one project (or of no project: inputs named on their own), newest first. */
interface ProjectGroup {
  /** The project's folder; undefined for the sessions of no project. */
  project: string | undefined;
  pages: IndexedPage[];
}

/** A time read back, as a number to order by: an unknown or unreadable time orders first. */
function instant(at: string): number {
  const time = Date.parse(at);
  return Number.isNaN(time) ? -Infinity : time;
}

/** Orders strings by code unit. */
function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Newest first, then by session id and file name: a total order, so the index
 * is the same whichever run wrote which page.
 */
function newestFirst(a: IndexedPage, b: IndexedPage): number {
  return instant(b.summary.startedAt) - instant(a.summary.startedAt) ||
    compareStrings(b.summary.startedAt, a.summary.startedAt) ||
    compareStrings(a.summary.sessionId, b.summary.sessionId) || compareStrings(a.name, b.name);
}

/** The pages by project: each project's sessions newest first, projects by their newest. */
function byProject(pages: IndexedPage[]): ProjectGroup[] {
  const groups = new Map<string | undefined, IndexedPage[]>();
  for (const page of pages) {
    const list = groups.get(page.summary.project) ?? [];
    list.push(page);
    groups.set(page.summary.project, list);
  }
  const sorted = [...groups].map(([project, list]) => ({
    project,
    pages: list.sort(newestFirst),
  }));
  // The sessions of no project come last; projects by their newest session, then by name.
  return sorted.sort((a, b) =>
    Number(a.project === undefined) - Number(b.project === undefined) ||
    newestFirst(a.pages[0]!, b.pages[0]!) || compareStrings(a.project ?? "", b.project ?? "")
  );
}

/**
 * What a project is called: the directory its sessions ran in, else its folder (also when its
 * sessions ran in different directories: a folder of collected transcripts, not one project's).
 */
function projectName(group: ProjectGroup): string {
  const cwds = new Set(
    group.pages.map((page) => page.summary.cwd).filter((cwd) => cwd !== undefined),
  );
  const [cwd] = cwds;
  return (cwds.size === 1 ? cwd : undefined) ?? group.project ?? "Other sessions";
}

/** A size in bytes as a person reads it. */
function sizeText(bytes: number): string {
  if (bytes < 1_000) return `${bytes} B`;
  if (bytes < 1_000_000) return `${(bytes / 1_000).toFixed(1)} kB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

/**
 * What a folder's index is told by `render --watch`: whether it is live (it reloads itself while
 * the watch runs), and the pages whose transcript is gone (kept, marked).
 */
export interface SiteIndexOptions {
  /**
   * The watch is running: the index reloads itself every few seconds.
   *
   * @default {false}
   */
  live?: boolean;
  /**
   * The file names of the pages whose transcript was deleted: each is kept, and its row says so.
   *
   * @default {[]}
   */
  gone?: readonly string[];
}

/** The index's options read from a renderer's options, whatever else they hold. */
function siteOptions(options: unknown): { live: boolean; gone: ReadonlySet<string> } {
  const given = (typeof options === "object" && options !== null ? options : {}) as Record<
    string,
    unknown
  >;
  const gone = Array.isArray(given.gone) ? given.gone.filter((x) => typeof x === "string") : [];
  return { live: given.live === true, gone: new Set(gone) };
}

function sessionRow({ name, summary }: IndexedPage, gone: ReadonlySet<string>): Html {
  const when = summary.startedAt === ""
    ? "no start time"
    : markup`<time datetime="${summary.startedAt}">${readableTime(summary.startedAt)}</time>`;
  const id = summary.sessionId === "" ? "(empty session)" : summary.sessionId;
  const size = summary.bytes === undefined ? "unknown" : sizeText(summary.bytes);
  return markup`<tr><td class="when"><a href="${
    encodeURIComponent(name)
  }">${when}</a></td><td class="num">${summary.turns}</td><td class="num">${size}${
    summary.cut ? " (page cut)" : ""
  }${
    gone.has(name) && markup` <span class="gone">(transcript gone)</span>`
  }</td><td class="prompt">${
    summary.title ?? summary.firstUser
  }</td><td class="id">${id}</td></tr>\n`;
}

function sessionTable(
  pages: IndexedPage[],
  caption: Html | false,
  gone: ReadonlySet<string>,
): Html {
  return markup`<table>
${caption}<thead><tr><th scope="col">Started</th><th scope="col">Turns</th><th scope="col">Size</th><th scope="col">First prompt</th><th scope="col">Session</th></tr></thead>
<tbody>
${pages.map((page) => sessionRow(page, gone))}</tbody>
</table>
`;
}

function projectSection(group: ProjectGroup, number: number, gone: ReadonlySet<string>): Html {
  const name = projectName(group);
  const count = `${group.pages.length} ${group.pages.length === 1 ? "session" : "sessions"}`;
  const where = group.project !== undefined && group.project !== name
    ? markup`<span class="folder">${group.project}</span> · ${count}`
    : count;
  return markup`<section class="project" aria-labelledby="project-${number}">
<h2 id="project-${number}">${name}</h2>
<p class="where">${where}</p>
${sessionTable(group.pages, false, gone)}</section>
`;
}

/**
 * The index page: the sessions grouped by project (a project is named by the
 * directory its sessions ran in, else by its folder), projects and sessions
 * newest first, each row linking to its page with its start, turns, size and
 * first prompt. The sessions of no project (inputs named on their own) come
 * last, in one table. While `render --watch` runs, the index reloads itself and marks the pages
 * whose transcript is gone (see {@linkcode SiteIndexOptions}).
 */
export async function indexPage(
  pages: IndexedPage[],
  options: SiteIndexOptions = {},
): Promise<string> {
  const { live, gone } = siteOptions(options);
  const groups = byProject(pages);
  const projects = groups.filter((group) => group.project !== undefined).length;
  let body: Html;
  if (pages.length === 0) {
    body = markup`<p class="note">No session pages in this folder.</p>\n`;
  } else if (projects === 0) {
    body = sessionTable(
      groups[0]!.pages,
      markup`<caption class="kicker">Sessions</caption>\n`,
      gone,
    );
  } else {
    body = markup`${groups.map((group, i) => projectSection(group, i + 1, gone))}`;
  }
  const nav = projects > 1 &&
    markup`<nav aria-label="Projects"><ul class="projects">${
      groups.map((group, i) =>
        markup`<li><a href="#project-${i + 1}">${
          projectName(group)
        }</a> (${group.pages.length})</li>`
      )
    }</ul></nav>\n`;
  const fact = (name: string, value: number): Html =>
    markup`<div><dt>${name}</dt><dd>${value}</dd></div>`;
  const search = pages.length > 0 && siteSearch(pages);
  const page = markup`${await pageHead(INDEX_TITLE, undefined, live)}<body>
<header class="top"><p class="kicker">Agent sessions</p><h1>Index</h1>
<dl class="facts">${projects > 0 && fact("Projects", projects)}${
    fact("Sessions", pages.length)
  }</dl>
${nav}</header>
${search}<main>
${body}</main>
<footer><p>Rendered by @brigade/transcript · no remote loads · one script of its own, to search every session</p></footer>
${pageScript()}</body>
</html>
`;
  return page.toString();
}

/**
 * The html renderer's folder format: each page's summary read back from its
 * `<meta>`, and the folder's `index.html`, its pages grouped by project,
 * newest first (see {@linkcode indexPage}).
 */
export const htmlFolderIndex: RendererFolder<unknown, IndexedSummary> = {
  indexName: "index.html",
  // The summary is in the head, before the style: a page's body (up to a megabyte) is not read.
  headBytes: 256 * 1024,
  summary: ({ head }: PageHead): IndexedSummary | undefined => indexedSummary(head),
  ownsIndex: (head: string): boolean =>
    head.startsWith(INDEX_START) && head.includes(INDEX_TITLE_LINE),
  async buildIndex(pages: FolderPage<IndexedSummary>[], options?: unknown): Promise<string> {
    return await indexPage(pages, (options ?? {}) as SiteIndexOptions);
  },
};
