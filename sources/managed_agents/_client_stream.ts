// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// One stream of a session read through the caller's client (the SDK's
// `events.stream`, `threads.events.stream`): what fails to connect is told
// apart (a status trying again cannot fix ends the follow; anything else is a
// drop), and each event it gives is checked.

import { type ClientContext, clientError, clientShouldRetryHeader } from "./_client.ts";
import { ManagedAgentsError } from "./_error.ts";
import type { FollowedStream } from "./_follow.ts";
import { listsOf } from "./_lists.ts";
import { checkEvent, type Item } from "./_pages.ts";
import type { Resolved } from "./_resolve.ts";
import { shouldRetry } from "./_retry.ts";
import { streamTarget } from "./_targets.ts";

/**
 * The stream of `thread` (null: the session's own) through the caller's
 * client, every request of it given `signal`.
 */
export function clientStream(
  options: Resolved,
  base: ClientContext,
  thread: string | null,
  signal: AbortSignal,
): FollowedStream {
  const { sessionId } = options;
  const target = streamTarget(sessionId, thread);
  const ctx = { client: base.client, signal };
  const { client } = ctx;
  const lists = listsOf({ ...options, via: { client: ctx } });
  return {
    thread,
    target,
    list: (since, pages) =>
      thread === null ? lists.events(since) : lists.threadEvents(thread, pages),
    connect: async () => {
      const request = { signal };
      let opened: AsyncIterable<unknown>;
      try {
        opened = thread === null
          ? await client.events.stream!(sessionId, {}, request)
          : await client.threads.events.stream!(thread, { session_id: sessionId }, request);
      } catch (error) {
        signal.throwIfAborted();
        // A status that trying again cannot fix (a 404, a 401) ends the follow at once; any
        // other failure to connect is a drop, which followStream tries again within its retries.
        const status = (error as { status?: unknown } | null)?.status;
        const retry = typeof status === "number" &&
          shouldRetry(status, clientShouldRetryHeader(error));
        if (typeof status === "number" && status >= 400 && !retry) {
          throw clientError(target, error);
        }
        throw error instanceof Error ? error : new Error(String(error));
      }
      const iterator = opened[Symbol.asyncIterator]();
      return {
        // The client gives its events one at a time: each is a batch of its own.
        next: async (): Promise<IteratorResult<Item[]>> => {
          const next = await iterator.next();
          if (next.done) return { done: true, value: undefined };
          const problem = checkEvent(next.value, (value) => JSON.stringify(value.slice(0, 40)));
          if (problem !== undefined) {
            throw new ManagedAgentsError(
              `Cannot list ${target.what}: the client gave an event that is not valid: ` +
                problem,
              { code: "api", source: target.source },
            );
          }
          return { done: false, value: [next.value as Item] };
        },
        return: async (): Promise<IteratorResult<Item[]>> => {
          await iterator.return?.();
          return { done: true, value: undefined };
        },
      };
    },
  };
}
