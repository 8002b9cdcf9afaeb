// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// The options of fromManagedAgents(), each documented with its default: public,
// re-exported by from_managed_agents.ts.

import type { ManagedAgentsClient } from "./_client.ts";
import type { Scope } from "../../events/types.ts";

/**
 * When a follow ends (see {@linkcode ManagedAgentsOptions.stopAt}):
 * `"terminated"` when the session does, `"idle"` when its turn does.
 *
 * @example Usage
 * ```ts
 * import type { ManagedAgentsStopAt } from "@brigade/transcript";
 * import assert from "node:assert/strict";
 *
 * const stopAt: ManagedAgentsStopAt = "idle";
 * assert.equal(stopAt, "idle");
 * ```
 */
export type ManagedAgentsStopAt = "idle" | "terminated";

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
   * How many times a request that got a 408, 409, 429, 500, 502, 503, 504 or
   * 529, a network error or no answer in time is tried again before the
   * listing fails. As in the official SDK, the API's `x-should-retry` header
   * decides first: `true` retries any status, `false` none (not even a 429 or
   * a 5xx). Any other status fails at once. With `follow`, it is also how many
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
  /**
   * When a follow ends (with `follow: true` only; given without it, it is
   * refused). `"terminated"`: after the session's `session.status_terminated`
   * or `session.deleted`. `"idle"`: after the first `session.status_idle`
   * that ends a turn (its `stop_reason` is `end_turn`, `retries_exhausted`,
   * `budget_reached` or `refusal`: the session waits for a user message;
   * `requires_action` waits on the client mid-turn, and an unknown reason
   * may not end it, so neither ends the follow) with no user message,
   * outcome or status change after it; termination ends it too. A listing
   * that already ends on such an idle opens no stream, unless the session
   * says it is running again (then the follow waits for the next one).
   *
   * @default {MANAGED_AGENTS_DEFAULTS.stopAt}
   */
  stopAt?: ManagedAgentsStopAt;
  /**
   * How many times a listing lists the session's tail again when it ends on
   * a session that is not running but the events listed do not yet show it.
   * The API's list lags its stream by a second or two: a session read just
   * after it went idle can list without its last `agent.message` and its
   * `session.status_idle`. So when the listing ends, the session is read
   * (`GET /v1/sessions/{id}`); when its `status` is `idle` (or `terminated`)
   * and the last status event listed is not `session.status_idle` (or
   * `session.status_terminated`), or a user message or agent event follows
   * it, what came after the last event seen is listed again
   * (`created_at[gte]` the newest `processed_at` seen, each event once), up
   * to this many times, {@linkcode ManagedAgentsOptions.settleDelayMs}
   * apart, until it does; then the listing ends as it is. A status
   * `running` or `rescheduling` (or one this module does not know) waits
   * for nothing: the listing is the session so far. A listing that ends on
   * `session.status_terminated` or `session.deleted` reads nothing more.
   * `0` reads nothing more ever (no session request), as before. With
   * `client`, a client without `retrieve` lists once. In scope `"all"`,
   * only the primary thread's tail is listed again (a thread's list has no
   * time filter).
   *
   * @default {MANAGED_AGENTS_DEFAULTS.settleTries}
   */
  settleTries?: number;
  /**
   * The wait before each listing of the tail of
   * {@linkcode ManagedAgentsOptions.settleTries}, in milliseconds.
   *
   * @default {MANAGED_AGENTS_DEFAULTS.settleDelayMs}
   */
  settleDelayMs?: number;
}
