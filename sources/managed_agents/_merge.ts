// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// A k-way merge of streams that are each in their own order, by a timestamp.
//
// The rule, which keeps every stream's own order and depends on nothing but
// the streams' contents:
// 1. Only the head (the first item not yet emitted) of each stream competes.
// 2. A head with no usable time (null, absent, or not an RFC 3339 timestamp)
//    is emitted at once; when several heads have none, the lowest stream index
//    goes first. Such an item thus stays right behind its predecessor in its
//    own stream.
// 3. Otherwise the head with the earliest time is emitted; on a tie the lowest
//    stream index goes first (stream 0 is the primary thread, then the child
//    threads in the order the API listed them).
// Times compare exactly, sub-millisecond digits and UTC offsets included.

/** One emitted item and the index of the stream it came from. */
export interface Merged<T> {
  stream: number;
  item: T;
}

/** A timestamp as exactly comparable parts. */
export interface TimeKey {
  /** Whole seconds since the epoch, UTC. */
  seconds: number;
  /** The fraction's digits, right-padded to a fixed width. */
  fraction: string;
}

interface Head<T> {
  item: T;
  key: TimeKey | undefined;
}

/**
 * Merges `streams` by the time `timeOf` reads from each item (see the rule
 * above). Holds one item per stream (plus whatever each stream buffers) and
 * pulls from a stream only when its head was emitted. Primes the streams one
 * after another, so at most one request is ever in flight. Closes every
 * stream still open when it ends, fails or the consumer stops early.
 */
export async function* mergeByTime<T>(
  streams: readonly AsyncIterable<T>[],
  timeOf: (item: T) => unknown,
): AsyncGenerator<Merged<T>> {
  const iterators = streams.map((stream) => stream[Symbol.asyncIterator]());
  const heads: (Head<T> | undefined)[] = [];
  const open = iterators.map(() => true);
  const advance = async (index: number): Promise<void> => {
    const iterator = iterators[index]!;
    try {
      const result = await iterator.next();
      heads[index] = result.done
        ? undefined
        : { item: result.value, key: timeKey(timeOf(result.value)) };
      open[index] = !result.done;
    } catch (error) {
      open[index] = false; // a stream that threw is finished
      throw error;
    }
  };
  try {
    for (let index = 0; index < iterators.length; index++) await advance(index);
    for (let index = pick(heads); index !== -1; index = pick(heads)) {
      yield { stream: index, item: heads[index]!.item };
      await advance(index);
    }
  } finally {
    await closeAll(iterators, open);
  }
}

function pick<T>(heads: readonly (Head<T> | undefined)[]): number {
  let best = -1;
  for (const [index, head] of heads.entries()) {
    if (head === undefined) continue;
    if (head.key === undefined) return index;
    const bestKey = heads[best]?.key;
    if (bestKey === undefined || compareKeys(head.key, bestKey) < 0) best = index;
  }
  return best;
}

async function closeAll<T>(
  iterators: readonly AsyncIterator<T>[],
  open: readonly boolean[],
): Promise<void> {
  for (const [index, iterator] of iterators.entries()) {
    if (!open[index]) continue;
    try {
      await iterator.return?.();
    } catch {
      // Closing is cleanup: an error here must not hide the one that ended the merge.
    }
  }
}

export function compareKeys(a: TimeKey, b: TimeKey): number {
  if (a.seconds !== b.seconds) return a.seconds < b.seconds ? -1 : 1;
  return a.fraction < b.fraction ? -1 : a.fraction > b.fraction ? 1 : 0;
}

const FRACTION_DIGITS = 12;
const RFC_3339 = /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}:\d{2}:\d{2})(?:\.(\d+))?([Zz]|[+-]\d{2}:\d{2})$/;

/** An RFC 3339 timestamp as a key; undefined for anything else. */
export function timeKey(value: unknown): TimeKey | undefined {
  if (typeof value !== "string") return undefined;
  if (isPlainUtc(value)) return plainUtcKey(value);
  const match = RFC_3339.exec(value);
  if (match === null) return undefined;
  const [, date, time, fraction = "", zone = "Z"] = match;
  // Date.parse reads whole seconds exactly; the fraction is compared as digits
  // because a double would round microseconds and nanoseconds away.
  const ms = Date.parse(`${date}T${time}${zone.toUpperCase()}`);
  if (Number.isNaN(ms)) return undefined;
  const digits = fraction.slice(0, FRACTION_DIGITS).padEnd(FRACTION_DIGITS, "0");
  return { seconds: ms / 1000, fraction: digits };
}

/** Whether `value` is `YYYY-MM-DDTHH:MM:SS[.digits]Z` (upper case), the form the API sends. */
function isPlainUtc(value: string): boolean {
  const length = value.length;
  if (length < 20 || value.charCodeAt(length - 1) !== 0x5a) return false;
  for (let at = 0; at < 19; at++) {
    const code = value.charCodeAt(at);
    const separator = at === 4 || at === 7
      ? 0x2d
      : at === 10
      ? 0x54
      : at === 13 || at === 16
      ? 0x3a
      : 0;
    if (separator !== 0 ? code !== separator : code < 0x30 || code > 0x39) return false;
  }
  if (length === 20) return true;
  if (length === 21 || value.charCodeAt(19) !== 0x2e) return false;
  for (let at = 20; at < length - 1; at++) {
    const code = value.charCodeAt(at);
    if (code < 0x30 || code > 0x39) return false;
  }
  return true;
}

/**
 * The last whole second read by {@linkcode plainUtcKey}, and its `Date.parse`:
 * the events of a session come many a second, so most share it.
 */
let lastSecond = "";
let lastMs = Number.NaN;

/** {@linkcode timeKey} of a {@linkcode isPlainUtc} value, the same key without the pattern. */
function plainUtcKey(value: string): TimeKey | undefined {
  if (lastSecond === "" || !value.startsWith(lastSecond)) {
    lastSecond = value.slice(0, 19);
    lastMs = Date.parse(`${lastSecond}Z`);
  }
  if (Number.isNaN(lastMs)) return undefined;
  const fraction = value.length === 20 ? "" : value.slice(20, value.length - 1);
  const digits = fraction.length === FRACTION_DIGITS
    ? fraction
    : fraction.slice(0, FRACTION_DIGITS).padEnd(FRACTION_DIGITS, "0");
  return { seconds: lastMs / 1000, fraction: digits };
}
