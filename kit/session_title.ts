// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

import type { SessionEvent } from "../events/types.ts";

/**
 * The title an event gives the session: the `title` of a `session.updated`
 * event (Managed Agents sends one when a session is renamed; `fromClaudeCode`
 * sends one for the name Claude Code gives a session, its `custom-title`,
 * else its `ai-title`, else its latest `summary`), whitespace collapsed;
 * undefined for any other event, or a blank title. The session's title is the
 * latest one given: a renderer that names a session keeps the last it sees,
 * and falls back to the first prompt without one.
 *
 * @param event An event of the session.
 * @returns The title it gives, or undefined.
 *
 * @example Usage
 * ```ts
 * import { sessionTitle } from "@brigade/transcript/kit";
 * import assert from "node:assert/strict";
 *
 * const renamed = { id: "e1", type: "session.updated", title: " Fix  the build " };
 * assert.equal(sessionTitle(renamed), "Fix the build");
 * assert.equal(sessionTitle({ id: "e2", type: "user.message", content: "Hi" }), undefined);
 * ```
 */
export function sessionTitle(event: SessionEvent): string | undefined {
  if (event.type !== "session.updated") return undefined;
  const title = (event as { title?: unknown }).title;
  if (typeof title !== "string") return undefined;
  const line = title.replace(/\s+/g, " ").trim();
  return line === "" ? undefined : line;
}
