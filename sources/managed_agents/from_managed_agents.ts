// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

import { ManagedAgentsError } from "./_error.ts";
import {
  type ClientContext,
  clientError,
  clientItems,
  type ManagedAgentsClient,
} from "./_client.ts";
import {
  API_VERSION,
  BETA,
  type HttpContext,
  isRetryable,
  listError,
  type ListTarget,
  openStream,
  quote,
} from "./_http.ts";
import { mergeByTime } from "./_merge.ts";
import { checkEvent, checkThread, isDotSegment, type Item, listItems } from "./_pages.ts";
import {
  type FollowContext,
  type FollowedStream,
  followStream,
  PREVIEW_TYPES,
  raceStreams,
  SeenEvents,
  SESSION_END_TYPES,
} from "./_follow.ts";
import { SseFailure, sseMessages } from "./_sse.ts";
import { keyScrubber } from "./_scrub.ts";
import type { LogEntry, Scope } from "../../events/types.ts";
import { asEvent } from "../../events/fields.ts";

export { ManagedAgentsError, type ManagedAgentsErrorOptions } from "./_error.ts";
export type { ManagedAgentsClient, ManagedAgentsRequestOptions } from "./_client.ts";

/**
 * The beta the Managed Agents sessions API belongs to, sent as the
 * `anthropic-beta` header.
 *
 * @example Usage
 * ```ts
 * import { MANAGED_AGENTS_BETA } from "@brigade/transcript";
 * import assert from "node:assert/strict";
 *
 * assert.equal(MANAGED_AGENTS_BETA, "managed-agents-2026-04-01");
 * ```
 */
export const MANAGED_AGENTS_BETA: "managed-agents-2026-04-01" = BETA;

/**
 * The Anthropic API version {@linkcode fromManagedAgents} calls by default,
 * sent as the `anthropic-version` header: the version the official TypeScript
 * SDK (`@anthropic-ai/sdk` 1.10.0) sends, whose types describe the events.
 * The `apiVersion` option picks another; it is
 * {@linkcode MANAGED_AGENTS_DEFAULTS}`.apiVersion` too.
 *
 * @example Usage
 * ```ts
 * import { ANTHROPIC_API_VERSION } from "@brigade/transcript";
 * import assert from "node:assert/strict";
 *
 * assert.equal(ANTHROPIC_API_VERSION, "2026-10-21");
 * ```
 */
export const ANTHROPIC_API_VERSION: "2026-10-21" = API_VERSION;

/**
 * What {@linkcode fromManagedAgents} uses for each of its
 * {@linkcode ManagedAgentsOptions} left out (or `undefined`): the API's base
 * URL, the API version, the page size, the scope, the retries and their
 * first wait, the deadline of an attempt, the cap on a page and whether to
 * follow the session as it runs. The source reads its defaults
 * from this one frozen object, and the `@default` of each option names its
 * field here.
 *
 * The two defaults that are not data are not here: `apiKey` is the
 * `ANTHROPIC_API_KEY` environment variable, read when `fromManagedAgents` is
 * called, and `fetch` is `globalThis.fetch`, looked up then too.
 *
 * @example Usage
 * ```ts
 * import { fromManagedAgents, MANAGED_AGENTS_DEFAULTS } from "@brigade/transcript";
 * import assert from "node:assert/strict";
 *
 * assert.equal(MANAGED_AGENTS_DEFAULTS.pageSize, 100);
 * assert.equal(MANAGED_AGENTS_DEFAULTS.maxPageBytes, 64 * 1024 * 1024);
 * assert.ok(Object.isFrozen(MANAGED_AGENTS_DEFAULTS));
 *
 * // Pass an option to override its default; the others keep theirs.
 * const urls: string[] = [];
 * const fetchPage: typeof fetch = (input) => {
 *   urls.push(String(input));
 *   return Promise.resolve(Response.json({ data: [], next_page: null }));
 * };
 * const source = fromManagedAgents({
 *   sessionId: "sesn_1",
 *   apiKey: "sk-x",
 *   fetch: fetchPage,
 *   pageSize: 500,
 * });
 * assert.deepEqual(await Array.fromAsync(source), []);
 * const { baseUrl } = MANAGED_AGENTS_DEFAULTS;
 * assert.deepEqual(urls, [`${baseUrl}/v1/sessions/sesn_1/events?limit=500`]);
 * ```
 */
