// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// The follow's memory of the events one stream yielded: the latest ids, a
// bounded number of them, and the newest time among those it has forgotten.

import { compareKeys, type TimeKey, timeKey } from "./_merge.ts";
import type { Item } from "./_pages.ts";

/** How many ids each stream remembers; older events are told apart by their time. */
export const FOLLOW_MEMORY = 4_096;

/**
 * The events of one stream seen so far: the latest {@linkcode FOLLOW_MEMORY}
 * ids, and the newest `processed_at` of the events whose ids it forgot.
 *
 * Two questions, asked of two kinds of input:
 * - {@linkcode SeenEvents.streamed}: an event that arrives on the open stream
 *   is new unless its id is remembered. Its time is never used: a stream
 *   sends what is new, and a stamp out of order (a far-future one, a step
 *   back) must not hide what follows it.
 * - {@linkcode SeenEvents.listed}: a listing (the first one, and the catch-up
 *   after each connection) holds the whole stored history, so an event whose
 *   id was forgotten must still be recognised: one stamped no later than the
 *   newest forgotten event was seen. Only forgotten events set that mark, so
 *   one far-future stamp hides nothing until it is itself forgotten, and an
 *   event stored while the stream was down (newer than anything forgotten)
 *   is new.
 */
export class SeenEvents {
  #ids = new Set<string>();
  /**
   * The remembered events in the order seen, a ring of {@linkcode FOLLOW_MEMORY}:
   * each id and its `processed_at` as sent, read as a time only when it is
   * forgotten or a listing asks where to start (not once an event).
   */
  #ring: string[] = [];
  #stamps: unknown[] = [];
  /** Where the next event goes in the ring once it is full (the oldest one's place). */
  #next = 0;
  #forgottenUntil: TimeKey | undefined;

  /** Whether an event of the open stream was seen (by id only); if not, it is remembered now. */
  streamed(item: Item): boolean {
    const id = item.id;
    if (typeof id !== "string") return false;
    if (this.#ids.has(id)) return true;
    this.#remember(id, item.processed_at);
    return false;
  }

  /** Whether an event of a listing was seen (by id, else by time); if not, it is remembered now. */
  listed(item: Item): boolean {
    const id = typeof item.id === "string" ? item.id : undefined;
    if (id !== undefined && this.#ids.has(id)) return true;
    const forgotten = this.#forgottenUntil;
    if (forgotten !== undefined) {
      const key = timeKey(item.processed_at);
      // Not remembered, and no later than an event forgotten: one of those listed before.
      if (key !== undefined && compareKeys(key, forgotten) <= 0) return true;
    }
    // An event with no id cannot be remembered: a listing yields it again until it is no later
    // than an event forgotten.
    if (id !== undefined) this.#remember(id, item.processed_at);
    return false;
  }

  /**
   * Where a catch-up listing can start (`created_at[gte]`), as the API sent
   * it: the earliest `processed_at` of the events remembered, undefined when
   * none has one. Every event a list from there gives is one this memory
   * judges as the whole list's (by id, or by the forgotten time), so the
   * bound loses nothing to a stamp out of order among them, and a reconnect
   * lists at most {@linkcode FOLLOW_MEMORY} events again, however long the
   * session.
   */
  since(): string | undefined {
    let earliest: { key: TimeKey; text: string } | undefined;
    for (const stamp of this.#stamps) {
      const key = timeKey(stamp);
      if (key !== undefined && (earliest === undefined || compareKeys(key, earliest.key) < 0)) {
        earliest = { key, text: stamp as string };
      }
    }
    return earliest?.text;
  }

  #remember(id: string, stamp: unknown): void {
    this.#ids.add(id);
    if (this.#ring.length < FOLLOW_MEMORY) {
      this.#ring.push(id);
      this.#stamps.push(stamp);
      return;
    }
    const at = this.#next;
    this.#ids.delete(this.#ring[at]!);
    const key = timeKey(this.#stamps[at]);
    if (
      key !== undefined &&
      (this.#forgottenUntil === undefined || compareKeys(key, this.#forgottenUntil) > 0)
    ) {
      this.#forgottenUntil = key;
    }
    this.#ring[at] = id;
    this.#stamps[at] = stamp;
    this.#next = at + 1 === FOLLOW_MEMORY ? 0 : at + 1;
  }
}
