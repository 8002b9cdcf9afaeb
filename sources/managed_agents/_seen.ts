// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// The follow's memory of the events one stream yielded: the latest ids, a
// bounded number of them, and the newest time among those it has forgotten.

import { compareKeys, type TimeKey, timeKey } from "./_merge.ts";
import type { Item } from "./_pages.ts";

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
 * costs two look-ups and one insertion, never a deletion.
 */
export class SeenEvents {
  #newer = new Set<string>();
  #older = new Set<string>();
  /** The `processed_at` of each id remembered, as sent, generation by generation. */
  #newerStamps: unknown[] = [];
  #olderStamps: unknown[] = [];
  #forgottenUntil: TimeKey | undefined;

  /** Whether an event of the open stream was seen (by id only); if not, it is remembered now. */
  streamed(item: Item): boolean {
    const id = item.id;
    if (typeof id !== "string") return false;
    if (this.#newer.has(id) || this.#older.has(id)) return true;
    this.#remember(id, item.processed_at);
    return false;
  }

  /** Whether an event of a listing was seen (by id, else by time); if not, it is remembered now. */
  listed(item: Item): boolean {
    const id = typeof item.id === "string" ? item.id : undefined;
    if (id !== undefined && (this.#newer.has(id) || this.#older.has(id))) return true;
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
   * judges as it would in the whole list (by id, or by the forgotten time),
   * so the bound loses nothing to a stamp out of order among them, and a
   * reconnect lists again at most the events remembered, however long the
   * session.
   */
  since(): string | undefined {
    let earliest: { key: TimeKey; text: string } | undefined;
    for (const stamps of [this.#olderStamps, this.#newerStamps]) {
      for (const stamp of stamps) {
        const key = timeKey(stamp);
        if (key !== undefined && (earliest === undefined || compareKeys(key, earliest.key) < 0)) {
          earliest = { key, text: stamp as string };
        }
      }
    }
    return earliest?.text;
  }

  #remember(id: string, stamp: unknown): void {
    this.#newer.add(id);
    this.#newerStamps.push(stamp);
    if (this.#newerStamps.length < FOLLOW_MEMORY) return;
    const latest = latestKey(this.#olderStamps);
    if (
      latest !== undefined &&
      (this.#forgottenUntil === undefined || compareKeys(latest, this.#forgottenUntil) > 0)
    ) {
      this.#forgottenUntil = latest;
    }
    this.#older = this.#newer;
    this.#olderStamps = this.#newerStamps;
    this.#newer = new Set();
    this.#newerStamps = [];
  }
}

/**
 * The latest time among `stamps`, as {@linkcode timeKey} reads them. A stamp
 * of the API's form whose fields are all in range (see
 * {@linkcode isRegularUtc}) orders as its text among those of its length, so
 * only the last of each length is read; any other is read on its own.
 */
function latestKey(stamps: readonly unknown[]): TimeKey | undefined {
  const lastOfLength = new Map<number, string>();
  let latest: TimeKey | undefined;
  const take = (key: TimeKey | undefined): void => {
    if (key !== undefined && (latest === undefined || compareKeys(key, latest) > 0)) latest = key;
  };
  for (const stamp of stamps) {
    if (typeof stamp !== "string") continue;
    if (!isRegularUtc(stamp)) {
      take(timeKey(stamp));
      continue;
    }
    const last = lastOfLength.get(stamp.length);
    if (last === undefined || stamp > last) lastOfLength.set(stamp.length, stamp);
  }
  for (const stamp of lastOfLength.values()) take(timeKey(stamp));
  return latest;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** The number the two digits at `at` of `text` write; NaN when either is not a digit. */
function twoDigits(text: string, at: number): number {
  const tens = text.charCodeAt(at) - 0x30;
  const ones = text.charCodeAt(at + 1) - 0x30;
  return tens >= 0 && tens <= 9 && ones >= 0 && ones <= 9 ? tens * 10 + ones : Number.NaN;
}

/**
 * Whether `stamp` is `YYYY-MM-DDTHH:MM:SS[.digits]Z` with every field in its
 * range (the day within its month, the hour before 24, no leap second): such
 * a stamp is read as written, never rolled over into the next day or month
 * (as `Date.parse` rolls `02-31` and `T24:00`), so two of one length order as
 * their texts do.
 */
function isRegularUtc(stamp: string): boolean {
  const length = stamp.length;
  if (length < 20 || stamp.charCodeAt(length - 1) !== 0x5a) return false;
  if (
    stamp.charCodeAt(4) !== 0x2d || stamp.charCodeAt(7) !== 0x2d ||
    stamp.charCodeAt(10) !== 0x54 || stamp.charCodeAt(13) !== 0x3a ||
    stamp.charCodeAt(16) !== 0x3a
  ) {
    return false;
  }
  const century = twoDigits(stamp, 0);
  const year = century * 100 + twoDigits(stamp, 2);
  const month = twoDigits(stamp, 5);
  const day = twoDigits(stamp, 8);
  // NaN fails every comparison, so a field that is not digits fails here.
  if (!(year >= 0 && month >= 1 && month <= 12 && day >= 1 && day <= 31)) return false;
  if (day > 28) {
    const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
    if (day > DAYS_IN_MONTH[month - 1]! + (month === 2 && leap ? 1 : 0)) return false;
  }
  if (!(twoDigits(stamp, 11) <= 23 && twoDigits(stamp, 14) <= 59 && twoDigits(stamp, 17) <= 59)) {
    return false;
  }
  if (length === 20) return true;
  if (length === 21 || stamp.charCodeAt(19) !== 0x2e) return false;
  for (let at = 20; at < length - 1; at++) {
    const code = stamp.charCodeAt(at);
    if (code < 0x30 || code > 0x39) return false;
  }
  return true;
}