export const MANAGED_AGENTS_DEFAULTS: Readonly<{
  baseUrl: string;
  apiVersion: string;
  pageSize: number;
  scope: Scope;
  maxRetries: number;
  retryBaseDelayMs: number;
  timeoutMs: number;
  maxPageBytes: number;
  follow: boolean;
}> = Object.freeze({
  baseUrl: "https://api.anthropic.com",
  apiVersion: API_VERSION,
  pageSize: 100,
  scope: "session",
  maxRetries: 5,
  retryBaseDelayMs: 500,
  timeoutMs: 60_000,
  maxPageBytes: 64 * 1024 * 1024,
  follow: false,
});

/**
 * Options for {@linkcode fromManagedAgents}.
 *
 * @example Usage
 * ```ts
 * import type { ManagedAgentsOptions } from "@brigade/transcript";
 * import assert from "node:assert/strict";
 *
 * const options: ManagedAgentsOptions = {
 *   sessionId: "sesn_011CZkZAtmR3yMPDzynEDxu7",
 *   scope: "all",
 *   pageSize: 500,
 * };
 * assert.equal(options.scope, "all");
 * ```
 */
export interface ManagedAgentsOptions {
  /** The session to list (`sesn_…`). Required, non-empty. */
  sessionId: string;
  /**
   * A client to list through instead of the built-in one: the official
   * TypeScript SDK's `client.beta.sessions` (`new Anthropic().beta.sessions`
   * from `@anthropic-ai/sdk`), or any object of that shape
   * ({@linkcode ManagedAgentsClient}). Its key, base URL, API version,
   * `fetch`, retries and timeouts are the client's own, so none of the
   * options that configure the built-in client (`apiKey`, `baseUrl`,
   * `apiVersion`, `fetch`, `maxRetries`, `retryBaseDelayMs`, `timeoutMs`,
   * `maxPageBytes`) may be given with it. The scopes, the thread expansion,
   * the merge by time and `pageSize` (sent as `limit`) are the same.
   *
   * @default {undefined}
   */
  client?: ManagedAgentsClient;
  /**
   * The API key, sent as `x-api-key`. It never appears in an error, its
   * `cause`, or anything else this function throws.
   *
   * Without it, the `ANTHROPIC_API_KEY` environment variable is read, once,
   * when `fromManagedAgents` is called (on runtimes without `Deno`, pass it).
   *
   * @default {Deno.env.get("ANTHROPIC_API_KEY")}
   */
  apiKey?: string;
  /**
   * The API's base URL; a path (a proxy's prefix) is kept, a trailing `/`
   * is not. It must be `https:`, or `http:` on a loopback host only
   * (`localhost`, `127.0.0.0/8`, `[::1]`: the key would cross any other
   * network in clear text), and not on a port the fetch standard blocks.
   *
   * @default {MANAGED_AGENTS_DEFAULTS.baseUrl}
   */
  baseUrl?: string;
  /**
   * The `anthropic-version` header sent with every request.
   *
   * @default {MANAGED_AGENTS_DEFAULTS.apiVersion}
   */
  apiVersion?: string;
  /**
   * The `fetch` to call, e.g. one that goes through a proxy, or a stand-in in
   * tests.
   *
   * @default {globalThis.fetch}
   */
  fetch?: typeof fetch;
  /**
   * The `limit` sent with every list request: events (or threads) a page. The
   * API may answer with fewer; paging follows `next_page` regardless.
   *
   * @default {MANAGED_AGENTS_DEFAULTS.pageSize}
   */
  pageSize?: number;
  /**
   * `"session"` lists the session's events (the primary thread: the
   * coordinator's view, which holds what children cross-posted to it), each
   * with `thread_id: null`. `"all"` also lists every child thread's events,
   * with `thread_id` set to the child's id, merged with the primary's by
   * `processed_at` (see {@linkcode fromManagedAgents}).
   *
   * @default {MANAGED_AGENTS_DEFAULTS.scope}
   */
  scope?: Scope;
  /**
   * Aborts the listing: an in-flight request and a wait between retries stop
   * at once, and the iteration rejects with the signal's reason.
   */
  signal?: AbortSignal;
  /**
   * How many times a request that got a 429, 500, 502, 503, 504 or 529, a
   * network error or no answer in time is tried again before the listing
   * fails. Any other status fails at once. With `follow`, it is also how many
   * times in a row a stream may drop with nothing new before the follow fails.
   *
   * @default {MANAGED_AGENTS_DEFAULTS.maxRetries}
   */
  maxRetries?: number;
  /**
   * The first wait of the exponential backoff between retries, in
   * milliseconds; it doubles each retry, is capped at 60 s and is shortened by
   * up to a quarter at random (jitter). A `retry-after-ms` or `retry-after`
   * header (seconds or an HTTP date) replaces it, capped at 60 s too. Lower
   * it only in tests.
   *
   * @default {MANAGED_AGENTS_DEFAULTS.retryBaseDelayMs}
   */
  retryBaseDelayMs?: number;
  /**
   * The deadline of each attempt at a request, in milliseconds: the headers,
   * any same-origin redirects and the whole body must arrive within it. A
   * request past it is cancelled and counts as a failure that may pass, so
   * it is retried within {@linkcode ManagedAgentsOptions.maxRetries}. A
   * server that never answers or trickles its body cannot hang the listing.
   * With `follow`, it is also the longest silence of a stream before it is
   * connected again (and caught up), which counts as no failure.
   *
   * @default {MANAGED_AGENTS_DEFAULTS.timeoutMs}
   */
  timeoutMs?: number;
  /**
   * The most bytes one page may have, counted decompressed as they arrive: a
   * page over it (a flood, a gzip bomb) stops the reading at once and fails
   * the listing, with no retry.
   *
   * @default {MANAGED_AGENTS_DEFAULTS.maxPageBytes}
   */
  maxPageBytes?: number;
  /**
   * Goes on after the stored events: reads the session's event stream
   * (`GET /v1/sessions/{id}/events/stream`, server-sent events) and, in scope
   * `"all"`, each thread's (`GET /v1/sessions/{id}/threads/{tid}/stream`),
   * threads created while following included, and yields each new event as
   * it arrives, until the session terminates (`session.status_terminated`
   * or `session.deleted`, which are yielded) or the signal aborts. See
   * {@linkcode fromManagedAgents}.
   *
   * @default {MANAGED_AGENTS_DEFAULTS.follow}
   */
  follow?: boolean;
}

