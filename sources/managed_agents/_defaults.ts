// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// The constants of the API a listing calls and the defaults of its options: public,
// re-exported by from_managed_agents.ts.

import { API_VERSION, BETA } from "./_http.ts";
import type { ManagedAgentsStopAt } from "./_options.ts";
import type { Scope } from "../../events/types.ts";

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
 * first wait, the deadline of an attempt, the cap on a page, whether to
 * follow the session as it runs and when a follow ends, and how long a
 * listing waits for the last events of a session that stopped running
 * (`settleTries` re-listings of its tail, `settleDelayMs` apart: at most 3 s).
 * The source reads its defaults
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
  stopAt: ManagedAgentsStopAt;
  settleTries: number;
  settleDelayMs: number;
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
  stopAt: "terminated",
  settleTries: 6,
  settleDelayMs: 500,
});
