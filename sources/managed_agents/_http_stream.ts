// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// One stream of a session read through the built-in client: connected with the
// listing's retries and deadline, its server-sent events checked and turned
// into items, its stored events listed for the catch-up.

import type { FollowedStream } from "./_follow.ts";
import { isPreview } from "./_follow.ts";
import {
  type HttpContext,
  listError,
  type ListTarget,
  openStream,
  quote,
  requestIdOf,
} from "./_http.ts";
import { checkEvent, type Item, listFromMark, listItems } from "./_pages.ts";
import { sseBatches, SseFailure, type SseMessage } from "./_sse.ts";
import { eventsTarget, streamTarget, threadEventsTarget } from "./_targets.ts";

/**
 * The stream of `thread` (null: the session's own) through the built-in
 * client, every request of it stopped by `signal`.
 */
export function httpStream(
  base: HttpContext,
  sessionId: string,
  pageSize: number,
  thread: string | null,
  signal: AbortSignal,
): FollowedStream {
  const http: HttpContext = { ...base, signal };
  const target = streamTarget(sessionId, thread);
  const listTarget = thread === null
    ? eventsTarget(sessionId)
    : threadEventsTarget(sessionId, thread);
  return {
    thread,
    target,
    // Only the primary thread's list takes a time (`created_at[gte]`); a thread's goes on from
    // the last page listed.
    list: (since, mark) =>
      thread === null
        ? listItems(
          http,
          listTarget,
          pageSize,
          checkEvent,
          since === undefined ? {} : { "created_at[gte]": since },
        )
        : listFromMark(
          mark,
          (cursor) => listItems(http, listTarget, pageSize, checkEvent, {}, { cursor, mark }),
        ),
    connect: async () => {
      const response = await openStream(http, target, new URLSearchParams());
      return streamItems(http, target, response);
    },
  };
}

/**
 * The events of an open stream of the built-in client, a batch for each read
 * of the connection that completes any. A message that fails (an `error`
 * event, one that is not JSON or not an event) ends the stream after the
 * events before it are given.
 */
function streamItems(
  http: HttpContext,
  target: ListTarget,
  response: Response,
): AsyncIterator<Item[]> {
  const body = response.body ?? new ReadableStream<Uint8Array>({ start: (c) => c.close() });
  const batches = sseBatches(body, {
    idleMs: http.timeoutMs,
    maxMessageBytes: http.maxPageBytes,
    ...(http.signal === undefined ? {} : { signal: http.signal }),
  });
  // Each failure of the stream names the answer that opened it.
  const requestId = requestIdOf(response);
  let started = false;
  // A failure met in a batch, thrown once the events before it were taken.
  let failed: { error: unknown } | undefined;
  return {
    next: async (): Promise<IteratorResult<Item[]>> => {
      started = true;
      for (;;) {
        if (failed !== undefined) throw failed.error;
        let next: IteratorResult<SseMessage[]>;
        try {
          next = await batches.next();
        } catch (error) {
          if (error instanceof SseFailure && error.kind === "too_large") {
            throw listError(http, target, error.message, { requestId });
          }
          throw error;
        }
        if (next.done) return { done: true, value: undefined };
        const items: Item[] = [];
        try {
          for (const message of next.value) {
            const item = itemOf(http, target, requestId, message);
            if (item !== undefined) items.push(item);
          }
        } catch (error) {
          failed = { error };
        }
        if (items.length > 0) return { done: false, value: items };
      }
    },
    return: async (): Promise<IteratorResult<Item[]>> => {
      await batches.return(undefined);
      if (!started) await body.cancel().catch(() => {});
      return { done: true, value: undefined };
    },
  };
}

/** The event of one message; undefined for a ping or a preview; throws for a failure. */
function itemOf(
  http: HttpContext,
  target: ListTarget,
  requestId: string | undefined,
  message: SseMessage,
): Item | undefined {
  const { event, data } = message;
  if (event === "ping") return undefined;
  if (event === "error") throw new Error(`the stream sent an error: ${data.slice(0, 300)}`);
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    throw listError(
      http,
      target,
      `the API sent a stream message that is not JSON: ` + quote(http, data),
      { requestId },
    );
  }
  const problem = checkEvent(value, (text) => quote(http, text));
  if (problem !== undefined) {
    const detail = `the API sent a stream message that ${problem}`;
    throw listError(http, target, detail, { requestId });
  }
  const item = value as Item;
  return isPreview(item.type) ? undefined : item;
}
