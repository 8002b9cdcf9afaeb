// Copyright 2026 the brigade authors. MIT license.

/**
 * Reads a Claude Code transcript (the JSONL file a session writes, whose path
 * hooks receive as `transcript_path`) as an event source: user and assistant
 * turns, tool calls and their results become the {@linkcode LogEntry} values
 * every renderer consumes. A line that is not a record is reported through
 * `onInvalid` and passed over, never a failure. For the live facts of a
 * transcript (the model and the context tokens in use), see
 * `@brigade/transcript/reader`.
 *
 * ```ts
 * import { fromClaudeCode } from "@brigade/transcript/claude-code";
 * import { renderGrader } from "@brigade/transcript";
 * import assert from "node:assert/strict";
 *
 * const lines = [
 *   { type: "user", uuid: "u1", message: { content: "Hi" } },
 *   { type: "assistant", uuid: "a1", message: { content: [{ type: "text", text: "Hello" }] } },
 * ].map((record) => JSON.stringify(record) + "\n");
 * const stream = ReadableStream.from(lines.map((line) => new TextEncoder().encode(line)));
 *
 * assert.equal(await renderGrader(fromClaudeCode(stream)), "[user]\n  Hi\n\n[agent]\n  Hello\n");
 * ```
 *
 * @module
 */

export * from "./from_claude_code.ts";
// The event model the source's names are made of, so that this entry point documents whole on
// its own.
export type * from "../../events/types.ts";
