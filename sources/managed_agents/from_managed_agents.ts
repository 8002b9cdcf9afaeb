// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// The public face of the Managed Agents source: fromManagedAgents() and the
// names a caller uses with it. Each concern is in its own private file: the
// options (_options.ts) and their checks (_resolve.ts, _base_url.ts), the
// defaults (_defaults.ts), the listing (_listing.ts, _lists.ts, _pages.ts,
// _merge.ts), the follow (_followed.ts, _follow.ts, _seen.ts, _http_stream.ts,
// _client_stream.ts, _sse.ts, _flatten.ts), the HTTP client (_http.ts, _fetch.ts,
// _retry.ts, _scrub.ts, _targets.ts), the SDK-client adapter (_client.ts) and
// the error (_error.ts).

import { flattened } from "./_flatten.ts";
import { entries } from "./_listing.ts";
import type { ManagedAgentsOptions } from "./_options.ts";
import { resolve } from "./_resolve.ts";
import type { LogEntry } from "../../events/types.ts";

export { ManagedAgentsError, type ManagedAgentsErrorOptions } from "./_error.ts";
export type { ManagedAgentsClient, ManagedAgentsRequestOptions } from "./_client.ts";
export {
  ANTHROPIC_API_VERSION,
  MANAGED_AGENTS_BETA,
  MANAGED_AGENTS_DEFAULTS,
} from "./_defaults.ts";
export type { ManagedAgentsOptions, ManagedAgentsStopAt } from "./_options.ts";

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
 * The list lags the stream by a second or two, so a listing is made whole
 * before it ends: when its last status event is not an idle or a
 * termination (or a user message or agent event follows the idle), the
 * session is read (`GET /v1/sessions/{id}`), and while it says `idle` or
 * `terminated` and the events do not end on that status yet, the tail (what
 * was processed since the newest `processed_at` listed, each event once) is
 * listed again, at most {@linkcode ManagedAgentsOptions.settleTries} times,
 * {@linkcode ManagedAgentsOptions.settleDelayMs} apart (3 s at most by
 * default); see {@linkcode ManagedAgentsOptions.settleTries}.
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
 * once: every stream remembers its latest 4,096 ids, and an event that
 * arrives on the open stream is new unless its id is remembered, whatever its
 * `processed_at`; only a listing (the catch-up) also takes an event stamped
 * no later than the newest one forgotten as seen. A stream that drops (it ends, fails, or
 * sends nothing within `timeoutMs`) is opened again with the listing's
 * back-off and caught up the same way; one that fails `maxRetries` + 1 times
 * in a row without a new event ends the iteration with a
 * {@linkcode ManagedAgentsError}, as a listing does. The follow ends after
 * the session's `session.status_terminated` or `session.deleted` event (a
 * session whose listing holds one opens no stream), with
 * {@linkcode ManagedAgentsOptions.stopAt} `"idle"` after the idle that ends
 * the turn, or when the signal
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
 * Requests that get a 408, 409, 429, 500, 502, 503, 504 or 529 (unless the
 * API sends `x-should-retry: false`; any status it sends
 * `x-should-retry: true` with, as the official SDK does), a network error or
 * no complete answer within {@linkcode ManagedAgentsOptions.timeoutMs} are
 * retried (see
 * {@linkcode ManagedAgentsOptions.retryBaseDelayMs}); any other failure ends
 * the iteration at once with a {@linkcode ManagedAgentsError} naming the
 * session, the HTTP status and the answer's `request-id` (its `requestId`,
 * for Anthropic's support), never any piece of the key of 8 characters or
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
  return { [Symbol.asyncIterator]: () => flattened(entries(resolved), resolved.signal) };
}