/** The options with every default applied and every value checked. */
interface Resolved {
  sessionId: string;
  scope: Scope;
  follow: boolean;
  pageSize: number;
  signal: AbortSignal | undefined;
  /** The built-in client, or the caller's. */
  via: { http: HttpContext } | { client: ClientContext };
}

/** The three lists a listing reads, through either client. */
interface Lists {
  events(): AsyncIterable<Item>;
  threads(): AsyncIterable<Item>;
  threadEvents(threadId: string): AsyncIterable<Item>;
}

/**
 * Lists a Managed Agents session's events straight from Anthropic's API, as
 * log entries: `GET /v1/sessions/{id}/events`, paged with `limit` and `page`
 * and following `next_page` until it is null or absent (an empty page or an
 * empty cursor also ends a list, as in Anthropic's SDKs, so a live session
 * cannot page forever).
 *
 * With `scope: "all"` it first lists the session's threads
 * (`GET /v1/sessions/{id}/threads`), skips the primary thread (the one with no
 * parent: its events are the session's list, so they are not fetched twice),
 * and lists each child's events (`GET /v1/sessions/{id}/threads/{tid}/events`).
 * The streams are merged by `processed_at`, each stream's own order kept: a
 * head with a null (or unreadable) `processed_at` is emitted as soon as it is
 * the first unemitted event of its stream; otherwise the earliest head goes
 * first, and a tie goes to the primary, then to the children in the order the
 * API listed them. Cross-posted copies stay: the log is the truth.
 *
 * With `client` (the official SDK's `client.beta.sessions`, or any
 * {@linkcode ManagedAgentsClient}) the same lists are read through the
 * client, which pages, authenticates and retries as it is configured; the
 * scopes, the thread expansion and the merge are the same, and what the
 * client throws ends the iteration with a {@linkcode ManagedAgentsError}
 * (code `api`), its text redacted.
 *
 * With `follow: true` it goes on after the stored events, as a session runs:
 * it opens the session's event stream (`GET /v1/sessions/{id}/events/stream`,
 * server-sent events) and, in scope `"all"`, each child thread's
 * (`GET /v1/sessions/{id}/threads/{tid}/stream`), threads created while it
 * follows included (seen by their `session.thread_created` event). Once a
 * stream is open, what was stored since the listing is listed again and
 * what was already yielded skipped (the seam), then each new event is
 * yielded as it arrives, in the shape of a listing (`seq` goes on), each
 * once: by its id, every stream remembering its latest 4,096 ids and the
 * latest `processed_at` it saw. A stream that drops (it ends, fails, or
 * sends nothing within `timeoutMs`) is opened again with the listing's
 * back-off and caught up the same way; one that fails `maxRetries` + 1 times
 * in a row without a new event ends the iteration with a
 * {@linkcode ManagedAgentsError}, as a listing does. The follow ends after
 * the session's `session.status_terminated` or `session.deleted` event (a
 * session whose listing holds one opens no stream), or when the signal
 * aborts; either way every connection is closed. It reads a stream only when
 * the consumer asks for the next entry, so a slow consumer holds the
 * connection back rather than filling memory. Stream-only previews
 * (`event_start`, `event_delta`) are skipped: the stored event follows them.
 * With `client`, its `events.stream` (and in scope `"all"`
 * `threads.events.stream`) opens the streams; the client retries as it is
 * configured, and the drops are counted with this module's defaults.
 *
 * `seq` counts the emitted entries from 1. Nothing is fetched until the
 * iteration starts; each stream holds one page at a time; each iteration lists
 * the session afresh.
 *
 * Requests that get a 429, 500, 502, 503, 504 or 529, a network error or no
 * complete answer within {@linkcode ManagedAgentsOptions.timeoutMs} are
 * retried (see
 * {@linkcode ManagedAgentsOptions.retryBaseDelayMs}); any other failure ends
 * the iteration at once with a {@linkcode ManagedAgentsError} naming the
 * session and the HTTP status, never any piece of the key of 8 characters or
 * more. The source refuses, with no retry: a redirect to anything but an
 * `http(s)` URL of the same scheme, host and port (the key is never sent
 * there; at most 5 redirects within the origin are followed), a page over
 * {@linkcode ManagedAgentsOptions.maxPageBytes}, a `next_page` cursor sent
 * before in the same list (a cycle), a session or thread id `.` or `..`
 * (which a URL reads as a path step), and a missing network permission (the
 * message names the `--allow-net=HOST` to add).
 *
 * @param options The session, the key and how to reach the API.
 * @returns The session's log entries, in order.
 * @throws {ManagedAgentsError} At once (before any request) when an option is
 * invalid or there is no API key (code `invalid_option`); while iterating, with
 * code `api`, when the API fails as above.
 *
 * @example Usage
 * ```ts
 * import { fromManagedAgents } from "@brigade/transcript";
 * import assert from "node:assert/strict";
 *
 * // A stand-in for the API: one page of two events.
 * const events = [
 *   { id: "sevt_1", type: "user.message", processed_at: "2026-09-14T10:02:11Z", content: "Hi" },
 *   { id: "sevt_2", type: "agent.message", processed_at: "2026-09-14T10:02:15Z", content: "Yo" },
 * ];
 * const fetchPage: typeof fetch = (input) => {
 *   assert.equal(String(input), "https://api.anthropic.com/v1/sessions/sesn_1/events?limit=100");
 *   return Promise.resolve(Response.json({ data: events, next_page: null }));
 * };
 *
 * const seen = [];
 * const source = fromManagedAgents({ sessionId: "sesn_1", apiKey: "sk-x", fetch: fetchPage });
 * for await (const entry of source) seen.push([entry.seq, entry.thread_id, entry.event.type]);
 * assert.deepEqual(seen, [[1, null, "user.message"], [2, null, "agent.message"]]);
 * ```
 *
 * @example Every thread, merged by time
 * ```ts
 * import { fromManagedAgents } from "@brigade/transcript";
 * import assert from "node:assert/strict";
 *
 * const event = (id: string, at: string) => ({ id, type: "agent.message", processed_at: at });
 * const pages: Record<string, unknown[]> = {
 *   "/v1/sessions/sesn_1/threads": [
 *     { id: "sthr_primary", parent_thread_id: null, agent: { name: "Coordinator" } },
 *     { id: "sthr_child", parent_thread_id: "sthr_primary", agent: { name: "Reader" } },
 *   ],
 *   "/v1/sessions/sesn_1/events": [
 *     event("sevt_1", "2026-09-14T10:00:01Z"),
 *     event("sevt_3", "2026-09-14T10:00:03Z"),
 *   ],
 *   "/v1/sessions/sesn_1/threads/sthr_child/events": [
 *     event("sevt_2", "2026-09-14T10:00:02Z"),
 *   ],
 * };
 * const fetchPage: typeof fetch = (input) => {
 *   const data = pages[new URL(String(input)).pathname] ?? [];
 *   return Promise.resolve(Response.json({ data, next_page: null }));
 * };
 *
 * const seen = [];
 * const source = fromManagedAgents({
 *   sessionId: "sesn_1",
 *   apiKey: "sk-x",
 *   fetch: fetchPage,
 *   scope: "all",
 * });
 * for await (const entry of source) seen.push([entry.seq, entry.thread_id, entry.event.id]);
 * assert.deepEqual(seen, [
 *   [1, null, "sevt_1"],
 *   [2, "sthr_child", "sevt_2"],
 *   [3, null, "sevt_3"],
 * ]);
 * ```
 *
 * @example Following a running session
 * ```ts
 * import { fromManagedAgents } from "@brigade/transcript";
 * import assert from "node:assert/strict";
 *
 * // A stand-in for the API: one stored event, then a stream that sends the
 * // stored one again (skipped: it was seen), a new one and the end.
 * const stored = { id: "sevt_1", type: "user.message", processed_at: null, content: "Go" };
 * const later = [
 *   stored,
 *   { id: "sevt_2", type: "agent.message", processed_at: null, content: "Done" },
 *   { id: "sevt_3", type: "session.status_terminated", processed_at: null },
 * ];
 * const fetchApi: typeof fetch = (input) => {
 *   if (!new URL(String(input)).pathname.endsWith("/stream")) {
 *     return Promise.resolve(Response.json({ data: [stored], next_page: null }));
 *   }
 *   const sse = later.map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
 *   return Promise.resolve(new Response(sse.join("")));
 * };
 *
 * const source = fromManagedAgents({
 *   sessionId: "sesn_1",
 *   apiKey: "sk-x",
 *   fetch: fetchApi,
 *   follow: true,
 * });
 * const seen = [];
 * for await (const entry of source) seen.push([entry.seq, entry.event.id]);
 * assert.deepEqual(seen, [[1, "sevt_1"], [2, "sevt_2"], [3, "sevt_3"]]);
 * ```
 */
