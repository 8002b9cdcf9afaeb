// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

import type { EntryIterable, LogEntry } from "../../events/types.ts";
import { fieldsOf } from "../../events/fields.ts";
import {
  CappedText,
  contentText,
  type ConversationItem,
  type ConversationOptions,
  DREAM_EVENT_BUDGET,
  flattenBlocks,
  forEachItem,
  framedItemBody,
  framedItemBodySize,
  type ItemText,
  redact,
  utf8Length,
  visibleControls,
} from "../../kit/mod.ts";
import type { Renderer } from "../registry.ts";
import { dreamFolderIndex, dreamFrontMatter, dreamPage } from "./dream_page.ts";

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

/** The most model ids a dream names, in the order first seen. */
const MAX_MODELS = 8;

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
   * The project the session belongs to, as the caller knows it (`render
   * --out DIR` over a folder of Claude Code transcripts: the folder holding
   * the transcript); written into the front matter, redacted.
   *
   * @default {""}
   */
  project?: string;
  /**
   * The directory the session ran in, as the caller knows it (a Claude Code
   * record's `cwd`); written into the front matter, redacted.
   *
   * @default {""}
   */
  cwd?: string;
  /**
   * Stops the rendering with the signal's reason when aborted.
   *
   * @default {undefined}
   */
  signal?: AbortSignal;
}

/**
 * The previous run's index, to mark a new one against: the `index`
 * renderer's and the dream's folder index's option (`render --previous
 * FILE`).
 */
export interface PreviousIndexOptions {
  /**
   * The text of the previous run's INDEX.md (any version's). Given, the
   * index names a `change` column after seq: each row is `added` (no row of
   * the previous index has its session id), `changed` (its digest differs,
   * or either is not known) or `retained`; a `Since the previous index:`
   * line counts them, and a `## Removed` list after the rows holds the
   * previous rows no session matched, written again redacted and on one
   * line. Rows are matched by their session_id column as written.
   *
   * @default {undefined}
   */
  previous?: string;
  /**
   * What a {@linkcode PreviousIndexError} calls the previous index (its path).
   *
   * @default {"the previous index"}
   */
  previousName?: string;
}

/** Options of the `dream` renderer: a dream's, and into a folder, the previous index's. */
export interface DreamRendererOptions extends DreamOptions, PreviousIndexOptions {}

/**
 * One session rendered for a memory-consolidation ("dream") run. Its text
 * starts with a YAML front matter of the same facts (see
 * {@linkcode renderDream}).
 */
