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
  #order: { id: string; key: TimeKey | undefined }[] = [];
  #head = 0;
  #forgottenUntil: TimeKey | undefined;

  /** Whether an event of the open stream was seen (by id only); if not, it is remembered now. */
  streamed(item: Item): boolean {
    const id = idOf(item);
    if (id !== undefined && this.#ids.has(id)) return true;
    this.#remember(id, timeKey(item.processed_at));
    return false;
  }

  /** Whether an event of a listing was seen (by id, else by time); if not, it is remembered now. */
  listed(item: Item): boolean {
    const id = idOf(item);
    if (id !== undefined && this.#ids.has(id)) return true;
    const key = timeKey(item.processed_at);
    const forgotten = this.#forgottenUntil;
    // Not remembered, and no later than an event forgotten: one of those listed before.
    if (key !== undefined && forgotten !== undefined && compareKeys(key, forgotten) <= 0) {
      return true;
    }
    this.#remember(id, key);
    return false;
  }

  #remember(id: string | undefined, key: TimeKey | undefined): void {
    // An event with no id cannot be remembered: a listing yields it again until it is no later
    // than an event forgotten.
    if (id === undefined) return;
    this.#ids.add(id);
    this.#order.push({ id, key });
    if (this.#order.length - this.#head <= FOLLOW_MEMORY) return;
    const oldest = this.#order[this.#head]!;
    this.#ids.delete(oldest.id);
    if (
      oldest.key !== undefined &&
      (this.#forgottenUntil === undefined || compareKeys(oldest.key, this.#forgottenUntil) > 0)
    ) {
      this.#forgottenUntil = oldest.key;
    }
    this.#head++;
    if (this.#head > FOLLOW_MEMORY) {
      this.#order = this.#order.slice(this.#head);
      this.#head = 0;
    }
  }
}

function idOf(item: Item): string | undefined {
  return typeof item.id === "string" ? item.id : undefined;
}