export function fromManagedAgents(options: ManagedAgentsOptions): AsyncIterable<LogEntry> {
  const resolved = resolve(options);
  return { [Symbol.asyncIterator]: () => entries(resolved) };
}

async function* entries(options: Resolved): AsyncGenerator<LogEntry> {
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
      if (seen[stream]!.check(item)) continue;
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

/** The id of the thread a `session.thread_created` event names, if it is one. */
function createdThread(item: Item): string | undefined {
  if (item.type !== "session.thread_created") return undefined;
  const id = item.session_thread_id;
  return typeof id === "string" && id !== "" && !isDotSegment(id) ? id : undefined;
}

/**
 * The events that come after the listing, from the streams of `threads`
 * (null: the session's own), each remembering what `seen` holds; `seq`
 * continues from the listing's last.
 */
async function* followed(
  options: Resolved,
  threads: (string | null)[],
  seen: SeenEvents[],
  seq: number,
): AsyncGenerator<LogEntry> {
  const { sessionId } = options;
  const done = new AbortController();
  const signal = options.signal === undefined
    ? done.signal
    : AbortSignal.any([options.signal, done.signal]);
  const { via } = options;
  const ctx: FollowContext = "http" in via
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
  const follow = (thread: string | null, index: number): [string | null, AsyncIterator<Item>] => [
    thread,
    followStream(streamOf(options, thread, signal), seen[index]!, ctx),
  ];
  const known = new Set(threads);
  const added: [string | null, AsyncIterator<Item>][] = [];
  const race = raceStreams<string | null>(
    threads.map(follow),
    { take: () => added.splice(0) },
    () => done.abort(new DOMException("The follow is over", "AbortError")),
  );
  for await (const { key: thread, item } of race) {
    options.signal?.throwIfAborted();
    yield { seq: ++seq, session_id: sessionId, thread_id: thread, event: asEvent(item) };
    if (thread !== null) continue;
    if (SESSION_END_TYPES.has(item.type as string)) return;
    const created = createdThread(item);
    if (options.scope === "all" && created !== undefined && !known.has(created)) {
      known.add(created);
      seen.push(new SeenEvents());
      added.push(follow(created, seen.length - 1));
    }
  }
}

/** One stream of the session (null: the session's own), through either client. */
function streamOf(options: Resolved, thread: string | null, signal: AbortSignal): FollowedStream {
  const { sessionId, pageSize, via } = options;
  const target = streamTarget(sessionId, thread);
  if ("http" in via) {
    const http: HttpContext = { ...via.http, signal };
    const listTarget = thread === null
      ? eventsTarget(sessionId)
      : threadEventsTarget(sessionId, thread);
    return {
      thread,
      target,
      list: () => listItems(http, listTarget, pageSize, checkEvent),
      connect: async () => {
        const response = await openStream(http, target, new URLSearchParams());
        return streamItems(http, target, response);
      },
    };
  }
  const ctx = { client: via.client.client, signal };
  const { client } = ctx;
  const lists = listsOf({ ...options, via: { client: ctx } });
  return {
    thread,
    target,
    list: () => thread === null ? lists.events() : lists.threadEvents(thread),
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
        if (typeof status === "number" && status >= 400 && !isRetryable(status)) {
          throw clientError(target, error);
        }
        throw error instanceof Error ? error : new Error(String(error));
      }
      const iterator = opened[Symbol.asyncIterator]();
      return {
        next: async (): Promise<IteratorResult<Item>> => {
          for (;;) {
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
            return { done: false, value: next.value as Item };
          }
        },
        return: async (): Promise<IteratorResult<Item>> => {
          await iterator.return?.();
          return { done: true, value: undefined };
        },
      };
    },
  };
}

