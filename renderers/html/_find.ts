// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// Find and filter on a session page: what each item is called for the filter
// (`data-kind`, `data-thread`), the table of contents of the turns, the
// search bar (hidden until the page's one script shows it), and the words a
// page gives the site's search. Markup only: the script is `_script.ts`.

import { type Html, markup } from "./_html.ts";
import { redact as redactSecrets } from "../../kit/mod.ts";

/** What the filter calls an item: the kinds a reader can hide. */
export type FindKind = "prompt" | "reply" | "tool" | "result" | "thinking" | "event";

/** The filter's boxes, in the bar's order: each kind, then the subagents' threads. */
const SHOWN: ReadonlyArray<[FindKind | "subagent", string]> = [
  ["prompt", "Prompts"],
  ["reply", "Replies"],
  ["tool", "Tool calls"],
  ["result", "Results"],
  ["thinking", "Thinking"],
  ["event", "Events"],
  ["subagent", "Subagents"],
];

/** The most turns the table of contents lists; the rest are counted. */
export const TOC_TURNS = 500;
/** The most code points of a turn's line in the table of contents. */
const TOC_LINE_CODE_POINTS = 100;
/** The most threads the bar's thread choice offers; items of the rest stay under "All threads". */
const THREADS_OFFERED = 200;

/**
 * The kind of an item, for the filter: a person's prompt (a user's message),
 * a reply (an agent's message, a message between threads), a tool call, a
 * result, thinking, or an event (everything else: system notes, errors, the
 * user's acts, a rewound branch).
 */
export function findKind(kind: string, from: string): FindKind {
  switch (kind) {
    case "message":
      return from === "user" ? "prompt" : "reply";
    case "thread_message":
      return "reply";
    case "tool_call":
      return "tool";
    case "tool_result":
      return "result";
    case "thinking":
      return "thinking";
  }
  return "event";
}

/** A turn as the table of contents lists it. */
export interface TocTurn {
  /** The item's anchor (`item-N`). */
  id: string;
  /** The prompt's first words, shown as they are on the page. */
  text: string;
}

/** The table of contents' line of a prompt: its text on one line, short. */
export function tocLine(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  const points = [...line.slice(0, 4 * TOC_LINE_CODE_POINTS)];
  if (points.length === 0) return "(empty prompt)";
  return points.length > TOC_LINE_CODE_POINTS
    ? `${points.slice(0, TOC_LINE_CODE_POINTS - 1).join("")}…`
    : line;
}

/**
 * The table of contents of the turns: each of the person's prompts, a plain
 * link to its item (it works without the script), `total` of them in all.
 */
export function tocNav(turns: readonly TocTurn[], total: number): Html | false {
  if (total === 0) return false;
  const more = total - turns.length;
  return markup`<nav class="toc" aria-labelledby="toc-title"><h2 id="toc-title">Turns</h2><ol>${
    turns.map((turn) => markup`<li><a href="#${turn.id}">${turn.text}</a></li>`)
  }</ol>${more > 0 && markup`<p class="note">and ${more} more turns</p>`}</nav>\n`;
}

/**
 * The search bar: a search box, a box per kind the page holds (and one for
 * the subagents' items when a thread other than the primary has any), and
 * the thread choice when there are several threads. It is `hidden`: only the
 * page's script (which makes it work) shows it, so a page read without
 * scripts has no dead control.
 */
export function findBar(
  threads: ReadonlyArray<{ id: string; name: string }>,
  kinds: ReadonlySet<FindKind | "subagent">,
): Html {
  const boxes = SHOWN.filter(([kind]) => kinds.has(kind)).map(([kind, name]) =>
    markup`<label><input type="checkbox" data-show="${kind}" checked> ${name}</label>`
  );
  const offered = threads.slice(0, THREADS_OFFERED);
  const choice = threads.length > 1 &&
    markup`<label class="find-thread">Thread <select id="find-thread"><option value="">All threads</option>${
      offered.map(({ id, name }) => markup`<option value="${id}">${name}</option>`)
    }</select></label>`;
  return markup`<div class="find" id="find" role="search" aria-label="Find and filter" hidden><label class="find-q" for="find-q">Find</label><input type="search" id="find-q" placeholder="Words in the items (press /)" autocomplete="off">${
    boxes.length > 0 && markup`<fieldset class="kinds"><legend>Show</legend>${boxes}</fieldset>`
  }${choice}<p class="find-status" id="find-status" role="status" aria-live="polite"></p></div>\n`;
}

/** The most UTF-8 bytes of words a page gives the site's search. */
export const PAGE_WORDS_BYTES = 4_096;
/** The most distinct words a page counts while it is built: its memory bound. */
const WORDS_COUNTED = 50_000;
/** A word the search keeps: letters, digits and `_`, 3 to 40 code points. */
const WORD = /[\p{L}\p{N}_]{3,40}/gu;
/** Words every session has: they tell no session apart. */
const COMMON = new Set(
  ("the and for are but not you all any can had her was one our out day get has him his how man " +
    "new now old see two way who boy did its let put say she too use that with have this will your " +
    "from they know want been good much some time very when come here just like long make many " +
    "more only over such take than them well were what into then there their which would about " +
    "could other these those after also back because should where while being does done each " +
    "file line lines ok yes redacted_secret")
    .split(" "),
);

/**
 * The words of a session for the site's search, most frequent first: only
 * redacted text ever reaches them (a page that keeps its secrets redacts them
 * here), lower-cased, common words left out.
 */
export class PageWords {
  #counts = new Map<string, number>();
  #redact: boolean;

  /** @param redacted Whether the texts given are redacted already. */
  constructor(redacted: boolean) {
    this.#redact = !redacted;
  }

  /** Counts the words of a text. */
  add(text: string): void {
    const shown = this.#redact ? redactSecrets(text) : text;
    for (const [word] of shown.toLowerCase().matchAll(WORD)) {
      if (COMMON.has(word) || /^\d+$/.test(word)) continue;
      const seen = this.#counts.get(word);
      if (seen !== undefined) this.#counts.set(word, seen + 1);
      else if (this.#counts.size < WORDS_COUNTED) this.#counts.set(word, 1);
    }
  }

  /** The words, most frequent first (then first seen), within {@linkcode PAGE_WORDS_BYTES}. */
  text(): string {
    const ranked = [...this.#counts].sort((a, b) => b[1] - a[1]).map(([word]) => word);
    return wordsWithin(ranked, PAGE_WORDS_BYTES);
  }
}

/** Words joined by spaces, as many as fit in `bytes` UTF-8 bytes, in their order. */
export function wordsWithin(words: readonly string[], bytes: number): string {
  const kept: string[] = [];
  let used = 0;
  const encoder = new TextEncoder();
  for (const word of words) {
    const size = encoder.encode(word).length + (kept.length > 0 ? 1 : 0);
    if (used + size > bytes) continue;
    kept.push(word);
    used += size;
  }
  return kept.join(" ");
}

/** The `<meta>` name under which a page of a folder carries its words for the site's search. */
export const WORDS_META = "brigade-transcript-words";

/** The words read back from a page: only word characters and single spaces, within the bound. */
export function readWords(text: string): string {
  const words = text.slice(0, 4 * PAGE_WORDS_BYTES).toLowerCase().match(WORD) ?? [];
  return wordsWithin(words, PAGE_WORDS_BYTES);
}
