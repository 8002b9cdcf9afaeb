// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

/**
 * Turns agent-session logs into text a model reads.
 *
 * A log is an event source: an `AsyncIterable<LogEntry>`, where a
 * {@linkcode LogEntry} is a Managed Agents session event plus the `seq`,
 * `session_id` and `thread_id` the log that stores it adds.
 *
 * Sources:
 * - {@linkcode fromEntries}: in-memory entries, sync or async;
 * - {@linkcode fromEventLog}: a keyset-paged store the caller implements;
 * - {@linkcode fromNdjson}: NDJSON of log entries or bare events, a file or a stream;
 * - {@linkcode fromManagedAgents}: a session of the Managed Agents HTTP API
 *   (also `@brigade/transcript/managed-agents`);
 * - {@linkcode fromClaudeCode}: a Claude Code transcript
 *   (also `@brigade/transcript/claude-code`).
 *
 * Renderers turn a source into text; a {@linkcode RendererRegistry} holds them
 * by name, and {@linkcode registry} comes with the five built-ins:
 * - `grader` ({@linkcode renderGrader}): role-labelled plain text of a whole
 *   session for an outcome grader, in the order the model read it;
 * - `dream` ({@linkcode renderDream}): redacted, capped markdown of one
 *   session for a memory-consolidation run;
 * - `index` ({@linkcode renderIndex}): the INDEX.md rows of a batch of dreamed sessions;
 * - `html` ({@linkcode renderHtml}): a self-contained, redacted page for people
 *   (also `@brigade/transcript/html`, which imports its Markdown parser and diff
 *   library up front; here they load with the first page);
 * - `json` ({@linkcode renderJson}): the conversation as NDJSON items for machines.
 *
 * A team's renderer builds on the same kit (also `@brigade/transcript/kit`):
 * {@linkcode conversation} yields the conversation as items, beside byte-safe
 * UTF-8 cuts, budgets, {@linkcode CappedText} and {@linkcode redact}. The
 * Claude Code transcript reader is `@brigade/transcript/reader`.
 *
 * ```ts
 * import { fromNdjson, registry } from "@brigade/transcript";
 * import assert from "node:assert/strict";
 *
 * const line = JSON.stringify({ id: "sevt_1", type: "user.message", content: "Hi" });
 * const source = fromNdjson(ReadableStream.from([new TextEncoder().encode(line)]));
 * assert.equal(await registry.render("grader", source), "[user]\n  Hi\n");
 * assert.deepEqual(registry.list().map((r) => r.name), ["grader", "dream", "index", "json", "html"]);
 * ```
 *
 * @module
 */

export * from "./events/types.ts";
export * from "./events/errors.ts";
export * from "./events/split_sessions.ts";
export * from "./sources/from_entries.ts";
export * from "./sources/from_event_log.ts";
export * from "./sources/from_ndjson.ts";
export * from "./sources/managed_agents/mod.ts";
export * from "./sources/claude_code/mod.ts";
export * from "./kit/mod.ts";
export * from "./renderers/registry.ts";
export * from "./renderers/grader/grader.ts";
export * from "./renderers/grader/envelope_instruction.ts";
export * from "./renderers/dream/dream.ts";
export * from "./renderers/dream/dream_index.ts";
export * from "./renderers/json/json.ts";
export * from "./renderers/html/options.ts";
export * from "./renderers/html/lazy.ts";
export * from "./renderers/builtin.ts";
