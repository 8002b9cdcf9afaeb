// Copyright 2026 the brigade authors. MIT license.

/**
 * `--session ID`: a session read from the Managed Agents API, whole or (`--follow`) as it runs.
 *
 * @module
 */

import { excerpt } from "../redact/excerpt.ts";
import {
  fromManagedAgents,
  type ManagedAgentsStopAt,
} from "../sources/managed_agents/from_managed_agents.ts";
import type { LogEntry, Scope } from "../events/types.ts";

/** What messages call a session read from the API. */
export function sessionName(sessionId: string): string {
  return `session ${excerpt(sessionId)}`;
}

/** What {@linkcode apiSession} reads with. */
export interface ApiSessionOptions {
  /** `--scope`; the session's primary thread when not given. */
  scope: Scope | undefined;
  /** `--follow`: go on reading as the session runs. */
  follow: boolean;
  /** `--stop-at`: when the follow ends; the library's default (termination) when not given. */
  stopAt?: ManagedAgentsStopAt | undefined;
  signal: AbortSignal;
}

/** The session's entries from the API (at `ANTHROPIC_BASE_URL` when set). */
export function apiSession(
  sessionId: string,
  options: ApiSessionOptions,
): AsyncIterable<LogEntry> {
  // ANTHROPIC_BASE_URL points at a proxy or gateway, as in Anthropic's SDKs.
  const baseUrl = Deno.env.get("ANTHROPIC_BASE_URL");
  return fromManagedAgents({
    sessionId,
    scope: options.scope ?? "session",
    signal: options.signal,
    ...(options.follow ? { follow: true } : {}),
    ...(options.follow && options.stopAt !== undefined ? { stopAt: options.stopAt } : {}),
    ...(baseUrl ? { baseUrl } : {}),
  });
}
