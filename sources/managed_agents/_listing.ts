// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// The listing: the stored events of the session (and in scope "all" of every
// child thread, merged by time) as log entries, the tail listed again while
// the session's status is not yet shown (_settle.ts), then, with `follow`,
// what comes after them.

import { followed } from "./_followed.ts";
import { createdThread } from "./_follow.ts";
import { childThreadIds, listsOf } from "./_lists.ts";
import { mergeByTime } from "./_merge.ts";
import type { Item } from "./_pages.ts";
import type { Resolved } from "./_resolve.ts";
import { SeenEvents } from "./_seen.ts";
import { settle, Tail } from "./_settle.ts";
import { isRunning, SessionState } from "./_state.ts";
import type { LogEntry } from "../../events/types.ts";
import { asEvent } from "../../events/fields.ts";

/**
 * The entries of one iteration of {@linkcode fromManagedAgents}, listed
 * afresh: the listing's one at a time, the follow's a batch at a time.
 */
export async function* entries(options: Resolved): AsyncGenerator<LogEntry | LogEntry[]> {
  const { sessionId } = options;
  const lists = listsOf(options);
  const threads = options.scope === "all" ? await childThreadIds(lists) : [];
  const seen = options.follow ? [null, ...threads].map(() => new SeenEvents()) : [];
  // A follow's marks learn the cursor of each thread's pages, for its catch-ups.
  const streams = [
    lists.events(),
    ...threads.map((id, index) => lists.threadEvents(id, seen[index + 1]?.pages)),
  ];
  const state = new SessionState();
  const tail = new Tail();
  let seq = 0;
  /** Whether a listed event is yielded, taking it into account if so. */
  const take = (stream: number, item: Item): boolean => {
    if (options.follow && seen[stream]!.listed(item)) return false;
    if (stream !== 0) return true;
    state.observe(item);
    tail.observe(item);
    const created = createdThread(item);
    if (
      options.follow && options.scope === "all" && created !== undefined &&
      !threads.includes(created)
    ) {
      // Created after the threads were listed: followed from its start.
      threads.push(created);
      seen.push(new SeenEvents());
    }
    return true;
  };
  const entry = (stream: number, item: Item): LogEntry => {
    const thread = stream === 0 ? null : threads[stream - 1]!;
    return { seq: ++seq, session_id: sessionId, thread_id: thread, event: asEvent(item) };
  };
  for await (const { stream, item } of mergeByTime<Item>(streams, processedAt)) {
    // Checked here too so that an abort also stops the events of a page in hand.
    options.signal?.throwIfAborted();
    if (take(stream, item)) yield entry(stream, item);
  }
  const settling = settle(options, lists, state, tail);
  let next: IteratorResult<Item, unknown>;
  while (!(next = await settling.next()).done) {
    options.signal?.throwIfAborted();
    if (take(0, next.value)) yield entry(0, next.value);
  }
  if (!options.follow || state.ended) return;
  // A turn that has ended ends a follow to "idle", unless the session is at work again.
  if (options.stopAt === "idle" && state.turnEnded && !isRunning(next.value)) return;
  // A batch at a time: the caller (flattened()) gives its entries one by one, checking the signal.
  yield* followed(options, [null, ...threads], seen, seq);
}

function processedAt(event: Item): unknown {
  return event.processed_at;
}