/** The events of an open stream of the built-in client. */
function streamItems(
  http: HttpContext,
  target: ListTarget,
  response: Response,
): AsyncIterator<Item> {
  const body = response.body ?? new ReadableStream<Uint8Array>({ start: (c) => c.close() });
  const messages = sseMessages(body, {
    idleMs: http.timeoutMs,
    maxMessageBytes: http.maxPageBytes,
  });
  let started = false;
  return {
    next: async (): Promise<IteratorResult<Item>> => {
      started = true;
      for (;;) {
        let next: IteratorResult<{ event: string | null; data: string }>;
        try {
          next = await messages.next();
        } catch (error) {
          if (error instanceof SseFailure && error.kind === "too_large") {
            throw listError(http, target, error.message);
          }
          throw error;
        }
        if (next.done) return { done: true, value: undefined };
        const { event, data } = next.value;
        if (event === "ping") continue;
        if (event === "error") throw new Error(`the stream sent an error: ${data.slice(0, 300)}`);
        let value: unknown;
        try {
          value = JSON.parse(data);
        } catch {
          throw listError(
            http,
            target,
            `the API sent a stream message that is not JSON: ` +
              quote(http, data),
          );
        }
        const problem = checkEvent(value, (text) => quote(http, text));
        if (problem !== undefined) {
          throw listError(http, target, `the API sent a stream message that ${problem}`);
        }
        const item = value as Item;
        if (PREVIEW_TYPES.has(item.type as string)) continue;
        return { done: false, value: item };
      }
    },
    return: async (): Promise<IteratorResult<Item>> => {
      await messages.return(undefined);
      if (!started) await body.cancel().catch(() => {});
      return { done: true, value: undefined };
    },
  };
}

