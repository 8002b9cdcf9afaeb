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
  const page = markup`${await pageHead("Index of sessions")}<body>
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
