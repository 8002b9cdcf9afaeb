// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// Following a session: after the stored events, each stream (the session's,
// and in scope "all" each thread's) is connected, caught up by listing what
// was stored since (the seam), then read as it arrives; a dropped stream is
// connected again and caught up again. Each event is yielded once, by id,
// within a bounded memory of ids per stream (_seen.ts).

import { ManagedAgentsError } from "./_error.ts";
import type { ListTarget } from "./_http.ts";
import { backoffDelay, sleep } from "./_retry.ts";
import { isDotSegment, type Item, type PageMark } from "./_pages.ts";
import type { SeenEvents } from "./_seen.ts";
import { SseFailure } from "./_sse.ts";

/**
 * Whether `type` is one a stream sends of previews, never stored
 * (`event_start`, `event_delta`): they are skipped. Compared, not looked up
 * in a `Set`: a type fresh from `JSON.parse` has no hash yet, and computing
 * it costs more than the two comparisons (which its length mostly settles).
 */
export function isPreview(type: unknown): boolean {
  return type === "event_start" || type === "event_delta";
}

/** The id of the thread a `session.thread_created` event names, if it is one. */
export function createdThread(item: Item): string | undefined {
  if (item.type !== "session.thread_created") return undefined;
  const id = item.session_thread_id;
  return typeof id === "string" && id !== "" && !isDotSegment(id) ? id : undefined;
}

/** One stream of a session, as the follower reads it. */
export interface FollowedStream {
  /** The thread whose stream it is; null for the session's (the primary thread). */
  thread: string | null;
  /**
   * The stored events, listed afresh (the catch-up after each connection):
   * with `since`, where the API takes it (the primary thread's list), only
   * those processed at or after it (`created_at[gte]`); where it takes none
   * (a child thread's), from the page `pages` holds, the mark moved on.
   */
  list(since: string | undefined, pages: PageMark): AsyncIterable<Item>;
  /**
   * Connects (with the listing's retries and deadline), resolving once the
   * stream is open; the iterator yields its events a batch at a time (those
   * one read of the connection completed, never empty), ends when the stream
   * ends, and throws on a failure that may pass (a drop) or one that will not
   * ({@linkcode ManagedAgentsError}).
   */
  connect(): Promise<AsyncIterator<Item[]>>;
  /** Names the stream in errors. */
  target: ListTarget;
}

/** How the follower retries and stops. */
export interface FollowContext {
  maxRetries: number;
  retryBaseDelayMs: number;
  /** Aborts when the caller aborts or the follow is over. */
  signal: AbortSignal;
  /** Makes the error that ends the follow of a stream that keeps failing. */
  dropped(target: ListTarget, times: number, cause: unknown): ManagedAgentsError;
}

/**
 * The new events of one stream, forever (until the session ends or the
 * signal aborts), a batch at a time: connect, catch up (listing from where
 * the memory of `seen` starts, {@linkcode SeenEvents.since}, or for a child
 * thread from its last page, {@linkcode SeenEvents.pages}), read, and again
 * after a drop. A stream
 * that drops {@linkcode FollowContext.maxRetries} + 1 times in a row without
 * a new event ends with an error; a stream that was only quiet for the
 * deadline is connected again at once and counts as no drop.
 */
export async function* followStream(
  stream: FollowedStream,
  seen: SeenEvents,
  ctx: FollowContext,
): AsyncGenerator<Item[]> {
  let drops = 0;
  for (;;) {
    ctx.signal.throwIfAborted();
    let connection: AsyncIterator<Item[]> | undefined;
    let fresh = false;
    try {
      connection = await stream.connect();
      for await (const item of stream.list(seen.since(), seen.pages)) {
        if (seen.listed(item)) continue;
        fresh = true;
        yield [item];
      }
      for (;;) {
        const next = await connection.next();
        if (next.done) break;
        const batch = unseen(next.value, seen);
        if (batch.length === 0) continue;
        fresh = true;
        drops = 0;
        yield batch;
      }
      if (fresh) drops = 0;
      else drops++;
      if (drops > ctx.maxRetries) throw ctx.dropped(stream.target, drops, undefined);
    } catch (error) {
      if (ctx.signal.aborted) throw ctx.signal.reason;
      if (error instanceof ManagedAgentsError) throw error;
      // A quiet session is no failure: connect again at once, catching up as always.
      if (error instanceof SseFailure && error.kind === "idle") continue;
      drops = fresh ? 1 : drops + 1;
      if (drops > ctx.maxRetries) throw ctx.dropped(stream.target, drops, error);
    } finally {
      await connection?.return?.().catch(() => {});
    }
    await sleep(backoffDelay(Math.max(0, drops - 1), ctx.retryBaseDelayMs), ctx.signal);
  }
}

/**
 * The events of `batch` (the follow's own array, kept in place) that are
 * neither previews nor seen. On the open stream only the id tells: its time
 * may be out of order.
 */
function unseen(batch: Item[], seen: SeenEvents): Item[] {
  let kept = 0;
  for (const item of batch) {
    if (isPreview(item.type)) continue;
    if (seen.streamed(item)) continue;
    batch[kept++] = item;
  }
  batch.length = kept;
  return batch;
}

/** One result of {@linkcode raceStreams}: a batch of items and the stream's key. */
export interface Raced<K> {
  key: K;
  items: Item[];
}

/**
 * Yields the batches of several streams as they come, pulling each stream only
 * after its last batch was taken (so at most one batch a stream is held), with
 * streams added while it runs through `add`. Ends when every stream has
 * ended; throws the first failure. The streams are closed by the caller
 * (aborting their signal).
 */
export async function* raceStreams<K>(
  initial: Iterable<[K, AsyncIterator<Item[]>]>,
  added: { take(): [K, AsyncIterator<Item[]>][] },
  stop: () => void,
): AsyncGenerator<Raced<K>> {
  type Pending = Promise<{ slot: number; result: IteratorResult<Item[]> }>;
  const slots: { key: K; iterator: AsyncIterator<Item[]>; pending: Pending | undefined }[] = [];
  const start = (slot: number): void => {
    const entry = slots[slot]!;
    entry.pending = entry.iterator.next().then((result) => ({ slot, result }));
    // A stream that fails while another's item is being used is reported at the next race.
    entry.pending.catch(() => {});
  };
  const addAll = (list: Iterable<[K, AsyncIterator<Item[]>]>): void => {
    for (const [key, iterator] of list) {
      slots.push({ key, iterator, pending: undefined });
      start(slots.length - 1);
    }
  };
  const live = (): Pending[] =>
    slots.flatMap((slot) => slot.pending === undefined ? [] : [slot.pending]);
  try {
    addAll(initial);
    for (;;) {
      addAll(added.take());
      const racing = live();
      if (racing.length === 0) return;
      const { slot, result } = await Promise.race(racing);
      const entry = slots[slot]!;
      if (result.done) {
        entry.pending = undefined;
        continue;
      }
      entry.pending = undefined;
      yield { key: entry.key, items: result.value };
      start(slot);
    }
  } finally {
    // Every stream stops reading (its connection closes) before this ends,
    // so that nothing is left running after the follow.
    stop();
    await Promise.allSettled(live());
    await Promise.allSettled(slots.map((slot) => slot.iterator.return?.()));
  }
}