function processedAt(event: Item): unknown {
  return event.processed_at;
}

/** The lists of a session, through the built-in client or the caller's. */
function listsOf(options: Resolved): Lists {
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
async function childThreadIds(lists: Lists): Promise<string[]> {
  const ids = new Set<string>();
  for await (const thread of lists.threads()) {
    // The primary thread has no parent; its events are the session's list.
    if (thread.parent_thread_id === null || thread.parent_thread_id === undefined) continue;
    ids.add(thread.id as string);
  }
  return [...ids];
}

function sessionPath(sessionId: string): string {
  return `sessions/${encodeURIComponent(sessionId)}`;
}

function eventsTarget(sessionId: string): ListTarget {
  const source = `${sessionPath(sessionId)}/events`;
  return { path: `/v1/${source}`, source, what: `events of session "${sessionId}"` };
}

function threadsTarget(sessionId: string): ListTarget {
  const source = `${sessionPath(sessionId)}/threads`;
  return { path: `/v1/${source}`, source, what: `threads of session "${sessionId}"` };
}

function streamTarget(sessionId: string, threadId: string | null): ListTarget {
  if (threadId === null) {
    const source = `${sessionPath(sessionId)}/events/stream`;
    return { path: `/v1/${source}`, source, what: `events of session "${sessionId}" (streamed)` };
  }
  const source = `${sessionPath(sessionId)}/threads/${encodeURIComponent(threadId)}/stream`;
  const what = `events of thread "${threadId}" of session "${sessionId}" (streamed)`;
  return { path: `/v1/${source}`, source, what };
}

function threadEventsTarget(sessionId: string, threadId: string): ListTarget {
  const source = `${sessionPath(sessionId)}/threads/${encodeURIComponent(threadId)}/events`;
  const what = `events of thread "${threadId}" of session "${sessionId}"`;
  return { path: `/v1/${source}`, source, what };
}

/**
 * An error in the options, thrown before any request. Its source is the
 * session's events path once the session id is known to be valid.
 */
function optionError(reason: string, sessionId?: string): ManagedAgentsError {
  const source = sessionId === undefined ? "fromManagedAgents" : eventsTarget(sessionId).source;
  return new ManagedAgentsError(reason, { code: "invalid_option", source });
}

function resolve(options: ManagedAgentsOptions): Resolved {
  const { sessionId } = options;
  if (typeof sessionId !== "string" || sessionId === "") {
    const value = JSON.stringify(sessionId) ?? String(sessionId);
    throw optionError(
      `Cannot list a session as "sessionId" must be a non-empty string: current value is ${value}`,
    );
  }
  const cannot = (why: string): never => {
    throw optionError(`Cannot list session "${sessionId}" as ${why}`, sessionId);
  };
  const scope = options.scope ?? MANAGED_AGENTS_DEFAULTS.scope;
  if (scope !== "session" && scope !== "all") {
    cannot(`"scope" must be "session" or "all": current value is ${JSON.stringify(scope)}`);
  }
  if (isDotSegment(sessionId)) {
    // Encoding cannot help: a URL reads `%2E` as `.` too.
    cannot(`"sessionId" must not be "." or "..", which a URL reads as a step of the path`);
  }
  const pageSize = integerOption(options, "pageSize", 1, cannot);
  const follow = options.follow ?? MANAGED_AGENTS_DEFAULTS.follow;
  if (typeof follow !== "boolean") {
    cannot(`"follow" must be a boolean: current value is ${JSON.stringify(follow)}`);
  }
  if (options.client !== undefined) {
    return {
      sessionId,
      scope,
      follow,
      pageSize,
      signal: options.signal,
      via: { client: { client: clientOf(options, follow, cannot), signal: options.signal } },
    };
  }
  const apiKey = apiKeyOf(options.apiKey ?? envApiKey(cannot), cannot);
  return {
    sessionId,
    scope,
    follow,
    pageSize,
    signal: options.signal,
    via: {
      http: {
        apiKey,
        apiVersion: apiVersionOf(options.apiVersion, cannot),
        scrub: keyScrubber(apiKey),
        baseUrl: baseUrlOf(options.baseUrl ?? MANAGED_AGENTS_DEFAULTS.baseUrl, cannot),
        fetch: options.fetch ?? globalThis.fetch,
        signal: options.signal,
        maxRetries: integerOption(options, "maxRetries", 0, cannot),
        retryBaseDelayMs: delayOption(options.retryBaseDelayMs, cannot),
        timeoutMs: integerOption(options, "timeoutMs", 1, cannot),
        maxPageBytes: integerOption(options, "maxPageBytes", 1, cannot),
      },
    },
  };
}

/** The options that configure the built-in client, which a caller's client configures itself. */
const BUILT_IN_CLIENT_OPTIONS = [
  "apiKey",
  "baseUrl",
  "apiVersion",
  "fetch",
  "maxRetries",
  "retryBaseDelayMs",
  "timeoutMs",
  "maxPageBytes",
] as const;

/** The caller's client, once its shape and the options around it are checked. */
function clientOf(
  options: ManagedAgentsOptions,
  follow: boolean,
  cannot: Cannot,
): ManagedAgentsClient {
  const given = BUILT_IN_CLIENT_OPTIONS.filter((name) => options[name] !== undefined);
  if (given.length > 0) {
    cannot(
      `"client" comes with ${given.map((name) => `"${name}"`).join(", ")}, which configure ` +
        "the built-in client: configure the client you pass instead",
    );
  }
  const client = options.client as unknown as Record<string, unknown> | null;
  const fn = (path: string): boolean => {
    let value: unknown = client;
    for (const step of path.split(".")) {
      value = typeof value === "object" && value !== null
        ? (value as Record<string, unknown>)[step]
        : undefined;
    }
    return typeof value === "function";
  };
  const needed = ["events.list", "threads.list", "threads.events.list"];
  if (follow) needed.push("events.stream");
  if (follow && options.scope === "all") needed.push("threads.events.stream");
  const missing = needed.filter((path) => !fn(path));
  if (missing.length > 0) {
    cannot(
      `"client" is not a sessions client (the SDK's client.beta.sessions): it has no ` +
        missing.map((path) => `${path}()`).join(", "),
    );
  }
  return options.client!;
}

/** Throws the option error that says why the session cannot be listed. */
type Cannot = (why: string) => never;

/** The whole-number options; each has its default in {@linkcode MANAGED_AGENTS_DEFAULTS}. */
type IntegerOption = "pageSize" | "maxRetries" | "timeoutMs" | "maxPageBytes";

function integerOption(
  options: ManagedAgentsOptions,
  name: IntegerOption,
  min: number,
  cannot: Cannot,
): number {
  const value = options[name];
  if (value === undefined) return MANAGED_AGENTS_DEFAULTS[name];
  if (!Number.isSafeInteger(value) || value < min) {
    cannot(`"${name}" must be an integer >= ${min}: current value is ${value}`);
  }
  return value;
}

function delayOption(value: number | undefined, cannot: Cannot): number {
  if (value === undefined) return MANAGED_AGENTS_DEFAULTS.retryBaseDelayMs;
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
    cannot(`"retryBaseDelayMs" must be a finite number >= 0: current value is ${value}`);
  }
  return value;
}

