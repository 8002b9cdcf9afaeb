// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

import type { LogEntry } from "../events/types.ts";
import { fieldsOf } from "../events/fields.ts";

/** An entry whose text is already worked out (redacted and cut), on its way out. */
export interface Prepared {
  /** The entry; a held one without its content, which `text` replaces. */
  entry: LogEntry;
  /** The item's text, redacted if asked and cut to the item budget, note included. */
  text: string;
  /** The UTF-8 bytes the item budget cut. */
  cutBytes: number;
}

interface Held {
  prepared: Prepared;
  arrival: number;
  bytes: number;
}

/**
 * How many model requests in flight are remembered, across all threads. A
 * session has one per thread at a time; a log of millions of starts that
 * never end must not grow the grader's memory, so the oldest are forgotten
 * (as if they had ended).
 */
const OPEN_REQUESTS_KEPT = 4_096;

/** What a span releases when its thread holds nothing: one empty list, never written to. */
const NONE: readonly Prepared[] = [];

/**
 * A request's key: its thread and its id, `thread NUL id`; a request of the
 * primary thread (`""`) whose id holds no NUL is keyed by its id alone. That
 * keys the same requests apart as `thread NUL id` would (such a key has no
 * NUL, every other has one, and `"" NUL id` with a NUL-free id is told apart
 * by its id), and the primary's requests, most of a session's, take no new
 * string: the id parsed from the log is the key, its hash worked out once.
 */
function requestKey(thread: string, id: unknown): string {
  const text = String(id ?? "");
  return thread === "" && !text.includes("\u0000") ? text : `${thread}\u0000${text}`;
}

/**
 * Reorders a thread's messages to where its model consumed them. A movable
 * entry that arrives while its thread has a model request in flight (between
 * `span.model_request_start` and the end naming that start), or while its
 * thread already holds a message (so the messages keep the order the model
 * read them in), is held and released just before that
 * thread's next `span.model_request_start`; what is still held at the end
 * comes last, in arrival order. Windows are per thread. An end with no
 * matching start is ignored. The span events themselves are consumed here.
 *
 * Memory is bounded by the transcript budget: held messages are released
 * after everything shown so far, so once what is shown plus what is held
 * (labels and texts, a lower bound of any rendering) exceeds the budget, a
 * further message to hold could not be shown: it is counted in
 * {@linkcode ConsumptionOrder.dropped}, not kept. When the renderer keeps the
 * ends of the transcript (`keep: "ends"`), what is shown does not count (its
 * tail is what matters), and past the budget the OLDEST held message is
 * dropped instead: those could only have landed in the elided middle.
 */
export class ConsumptionOrder {
  #budget: number;
  #open: Map<string, string> = new Map();
  #openPerThread: Map<string, number> = new Map();
  #held: Map<string, Held[]> = new Map();
  #heldBytes = 0;
  #arrival = 0;
  #shown = 0;
  #dropped = 0;

  #onDropped: ((seq: number) => void) | undefined;
  #keepEnds: boolean;

  /**
   * @param budget The transcript budget the held messages are bounded by, in UTF-8 bytes.
   * @param onDropped Told the `seq` of each held message dropped.
   * @param keep Which part of the transcript the renderer keeps: its head, or its head and tail.
   */
  constructor(budget: number, onDropped?: (seq: number) => void, keep: "head" | "ends" = "head") {
    this.#budget = budget;
    this.#onDropped = onDropped;
    this.#keepEnds = keep === "ends";
  }

  /** Held messages dropped because the budget could no longer show them. */
  get dropped(): number {
    return this.#dropped;
  }

  /** Counts bytes of a rendered item towards what is shown. */
  shown(bytes: number): void {
    if (!this.#keepEnds) this.#shown += bytes;
  }

  /** Whether an entry is a span this order consumes. */
  static isSpan(entry: LogEntry): boolean {
    const type = entry.event.type;
    return type === "span.model_request_start" || type === "span.model_request_end";
  }

  /**
   * Takes a span: a start releases its thread's held messages (returned, in
   * order) and opens a request; an end closes the request it names.
   */
  span(entry: LogEntry): readonly Prepared[] {
    const thread = entry.thread_id ?? "";
    const event = entry.event;
    if (event.type === "span.model_request_end") {
      this.#close(requestKey(thread, fieldsOf(event).model_request_start_id));
      return NONE;
    }
    const key = requestKey(thread, event.id);
    const released = this.#release(thread);
    if (!this.#open.has(key)) {
      this.#openPerThread.set(thread, (this.#openPerThread.get(thread) ?? 0) + 1);
    }
    this.#open.set(key, thread);
    if (this.#open.size > OPEN_REQUESTS_KEPT) this.#close(this.#open.keys().next().value!);
    return released;
  }

  /** Whether a movable entry of this thread must be held now. */
  holds(entry: LogEntry): boolean {
    const thread = entry.thread_id ?? "";
    return (this.#openPerThread.get(thread) ?? 0) > 0 || this.#held.has(thread);
  }

  /**
   * Holds a prepared movable entry, or counts it when the budget could not
   * show it. The message that takes what is shown and held past the budget is
   * kept (a renderer shows its head and then its cut note); those after it
   * could not be shown at all.
   */
  hold(prepared: Prepared, bytes: number): void {
    if (!this.#keepEnds && this.#shown + this.#heldBytes > this.#budget) {
      this.#drop(prepared);
      return;
    }
    const thread = prepared.entry.thread_id ?? "";
    let queue = this.#held.get(thread);
    if (queue === undefined) this.#held.set(thread, queue = []);
    queue.push({ prepared, arrival: this.#arrival++, bytes });
    this.#heldBytes += bytes;
    if (this.#keepEnds) this.#dropOldestPastBudget();
  }

  #drop(prepared: Prepared): void {
    this.#dropped++;
    this.#onDropped?.(prepared.entry.seq);
  }

  /** Drops the oldest held messages while what is held is past the budget, the newest kept. */
  #dropOldestPastBudget(): void {
    while (this.#heldBytes > this.#budget) {
      let oldest: [string, Held[]] | undefined;
      for (const entry of this.#held) {
        if (oldest === undefined || entry[1][0]!.arrival < oldest[1][0]!.arrival) oldest = entry;
      }
      const [thread, queue] = oldest!;
      if (this.#held.size === 1 && queue.length === 1) return;
      const held = queue.shift()!;
      if (queue.length === 0) this.#held.delete(thread);
      this.#heldBytes -= held.bytes;
      this.#drop(held.prepared);
    }
  }

  /** What is still held at the end, in arrival order. */
  rest(): Prepared[] {
    const rest = [...this.#held.values()].flat().sort((a, b) => a.arrival - b.arrival);
    this.#held.clear();
    this.#heldBytes = 0;
    return rest.map((held) => held.prepared);
  }

  #close(key: string): void {
    const thread = this.#open.get(key);
    if (thread === undefined) return;
    this.#open.delete(key);
    const count = (this.#openPerThread.get(thread) ?? 1) - 1;
    if (count > 0) this.#openPerThread.set(thread, count);
    else this.#openPerThread.delete(thread);
  }

  #release(thread: string): readonly Prepared[] {
    const queue = this.#held.get(thread);
    if (queue === undefined) return NONE;
    this.#held.delete(thread);
    for (const held of queue) this.#heldBytes -= held.bytes;
    return queue.map((held) => held.prepared);
  }
}
