// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// The three lists a session is read from, and the session itself, through the
// built-in client or the caller's, in the one shape the listing and the
// follow consume.

import { clientError, clientItems, type ManagedAgentsRequestOptions } from "./_client.ts";
import { getJson } from "./_http.ts";
import { clientPages } from "./_client_pages.ts";
import {
  checkEvent,
  checkThread,
  type Item,
  listFromMark,
  listItems,
  type PageMark,
} from "./_pages.ts";
import type { Resolved } from "./_resolve.ts";
import { eventsTarget, sessionTarget, threadEventsTarget, threadsTarget } from "./_targets.ts";

/** The three lists a listing reads, and the session, through either client. */
export interface Lists {
  /**
   * The session's events; with `since` (an RFC 3339 time), only those
   * processed at or after it (`created_at[gte]`).
   */
  events(since?: string): AsyncIterable<Item>;
  threads(): AsyncIterable<Item>;
  /**
   * A thread's events; with `mark`, from the cursor it holds (falling back
   * to the whole list if the API refuses it), the mark moved page by page
   * (through a caller's client, when its list is also a promise of the first
   * page, as the SDK's is).
   */
  threadEvents(threadId: string, mark?: PageMark): AsyncIterable<Item>;
  /**
   * The session resource (`GET /v1/sessions/{id}`), as the API sent it;
   * undefined when the caller's client has no `retrieve`.
   */
  session(): Promise<unknown>;
}

/** The query of a list of the session's events processed at or after `since`. */
function sinceFilter(since: string | undefined): Record<string, string> {
  return since === undefined ? {} : { "created_at[gte]": since };
}

/** The lists of a session, through the built-in client or the caller's. */
export function listsOf(options: Resolved): Lists {
  const { sessionId, pageSize, via } = options;
  if ("http" in via) {
    const { http } = via;
    return {
      events: (since) =>
        listItems(http, eventsTarget(sessionId), pageSize, checkEvent, sinceFilter(since)),
      threads: () => listItems(http, threadsTarget(sessionId), pageSize, checkThread),
      threadEvents: (id, mark) => {
        const target = threadEventsTarget(sessionId, id);
        if (mark === undefined) return listItems(http, target, pageSize, checkEvent);
        return listFromMark(
          mark,
          (cursor) => listItems(http, target, pageSize, checkEvent, {}, { cursor, mark }),
        );
      },
      session: async () =>
        (await getJson(http, sessionTarget(sessionId), new URLSearchParams())).body,
    };
  }
  const ctx = via.client;
  const { client } = ctx;
  return {
    events: (since) =>
      clientItems(
        ctx,
        eventsTarget(sessionId),
        (request) =>
          client.events.list(sessionId, { limit: pageSize, ...sinceFilter(since) }, request),
        checkEvent,
      ),
    threads: () =>
      clientItems(
        ctx,
        threadsTarget(sessionId),
        (request) => client.threads.list(sessionId, { limit: pageSize }, request),
        checkThread,
      ),
    threadEvents: (id, mark) => {
      const target = threadEventsTarget(sessionId, id);
      const list = (cursor: string | null, request: ManagedAgentsRequestOptions) =>
        client.threads.events.list(
          id,
          { session_id: sessionId, limit: pageSize, ...(cursor === null ? {} : { page: cursor }) },
          request,
        );
      if (mark === undefined) {
        return clientItems(ctx, target, (request) => list(null, request), checkEvent);
      }
      return listFromMark(mark, (cursor) => clientPages(ctx, target, list, { cursor, mark }));
    },
    session: async () => {
      if (typeof client.retrieve !== "function") return undefined;
      try {
        const request = ctx.signal === undefined ? {} : { signal: ctx.signal };
        return await client.retrieve(sessionId, {}, request);
      } catch (error) {
        ctx.signal?.throwIfAborted();
        throw clientError(sessionTarget(sessionId), error);
      }
    },
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
