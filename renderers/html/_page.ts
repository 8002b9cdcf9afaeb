// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// The HTML page of one session: markup, escaping and the page's policy. The
// page is one file with its style and its one script inline, and no remote
// load of any kind; its Content-Security-Policy allows only its own stylesheet
// and its own script (each by hash), so even a tag that escaped the escaping
// could neither run nor fetch.

import {
  type ConversationItem,
  cutNote,
  redact as redactSecrets,
  utf8Length,
  visibleControls,
} from "../../kit/mod.ts";
import type { Bodies } from "./_bodies.ts";
import { attach, type Flow, flowHtml, type Fold, FOLD_FRAME_BYTES, newFlow } from "./_folds.ts";
import { PAGE_STYLE } from "./_style.ts";
import { PAGE_SCRIPT } from "./_script.ts";
import {
  findBar,
  type FindKind,
  findKind,
  PageWords,
  TOC_TURNS,
  tocLine,
  tocNav,
  type TocTurn,
  WORDS_META,
} from "./_find.ts";
import { visibleLabel } from "./_label.ts";
import { type Html, markup, trusted } from "./_html.ts";
import type { PageOrigin } from "../registry.ts";

/** The page's budgets, redaction and body builders (items come already cut to the item budget). */
export interface PageSettings {
  /** The most UTF-8 bytes of item markup on the page: every byte of a block counts. */
  transcriptBudget: number;
  /** The most UTF-8 bytes of one item's text (an edit's diff is cut to it here). */
  itemBudget: number;
  redact: boolean;
  /** The body builders (`_body.ts`). */
  bodies: Bodies;
  /** A tool call's whole input, by the `seq` of its entry, when the tool reads better whole. */
  inputOf?: (seq: number) => unknown;
  /** Whether the user message of an entry is a slash command (`/model`), not a prompt. */
  isCommand?: (seq: number) => boolean;
}

/** The agent's thinking, as the page shows it: an item the kit does not make. */
export type ThinkingItem = Omit<ConversationItem, "kind"> & { kind: "thinking" };

/**
 * A branch the session left (a rewind, an edited prompt), as the page shows
 * it, folded after the note that says it was rewound: an item the kit does not make.
 */
export type RewoundItem = Omit<ConversationItem, "kind"> & { kind: "rewound" };

/** What the page shows: the kit's items, thinking, and rewound branches. */
export type PageItem = ConversationItem | ThinkingItem | RewoundItem;

