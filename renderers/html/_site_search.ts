// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// The search of every session from the folder's index.html, with no server:
// the words each page carries (redacted, read back as untrusted) are embedded
// in the index as an inert JSON data block (`<script type="application/json">`
// is never run; a page opened from file:// could not fetch a file beside it),
// which the page's one script reads. Its size is bounded whatever the folder
// holds: the most distinctive words of each session first, an equal share each.

import { type Html, markup, trusted } from "./_html.ts";
import { wordsWithin } from "./_find.ts";

/** The most UTF-8 bytes of the index's search data (its JSON block), whatever the folder holds. */
export const SITE_SEARCH_BYTES = 2_000_000;

/** A page of the folder as the site's search needs it. */
export interface SearchedPage {
  /** The page's file name in the folder. */
  name: string;
  summary: { words?: string };
}

const ENCODER = new TextEncoder();

function bytesOf(text: string): number {
  return ENCODER.encode(text).length;
}

/**
 * Each page's words, most distinctive first: those fewer sessions hold come
 * first (a word every session has tells none apart), then the page's order.
 */
function distinctive(pages: readonly SearchedPage[]): string[][] {
  const lists = pages.map((page) => (page.summary.words ?? "").split(" ").filter((w) => w !== ""));
  const held = new Map<string, number>();
  for (const list of lists) {
    for (const word of new Set(list)) held.set(word, (held.get(word) ?? 0) + 1);
  }
  return lists.map((list) => [...list].sort((a, b) => held.get(a)! - held.get(b)!));
}

/**
 * The search data of the index: `{"pages": [[link, words], …]}`, the whole JSON within
 * {@linkcode SITE_SEARCH_BYTES}. What is left after each page's link is shared
 * out evenly; a page needing less than its share leaves the rest to the others.
 */
export function searchData(pages: readonly SearchedPage[]): string {
  const lists = distinctive(pages);
  const hrefs = pages.map((page) => encodeURIComponent(page.name));
  // `{"pages":[` … `]}`, and per page `["href","words"]` and a comma.
  let left = SITE_SEARCH_BYTES - bytesOf('{"pages":[]}');
  for (const href of hrefs) left -= bytesOf(JSON.stringify(href)) + 6;
  const order = lists.map((list, i) => ({ i, bytes: bytesOf(list.join(" ")) }))
    .sort((a, b) => a.bytes - b.bytes || a.i - b.i);
  const kept: string[] = new Array(pages.length).fill("");
  let remaining = order.length;
  for (const { i } of order) {
    const share = Math.max(0, Math.floor(left / remaining));
    kept[i] = wordsWithin(lists[i]!, share);
    left -= bytesOf(kept[i]!);
    remaining--;
  }
  return JSON.stringify({ pages: hrefs.map((href, i) => [href, kept[i]!]) });
}

/** JSON made safe inside a `<script>` element: nothing in it can end the element or open a comment. */
function scriptSafe(json: string): string {
  return json.replace(
    /[<>&\u2028\u2029]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/**
 * The index's search bar (hidden until the page's script shows it) and its
 * inert data block of every session's words.
 */
export function siteSearch(pages: readonly SearchedPage[]): Html {
  return markup`<div class="find" id="site-find" role="search" aria-label="Search every session" hidden><label class="find-q" for="site-q">Search every session</label><input type="search" id="site-q" placeholder="Words of any session (press /)" autocomplete="off"><p class="find-status" id="site-status" role="status" aria-live="polite"></p></div>
<script type="application/json" id="site-words">${trusted(scriptSafe(searchData(pages)))}</script>
`;
}