export interface Dream {
  /**
   * The session's id, redacted (a file name derived from it is then safe to
   * show); `""` for an empty source. Front matter: `session_id`.
   */
  sessionId: string;
  /**
   * The session's title: the latest `session.updated` event's string `title`
   * on the primary thread, redacted, on one line, at most 200 code points;
   * `""` when none. A source that maps a title record of its own (Claude
   * Code's `custom-title`, say) to such an event gets it here. Front matter:
   * `title`.
   */
  title: string;
  /** {@linkcode DreamOptions.project}, redacted; `""` when not known. Front matter: `project`. */
  project: string;
  /** {@linkcode DreamOptions.cwd}, redacted; `""` when not known. Front matter: `cwd`. */
  cwd: string;
  /**
   * The models the session names, in the order first seen, at most 8: a
   * `session.updated` event's `agent.model` and a `span.model_request_end`'s
   * `model` (each a string or an object with a string `id`), redacted, on one
   * line, at most 200 code points each. Front matter: `models`.
   */
  models: string[];
  /** The first kept entry's `processed_at`, redacted; `""` when unknown. Front matter: `start`. */
  createdAt: string;
  /**
   * The last kept entry's string `processed_at`, redacted, at most 200 code
   * points; `""` when none has one. Front matter: `end`.
   */
  endedAt: string;
  /**
   * How the session ended, as its last status event says: the last
   * `session.status_idle`'s `stop_reason.type` (`end_turn`,
   * `requires_action`, `retries_exhausted`, `refusal`, …; `idle` when it has
   * none), `terminated`, `running` or `rescheduled`; redacted, at most 200
   * code points; `""` when the session holds no status event. Front matter:
   * `terminal_state`.
   */
  terminalState: string;
  /**
   * The `error.type` of the last `session.error` (`unknown_error` when it has
   * none), redacted, at most 200 code points; `""` when there is none. Front
   * matter: `last_error`.
   */
  lastError: string;
  /**
   * The rendered markdown: a front matter of the session's facts, then the
   * body (redacted, each event cut), the whole capped.
   */
  text: string;
  /**
   * The SHA-256 of the body: the UTF-8 bytes of `text` after its front
   * matter's closing `---` line, as `sha256:` and 64 lowercase hex digits;
   * `""` for an empty source. The same entries, cap, project and cwd give the
   * same digest on every run; the front matter is not in it. Front matter:
   * `digest`.
   */
  digest: string;
  /**
   * How many `user.message` events the session scope holds, elided or not,
   * commands included. Front matter: `turns`.
   */
  turns: number;
  /** UTF-8 bytes the cap removed; 0 when it was not hit. Front matter: `elided_bytes`. */
  elidedBytes: number;
  /**
   * The first prompt: the text of the first `user.message` without a string
   * `command` member (a slash command, as `fromClaudeCode` marks one), or of
   * the first command when the session holds no prompt at all; redacted,
   * whitespace runs collapsed to one space, trimmed, at most 200 code points;
   * `""` when there is no user message. Front matter: `first_user`.
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
 * The text starts with a YAML front matter of the session's facts (each a
 * field of the {@linkcode Dream}): `renderer: "dream"`, then `session_id`,
 * `title`, `project`, `cwd`, `models` (a flow sequence), `start`, `end`,
 * `turns`, `terminal_state`, `last_error`, `elided_bytes`, `digest` and
 * `first_user`, one a line between `---` lines. Every string is
 * double-quoted with its quotes, backslashes, controls, line breaks (LS and
 * PS too) and other characters YAML takes only escaped written as escapes
 * (each value is a JSON value as well), so no value can leave its scalar,
 * add a key or close the block. The front matter counts within the cap: the
 * facts of the end (the end, the turns, the digest) are known only when the
 * source ends, so the body is cut from the head and tail buffers then, to
 * the cap less the front matter's size; the buffers never hold more than
 * the cap. The front matter takes at most half the cap: past that, its
 * strings are cut (ending in `…`), the digest never. An empty source gives
 * an empty text, front matter and all.
 *
 * Every field is redacted: the text, `sessionId`, `createdAt` and
 * `firstUser`, and each fact of the front matter. One-line fields written into the markdown (the `# Session`
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
 * @param options The cap, the project and cwd where known, and a signal.
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
 * assert.ok(dream.text.startsWith('---\nrenderer: "dream"\nsession_id: "sesn_1"\n'));
 * assert.match(dream.text, /\nstart: "2026-09-14T10:02:11Z"\n/);
 * assert.match(dream.digest, /^sha256:[0-9a-f]{64}$/);
 * assert.ok(dream.text.includes(`\ndigest: "${dream.digest}"\n`));
 * assert.ok(dream.text.includes("\n---\n# Session sesn_1\n"));
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
    const [label, labelBytes, uncut] = labels.heading(item.label);
    const size = ITEM_FRAME_BYTES + labelBytes +
      framedItemBodySize(item, BODY_INDENT, DREAM_EVENT_BUDGET);
    // The tail holds the item's text (and a cut item's heading and count), not the item.
    if (item.cutBytes === 0) text.pushBuilt(size, uncut, item.text);
    else text.pushBuilt(size, pieceBuilder(label, item.text, item.cutBytes));
  }, dreamView(facts, options.signal));
  if (!headed && facts.started) text.push(facts.heading());
  const known = facts.known(options);
  if (!headed && !facts.started) return { ...known, text: "", elidedBytes: 0, digest: "" };
  return await withFrontMatter(text, known, cap);
}

/** A dream's facts, but those its text's cut gives. */
type KnownFacts = Omit<Dream, "text" | "elidedBytes" | "digest">;

/** A digest's length, for the front matter's size before the body is known. */
const SOME_DIGEST = `sha256:${"0".repeat(64)}`;

/**
 * The dream: its front matter, then its body cut from the capped text to the
 * cap less the front matter's size. The front matter's size depends on the
 * bytes elided (a count's digits), which depend on the room left: the room
 * only grows until the front matter fits it, a few rounds at most.
 */
async function withFrontMatter(text: CappedText, known: KnownFacts, cap: number): Promise<Dream> {
  const budget = Math.floor(cap / 2);
  let room = utf8Length(
    dreamFrontMatter({ ...known, elidedBytes: 0, digest: SOME_DIGEST }, budget),
  );
  for (;;) {
    const { text: body, elidedBytes } = text.capped({ cutAt: "line", cap: cap - room });
    const digest = await sha256(body);
    const head = dreamFrontMatter({ ...known, elidedBytes, digest }, budget);
    const size = utf8Length(head);
    if (size <= room) return { ...known, text: head + body, elidedBytes, digest };
    room = size;
  }
}

/** The SHA-256 of a text's UTF-8 bytes, as `sha256:` and lowercase hex. */
async function sha256(text: string): Promise<string> {
  const bytes = new Uint8Array(
    await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)),
  );
  return `sha256:${Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("")}`;
}