/** A model request's token counts, as a `span.model_request_end` records them. */
export interface Usage {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

/** A model request's usage, from the log row of its end: shown after the request's reply. */
export interface UsageItem {
  kind: "usage";
  /** The `seq` of the request's end. */
  seq: number;
  /** The thread, as the page's items name it (redacted when the page is). */
  thread: string | null;
  usage: Usage;
  /** The model that answered, where the log names it (redacted when the page is). */
  model?: string;
}

/** What the header says of the session; also what an index row of the page needs. */
export interface PageSummary {
  sessionId: string;
  startedAt: string;
  turns: number;
  threads: number;
  items: number;
  /**
   * The first user message that is not a slash command (the first command when
   * all are), whitespace collapsed, at most 200 code points.
   */
  firstUser: string;
  /**
   * The session's title (the latest `session.updated` title: for Claude Code,
   * the name it gives the session), as `firstUser` is cut; absent without one.
   */
  title?: string;
  /** Whether the transcript budget cut the page short. */
  cut: boolean;
  /** A page in a folder: the project it belongs to (see `PageOrigin`), where known. */
  project?: string;
  /** A page in a folder: the directory the session ran in, where its records say. */
  cwd?: string;
  /** A page in a folder: the size of the input the session was read from, in bytes. */
  bytes?: number;
}

/** What a page written into a folder knows of the folder and of where its session came from. */
export interface PageFolder {
  /** The folder's index, which the page links back to. */
  indexName: string;
  origin: PageOrigin;
}

/** The `<meta>` name under which a page carries its {@linkcode PageSummary} as JSON. */
export const SUMMARY_META = "brigade-transcript-session";

const PALETTE_SIZE = 8;
/** The most threads the header names; the rest are counted. */
const THREADS_LISTED = 32;
/** The most code points of a thread's name in the header and on an item. */
const THREAD_NAME_CODE_POINTS = 80;
const FIRST_USER_CODE_POINTS = 200;
/** The most models the header names. */
const MODELS_LISTED = 8;
/** The most threads whose model is remembered. */
const THREAD_MODELS_KEPT = 1_024;
/** The most code points of a model's name. */
const MODEL_CODE_POINTS = 80;
/**
 * The most code points of a header field (the session id, the start time, the
 * project, the directory): what the `<title>`, the `<meta>` summary and an
 * index row show of it too. A longer one ends in `…`.
 */
export const FIELD_CODE_POINTS = 200;
/**
 * The most UTF-16 units of a field (or a title) read before it is redacted and
 * cut: a field of megabytes costs what a line costs. Far longer than any secret.
 */
const FIELD_UNITS_READ = 64 * 1024;

/**
 * Text from the log as the page shows it: redacted first (so a cut can never
 * leave half a secret), line ends made `\n`, other control characters and
 * bidirectional overrides made visible as escapes (they could reorder what a
 * reader sees).
 */
export function shownText(text: string, redact: boolean): string {
  const plain = (redact ? redactSecrets(text) : text).replace(/\r\n?/g, "\n");
  return visibleControls(plain);
}

let policy: Promise<string> | undefined;

/** The SHA-256 of a text, as a policy names it (`sha256-…`, base64). */
async function hashSource(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return `'sha256-${btoa(String.fromCharCode(...new Uint8Array(digest)))}'`;
}

/**
 * The page's Content-Security-Policy: nothing may load or run but the page's
 * own stylesheet and its own script, each named by its SHA-256 hash (inline
 * `style=""` attributes, event handler attributes and any other `<style>` or
 * `<script>` stay inert; no `eval`). Trusted Types are required with no
 * policy allowed: no string can ever become markup or code, even in our script.
 */
export function contentSecurityPolicy(): Promise<string> {
  policy ??= Promise.all([hashSource(PAGE_STYLE), hashSource(PAGE_SCRIPT)]).then(
    ([style, script]) =>
      `default-src 'none'; style-src ${style}; base-uri 'none'; form-action 'none'; ` +
      `script-src ${script}; require-trusted-types-for 'script'; trusted-types 'none'`,
  );
  return policy;
}

/** The page's one script, which its policy names by hash, at the end of its body. */
export function pageScript(): Html {
  return markup`<script>${trusted(PAGE_SCRIPT)}</script>
`;
}

/**
 * How often a live page (a session still growing, an index while `--watch` runs) reloads itself,
 * in seconds: a `<meta http-equiv="refresh">` names no other address, so it asks for the page
 * itself only, and runs no script.
 */
export const LIVE_REFRESH_SECONDS = 3;

/**
 * The head of every page: charset, policy, no referrer, the title, the stylesheet; a live page's
 * reload.
 */
export async function pageHead(title: string, meta?: Html, live = false): Promise<Html> {
  // The policy and the stylesheet are this module's own fixed text (quotes and all).
  return markup`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${trusted(await contentSecurityPolicy())}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
${
    live && markup`<meta http-equiv="refresh" content="${LIVE_REFRESH_SECONDS}">\n`
  }${meta}<title>${title}</title>
<style>${trusted(PAGE_STYLE)}</style>
</head>
`;
}

/**
 * Builds a session's page item by item. The items' markup is kept (the page
 * is bounded by its transcript budget); the header, which counts what the
 * items hold, is written last.
 */
export class PageBuilder {
  #settings: PageSettings;
  /** The page's blocks; a subagent's are in its fold, after the call that started it. */
  #flow: Flow = newFlow();
  /** Subagent thread key → its fold. */
  #folds = new Map<string, Fold>();
  /** Subagent thread key → its name, as its `session.thread_created` gave it, until its first item. */
  #announced = new Map<string, string>();
  /** The latest subagent calls (`Agent`, `Task`): their seq, the name of the thread they start, where their block is. */
  #calls: Array<{ seq: number; name: string; flow?: Flow; part?: number; taken?: boolean }> = [];
  #used = 0;
  #items = 0;
  /** The entry seq of the latest item on the page, and how many of its items are there. */
  #anchored = { seq: Number.NaN, count: 0 };
  #turns = 0;
  #firstUser = "";
  #firstIsCommand = false;
  #title: string | undefined;
  #cut = false;
  /** The day of the latest item with a time: an item of another day shows its date. */
  #lastDay = "";
  /** Thread key → palette slot and the best name known for it. */
  #threads = new Map<string, { slot: number; name: string; named: boolean }>();
  /** Thread key → the latest model its agent answered with (at most {@linkcode THREAD_MODELS_KEPT}). */
  #threadModels = new Map<string, string>();
  /** The models the page's requests name, in the order first seen (at most {@linkcode MODELS_LISTED}). */
  #models: string[] = [];
  /** Thread key → the latest reply of the agent on it whose usage is not shown yet. */
  #replies = new Map<string, { flow: Flow; part: number; seq: number }>();
  /** The tokens of every request whose usage is on the page; undefined before the first. */
  #tokens: Usage | undefined;
  /** Thread key → the number the filter knows it by (`data-thread`): the primary's is 0. */
  #threadIds = new Map<string, number>([["", 0]]);
  /** The table of contents: the first prompts' anchors and lines. */
  #toc: TocTurn[] = [];
  /** The words of the page for the site's search (a page of a folder carries them). */
  #words: PageWords;
  /** The kinds of the items on the page (and `subagent`, once a thread but the primary has one). */
  #kinds = new Set<FindKind | "subagent">();

