// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// A session listed whole. The events list lags the stream by a second or two,
// so a session read just after it went idle can list without its last reply.
// When the listing ends, the session is read for its status; while the events
// listed do not show that status yet, the tail (what came after the last event
// seen) is listed again, a bounded number of times.

import type { Lists } from "./_lists.ts";
import { compareKeys, type TimeKey, timeKey } from "./_merge.ts";
import type { Item } from "./_pages.ts";
import type { Resolved } from "./_resolve.ts";
import { sleep } from "./_retry.ts";
import { FOLLOW_MEMORY } from "./_seen.ts";
import { impliedStatusEvent, type SessionState } from "./_state.ts";

/**
 * Where the primary thread's listing got to: the newest `processed_at` seen
 * (as sent, to list from), the ids of the events stamped with it or listed
 * after it (at most {@linkcode FOLLOW_MEMORY}: they come again in a list from
 * that time), and how many events were listed (to skip when none had a time).
 */
export class Tail {
  #latest: { key: TimeKey; text: string } | undefined;
  #ids = new Set<string>();
  #count = 0;

  /** Takes one listed event of the primary thread into account. */
  observe(item: Item): void {
    this.#count++;
    const key = timeKey(item.processed_at);
    if (
      key !== undefined && (this.#latest === undefined || compareKeys(key, this.#latest.key) > 0)
    ) {
      this.#latest = { key, text: item.processed_at as string };
      this.#ids.clear();
    }
    if (typeof item.id === "string" && this.#ids.size < FOLLOW_MEMORY) this.#ids.add(item.id);
  }

  /** What the primary thread lists after the events observed; the caller observes each. */
  async *after(lists: Lists): AsyncGenerator<Item> {
    const latest = this.#latest;
    if (latest === undefined) {
      // No time to list from: the list again, past the events already listed (it only grows).
      let skip = this.#count;
      for await (const item of lists.events()) {
        if (skip > 0) skip--;
        else yield item;
      }
      return;
    }
    const ids = new Set(this.#ids);
    // The API keeps only what was processed since; what else a client or proxy that ignores
    // the filter sends is dropped here too: anything older, and an event with no time before
    // the first one of the tail.
    let inTail = false;
    for await (const item of lists.events(latest.text)) {
      const key = timeKey(item.processed_at);
      if (key !== undefined) inTail = compareKeys(key, latest.key) >= 0;
      if (!inTail) continue;
      if (typeof item.id === "string" && ids.has(item.id)) continue;
      yield item;
    }
  }
}

/**
 * Whether a listing that has ended reads the session's status: not when
 * `settleTries` is 0; not when it holds no status event (a session that never
 * ran, or a log made by hand); not when it ends on a termination (nothing
 * follows) or on an idle with nothing after it (the session was listed whole
 * when it idled), unless a follow that ends at an idle must know whether the
 * session is at work again.
 */
function readsStatus(options: Resolved, state: SessionState): boolean {
  if (options.settleTries === 0 || !state.sawStatus || state.ended) return false;
  if (!state.shows("session.status_idle")) return true;
  return options.follow && options.stopAt === "idle";
}

/**
 * The events that complete a listing that has ended: when it reads the
 * session's status (see {@linkcode readsStatus}) and the state of what was
 * listed does not show it, the tail is listed again after `settleDelayMs`,
 * at most `settleTries` times, until it does. The caller observes each event
 * yielded (into `state` and `tail`). Returns the session resource as read
 * (undefined when it was not, or the client cannot read it).
 */
export async function* settle(
  options: Resolved,
  lists: Lists,
  state: SessionState,
  tail: Tail,
): AsyncGenerator<Item, unknown> {
  if (!readsStatus(options, state)) return undefined;
  const session = await lists.session();
  const implied = impliedStatusEvent(session);
  if (implied === undefined) return session;
  for (let tries = 0; tries < options.settleTries && !state.shows(implied); tries++) {
    await sleep(options.settleDelayMs, options.signal);
    yield* tail.after(lists);
  }
  return session;
}