function baseUrlOf(value: string, cannot: Cannot): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    return cannot(`"baseUrl" is not a URL: current value is "${value}"`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    cannot(`"baseUrl" must be an http or https URL: current value is "${value}"`);
  }
  if (url.username !== "" || url.password !== "") {
    // The value is not quoted: it holds a password.
    cannot(`"baseUrl" must not hold a user name or password`);
  }
  if (url.protocol === "http:" && !isLoopback(url.hostname)) {
    cannot(
      `"baseUrl" is http: on a host that is not loopback, so the API key would cross the ` +
        `network in clear text; use https:, or http: only on localhost, 127.0.0.0/8 or [::1]: ` +
        `current value is "${value}"`,
    );
  }
  const port = url.port === "" ? undefined : Number(url.port);
  if (port !== undefined && BLOCKED_PORTS.has(port)) {
    cannot(
      `"baseUrl" is on port ${port}, which the fetch standard blocks (a "bad port"), so no ` +
        `request could reach it: current value is "${value}"`,
    );
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
}

/**
 * The ports the fetch standard blocks ("bad ports"): `fetch` refuses them
 * before connecting, so trying again could never help.
 */
const BLOCKED_PORTS: ReadonlySet<number> = new Set([
  0,
  1,
  7,
  9,
  11,
  13,
  15,
  17,
  19,
  20,
  21,
  22,
  23,
  25,
  37,
  42,
  43,
  53,
  69,
  77,
  79,
  87,
  95,
  101,
  102,
  103,
  104,
  109,
  110,
  111,
  113,
  115,
  117,
  119,
  123,
  135,
  137,
  139,
  143,
  161,
  179,
  389,
  427,
  465,
  512,
  513,
  514,
  515,
  526,
  530,
  531,
  532,
  540,
  548,
  554,
  556,
  563,
  587,
  601,
  636,
  989,
  990,
  993,
  995,
  1719,
  1720,
  1723,
  2049,
  3659,
  4045,
  4190,
  5060,
  5061,
  6000,
  6566,
  6665,
  6666,
  6667,
  6668,
  6669,
  6679,
  6697,
  10080,
]);