  /** @param settings Budgets and redaction. */
  constructor(settings: PageSettings) {
    this.#settings = settings;
    this.#words = new PageWords(settings.redact);
  }

  /** Whether the transcript budget is full: no further item is shown. */
  get full(): boolean {
    return this.#cut;
  }

  /**
   * Adds an item; returns false once the transcript budget is full (the item
   * that overflowed it is not shown, and the page ends with a note).
   */
  /**
   * An item's anchor: `item-<seq>`, the entry's seq, which the grader's `[M<seq>]` labels and json's
   * `seq` carry too, so a citation resolves to the page. A second item of one entry (they come
   * together) gets `item-<seq>-2`, and so on: an id is never repeated.
   */
  #anchor(seq: number): { id: string; taken: { seq: number; count: number } } {
    const count = this.#anchored.seq === seq ? this.#anchored.count + 1 : 1;
    return { id: count === 1 ? `item-${seq}` : `item-${seq}-${count}`, taken: { seq, count } };
  }

  add(item: PageItem): boolean {
    if (this.#cut) return false;
    if (isEmptyReply(item)) return true;
    const text = pageText(item);
    const known = this.#threads.has(item.thread ?? "");
    const thread = this.#thread(item);
    const lastDay = this.#lastDay;
    const anchor = this.#anchor(item.seq);
    const block = this.#block(item, text, thread, anchor.id);
    const fold = this.#foldOf(item, thread.slot);
    // Every byte of the block counts: label, names and markup, not only the text (and a new fold's frame).
    const size = utf8Length(block.toString()) +
      (fold?.items === 0 ? FOLD_FRAME_BYTES + utf8Length(fold.name) : 0);
    if (this.#used + size > this.#settings.transcriptBudget) {
      if (!known) this.#threads.delete(item.thread ?? "");
      this.#lastDay = lastDay;
      this.#cut = true;
      return false;
    }
    this.#used += size;
    this.#items++;
    this.#anchored = anchor.taken;
    this.#words.add(text.kept);
    this.#kinds.add(findKind(item.kind, item.from));
    if ((item.thread ?? "") !== "") this.#kinds.add("subagent");
    if (item.kind === "message" && item.from === "user") {
      this.#turns++;
      if (this.#toc.length < TOC_TURNS) {
        this.#toc.push({ id: anchor.id, text: tocLine(text.kept) });
      }
      // The first prompt says what a session was about; a command (`/model`) does not.
      const command = this.#settings.isCommand?.(item.seq) === true;
      if (this.#turns === 1 || (this.#firstIsCommand && !command)) {
        this.#firstUser = firstUserLine(shownText(item.text, true));
        this.#firstIsCommand = command;
      }
    }
    const flow = fold?.flow ?? this.#flow;
    if (fold !== undefined) {
      if (fold.items === 0) this.#placeFold(fold);
      fold.items++;
    }
    flow.parts.push(block);
    const part = flow.parts.length - 1;
    const call = item.kind === "tool_call"
      ? this.#calls.find((c) => c.seq === item.seq)
      : undefined;
    if (call !== undefined) Object.assign(call, { flow, part });
    if (isReply(item)) this.#replies.set(item.thread ?? "", { flow, part, seq: item.seq });
    return true;
  }

  /**
   * Notes a subagent call (Claude Code's `Agent` or `Task`) and the name of
   * the thread it starts (`<subagent_type> (<description>)`), before its item.
   */
  subagentCall(seq: number, name: string): void {
    this.#calls.push({ seq, name: shortName(shownText(name, this.#settings.redact)) });
    if (this.#calls.length > CALLS_KEPT) this.#calls.shift();
  }

  /**
   * Notes that a subagent's thread starts (its `session.thread_created`):
   * its items fold under the call that started it.
   *
   * @param thread The thread's id, as the items name it (redacted when the page is).
   * @param name Its agent's name.
   */
  threadStarted(thread: string, name: string): void {
    if (this.#folds.has(thread)) return;
    this.#announced.set(thread, shortName(shownText(name, this.#settings.redact)));
    if (this.#announced.size > CALLS_KEPT) {
      this.#announced.delete(this.#announced.keys().next().value!);
    }
  }

  /**
   * The fold of an item's thread, made on its first item when the thread was
   * announced and a call on the page can have started it: the latest by the
   * same name, else the earliest not yet matched.
   */
  #foldOf(item: PageItem, slot: number): Fold | undefined {
    const key = item.thread;
    if (key === null) return undefined;
    const known = this.#folds.get(key);
    if (known !== undefined) return known;
    const name = this.#announced.get(key);
    if (name === undefined) return undefined;
    const placed = this.#calls.filter((c) => c.flow !== undefined && c.taken !== true);
    const call = placed.findLast((c) => c.name === name) ?? placed[0];
    if (call === undefined) return undefined;
    this.#announced.delete(key);
    const fold: Fold = { name, slot, items: 0, flow: newFlow() };
    this.#folds.set(key, fold);
    this.#pendingFolds.set(fold, call);
    return fold;
  }

  /** Folds made whose first item is not on the page yet → the call they go after. */
  #pendingFolds = new Map<Fold, { flow?: Flow; part?: number; taken?: boolean }>();

  /** Puts a fold after its call, once its first item is on the page. */
  #placeFold(fold: Fold): void {
    const call = this.#pendingFolds.get(fold);
    if (call === undefined) return;
    this.#pendingFolds.delete(fold);
    call.taken = true;
    attach(call.flow!, call.part!, fold);
  }

  /**
   * Shows a model request's usage, discreetly, right after the agent's reply
   * it produced (the latest reply on its thread, when it came before the
   * request's end and has no usage yet), else where it comes; returns false
   * once the transcript budget is full, as {@linkcode add} does.
   */
  addUsage(item: UsageItem): boolean {
    if (this.#cut) return false;
    const model = item.model === undefined ? undefined : modelName(item.model);
    const note = markup`<p class="usage">${
      model !== undefined && markup`<span class="model">${model}</span> · `
    }tokens: ${usageFigures(item.usage)}</p>\n`;
    const size = utf8Length(note.toString());
    if (this.#used + size > this.#settings.transcriptBudget) {
      this.#cut = true;
      return false;
    }
    this.#used += size;
    const key = item.thread ?? "";
    const reply = this.#replies.get(key);
    if (reply !== undefined && reply.seq < item.seq) {
      reply.flow.parts[reply.part] = markup`${reply.flow.parts[reply.part]}${note}`;
    } else {
      (this.#folds.get(key)?.flow ?? this.#flow).parts.push(note);
    }
    this.#replies.delete(key);
    if (item.model !== undefined) this.model(item.thread, item.model);
    const total = this.#tokens ??= { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 };
    total.input += item.usage.input;
    total.output += item.usage.output;
    total.cacheRead += item.usage.cacheRead;
    total.cacheWrite += item.usage.cacheWrite;
    return true;
  }

  /**
   * Notes the model a thread's agent answers with (a request's, or the
   * session's agent's for the primary thread): its thread is listed with it.
   * The model is redacted when the page is.
   */
  model(thread: string | null, model: string): void {
    const name = modelName(model);
    if (name === "") return;
    if (!this.#models.includes(name) && this.#models.length < MODELS_LISTED) {
      this.#models.push(name);
    }
    const key = thread ?? "";
    this.#threadModels.delete(key);
    if (this.#threadModels.size >= THREAD_MODELS_KEPT) {
      this.#threadModels.delete(this.#threadModels.keys().next().value!);
    }
    this.#threadModels.set(key, name);
  }

  /** Names the session: the latest title given is the page's (redacted when the page is). */
  title(title: string): void {
    this.#title = firstUserLine(shownText(readHead(title), this.#settings.redact));
  }

  /** Ends the page with the transcript note: the source held more than the budget shows. */
  cutShort(): void {
    this.#cut = true;
  }

  /** The whole page; a page of a folder links back to its index and says where it came from. */
  async finish(sessionId: string, startedAt: string, folder?: PageFolder): Promise<string> {
    const origin = folder?.origin ?? {};
    const redact = this.#settings.redact;
    const summary: PageSummary = {
      sessionId: headerField(sessionId, redact),
      startedAt: headerField(startedAt, redact),
      turns: this.#turns,
      threads: this.#threads.size,
      items: this.#items,
      firstUser: this.#firstUser,
      ...(this.#title === undefined ? {} : { title: this.#title }),
      cut: this.#cut,
      ...(origin.project === undefined ? {} : { project: headerField(origin.project, redact) }),
      ...(origin.cwd === undefined ? {} : { cwd: headerField(origin.cwd, redact) }),
      ...(origin.bytes === undefined ? {} : { bytes: origin.bytes }),
    };
    const words = folder !== undefined &&
      markup`<meta name="${WORDS_META}" content="${this.#words.text()}">\n`;
    const meta = markup`<meta name="${SUMMARY_META}" content="${
      JSON.stringify(summary)
    }">\n${words}`;
    const title = summary.title ??
      (summary.sessionId === "" ? "Empty session" : `Session ${summary.sessionId}`);
    const note = this.#cut &&
      markup`<p class="note transcript-cut" role="note">[transcript cut: the ${this.#settings.transcriptBudget}-byte budget is reached; the rest of the session is not shown]</p>\n`;
    const empty = this.#items === 0 && !this.#cut &&
      markup`<p class="note">This session has no conversation to show.</p>\n`;
    const up = folder !== undefined &&
      markup`<nav class="up" aria-label="Site"><a href="${
        encodeURIComponent(folder.indexName)
      }">All sessions</a></nav>\n`;
    const live = origin.live === true &&
      markup`<p class="note live" role="status">Live: this session is still growing; the page reloads every ${LIVE_REFRESH_SECONDS} seconds</p>\n`;
    const page = markup`${await pageHead(title, meta, origin.live === true)}<body>
${up}${this.#header(summary)}${live}${tocNav(this.#toc, this.#turns)}${
      findBar(this.#filterThreads(), this.#kinds)
    }<main>
${flowHtml(this.#flow)}${empty}${note}</main>
<footer><p>Rendered by @brigade/transcript · ${
      this.#settings.redact ? "secrets redacted" : "not redacted"
    } · no remote loads · one script of its own, to find and filter</p></footer>
${pageScript()}</body>
</html>
`;
    return page.toString();
  }

  #header(summary: PageSummary): Html {
    const started = summary.startedAt === ""
      ? "unknown"
      : markup`<time datetime="${summary.startedAt}">${readableTime(summary.startedAt)}</time>`;
    const fact = (name: string, value: Html | string | number): Html =>
      markup`<div><dt>${name}</dt><dd>${value}</dd></div>`;
    const all = [...this.#threads].map(([key, thread]) => ({
      ...thread,
      model: this.#threadModels.get(key),
    }));
    const threads = all.slice(0, THREADS_LISTED).map(({ slot, name, model }) =>
      markup`<li class="t${slot}"><span class="swatch" aria-hidden="true"></span>${name}${
        model !== undefined && markup`<span class="model"> · ${model}</span>`
      }</li>`
    );
    if (all.length > THREADS_LISTED) {
      threads.push(markup`<li>and ${all.length - THREADS_LISTED} more</li>`);
    }
    return markup`<header class="top">
<p class="kicker">Agent session</p>
<h1>${summary.title ?? (summary.sessionId === "" ? "Empty session" : summary.sessionId)}</h1>
<dl class="facts">${summary.title !== undefined && fact("Session", summary.sessionId)}${
      summary.project !== undefined && fact("Project", summary.cwd ?? summary.project)
    }${fact("Started", started)}${fact("Turns", summary.turns)}${fact("Threads", summary.threads)}${
      fact("Items", `${summary.items}${summary.cut ? " (cut)" : ""}`)
    }${
      this.#models.length > 0 &&
      fact(this.#models.length === 1 ? "Model" : "Models", this.#models.join(", "))
    }${
      this.#tokens !== undefined &&
      fact("Tokens", markup`${usageFigures(this.#tokens)}${summary.cut ? " (cut)" : ""}`)
    }</dl>
${threads.length > 0 && markup`<ul class="threads" aria-label="Threads">${threads}</ul>\n`}</header>
`;
  }

  /** The page's threads as the filter offers them: its number and name, first seen first. */
  #filterThreads(): Array<{ id: string; name: string }> {
    return [...this.#threads].map(([key, { name }]) => ({
      id: String(this.#threadIds.get(key) ?? 0),
      name,
    }));
  }

  /** The number the filter knows a thread by: the primary's is 0, the others' in order seen. */
  #threadId(key: string): number {
    let id = this.#threadIds.get(key);
    if (id === undefined) {
      id = this.#threadIds.size;
      this.#threadIds.set(key, id);
    }
    return id;
  }

  /** The thread's palette slot, learning its name from the item when it tells one. */
  #thread(item: PageItem): { slot: number; name: string } {
    const key = item.thread ?? "";
    let thread = this.#threads.get(key);
    if (thread === undefined) {
      const slot = key === "" ? 0 : 1 + ((this.#threads.size - (this.#threads.has("") ? 1 : 0)) %
        (PALETTE_SIZE - 1));
      // Thread ids, speakers, labels and times come from the kit, redacted when the page is.
      const name = key === "" ? "agent (primary thread)" : shortName(visibleLabel(key));
      thread = { slot, name, named: key === "" };
      this.#threads.set(key, thread);
    }
    if (!thread.named) {
      const speaker = [item.from, item.to].find((who) => who.startsWith("@"));
      if (speaker !== undefined) {
        thread.name = shortName(visibleLabel(speaker));
        thread.named = true;
      }
    }
    return thread;
  }

  #block(
    item: PageItem,
    text: CutText,
    thread: { slot: number; name: string },
    id: string,
  ): Html {
    // A name in a label (an agent's, a tool's) never passes for another speaker.
    const label = visibleLabel(item.label);
    const error = item.isError || item.kind === "error";
    const from = item.from === "user" ? " from-user" : "";
    const classes = `item k-${item.kind} t${thread.slot}${from}${error ? " is-error" : ""}`;
    const badge = error && markup`<span class="badge">error</span>`;
    const when = item.processedAt ? this.#timeTag(shownText(item.processedAt, false)) : "";
    // What the filter reads: the item's kind and its thread's number.
    const data = markup` data-kind="${findKind(item.kind, item.from)}" data-thread="${
      this.#threadId(item.thread ?? "")
    }"`;
    const body = this.#body(item, text);
    const seq = `entry seq ${item.seq}`;
    // A summary is a control: a link inside it would be a control in a control.
    const num = body.folded === undefined
      ? markup`<a class="seq" href="#${id}" title="${seq}">#${item.seq}</a>`
      : markup`<span class="seq" title="${seq}">#${item.seq}</span>`;
    const meta = markup`<span class="meta">${
      item.thread !== null && markup`<span class="thread">${thread.name}</span>`
    }${when}${num}</span>`;
    const note = body.cutBytes > 0 &&
      markup`<p class="note cut">[cut: ${body.cutBytes} more bytes]</p>`;
    if (body.folded !== undefined) {
      const preview = previewLine(body.folded);
      const size = markup`<span class="size">${sizeText(body.bytes ?? 0, body.lines ?? 0)}</span>`;
      return markup`<details class="${classes}" id="${id}"${data}${
        error && markup` open`
      }><summary><span class="who">${label}</span>${badge}<span class="preview">${preview}</span>${size}${meta}</summary><div class="text">${body.html}</div>${note}</details>\n`;
    }
    return markup`<article class="${classes}" id="${id}"${data}><h2 class="head"><span class="who">${label}</span>${badge}${meta}</h2><div class="text${
      body.plain ? " plain" : ""
    }">${body.html}</div>${note}</article>\n`;
  }

  /**
   * An item's body: Markdown for what people and agents say, a diff or a
   * file for an edit or a write, monospace for other tool input and output,
   * plain text for the rest. A folded body says what its summary previews.
   */
  #body(item: PageItem, text: CutText): {
    html: Html;
    cutBytes: number;
    plain?: boolean;
    folded?: string;
    bytes?: number;
    lines?: number;
  } {
    const { bodies } = this.#settings;
    // A folded body: its summary previews `folded`, and tells the size of `measured`.
    const foldedBody = (html: Html, folded: string, measured: string) => ({
      html,
      cutBytes: text.cutBytes,
      folded,
      ...bodies.sizeOf(measured),
    });
    switch (item.kind) {
      case "message":
      case "thread_message":
        return { html: bodies.markdownHtml(text.kept), cutBytes: text.cutBytes };
      case "tool_call": {
        const tool = item.tool ?? "";
        const input = this.#settings.inputOf?.(item.seq);
        const whole = bodies.toolCallBody(tool, input, {
          redact: this.#settings.redact,
          itemBudget: this.#settings.itemBudget,
        });
        if (whole !== undefined) {
          return { ...whole, folded: whole.preview ?? text.kept };
        }
        const shown = bodies.inputText(item.tool, text.kept, text.cutBytes === 0);
        // The summary previews the call on one line: the kit's JSON, or Bash's command line.
        return foldedBody(bodies.codeBlock(shown), tool === "Bash" ? shown : text.kept, shown);
      }
      case "tool_result": {
        const shown = bodies.toolResultBody(item.tool, text.kept) ?? bodies.codeBlock(text.kept);
        return foldedBody(shown, text.kept, text.kept);
      }
      case "thinking":
        return foldedBody(bodies.markdownHtml(text.kept), text.kept, text.kept);
      case "rewound":
        // The summary previews the branch's first words, past its first speaker's label.
        return foldedBody(
          bodies.codeBlock(text.kept),
          text.kept.replace(/^\[[^\]\n]*\]\n/, ""),
          text.kept,
        );
      case "system":
        if (text.kept.startsWith(COMPACTION)) {
          const summary = bodies.markdownHtml(text.kept.slice(COMPACTION.length));
          return foldedBody(summary, "Compaction summary", text.kept);
        }
    }
    return { html: markup`${text.kept}`, cutBytes: text.cutBytes, plain: true };
  }

  /** An item's time: the clock, and the date too when the day is not the previous item's. */
  #timeTag(at: string): Html {
    const match = /^(\d{4}-\d\d-\d\d)T(\d\d:\d\d:\d\d)/.exec(at);
    const day = match?.[1] ?? "";
    const shown = match === null ? at : day !== this.#lastDay ? `${day} ${match[2]}` : match[2]!;
    if (day !== "") this.#lastDay = day;
    return markup`<time datetime="${at}" title="${at}">${shown}</time>`;
  }
}

