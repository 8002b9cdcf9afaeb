// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// The three lists a session is read from, through the built-in client or the
// caller's, in the one shape the listing and the follow consume.

import { clientItems } from "./_client.ts";
import { checkEvent, checkThread, type Item, listItems } from "./_pages.ts";
import type { Resolved } from "./_resolve.ts";
import { eventsTarget, threadEventsTarget, threadsTarget } from "./_targets.ts";

/** The three lists a listing reads, through either client. */
export interface Lists {
  events(): AsyncIterable<Item>;
  threads(): AsyncIterable<Item>;
  threadEvents(threadId: string): AsyncIterable<Item>;
}

/** The lists of a session, through the built-in client or the caller's. */
export function listsOf(options: Resolved): Lists {
  const { sessionId, pageSize, via } = options;
  if ("http" in via) {
    const { http } = via;
    return {
      events: () => listItems(http, eventsTarget(sessionId), pageSize, checkEvent),
      threads: () => listItems(http, threadsTarget(sessionId), pageSize, checkThread),
      threadEvents: (id) =>
        listItems(http, threadEventsTarget(sessionId, id), pageSize, checkEvent),
    };
  }
  const ctx = via.client;
  const { client } = ctx;
  return {
    events: () =>
      clientItems(
        ctx,
        eventsTarget(sessionId),
        (request) => client.events.list(sessionId, { limit: pageSize }, request),
        checkEvent,
      ),
    threads: () =>
      clientItems(
        ctx,
        threadsTarget(sessionId),
        (request) => client.threads.list(sessionId, { limit: pageSize }, request),
        checkThread,
      ),
    threadEvents: (id) =>
      clientItems(
        ctx,
        threadEventsTarget(sessionId, id),
        (request) =>
          client.threads.events.list(id, { session_id: sessionId, limit: pageSize }, request),
        checkEvent,
      ),
  };
}

/** The ids of the child threads, in the API's order, without repeats. */
export async function childThreadIds(lists: Lists): Promise<string[]> {
  const ids = new Set<string>();
  for await (const thread of lists.threads()) {
    // The primary thread has no parent; its events are the session's list.
    if (thread.parent_thread_id === null || thread.parent_thread_id === undefined) continue;
    ids.add(thread.id as string);
  }
  return [...ids];
}
