// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// The HTML page of one session: markup, escaping and the page's policy. The
// page is one file with its style inline, no script and no remote load of any
// kind; its Content-Security-Policy allows only its own stylesheet (by hash),
// so even a tag that escaped the escaping could neither run nor fetch.

import {
  type ConversationItem,
  cutNote,
  redact as redactSecrets,
  utf8Length,
  visibleControls,
} from "../../kit/mod.ts";
import { type Bodies, WHOLE_INPUT_TOOLS } from "./_bodies.ts";
import { PAGE_STYLE } from "./_style.ts";
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

/**
 * The page's Content-Security-Policy: nothing may load or run but the page's
 * own stylesheet, named by its SHA-256 hash (inline `style=""` attributes and
 * any other `<style>` stay inert).
 */
export function contentSecurityPolicy(): Promise<string> {
  policy ??= crypto.subtle.digest("SHA-256", new TextEncoder().encode(PAGE_STYLE)).then(
    (digest) => {
      const hash = btoa(String.fromCharCode(...new Uint8Array(digest)));
      return `default-src 'none'; style-src 'sha256-${hash}'; base-uri 'none'; form-action 'none'`;
    },
  );
  return policy;
}

/** The head of every page: charset, policy, no referrer, the title, the stylesheet. */
export async function pageHead(title: string, meta?: Html): Promise<Html> {
  // The policy and the stylesheet are this module's own fixed text (quotes and all).
  return markup`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${trusted(await contentSecurityPolicy())}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
${meta}<title>${title}</title>
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
  #parts: Html[] = [];
  #used = 0;
  #items = 0;
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
  #replies = new Map<string, { part: number; seq: number }>();
  /** The tokens of every request whose usage is on the page; undefined before the first. */
  #tokens: Usage | undefined;

  /** @param settings Budgets and redaction. */
  constructor(settings: PageSettings) {
    this.#settings = settings;
  }

  /** Whether the transcript budget is full: no further item is shown. */
  get full(): boolean {
    return this.#cut;
  }

  /**
   * Adds an item; returns false once the transcript budget is full (the item
   * that overflowed it is not shown, and the page ends with a note).
   */
  add(item: PageItem): boolean {
    if (this.#cut) return false;
    if (isEmptyReply(item)) return true;
    const text = pageText(item);
    const known = this.#threads.has(item.thread ?? "");
    const thread = this.#thread(item);
    const lastDay = this.#lastDay;
    const block = this.#block(item, text, thread, this.#items + 1);
    // Every byte of the block counts: label, names and markup, not only the text.
    const size = utf8Length(block.toString());
    if (this.#used + size > this.#settings.transcriptBudget) {
      if (!known) this.#threads.delete(item.thread ?? "");
      this.#lastDay = lastDay;
      this.#cut = true;
      return false;
    }
    this.#used += size;
    this.#items++;
    if (item.kind === "message" && item.from === "user") {
      this.#turns++;
      // The first prompt says what a session was about; a command (`/model`) does not.
      const command = this.#settings.isCommand?.(item.seq) === true;
      if (this.#turns === 1 || (this.#firstIsCommand && !command)) {
        this.#firstUser = firstUserLine(shownText(item.text, true));
        this.#firstIsCommand = command;
      }
    }
    this.#parts.push(block);
    if (isReply(item)) {
      this.#replies.set(item.thread ?? "", { part: this.#parts.length - 1, seq: item.seq });
    }
    return true;
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
      this.#parts[reply.part] = markup`${this.#parts[reply.part]}${note}`;
    } else {
      this.#parts.push(note);
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
    const meta = markup`<meta name="${SUMMARY_META}" content="${JSON.stringify(summary)}">\n`;
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
    const page = markup`${await pageHead(title, meta)}<body>
${up}${this.#header(summary)}<main>
${this.#parts}${empty}${note}</main>
<footer><p>Rendered by @brigade/transcript · ${
      this.#settings.redact ? "secrets redacted" : "not redacted"
    } · no scripts, no remote loads</p></footer>
</body>
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
    number: number,
  ): Html {
    // A name in a label (an agent's, a tool's) never passes for another speaker.
    const label = visibleLabel(item.label);
    const error = item.isError || item.kind === "error";
    const from = item.from === "user" ? " from-user" : "";
    const classes = `item k-${item.kind} t${thread.slot}${from}${error ? " is-error" : ""}`;
    const badge = error && markup`<span class="badge">error</span>`;
    const when = item.processedAt ? this.#timeTag(shownText(item.processedAt, false)) : "";
    const id = `item-${number}`;
    const body = this.#body(item, text);
    const seq = `entry seq ${item.seq}`;
    // A summary is a control: a link inside it would be a control in a control.
    const num = body.folded === undefined
      ? markup`<a class="seq" href="#${id}" title="${seq}">#${number}</a>`
      : markup`<span class="seq" title="${seq}">#${number}</span>`;
    const meta = markup`<span class="meta">${
      item.thread !== null && markup`<span class="thread">${thread.name}</span>`
    }${when}${num}</span>`;
    const note = body.cutBytes > 0 &&
      markup`<p class="note cut">[cut: ${body.cutBytes} more bytes]</p>`;
    if (body.folded !== undefined) {
      const preview = previewLine(body.folded);
      const size = markup`<span class="size">${sizeText(body.bytes ?? 0, body.lines ?? 0)}</span>`;
      return markup`<details class="${classes}" id="${id}"${
        error && markup` open`
      }><summary><span class="who">${label}</span>${badge}<span class="preview">${preview}</span>${size}${meta}</summary><div class="text">${body.html}</div>${note}</details>\n`;
    }
    return markup`<article class="${classes}" id="${id}"><h2 class="head"><span class="who">${label}</span>${badge}${meta}</h2><div class="text${
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
        if (WHOLE_INPUT_TOOLS.has(tool)) {
          const input = this.#settings.inputOf?.(item.seq);
          const whole = bodies.toolCallBody(tool, input, {
            redact: this.#settings.redact,
            itemBudget: this.#settings.itemBudget,
          });
          if (whole !== undefined) {
            return { ...whole, folded: previewOf(input, this.#settings.redact) ?? text.kept };
          }
        }
        const shown = bodies.inputText(item.tool, text.kept, text.cutBytes === 0);
        // The summary previews the call on one line: the kit's JSON, or Bash's command line.
        return foldedBody(bodies.codeBlock(shown), tool === "Bash" ? shown : text.kept, shown);
      }
      case "tool_result":
        return foldedBody(bodies.codeBlock(text.kept), text.kept, text.kept);
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

/** The path an edit or a write names, for its summary. */
function previewOf(input: unknown, redact: boolean): string | undefined {
  const path = (input as { file_path?: unknown } | null)?.file_path;
  return typeof path === "string" ? shownText(path, redact) : undefined;
}

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