/** An item's text within its budget, and how many bytes were cut from it. */
export interface CutText {
  kept: string;
  cutBytes: number;
}

/**
 * An item's text as the page shows it: the kit's cut note taken off (the page
 * sets it apart), line ends normalized and control characters made visible.
 * The kit has already redacted it when the page redacts.
 */
export function pageText(item: PageItem): CutText {
  const note = item.cutBytes > 0 ? cutNote(item.cutBytes) : "";
  const kept = note !== "" && item.text.endsWith(note)
    ? item.text.slice(0, -note.length)
    : item.text;
  return { kept: shownText(kept, false), cutBytes: item.cutBytes };
}

/** `2026-09-14T10:02:12.904Z` as `2026-09-14 10:02:12 UTC`; any other text as it is. */
export function readableTime(at: string): string {
  const match = /^(\d{4}-\d\d-\d\d)T(\d\d:\d\d:\d\d)(?:\.\d+)?(Z|[+-]\d\d:\d\d)$/.exec(at);
  if (match === null) return at;
  return `${match[1]} ${match[2]} ${match[3] === "Z" ? "UTC" : match[3]}`;
}

/** The first line of a tool's text, short, for a folded block's summary. */
function previewLine(text: string): string {
  const start = text.search(/\S/);
  if (start === -1) return "";
  const end = text.indexOf("\n", start);
  const line = text.slice(start, Math.min(end === -1 ? text.length : end, start + 400));
  const points = [...line];
  return points.length > 80 ? `${points.slice(0, 79).join("")}…` : line;
}

