// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

import type { EntryIterable } from "../events/from_entries.ts";
import type { LogEntry } from "../events/types.ts";
import { redact } from "../redact/mod.ts";
import { cutBody } from "./_budget.ts";
import { CappedText } from "./_capped_text.ts";
import { contentText } from "./content.ts";
import { CONVERSATION_TYPES, ItemRenderer } from "./_items.ts";
import { oneSession } from "./_session.ts";
import { ThreadBook } from "./_threads.ts";
import type { Renderer } from "./registry.ts";

/**
 * The most UTF-8 bytes of one event's body in a dream, cut after redaction.
 *
 * @example Usage
 * ```ts
 * import { DREAM_EVENT_BUDGET, renderDream } from "@brigade/transcript";
 * import assert from "node:assert/strict";
 *
 * const dream = await renderDream([{
 *   seq: 1,
 *   session_id: "sesn_1",
 *   thread_id: null,
 *   event: { id: "sevt_1", type: "agent.message", content: "x".repeat(5_000) },
 * }]);
 * assert.ok(dream.text.includes(`${"x".repeat(DREAM_EVENT_BUDGET)}\n[cut: 3000 more bytes]`));
 * ```
 */
export const DREAM_EVENT_BUDGET: number = 2_000;

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
  /** The session's id; `""` for an empty source. */
  sessionId: string;
  /** The first kept entry's `processed_at`; `""` when unknown. */
  createdAt: string;
  /** The rendered markdown: redacted, each event cut, the whole capped. */
  text: string;
  /** How many `user.message` events the session scope holds, elided or not. */
  turns: number;
  /** UTF-8 bytes the cap removed; 0 when it was not hit. */
  elidedBytes: number;
  /** The first user message: redacted, one line, at most 200 code points; `""` when none. */
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
 * cut, then cut to {@linkcode DREAM_EVENT_BUDGET} bytes. The whole is capped
 * at `cap` bytes: past it, a head and a rolling tail of at most half of what
 * the marker leaves are kept around a marker naming the bytes elided, so
 * memory stays near the cap however long the log.
 *
 * @param source One session's entries.
 * @param options The cap and a signal.
 * @returns The dream.
 * @throws {RangeError} When `cap` is not an integer of at least {@linkcode DREAM_MIN_CAP}.
 * @throws {EventSourceError} When an entry is malformed or a second session appears.
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
  const cap = options.cap ?? DREAM_TRANSCRIPT_CAP;
  if (!Number.isSafeInteger(cap) || cap < DREAM_MIN_CAP) {
    throw new RangeError(
      `Cannot render a dream: cap must be an integer of at least ${DREAM_MIN_CAP}: ${cap}`,
    );
  }
  const state = new DreamState(cap);
  for await (const entry of oneSession(source, "dream", options.signal)) state.add(entry);
  return state.dream();
}

/** What a dream accumulates as the session's entries arrive. */
class DreamState {
  #text: CappedText;
  #book = new ThreadBook();
  #items = new ItemRenderer(this.#book);
  #sessionId = "";
  #createdAt: string | undefined;
  #turns = 0;
  #firstUser: string | undefined;

  constructor(cap: number) {
    this.#text = new CappedText(cap);
  }

  add(entry: LogEntry): void {
    if (this.#sessionId === "") this.#sessionId = entry.session_id;
    if (entry.thread_id !== null) return;
    this.#book.learn(entry);
    if (this.#createdAt === undefined) this.#start(entry);
    const event = entry.event;
    if (event.type === "user.message") {
      this.#turns++;
      this.#firstUser ??= oneLine(redact(contentText(event.content)));
    }
    if (!CONVERSATION_TYPES.has(event.type)) return;
    const { label, body } = this.#items.render(entry);
    this.#text.push(`\n### ${redact(label)}\n\n${cutBody(redact(body), DREAM_EVENT_BUDGET)}\n`);
  }

  #start(entry: LogEntry): void {
    const at = entry.event.processed_at;
    this.#createdAt = typeof at === "string" ? at : "";
    this.#text.push(`# Session ${this.#sessionId}\n`);
  }

  dream(): Dream {
    return {
      sessionId: this.#sessionId,
      createdAt: this.#createdAt ?? "",
      text: this.#text.text(),
      turns: this.#turns,
      elidedBytes: this.#text.elidedBytes,
      firstUser: this.#firstUser ?? "",
    };
  }
}

/** Whitespace runs collapsed to one space, trimmed, cut to 200 code points. */
function oneLine(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return [...line].slice(0, FIRST_USER_CODE_POINTS).join("");
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
 * ```
 */
export const dreamRenderer: Renderer<DreamOptions, "dream"> = {
  name: "dream",
  description: "Redacted, capped markdown of one session for a memory-consolidation run",
  extension: ".md",
  async render(source, options): Promise<string> {
    return (await renderDream(source, options)).text;
  },
};
