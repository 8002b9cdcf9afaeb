// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

/**
 * Turns agent-session logs into text a model reads.
 *
 * A log is an event source: an `AsyncIterable<LogEntry>`, where a
 * {@linkcode LogEntry} is a Managed Agents session event plus the `seq`,
 * `session_id` and `thread_id` the log that stores it adds. Sources read
 * in-memory entries ({@linkcode fromEntries}), a keyset-paged store
 * ({@linkcode fromEventLog}) or NDJSON ({@linkcode fromNdjson}). Renderers
 * turn a source into text; a {@linkcode RendererRegistry} holds them by name,
 * and {@linkcode registry} comes with the built-ins: `grader` (plain text for an
 * outcome grader), `dream` (redacted, capped markdown of one session), `index`
 * (the INDEX.md of a batch of dreamed sessions) and `json` (the conversation
 * as NDJSON items for machines). A team's renderer builds on the same kit:
 * {@linkcode conversation} yields the conversation as items, beside byte-safe
 * UTF-8 cuts, budgets, {@linkcode CappedText} and {@linkcode redact}.
 *
 * ```ts
 * import { fromNdjson, registry } from "@brigade/transcript";
 *
 * const line = JSON.stringify({ id: "sevt_1", type: "user.message", content: "Hi" });
 * const source = fromNdjson(ReadableStream.from([new TextEncoder().encode(line)]));
 * console.log(await registry.render("grader", source)); // "[user]\nHi\n"
 * ```
 *
 * @module
 */

export * from "./events/types.ts";
export * from "./events/errors.ts";
export * from "./events/from_entries.ts";
export * from "./events/from_event_log.ts";
export * from "./events/from_ndjson.ts";
export * from "./events/from_managed_agents.ts";
export * from "./events/from_claude_code.ts";
export * from "./events/split_sessions.ts";
export * from "./renderers/content.ts";
export * from "./renderers/registry.ts";
export * from "./renderers/grader.ts";
export * from "./renderers/dream.ts";
export * from "./renderers/dream_index.ts";
export * from "./renderers/conversation.ts";
export * from "./renderers/json.ts";
export * from "./renderers/utf8.ts";
export * from "./renderers/budget.ts";
export * from "./renderers/capped_text.ts";
export * from "./renderers/html.ts";
export * from "./redact/mod.ts";
export * from "./renderers/builtin.ts";
