// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// The listing: the stored events of the session (and in scope "all" of every
// child thread, merged by time) as log entries, then, with `follow`, what
// comes after them.

import { followed } from "./_followed.ts";
import { createdThread, SESSION_END_TYPES } from "./_follow.ts";
import { childThreadIds, listsOf } from "./_lists.ts";
import { mergeByTime } from "./_merge.ts";
import type { Item } from "./_pages.ts";
import { SeenEvents } from "./_seen.ts";
import type { Resolved } from "./_resolve.ts";
import type { LogEntry } from "../../events/types.ts";
import { asEvent } from "../../events/fields.ts";

/** The entries of one iteration of {@linkcode fromManagedAgents}, listed afresh. */
export async function* entries(options: Resolved): AsyncGenerator<LogEntry> {
  const { sessionId } = options;
  const lists = listsOf(options);
  const threads = options.scope === "all" ? await childThreadIds(lists) : [];
  const streams = [lists.events(), ...threads.map((id) => lists.threadEvents(id))];
  const seen = options.follow ? [null, ...threads].map(() => new SeenEvents()) : [];
  let ended = false;
  let seq = 0;
  for await (const { stream, item } of mergeByTime<Item>(streams, processedAt)) {
    // Checked here too so that an abort also stops the events of a page in hand.
    options.signal?.throwIfAborted();
    const thread = stream === 0 ? null : threads[stream - 1]!;
    if (options.follow) {
      if (seen[stream]!.listed(item)) continue;
      if (stream === 0) {
        ended ||= SESSION_END_TYPES.has(item.type as string);
        const created = createdThread(item);
        if (options.scope === "all" && created !== undefined && !threads.includes(created)) {
          // Created after the threads were listed: followed from its start.
          threads.push(created);
          seen.push(new SeenEvents());
        }
      }
    }
    yield { seq: ++seq, session_id: sessionId, thread_id: thread, event: asEvent(item) };
  }
  if (!options.follow || ended) return;
  yield* followed(options, [null, ...threads], seen, seq);
}

function processedAt(event: Item): unknown {
  return event.processed_at;
}
