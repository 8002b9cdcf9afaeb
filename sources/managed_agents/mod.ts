// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

/**
 * Reads a session of Anthropic's Managed Agents API as an event source: the
 * stored events of the primary thread (or of every thread, merged by time),
 * paged, retried on transient failures, within a deadline and a page-size
 * cap. {@linkcode fromManagedAgents} yields the {@linkcode LogEntry} values
 * every renderer consumes; a failure is a {@linkcode ManagedAgentsError} that
 * says what failed and never shows the API key. It lists through its own
 * HTTP client, or through the official SDK's `client.beta.sessions` passed as
 * `client` (typed by its shape, {@linkcode ManagedAgentsClient}). With
 * `follow: true` it goes on reading the session's event streams as it runs,
 * each event once, until the session terminates or the signal aborts.
 *
 * ```ts
 * import { fromManagedAgents } from "@brigade/transcript/managed-agents";
 * import { renderGrader } from "@brigade/transcript";
 * import assert from "node:assert/strict";
 *
 * // A stand-in for the API: one page of two events.
 * const data = [
 *   { id: "sevt_1", type: "user.message", processed_at: null, content: "Hi" },
 *   { id: "sevt_2", type: "agent.message", processed_at: null, content: "Hello" },
 * ];
 * const fetchPage: typeof fetch = () => Promise.resolve(Response.json({ data, next_page: null }));
 *
 * const source = fromManagedAgents({ sessionId: "sesn_1", apiKey: "sk-x", fetch: fetchPage });
 * assert.equal(await renderGrader(source), "[user]\n  Hi\n\n[agent]\n  Hello\n");
 * ```
 *
 * @module
 */

export * from "./from_managed_agents.ts";
// The event model and the error base the source's names are made of, so that this entry point
// documents whole on its own.
export type * from "../../events/types.ts";
export {
  EventSourceError,
  type EventSourceErrorCode,
  type EventSourceErrorOptions,
} from "../../events/errors.ts";