/** Whether an item is the agent's (a reply, a call, thinking): what a model request produced. */
function isReply(item: PageItem): boolean {
  return item.from !== "user" &&
    (item.kind === "message" || item.kind === "tool_call" || item.kind === "thinking" ||
      item.kind === "thread_message");
}

/**
 * A request's token counts in words, each figure also a `<data>` value for a
 * reader that wants the number.
 */
function usageFigures(usage: Usage): Html {
  const figure = (count: number, what: string): Html =>
    markup`<data value="${count}">${grouped(count)}</data> ${what}`;
  return markup`${figure(usage.input, "input")} · ${figure(usage.output, "output")} · ${
    figure(usage.cacheRead, "cache read")
  } · ${figure(usage.cacheWrite, "cache write")}`;
}

/** 1840 as `1,840`. */
function grouped(count: number): string {
  return String(count).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** What the kit says of a message with no text: the page leaves such a reply out. */
function isEmptyReply(item: PageItem): boolean {
  return item.kind === "message" && item.cutBytes === 0 && item.text === "(no content)";
}

/** How a compaction's summary starts (the Claude Code source's system message). */
const COMPACTION = "Compaction summary:\n";

/** The size a folded block's summary names. */
function sizeText(bytes: number, lines: number): string {
  const size = bytes < 1_000 ? `${bytes} B` : `${(bytes / 1_000).toFixed(1)} kB`;
  return `${lines} ${lines === 1 ? "line" : "lines"}, ${size}`;
}

/** How many subagent calls and announced threads are remembered until their items come. */
const CALLS_KEPT = 1_024;

/** A model's name as the page shows it: one line, controls visible, bounded. */
function modelName(model: string): string {
  return cutPoints(visibleLabel(readHead(model).trim()), MODEL_CODE_POINTS);
}

function shortName(name: string): string {
  const points = [...name];
  return points.length > THREAD_NAME_CODE_POINTS
    ? `${points.slice(0, THREAD_NAME_CODE_POINTS - 1).join("")}…`
    : name;
}

function firstUserLine(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return cutPoints(line, FIRST_USER_CODE_POINTS);
}

/** The head of a field that is read: its first {@linkcode FIELD_UNITS_READ} units, then `…`. */
function readHead(text: string): string {
  return text.length > FIELD_UNITS_READ ? `${text.slice(0, FIELD_UNITS_READ)}…` : text;
}

/**
 * A header field as the page shows it: redacted (only its head is read),
 * controls visible, at most {@linkcode FIELD_CODE_POINTS} code points, a cut
 * one ending in `…`.
 */
export function headerField(text: string, redact: boolean): string {
  return cutPoints(shownText(readHead(text), redact), FIELD_CODE_POINTS);
}

/** The first `max` code points of a text; a longer text's first `max - 1` and `…`. */
export function cutPoints(text: string, max: number): string {
  // A text of at most `max` units has at most `max` code points; no more than 2 a code point.
  if (text.length <= max) return text;
  const points = [...text.slice(0, 2 * max + 2)];
  return points.length > max ? `${points.slice(0, max - 1).join("")}…` : text;
}
