// Copyright 2026 the brigade authors. MIT license.

/**
 * `--since` and `--until`: which sessions a run renders, by the time each
 * started (its first entry's `processed_at`, as a page's "Started" shows it).
 * A date is a day in UTC, written `2026-09-01` or, as ccusage takes it,
 * `20260901` (`--since` from its first instant, `--until` to its last): UTC,
 * not the machine's zone, so a range selects the same sessions wherever it
 * runs, as the pages' "Started" times are written in UTC. A time names its
 * zone (`2026-09-01T10:00:00Z`, `2026-09-01T12:00+02:00`). Both bounds are
 * inclusive.
 *
 * @module
 */

import type { LogEntry } from "../events/types.ts";

/** The instants a session's start must fall within, in milliseconds since the epoch. */
export interface DateRange {
  /** The earliest start kept (inclusive); undefined for no lower bound. */
  from: number | undefined;
  /** The first start past the range (exclusive); undefined for no upper bound. */
  to: number | undefined;
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** A day: `2026-09-01`, or `20260901` as ccusage takes it. */
const DATE = /^(\d{4})(?:-(\d\d)-(\d\d)|(\d\d)(\d\d))$/;
const TIME =
  /^(\d{4})-(\d\d)-(\d\d)[Tt ](\d\d):(\d\d)(?::(\d\d)(?:\.\d{1,9})?)?(?:[Zz]|[+-](\d\d):(\d\d))$/;

/**
 * The range `--since` and `--until` give; undefined when neither is given.
 *
 * @throws {RangeError} When a value is not a date or a time with its zone
 *   (the message names the flag and the value), or the range ends before it starts.
 */
export function dateRange(
  since: string | undefined,
  until: string | undefined,
): DateRange | undefined {
  if (since === undefined && until === undefined) return undefined;
  const from = since === undefined ? undefined : instant("--since", since, "start");
  const to = until === undefined ? undefined : instant("--until", until, "end");
  if (from !== undefined && to !== undefined && to <= from) {
    throw new RangeError(
      `Cannot select sessions from --since ${since} to --until ${until}: the range ends before it starts`,
    );
  }
  return { from, to };
}

/**
 * A flag's value as an instant: a date's first millisecond (`start`) or the
 * first past its last (`end`); a time itself (`end`: the millisecond after it).
 */
function instant(flag: string, value: string, side: "start" | "end"): number {
  const date = DATE.exec(value);
  if (date !== null) {
    const day = calendarDay(date[1]!, (date[2] ?? date[4])!, (date[3] ?? date[5])!);
    if (day !== undefined) return side === "start" ? day : day + DAY_MS;
  }
  const time = TIME.exec(value);
  if (time !== null) {
    const day = calendarDay(time[1]!, time[2]!, time[3]!);
    const [hours, minutes, seconds] = [time[4]!, time[5]!, time[6] ?? "0"].map(Number);
    const zone = [time[7], time[8]].map((part) => Number(part ?? "0"));
    const at = Date.parse(value.replace(" ", "T"));
    if (
      day !== undefined && hours! <= 23 && minutes! <= 59 && seconds! <= 59 && zone[0]! <= 23 &&
      zone[1]! <= 59 && !Number.isNaN(at)
    ) {
      return side === "start" ? at : at + 1;
    }
  }
  throw new RangeError(
    `Option "${flag}" takes a day in UTC (2026-09-01 or 20260901) or a time with its zone (2026-09-01T10:00:00Z, 2026-09-01T12:00+02:00): "${value}"`,
  );
}

/** The first millisecond of a day in UTC; undefined when there is no such day (`2026-02-29`). */
function calendarDay(year: string, month: string, day: string): number | undefined {
  try {
    const date = Temporal.PlainDate.from(
      { year: Number(year), month: Number(month), day: Number(day) },
      { overflow: "reject" },
    );
    return date.toZonedDateTime("UTC").epochMilliseconds;
  } catch {
    return undefined;
  }
}

/** How many first entries of a session are looked at for its start: past them, it has none. */
const LOOKED_AT = 64;

/**
 * The session's entries when it started within the range, read again from
 * the first; undefined when it did not, or when none of its first
 * {@linkcode LOOKED_AT} entries has a time (it is then not read further).
 */
export async function withinRange(
  entries: AsyncIterable<LogEntry>,
  range: DateRange,
): Promise<AsyncIterable<LogEntry> | undefined> {
  const iterator = entries[Symbol.asyncIterator]();
  const held: LogEntry[] = [];
  let start: number | undefined;
  let done = false;
  while (held.length < LOOKED_AT) {
    const next = await iterator.next();
    if (next.done) {
      done = true;
      break;
    }
    held.push(next.value);
    start = startOf(next.value);
    if (start !== undefined) break;
  }
  // An empty session is rendered as any other (the command says it holds nothing).
  if (done && held.length === 0) return emptySource();
  const kept = start !== undefined && (range.from === undefined || start >= range.from) &&
    (range.to === undefined || start < range.to);
  if (!kept) {
    if (!done) await iterator.return?.();
    return undefined;
  }
  return (async function* (): AsyncGenerator<LogEntry, void, undefined> {
    try {
      while (held.length > 0) yield held.shift()!;
      while (!done) {
        const next = await iterator.next();
        if (next.done) {
          done = true;
          return;
        }
        yield next.value;
      }
    } finally {
      if (!done) await iterator.return?.();
    }
  })();
}

/** An entry's time, in milliseconds since the epoch; undefined when it has none. */
function startOf(entry: LogEntry): number | undefined {
  const at = (entry.event as { processed_at?: unknown }).processed_at;
  if (typeof at !== "string") return undefined;
  const time = Date.parse(at);
  return Number.isNaN(time) ? undefined : time;
}

async function* emptySource(): AsyncGenerator<LogEntry, void, undefined> {}
