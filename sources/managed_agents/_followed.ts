// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// The follow after the listing: every stream of the session raced, threads
// created while it runs followed too, `seq` going on, until the session ends
// (or, with `stopAt: "idle"`, its turn does) or the caller aborts.

import { clientStream } from "./_client_stream.ts";
import { MANAGED_AGENTS_DEFAULTS } from "./_defaults.ts";
import { ManagedAgentsError } from "./_error.ts";
import {
  createdThread,
  type FollowContext,
  type FollowedStream,
  followStream,
  raceStreams,
} from "./_follow.ts";
import { listError } from "./_http.ts";
import { httpStream } from "./_http_stream.ts";
import type { Item } from "./_pages.ts";
import { SeenEvents } from "./_seen.ts";
import { endsSession, endsTurn } from "./_state.ts";
import type { Resolved } from "./_resolve.ts";
import type { LogEntry } from "../../events/types.ts";
import { asEvent } from "../../events/fields.ts";

/**
 * The events that come after the listing, from the streams of `threads`
 * (null: the session's own), each remembering what `seen` holds; `seq`
 * continues from the listing's last. They come a batch at a time (what one
 * read of a stream brought), cut after the event that ends the follow; the
 * caller checks its signal before each.
 */
export async function* followed(
  options: Resolved,
  threads: (string | null)[],
  seen: SeenEvents[],
  seq: number,
): AsyncGenerator<LogEntry[]> {
  const { sessionId } = options;
  const done = new AbortController();
  const signal = options.signal === undefined
    ? done.signal
    : AbortSignal.any([options.signal, done.signal]);
  const ctx = followContext(options, signal);
  const follow = (thread: string | null, index: number): [string | null, AsyncIterator<Item[]>] => [
    thread,
    followStream(streamOf(options, thread, signal), seen[index]!, ctx),
  ];
  const known = new Set(threads);
  const added: [string | null, AsyncIterator<Item[]>][] = [];
  const race = raceStreams<string | null>(
    threads.map(follow),
    { take: () => added.splice(0) },
    () => done.abort(new DOMException("The follow is over", "AbortError")),
  );
  for await (const { key: thread, items } of race) {
    options.signal?.throwIfAborted();
    const entries: LogEntry[] = [];
    let over = false;
    for (const item of items) {
      entries.push({ seq: ++seq, session_id: sessionId, thread_id: thread, event: asEvent(item) });
      if (thread !== null) continue;
      if (endsSession(item.type)) over = true;
      else if (options.stopAt === "idle" && endsTurn(item)) over = true;
      if (over) break;
      const created = createdThread(item);
      if (options.scope === "all" && created !== undefined && !known.has(created)) {
        known.add(created);
        seen.push(new SeenEvents());
        added.push(follow(created, seen.length - 1));
      }
    }
    yield entries;
    if (over) return;
  }
}

/** One stream of the session (null: the session's own), through either client. */
function streamOf(options: Resolved, thread: string | null, signal: AbortSignal): FollowedStream {
  const { sessionId, pageSize, via } = options;
  return "http" in via
    ? httpStream(via.http, sessionId, pageSize, thread, signal)
    : clientStream(options, via.client, thread, signal);
}

/** How the follow retries and fails, with the built-in client's settings or the defaults. */
function followContext(options: Resolved, signal: AbortSignal): FollowContext {
  const { via } = options;
  return "http" in via
    ? {
      maxRetries: via.http.maxRetries,
      retryBaseDelayMs: via.http.retryBaseDelayMs,
      signal,
      dropped: (target, times, cause) =>
        listError(
          { ...via.http, signal },
          target,
          `the stream dropped ${times} times in a row without a new event` +
            (cause instanceof Error ? `: ${cause.message}` : ""),
        ),
    }
    : {
      maxRetries: MANAGED_AGENTS_DEFAULTS.maxRetries,
      retryBaseDelayMs: MANAGED_AGENTS_DEFAULTS.retryBaseDelayMs,
      signal,
      dropped: (target, times) =>
        new ManagedAgentsError(
          `Cannot list ${target.what}: the stream dropped ${times} times in a row ` +
            "without a new event",
          { code: "api", source: target.source },
        ),
    };
}