/** What a dream learns from the session's entries beside its items. */
class DreamFacts {
  sessionId = "";
  createdAt: string | undefined;
  turns = 0;
  firstPrompt: string | undefined;
  firstCommand: string | undefined;
  // The latest of each as it came (each a string of one event at most), made short at the end.
  #endedAt: string | undefined;
  #title: string | undefined;
  #state: string | undefined;
  #error: string | undefined;
  #models: string[] = [];
  #lastModel: unknown;

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
    const at = event.processed_at;
    if (this.createdAt === undefined) {
      this.createdAt = typeof at === "string" ? redact(at) : "";
    }
    if (typeof at === "string") this.#endedAt = at;
    if (event.type === "user.message") this.turns++;
    else this.#status(fieldsOf(event));
  }

  /** The status, error, title and model events. */
  #status(event: Record<string, unknown>): void {
    switch (event.type) {
      case "session.status_idle": {
        const reason = isObject(event.stop_reason) ? event.stop_reason.type : undefined;
        this.#state = typeof reason === "string" ? reason : "idle";
        break;
      }
      case "session.status_terminated":
        this.#state = "terminated";
        break;
      case "session.status_running":
        this.#state = "running";
        break;
      case "session.status_rescheduled":
        this.#state = "rescheduled";
        break;
      case "session.error": {
        const type = isObject(event.error) ? event.error.type : undefined;
        this.#error = typeof type === "string" ? type : "unknown_error";
        break;
      }
      case "session.updated":
        if (typeof event.title === "string") this.#title = event.title;
        if (isObject(event.agent)) this.#model(event.agent.model);
        break;
      case "span.model_request_end":
        this.#model(event.model);
        break;
    }
  }

  /** A model named: a string, or an object with a string `id`. */
  #model(value: unknown): void {
    const id = isObject(value) ? value.id : value;
    if (typeof id !== "string" || id === this.#lastModel || this.#models.length >= MAX_MODELS) {
      return;
    }
    this.#lastModel = id;
    const model = shortField(id);
    if (model !== "" && !this.#models.includes(model)) this.#models.push(model);
  }

  /** The dream's facts, but those its text's cut gives. */
  known(options: DreamOptions): KnownFacts {
    return {
      sessionId: this.sessionId,
      title: shortField(this.#title ?? ""),
      project: redact(options.project ?? ""),
      cwd: redact(options.cwd ?? ""),
      models: [...this.#models],
      createdAt: this.createdAt ?? "",
      endedAt: shortField(this.#endedAt ?? ""),
      turns: this.turns,
      terminalState: shortField(this.#state ?? ""),
      lastError: shortField(this.#error ?? ""),
      firstUser: this.firstPrompt ?? this.firstCommand ?? "",
    };
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

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

/**
 * A fact taken from an event's string: redacted, whitespace runs collapsed,
 * trimmed, at most 200 code points, a copy of its own (the event's string
 * is let go).
 */
function shortField(text: string): string {
  return firstWords(redact(text)).line;
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
 * Renders a session's dream text ({@linkcode Dream}`.text`) as a stream, for
 * a caller that follows a live session (`render --follow`): the text starts
 * with a front matter of facts known only when the source ends (the end, the
 * turns, the digest of the body), so it is given out whole, in one chunk,
 * once the source has ended; until then the renderer holds no more than the
 * cap, as {@linkcode renderDream} does. Joined, the chunks are exactly
 * {@linkcode renderDream}'s `text` for the same source and options. The
 * options are checked when it is called.
 *
 * @param source One session's entries, e.g. a followed session.
 * @param options The cap, the project and cwd where known, and a signal.
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
 * assert.equal(chunks.length, 1);
 * assert.equal(chunks.join(""), (await renderDream(entries)).text);
 * ```
 */
export function streamDream(
  source: EntryIterable,
  options: DreamOptions = {},
): AsyncIterable<string> {
  checkCap(options);
  return dreamChunks(source, options);
}

/** The dream's text, once its source has ended; nothing for an empty one. */
async function* dreamChunks(source: EntryIterable, options: DreamOptions): AsyncGenerator<string> {
  const { text } = await renderDream(source, options);
  if (text !== "") yield text;
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

/**
 * Builds a cut item as the dream writes it: its label as a heading, then its
 * framed body. The tail may hold the builder for a hundred items: it holds
 * the heading, the item's cut text and count alone, not the item (nor what
 * the item holds beside), so each item dies young, in the scavenger.
 */
function pieceBuilder(heading: string, text: string, cutBytes: number): () => string {
  return () => itemPiece(heading, { text, cutBytes });
}

/** An item as the dream writes it: its heading, then its framed body. */
function itemPiece(heading: string, item: Pick<ConversationItem, "text" | "cutBytes">): string {
  return `\n### ${heading}\n\n${framedItemBody(item, BODY_INDENT, DREAM_EVENT_BUDGET)}\n`;
}

/** A label as a heading, its UTF-8 size, and what builds an uncut item's piece under it from its text. */
type Heading = [heading: string, bytes: number, uncut: (text: string) => string];

/**
 * Labels as headings ({@linkcode oneLineField}), their UTF-8 sizes and their pieces' builds: a
 * session repeats a few labels on every item, so each short one is worked
 * out once and remembered (a bounded number, forgotten all at once when full).
 */
class Headings {
  #memo: Map<string, Heading> = new Map();

  heading(label: string): Heading {
    let known = this.#memo.get(label);
    if (known === undefined) {
      const heading = oneLineField(label);
      const uncut = (text: string): string => itemPiece(heading, { text, cutBytes: 0 });
      known = [heading, utf8Length(heading), uncut];
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
export const dreamRenderer: Renderer<DreamRendererOptions, "dream"> = {
  name: "dream",
  // `previous` and `previousName` are the folder index's: the dream itself does not read them.
  optionNames: ["cap", "previous", "previousName"],
  description: "Redacted, capped markdown of one session for a memory-consolidation run",
  extension: ".md",
  async render(source, options): Promise<string> {
    return (await renderDream(source, options)).text;
  },
  stream: streamDream,
  // In a folder, each dream is a page whose front matter holds its INDEX.md row, and where the
  // session came from as the command knows it.
  folder: {
    ...dreamFolderIndex,
    async page(source, options, origin): Promise<string> {
      const where = {
        ...(origin?.project === undefined ? {} : { project: origin.project }),
        ...(origin?.cwd === undefined ? {} : { cwd: origin.cwd }),
      };
      return dreamPage(await renderDream(source, { ...options, ...where }));
    },
  },
};
