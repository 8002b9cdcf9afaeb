// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

import type { EntryIterable, LogEntry } from "../../events/types.ts";
import { fieldsOf } from "../../events/fields.ts";
import {
  CappedText,
  contentText,
  conversation,
  type ConversationItem,
  type ConversationOptions,
  DREAM_EVENT_BUDGET,
  flattenBlocks,
  forEachItem,
  framedItemBody,
  framedItemBodySize,
  type ItemText,
  redact,
  streamCapped,
  utf8Length,
  visibleControls,
} from "../../kit/mod.ts";
import type { Renderer } from "../registry.ts";
import { dreamFolderIndex, dreamPage } from "./dream_page.ts";

/**
 * The most UTF-8 bytes of one dream's text, elision marker included, so a
 * hundred dreams are at most 2.4 MiB. It is a memory bound as well as a
 * length: the renderer holds at most a head and a tail of half of it.
 *
 * @example Usage
 * ```ts
 * import { DREAM_TRANSCRIPT_CAP } from "@brigade/transcript";
 * import assert from "node:assert/strict";
 *
 * assert.equal(DREAM_TRANSCRIPT_CAP, 24 * 1024);
 * ```
 */
export const DREAM_TRANSCRIPT_CAP: number = 24 * 1024;

/**
 * The smallest `cap` {@linkcode renderDream} accepts.
 *
 * @example Usage
 * ```ts
 * import { DREAM_MIN_CAP, renderDream } from "@brigade/transcript";
 * import assert from "node:assert/strict";
 *
 * await assert.rejects(() => renderDream([], { cap: DREAM_MIN_CAP - 1 }), RangeError);
 * ```
 */
export const DREAM_MIN_CAP: number = 1024;

const FIRST_USER_CODE_POINTS = 200;

/** What each line of an item's body is written behind: four spaces make it an indented code block. */
const BODY_INDENT = "    ";

/** Options for {@linkcode renderDream}. */
export interface DreamOptions {
  /**
   * The most UTF-8 bytes of `text`, marker included; at least {@linkcode DREAM_MIN_CAP}.
   * Lowering it shrinks both buffers the renderer holds.
   *
   * @default {DREAM_TRANSCRIPT_CAP}
   */
  cap?: number;
  /**
   * Stops the rendering with the signal's reason when aborted.
   *
   * @default {undefined}
   */
  signal?: AbortSignal;
}

/** One session rendered for a memory-consolidation ("dream") run. */
export interface Dream {
  /**
   * The session's id, redacted (a file name derived from it is then safe to
   * show); `""` for an empty source.
   */
  sessionId: string;
  /** The first kept entry's `processed_at`, redacted; `""` when unknown. */
  createdAt: string;
  /** The rendered markdown: redacted, each event cut, the whole capped. */
  text: string;
  /** How many `user.message` events the session scope holds, elided or not, commands included. */
  turns: number;
  /** UTF-8 bytes the cap removed; 0 when it was not hit. */
  elidedBytes: number;
  /**
   * The first prompt: the text of the first `user.message` without a string
   * `command` member (a slash command, as `fromClaudeCode` marks one), or of
   * the first command when the session holds no prompt at all; redacted,
   * whitespace runs collapsed to one space, trimmed, at most 200 code points;
   * `""` when there is no user message.
   */
  firstUser: string;
}

