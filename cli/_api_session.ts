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
import type { Renderer } from "../renderers/registry.ts";
import type { RendererFlags } from "./_args.ts";
import { writeOutput } from "./_terminal.ts";

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

/**
 * Each chunk of the renderer's `stream` (each item, as it completes) written whole to standard
 * output before the next is asked for, until the source ends; a renderer without `stream` prints
 * its whole text at the end.
 */
export async function writeAsItGoes(
  renderer: Renderer,
  source: AsyncIterable<LogEntry>,
  options: RendererFlags,
): Promise<void> {
  const chunks = renderer.stream?.(source, options) ??
    (async function* (): AsyncGenerator<string> {
      yield await renderer.render(source, options);
    })();
  for await (const chunk of chunks) {
    // Whole, before the next is asked for: Ctrl-C stops the reading, never a write.
    await writeOutput(chunk);
  }
}
