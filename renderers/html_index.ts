// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

/**
 * The html renderer's folder index: the summary each session page carries
 * as JSON in a `<meta name="brigade-transcript-session">` is read back from
 * the page, and the `index.html` of a folder is built from those summaries,
 * so the index of a folder that several runs wrote (interrupted, resumed,
 * forced) lists every page in it, in the order an uninterrupted run gives.
 *
 * @module
 */

import { pageHead, type PageSummary, readableTime, SUMMARY_META } from "./_html_page.ts";
import { type Html, markup } from "./_html.ts";
import { redact } from "../redact/mod.ts";
import { visibleControls } from "../redact/excerpt.ts";
import type { FolderPage, PageHead, RendererFolder } from "./registry.ts";

/** A page of the folder and what its meta says. */
export interface IndexedPage {
  /** The page's file name in the folder. */
  name: string;
  summary: PageSummary;
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
 * breaks) made visible, and cut (a session id and a time to 200 code points,
 * the first user message to its 200).
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
    cut: value.cut,
  };
}

/** The most code points of a text read back from a page. */
const READ_BACK_CODE_POINTS = 200;

/** A text read back from a page, made safe to show: redacted, controls visible, cut. */
function untrusted(text: string): string {
  const shown = visibleControls(redact(text), { oneLine: true });
  const points = [...shown.slice(0, 4 * READ_BACK_CODE_POINTS)];
  return points.length > READ_BACK_CODE_POINTS
    ? points.slice(0, READ_BACK_CODE_POINTS).join("")
    : shown;
}

function isSummary(value: unknown): value is PageSummary {
  if (typeof value !== "object" || value === null) return false;
  const v = value as Record<string, unknown>;
  const count = (x: unknown): boolean => Number.isSafeInteger(x) && (x as number) >= 0;
  return typeof v.sessionId === "string" && typeof v.startedAt === "string" &&
    typeof v.firstUser === "string" && typeof v.cut === "boolean" && count(v.turns) &&
    count(v.threads) && count(v.items);
}

function started(at: string): Html | string {
  if (at === "") return "unknown";
  return markup`<time datetime="${at}">${readableTime(at)}</time>`;
}

/** The index page's title, by which an index.html this renderer wrote is known. */
const INDEX_TITLE = "Index of sessions";

/** The start of an index page this renderer wrote, and its title line: what a read-back matches. */
const INDEX_START = markup`<!DOCTYPE html>\n`.toString();
const INDEX_TITLE_LINE = markup`\n<title>${INDEX_TITLE}</title>\n`.toString();

/** The index page: one table row per session page, each linking to it. */
export async function indexPage(pages: IndexedPage[]): Promise<string> {
  const rows = pages.map(({ name, summary }, i) => {
    const id = summary.sessionId === "" ? "(empty session)" : summary.sessionId;
    return markup`<tr><td class="num">${i + 1}</td><td><a href="${
      encodeURIComponent(name)
    }">${id}</a></td><td>${
      started(summary.startedAt)
    }</td><td class="num">${summary.turns}</td><td class="num">${summary.threads}</td><td class="num">${summary.items}${
      summary.cut ? " (cut)" : ""
    }</td><td>${summary.firstUser}</td></tr>\n`;
  });
  const body = pages.length === 0
    ? markup`<p class="note">No session pages in this folder.</p>\n`
    : markup`<table>
<caption class="kicker">Sessions</caption>
<thead><tr><th scope="col">#</th><th scope="col">Session</th><th scope="col">Started</th><th scope="col">Turns</th><th scope="col">Threads</th><th scope="col">Items</th><th scope="col">First user message</th></tr></thead>
<tbody>
${rows}</tbody>
</table>
`;
  const page = markup`${await pageHead(INDEX_TITLE)}<body>
<header class="top"><p class="kicker">Agent sessions</p><h1>Index</h1>
<dl class="facts"><div><dt>Sessions</dt><dd>${pages.length}</dd></div></dl></header>
<main>
${body}</main>
<footer><p>Rendered by @brigade/transcript · no scripts, no remote loads</p></footer>
</body>
</html>
`;
  return page.toString();
}

/** Orders strings by code unit, as the index sorts its rows. */
function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The html renderer's folder format: each page's summary read back from its
 * `<meta>`, and the folder's `index.html`, its pages ordered by start time,
 * then session id, then file name (a total order, so the index is the same
 * whichever run wrote which page).
 */
export const htmlFolderIndex: RendererFolder<unknown, PageSummary> = {
  indexName: "index.html",
  // The summary is in the head, before the style: a page's body (up to a megabyte) is not read.
  headBytes: 256 * 1024,
  summary: ({ head }: PageHead): PageSummary | undefined => pageSummary(head),
  ownsIndex: (head: string): boolean =>
    head.startsWith(INDEX_START) && head.includes(INDEX_TITLE_LINE),
  async buildIndex(pages: FolderPage<PageSummary>[]): Promise<string> {
    const sorted = [...pages].sort((a, b) =>
      compareStrings(a.summary.startedAt, b.summary.startedAt) ||
      compareStrings(a.summary.sessionId, b.summary.sessionId) || compareStrings(a.name, b.name)
    );
    return await indexPage(sorted);
  },
};