/**
 * Renders one session as the redacted, capped markdown a dream run reads.
 *
 * Only the session scope is read: the primary thread's entries
 * (`thread_id === null`), in the source's order, whatever else the source
 * yields; a delegated task reads as the report that came back. Each
 * conversation event (as the grader labels it) becomes a `### label`
 * section; its text is redacted with {@linkcode redact} before anything is
 * cut, then written with every line indented by four spaces (a Markdown
 * indented code block: a CommonMark reader finds no heading, fence, rule or
 * HTML in it, however its lines are broken, by LF, CR or CRLF), within
 * {@linkcode DREAM_EVENT_BUDGET} bytes, indents included; a cut note follows
 * at the margin. So no byte sequence inside an event can read as a heading
 * the renderer wrote. The whole is capped at `cap` bytes: past it, a head and
 * a rolling tail of at most half of what the marker leaves are kept around a
 * marker naming the bytes elided, so memory stays near the cap however long
 * the log; the tail starts at a whole line, so no fragment of a body line
 * stands unindented after the marker.
 *
 * Every field is redacted: the text, `sessionId`, `createdAt` and
 * `firstUser`. One-line fields written into the markdown (the `# Session`
 * heading, each `### label`) show control characters and line breaks as
 * visible escapes (`\n`, `\x1b`), so no field can add a heading. A slash
 * command (a `user.message` with a string `command` member) counts as a turn
 * but is the first user message only when there is no prompt.
 *
 * Memory: one huge event is never copied or split whole beyond what its
 * budget keeps (redaction makes at most one copy, and only when it finds a
 * secret; the kept head is a copy of its own), and `firstUser` reads only the
 * words it keeps.
 *
 * @param source One session's entries.
 * @param options The cap and a signal.
 * @returns The dream.
 * @throws {RangeError} When `cap` is not an integer of at least {@linkcode DREAM_MIN_CAP}.
 * @throws {EventSourceError} When an entry is malformed (code `invalid_entry`) or a second
 * session appears (`second_session`).
 *
 * @example Usage
 * ```ts
 * import { fromEntries, renderDream, type SessionEvent } from "@brigade/transcript";
 * import assert from "node:assert/strict";
 *
 * const events: SessionEvent[] = [
 *   { id: "sevt_1", type: "user.message", processed_at: "2026-09-14T10:02:11Z", content: "Deploy   with\nkey sk-proj-Q7xv2LmN9pR4sT8wZ1bC5dF3" },
 *   { id: "sevt_2", type: "agent.message", content: [{ type: "text", text: "Deployed." }] },
 * ];
 * const dream = await renderDream(
 *   fromEntries(events.map((event, i) => ({ seq: i + 1, session_id: "sesn_1", thread_id: null, event }))),
 * );
 * assert.equal(dream.firstUser, "Deploy with key [REDACTED_SECRET]");
 * assert.equal(dream.turns, 1);
 * assert.equal(dream.elidedBytes, 0);
 * assert.ok(dream.text.startsWith("# Session sesn_1\n"));
 * assert.ok(!dream.text.includes("sk-proj"));
 * ```
 */
export async function renderDream(
  source: EntryIterable,
  options: DreamOptions = {},
): Promise<Dream> {
  const cap = checkCap(options);
  const facts = new DreamFacts();
  const text = new CappedText(cap);
  // One loop over the source, each entry taken through every step at once. Past the head, an
  // item's piece is counted, and built only if the tail still holds it at the end.
  const labels = new Headings();
  let headed = false;
  await forEachItem(source, (item) => {
    if (!headed) text.push(facts.heading());
    headed = true;
    const [label, labelBytes] = labels.heading(item.label);
    const size = ITEM_FRAME_BYTES + labelBytes +
      framedItemBodySize(item, BODY_INDENT, DREAM_EVENT_BUDGET);
    text.pushBuilt(size, () => itemPiece(item, label));
  }, dreamView(facts, options.signal));
  if (!headed && facts.started) text.push(facts.heading());
  const { text: markdown, elidedBytes } = text.capped({ cutAt: "line" });
  return {
    sessionId: facts.sessionId,
    createdAt: facts.createdAt ?? "",
    text: markdown,
    turns: facts.turns,
    elidedBytes,
    firstUser: facts.firstPrompt ?? facts.firstCommand ?? "",
  };
}

/** What a dream learns from the session's entries beside its items. */
class DreamFacts {
  sessionId = "";
  createdAt: string | undefined;
  turns = 0;
  firstPrompt: string | undefined;
  firstCommand: string | undefined;

  get started(): boolean {
    return this.createdAt !== undefined;
  }

  heading(): string {
    return `# Session ${oneLineField(this.sessionId)}\n`;
  }

  /** Learns from an entry of the session (only from the primary thread's, beyond the session id). */
  observe(entry: LogEntry): void {
    if (this.sessionId === "") this.sessionId = redact(entry.session_id);
    if (entry.thread_id === null) this.#learn(entry);
  }