/** Whether a URL's host is this machine: `localhost`, `127.0.0.0/8` or `[::1]`. */
function isLoopback(hostname: string): boolean {
  // The URL parser has already made any IPv4 form (`0x7f.1`, `2130706433`) dotted decimal.
  return hostname === "localhost" || hostname === "[::1]" ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}

function apiVersionOf(value: string | undefined, cannot: Cannot): string {
  if (value === undefined) return MANAGED_AGENTS_DEFAULTS.apiVersion;
  if (typeof value !== "string" || value === "" || !isHeaderValue(value)) {
    const shown = JSON.stringify(value) ?? String(value);
    cannot(`"apiVersion" must be a non-empty header value: current value is ${shown}`);
  }
  return value;
}

const KEY_VARIABLE = "ANTHROPIC_API_KEY";

/** The part of the `Deno` namespace this module uses: its environment. */
interface DenoEnv {
  readonly env: { get(key: string): string | undefined };
}

/**
 * `globalThis.Deno`, absent in browsers; typed locally so that this module type-checks
 * without Deno's types.
 */
function denoGlobal(): DenoEnv | undefined {
  return (globalThis as { Deno?: DenoEnv }).Deno;
}

function apiKeyOf(key: string | undefined, cannot: Cannot): string {
  if (key === undefined || key === "") {
    // Without Deno the variable cannot be read, so setting it would not help.
    const how = denoGlobal() === undefined ? "" : ` or set ${KEY_VARIABLE}`;
    cannot(`there is no API key: pass "apiKey"${how}`);
  }
  // Checked here so that `Headers` never throws an error about the key itself.
  if (typeof key !== "string" || !isHeaderValue(key)) {
    cannot("the API key is not a valid header value");
  }
  return key;
}

/** Reads the key from the environment; `globalThis.Deno` is absent in browsers. */
function envApiKey(cannot: Cannot): string | undefined {
  try {
    return denoGlobal()?.env.get(KEY_VARIABLE);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return cannot(
      `${KEY_VARIABLE} cannot be read: ${reason}; ` +
        `pass "apiKey" or allow reading it (--allow-env=${KEY_VARIABLE})`,
    );
  }
}

/** Printable Latin-1 without line breaks or edge spaces: what `Headers` keeps as is. */
function isHeaderValue(value: string): boolean {
  return /^[\t\x20-\x7e\x80-\xff]*$/.test(value) && value.trim() === value;
}
