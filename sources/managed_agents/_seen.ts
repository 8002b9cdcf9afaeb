// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// The follow's memory of the events one stream yielded: the latest ids, a
// bounded number of them, and the newest time among those it has forgotten.

import { idHash, idSeed, IdTable } from "./_id_table.ts";
import { compareKeys, type TimeKey, timeKey } from "./_merge.ts";
import { type Item, PageMark } from "./_pages.ts";

/**
 * How many ids each stream remembers at least (and at most twice as many);
 * older events are told apart by their time.
 */
export const FOLLOW_MEMORY = 4_096;

/**
 * The events of one stream seen so far: the latest ids, from
 * {@linkcode FOLLOW_MEMORY} to twice that, and the newest `processed_at` of
 * the events whose ids it forgot.
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
 *
 * The ids are kept in two generations of {@linkcode FOLLOW_MEMORY}: when the
 * newer is full, the older is forgotten whole (its times read then, once a
 * generation, not once an event) and the newer takes its place, so an event
 * costs one hash (of its id, {@linkcode idHash}), two look-ups and one
 * insertion, never a deletion.
 */
export class SeenEvents {
  #seed = idSeed();
  #newer = new IdTable();
  #older = new IdTable();
  /** The `processed_at` of each id remembered, as sent, generation by generation. */
  #newerStamps: unknown[] = [];
  #olderStamps: unknown[] = [];
  #forgottenUntil: TimeKey | undefined;
  /** {@linkcode SeenEvents.#forgottenUntil} as the API sent it. */
  #forgottenText: string | undefined;
  /**
   * Where a catch-up listing of a child thread starts (its list takes no
   * time): the cursor of the last page listed that held an event.
   */
  readonly pages: PageMark = new PageMark();

  /** Whether an event of the open stream was seen (by id only); if not, it is remembered now. */
  streamed(item: Item): boolean {
    const id = item.id;
    if (typeof id !== "string") return false;
    const hash = idHash(id, this.#seed);
    if (this.#newer.has(id, hash) || this.#older.has(id, hash)) return true;
    this.#remember(id, hash, item.processed_at);
    return false;
  }

  /** Whether an event of a listing was seen (by id, else by time); if not, it is remembered now. */
  listed(item: Item): boolean {
    const id = typeof item.id === "string" ? item.id : undefined;
    const hash = id === undefined ? 0 : idHash(id, this.#seed);
    if (id !== undefined && (this.#newer.has(id, hash) || this.#older.has(id, hash))) return true;
    const forgotten = this.#forgottenUntil;
    if (forgotten !== undefined) {
      const key = timeKey(item.processed_at);
      // Not remembered, and no later than an event forgotten: one of those listed before.
      if (key !== undefined && compareKeys(key, forgotten) <= 0) return true;
    }
    // An event with no id cannot be remembered: a listing yields it again until it is no later
    // than an event forgotten.
    if (id !== undefined) this.#remember(id, hash, item.processed_at);
    return false;
  }

  /**
   * Where a catch-up listing can start (`created_at[gte]`), as the API sent
   * it: the newest `processed_at` of the events forgotten, undefined before
   * any is (the whole list is then at most the events remembered). An event
   * stamped earlier is one {@linkcode SeenEvents.listed} judges as seen in the
   * whole list too (remembered, or no later than a forgotten one), so the
   * bound loses nothing, whatever the order of the stamps; and a reconnect
   * lists again about the events remembered, however long the session.
   */
  since(): string | undefined {
    return this.#forgottenText;
  }

  #remember(id: string, hash: number, stamp: unknown): void {
    this.#newer.add(id, hash);
    this.#newerStamps.push(stamp);
    if (this.#newerStamps.length < FOLLOW_MEMORY) return;
    const latest = latestStamp(this.#olderStamps);
    if (
      latest !== undefined &&
      (this.#forgottenUntil === undefined || compareKeys(latest.key, this.#forgottenUntil) > 0)
    ) {
      this.#forgottenUntil = latest.key;
      this.#forgottenText = latest.text;
    }
    // The older generation's table, cleared, holds the next: its slots are already the size.
    const older = this.#older;
    older.clear();
    this.#older = this.#newer;
    this.#olderStamps = this.#newerStamps;
    this.#newer = older;
    this.#newerStamps = [];
  }
}

/**
 * The latest time among `stamps`, as {@linkcode timeKey} reads them, reading
 * few: stamps of the API's form (`YYYY-MM-DDTHH:MM:SS[.digits]Z`) of one
 * length order as their texts do, unless one rolls over (`Date.parse` reads
 * `02-31` as March 3 and `T24:00` as the next day), so only the last text of
 * each length is read, and a stamp that may roll over (a day from 29, an hour
 * from 24) is read on its own, as is any other form. A last text that is no
 * time (a month 13, a letter) sends its length back to be read stamp by stamp.
 */
export function latestKey(stamps: readonly unknown[]): TimeKey | undefined {
  return latestStamp(stamps)?.key;
}

/** The latest of `stamps` as {@linkcode latestKey} finds it, with its text. */
function latestStamp(stamps: readonly unknown[]): { key: TimeKey; text: string } | undefined {
  const lastOfLength = new Map<number, string>();
  let latest: { key: TimeKey; text: string } | undefined;
  const take = (text: string, key = timeKey(text)): void => {
    if (key !== undefined && (latest === undefined || compareKeys(key, latest.key) > 0)) {
      latest = { key, text };
    }
  };
  for (const stamp of stamps) {
    if (typeof stamp !== "string") continue;
    if (!isUtcShape(stamp) || mayRollOver(stamp)) {
      take(stamp);
      continue;
    }
    const last = lastOfLength.get(stamp.length);
    if (last === undefined || stamp > last) lastOfLength.set(stamp.length, stamp);
  }
  for (const [length, last] of lastOfLength) {
    const key = timeKey(last);
    if (key !== undefined) {
      take(last, key);
      continue;
    }
    for (const stamp of stamps) {
      if (typeof stamp === "string" && stamp.length === length && isUtcShape(stamp)) take(stamp);
    }
  }
  return latest;
}

/** Whether `stamp` has the separators of `YYYY-MM-DDTHH:MM:SS[.f]Z` where they go. */
function isUtcShape(stamp: string): boolean {
  const length = stamp.length;
  return length >= 20 && length !== 21 && stamp.charCodeAt(length - 1) === 0x5a &&
    stamp.charCodeAt(4) === 0x2d && stamp.charCodeAt(7) === 0x2d &&
    stamp.charCodeAt(10) === 0x54 && stamp.charCodeAt(13) === 0x3a &&
    stamp.charCodeAt(16) === 0x3a && (length === 20 || stamp.charCodeAt(19) === 0x2e);
}

/**
 * Whether a stamp of {@linkcode isUtcShape} may be read as a later day than
 * it writes: its day is 29 or more, or its hour 24 or more.
 */
function mayRollOver(stamp: string): boolean {
  const dayTens = stamp.charCodeAt(8);
  const hourTens = stamp.charCodeAt(11);
  return dayTens > 0x32 || (dayTens === 0x32 && stamp.charCodeAt(9) === 0x39) ||
    hourTens > 0x32 || (hourTens === 0x32 && stamp.charCodeAt(12) >= 0x34);
}