  #learn(entry: LogEntry): void {
    const event = entry.event;
    if (this.createdAt === undefined) {
      const at = event.processed_at;
      this.createdAt = typeof at === "string" ? redact(at) : "";
    }
    if (event.type === "user.message") this.turns++;
  }

  /** Takes the first prompt (or command) from a user message's redacted text, as the dream's item has it. */
  text(entry: LogEntry, text: ItemText): void {
    const event = fieldsOf(entry.event);
    if (event.type !== "user.message") return;
    const isCommand = typeof event.command === "string";
    if (isCommand ? this.firstCommand !== undefined : this.firstPrompt !== undefined) return;
    // The item says "(no content)" for an empty message; the first prompt is then empty.
    const line = isBlank(event.content) ? "" : oneLine(text);
    if (isCommand) this.firstCommand = line;
    else this.firstPrompt = line;
  }
}

/** A field written on one line of the markdown: controls and line breaks shown as escapes. */
function oneLineField(text: string): string {
  return visibleControls(text, ONE_LINE);
}

const ONE_LINE = { oneLine: true } as const;

/**
 * Whether a message's content reads as blank (its item says "(no content)"),
 * block by block: the content's text joins its blocks' with line breaks, so
 * it is blank when each is, and a huge message of many blocks is not joined
 * (copied whole) again to find it out.
 */
function isBlank(content: unknown): boolean {
  if (typeof content !== "object" || content === null) return contentText(content).trim() === "";
  const blocks: readonly unknown[] = Array.isArray(content) ? content : [content];
  return blocks.every((block) => flattenBlocks([block]).text.trim() === "");
}

/**
 * Whitespace runs collapsed to one space, trimmed, cut to 200 code points,
 * reading no more of a huge text than the words it keeps: it never copies or
 * splits the whole, nor redacts it whole (a head four times as long is built
 * until one holds the words kept, or the whole text).
 */
function oneLine(text: ItemText): string {
  for (let units = 4 * FIRST_USER_CODE_POINTS;; units *= 4) {
    const head = text.head(units);
    const { line, full, read } = firstWords(head);
    // A full line read short of the head's end is the whole text's too: the
    // unit after the last one read shows whether that one ends a word or a pair.
    if (head.length === text.length || (full && read < head.length)) return line;
  }
}

/** The words {@linkcode oneLine} keeps of `text`; whether they fill the line; the units read. */
function firstWords(text: string): { line: string; full: boolean; read: number } {
  const words = /\S+/g;
  let line = "";
  let points = 0;
  let read = 0;
  for (let match; points < FIRST_USER_CODE_POINTS && (match = words.exec(text)) !== null;) {
    read = match.index + 1;
    if (line !== "") {
      line += " ";
      points++;
    }
    let at = match.index;
    for (const point of match[0]) {
      if (points === FIRST_USER_CODE_POINTS) break;
      line += point;
      points++;
      at += point.length;
      read = at;
    }
  }
  return { line, full: points === FIRST_USER_CODE_POINTS, read };
}

/**
 * Renders a session's dream text ({@linkcode Dream}`.text`) in chunks, for
 * following a live session: the heading and each item as it completes, while
 * they fit the head the cap always keeps; past that, the rest (the elision
 * marker and the tail, if the cap is reached) comes at the end. Joined, the
 * chunks are exactly {@linkcode renderDream}'s `text` for the same source and
 * options. The options are checked when it is called.
 *
 * @param source One session's entries, e.g. a followed session.
 * @param options The cap and a signal.
 * @returns The dream text's chunks.
 * @throws {RangeError} When `cap` is below {@linkcode DREAM_MIN_CAP}.
 *
 * @example Usage
 * ```ts
 * import { renderDream, streamDream } from "@brigade/transcript";
 * import assert from "node:assert/strict";
 *
 * const entries = ["Hi", "Hello"].map((text, i) => ({
 *   seq: i + 1,
 *   session_id: "sesn_1",
 *   thread_id: null,
 *   event: { id: `sevt_${i}`, type: i === 0 ? "user.message" : "agent.message", content: text },
 * }));
 * const chunks = await Array.fromAsync(streamDream(entries));
 * assert.ok(chunks.length > 1);
 * assert.equal(chunks.join(""), (await renderDream(entries)).text);
 * ```
 */
export function streamDream(
  source: EntryIterable,
  options: DreamOptions = {},
): AsyncIterable<string> {
  const cap = checkCap(options);
  return streamCapped(dreamPieces(source, options, new DreamFacts()), new CappedText(cap));
}

/** The dream's pieces: its heading, then each item, as they complete. */
async function* dreamPieces(
  source: EntryIterable,
  options: DreamOptions,
  facts: DreamFacts,
): AsyncGenerator<string> {
  const items = conversation(source, dreamView(facts, options.signal));
  let headed = false;
  for await (const item of items) {
    if (!headed) yield facts.heading();
    headed = true;
    yield itemPiece(item);
  }
  if (!headed && facts.started) yield facts.heading();
}

/**
 * The conversation's options for a dream: its view, redacted, each entry and
 * each first prompt told to `facts`.
 */
function dreamView(facts: DreamFacts, signal: AbortSignal | undefined): ConversationOptions {
  return {
    view: "dream",
    itemBudget: DREAM_EVENT_BUDGET,
    redact: true,
    renderer: "dream",
    signal,
    onEntry: (entry) => facts.observe(entry),
    onText: (entry, text) => facts.text(entry, text),
  };
}

/** An item as the dream writes it: its label as a heading, then its framed body. */
function itemPiece(item: ConversationItem, label = oneLineField(item.label)): string {
  return `\n### ${label}\n\n${framedItemBody(item, BODY_INDENT, DREAM_EVENT_BUDGET)}\n`;
}

/**
 * Labels as headings ({@linkcode oneLineField}) and their UTF-8 sizes: a
 * session repeats a few labels on every item, so each short one is worked
 * out once and remembered (a bounded number, forgotten all at once when full).
 */
class Headings {
  #memo: Map<string, [heading: string, bytes: number]> = new Map();

  heading(label: string): [heading: string, bytes: number] {
    let known = this.#memo.get(label);
    if (known === undefined) {
      const heading = oneLineField(label);
      known = [heading, utf8Length(heading)];
      if (label.length > 256) return known;
      if (this.#memo.size >= 1_024) this.#memo.clear();
      this.#memo.set(label, known);
    }
    return known;
  }
}

/** The bytes {@linkcode itemPiece} writes around the label and the body. */
const ITEM_FRAME_BYTES = "\n### \n\n\n".length;

/** The checked `cap`. */
function checkCap(options: DreamOptions): number {
  const cap = options.cap ?? DREAM_TRANSCRIPT_CAP;
  if (!Number.isSafeInteger(cap) || cap < DREAM_MIN_CAP) {
    throw new RangeError(
      `Cannot render a dream: cap must be an integer of at least ${DREAM_MIN_CAP}: ${cap}`,
    );
  }
  return cap;
}

/**
 * The `dream` renderer: {@linkcode renderDream}'s markdown under the
 * registry's contract.
 *
 * @example Usage
 * ```ts
 * import { dreamRenderer } from "@brigade/transcript";
 * import assert from "node:assert/strict";
 *
 * assert.equal(dreamRenderer.name, "dream");
 * assert.equal(await dreamRenderer.render([]), "");
 * assert.equal(dreamRenderer.folder?.indexName, "INDEX.md");
 * ```
 */
export const dreamRenderer: Renderer<DreamOptions, "dream"> = {
  name: "dream",
  optionNames: ["cap"],
  description: "Redacted, capped markdown of one session for a memory-consolidation run",
  extension: ".md",
  async render(source, options): Promise<string> {
    return (await renderDream(source, options)).text;
  },
  stream: streamDream,
  // In a folder, each dream is a page whose front matter holds its INDEX.md row.
  folder: {
    ...dreamFolderIndex,
    async page(source, options): Promise<string> {
      return dreamPage(await renderDream(source, options));
    },
  },
};
