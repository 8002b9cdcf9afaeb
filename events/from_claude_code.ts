// Copyright 2026 the brigade authors. MIT license.

import { MAX_LINE_BYTES } from "./_byte_lines.ts";
import { checkMaxLineBytes, jsonLineBatches } from "./_json_lines.ts";
import { baseName, openFile, pathText } from "./_file_source.ts";
import type { ContentBlock, LogEntry, SessionEvent } from "./types.ts";

/** Options for {@linkcode fromClaudeCode}. */
export interface FromClaudeCodeOptions {
  /**
   * The `session_id` of every entry. One file is one session: the records'
   * own `sessionId` fields (several in a resumed file) are not used.
   *
   * @default {the file's base name without its extension; "stream" for a stream}
   */
  sessionId?: string;
  /**
   * The name errors give the input.
   *
   * @default {the path as given; "stream" for a stream}
   */
  name?: string;
  /**
   * The longest line read, in bytes; a longer line is reported to `onInvalid`
   * and skipped, without ever being held whole in memory.
   *
   * @default {MAX_LINE_BYTES}
   */
  maxLineBytes?: number;
  /**
   * Stops the reading (and closes the file) with the signal's reason when aborted.
   *
   * @default {undefined}
   */
  signal?: AbortSignal;
  /**
   * Called, as it happens, with the 1-based line number and the reason for
   * each line skipped as unreadable (not JSON, not an object, wrong member
   * types, over the cap). Records skipped on purpose (bookkeeping records,
   * unknown types, meta and synthetic records) are not reported.
   *
   * @default {undefined}
   */
  onInvalid?: (line: number, reason: string) => void;
  /**
   * The former name of `onInvalid`, called the same way when `onInvalid` is
   * not given.
   *
   * @deprecated Use `onInvalid`.
   * @default {undefined}
   */
  onSkipped?: (line: number, reason: string) => void;
}

/** What {@linkcode fromClaudeCode} reads: a file path, a `file:` URL or a byte stream. */
export type ClaudeCodeInput = string | URL | ReadableStream<Uint8Array>;

/**
 * Reads a Claude Code transcript (`~/.claude/projects/…/<session>.jsonl`) as
 * an event source of one session, so the renderers (`grader`, `dream`) render
 * a Claude Code session.
 *
 * The mapping, record by record (`message.content` is a string or an array of
 * blocks):
 *
 * - `user` record, string content or `text`/`image` blocks → `user.message`
 *   (one per block).
 * - `user` record, `tool_result` block → `agent.tool_result` with the block's
 *   `tool_use_id`, `content` (text or blocks, unchanged) and `is_error`.
 * - `user` record with `isCompactSummary: true` → `system.message` whose text
 *   starts with `[compaction summary]\n`.
 * - `assistant` record, `text` block → `agent.message`; `tool_use` block →
 *   `agent.tool_use` whose `id` is the block's `id` (the link a result names),
 *   with its `name` and `input`; `thinking`, `redacted_thinking` and other
 *   blocks are skipped.
 * - Skipped whole: records with `isMeta: true`, assistant records of model
 *   `<synthetic>`, `system` records (a `compact_boundary` too: the summary
 *   record that follows it carries the compaction), and every other type
 *   (`progress`, `file-history-snapshot`, `queue-operation`, `summary`,
 *   `attachment`, …).
 *
 * Every entry has `seq` 1, 2, 3… in emitted order, `session_id` from the
 * option (else the file's base name), `thread_id` `null`, or for a record
 * with `isSidechain: true`, `"sidechain:<agentId>"` (`"sidechain"` without an
 * `agentId`). An event's `processed_at` is its record's `timestamp` and its
 * `id` the record's `uuid`, suffixed `:<block index>` when the record yields
 * more than one event (a `tool_use` keeps its block's id).
 *
 * Tolerance: a line that is not JSON, not an object, or whose members have
 * the wrong types is skipped and reported to `onInvalid` as it is met, as is
 * a line longer than `maxLineBytes`; invalid UTF-8 decodes as U+FFFD; a final
 * line without a newline is read. The input is read a chunk at a time, in
 * bounded memory, and a file is closed (a stream cancelled) when the
 * iteration ends, however it ends. Reading a path needs Deno
 * (`--allow-read`), only when called; a stream works on any runtime.
 *
 * @param input The transcript's path, its `file:` URL, or a stream of its bytes.
 * @param options Options.
 * @returns A lazy event source of one session.
 * @throws {EventSourceError} When the file cannot be opened; the error names the path.
 * @throws {RangeError} When `maxLineBytes` is not a positive integer.
 *
 * @example Usage
 * ```ts
 * import { fromClaudeCode, renderGrader } from "@brigade/transcript";
 * import assert from "node:assert/strict";
 *
 * const records = [
 *   { type: "user", uuid: "u1", timestamp: "2026-01-01T00:00:00Z", message: { role: "user", content: "List the files." } },
 *   { type: "assistant", uuid: "a1", timestamp: "2026-01-01T00:00:01Z", message: { role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "Bash", input: { command: "ls" } }] } },
 *   { type: "user", uuid: "u2", timestamp: "2026-01-01T00:00:02Z", message: { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "README.md" }] } },
 *   { type: "progress", uuid: "p1" },
 *   { type: "assistant", uuid: "a2", timestamp: "2026-01-01T00:00:03Z", message: { role: "assistant", content: [{ type: "text", text: "One file." }] } },
 * ];
 * const path = await Deno.makeTempFile({ suffix: ".jsonl" });
 * try {
 *   await Deno.writeTextFile(path, records.map((r) => JSON.stringify(r)).join("\n"));
 *   const entries = await Array.fromAsync(fromClaudeCode(path, { sessionId: "s1" }));
 *   assert.deepEqual(entries.map((e) => [e.seq, e.event.type, e.event.id]), [
 *     [1, "user.message", "u1"],
 *     [2, "agent.tool_use", "toolu_1"],
 *     [3, "agent.tool_result", "u2"],
 *     [4, "agent.message", "a2"],
 *   ]);
 *   assert.equal(
 *     await renderGrader(fromClaudeCode(path)),
 *     '[user]\nList the files.\n\n[agent → tool Bash]\n{"command":"ls"}\n\n' +
 *       "[tool Bash → agent]\nREADME.md\n\n[agent]\nOne file.\n",
 *   );
 * } finally {
 *   await Deno.remove(path);
 * }
 * ```
 *
 * @example A stream, with the bad lines reported
 * ```ts
 * import { fromClaudeCode } from "@brigade/transcript";
 * import assert from "node:assert/strict";
 *
 * const text = '{"type":"user","uuid":"u1","message":{"content":"Hi"}}\nnot json\n';
 * const invalid: number[] = [];
 * const entries = await Array.fromAsync(
 *   fromClaudeCode(ReadableStream.from([new TextEncoder().encode(text)]), {
 *     onInvalid: (line) => invalid.push(line),
 *   }),
 * );
 * assert.deepEqual(entries.map((e) => [e.session_id, e.event.type]), [["stream", "user.message"]]);
 * assert.deepEqual(invalid, [2]);
 * ```
 */
export async function* fromClaudeCode(
  input: ClaudeCodeInput,
  options: FromClaudeCodeOptions = {},
): AsyncGenerator<LogEntry, void, undefined> {
  const maxLineBytes = checkMaxLineBytes(
    options.maxLineBytes ?? MAX_LINE_BYTES,
    "a Claude Code transcript",
  );
  const isStream = input instanceof ReadableStream;
  const name = options.name ?? (isStream ? "stream" : pathText(input));
  const sessionId = options.sessionId ?? (isStream ? "stream" : baseName(pathText(input)));
  const stream = isStream ? input : await openFile(input, name, "Claude Code transcript");
  const onInvalid = options.onInvalid ?? options.onSkipped;
  const lines = jsonLineBatches(stream, { maxLineBytes, name, signal: options.signal });
  let seq = 0;
  for await (const batch of lines) {
    for (const { line, value, reason } of batch) {
      const mapped = reason ?? mapRecord(value);
      if (typeof mapped === "string") {
        onInvalid?.(line, mapped);
        continue;
      }
      for (const { threadId, event } of mapped) {
        yield { seq: ++seq, session_id: sessionId, thread_id: threadId, event };
      }
    }
  }
}

interface Mapped {
  threadId: string | null;
  event: SessionEvent;
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function optional(value: unknown, type: "string" | "boolean"): boolean {
  return value === undefined || value === null || typeof value === type;
}

/** The events of one line's record, or why the record is unreadable. */
function mapRecord(record: unknown): Mapped[] | string {
  if (!isObject(record)) return "the line is not a JSON object";
  if (typeof record.type !== "string") return 'the record has no string member "type"';
  if (record.type !== "user" && record.type !== "assistant") return [];
  const problem = envelopeProblem(record);
  if (problem !== undefined) return problem;
  if (record.isMeta === true) return [];
  const message = record.message as Json;
  if (record.type === "assistant" && message.model === "<synthetic>") return [];
  const threadId = record.isSidechain !== true
    ? null
    : typeof record.agentId === "string"
    ? `sidechain:${record.agentId}`
    : "sidechain";
  const uuid = record.uuid as string;
  const at = typeof record.timestamp === "string" ? { processed_at: record.timestamp } : {};
  const content = message.content as string | unknown[];

  if (record.type === "user" && record.isCompactSummary === true) {
    const body = typeof content === "string" ? content : content
      .filter((b): b is { type: "text"; text: string } => isObject(b) && b.type === "text")
      .map((b) => b.text).join("\n");
    const event: SessionEvent = {
      id: uuid,
      type: "system.message",
      ...at,
      content: `[compaction summary]\n${body}`,
    };
    return [{ threadId, event }];
  }
  if (typeof content === "string") {
    const type = record.type === "user" ? "user.message" : "agent.message";
    return [{ threadId, event: { id: uuid, type, ...at, content } }];
  }

  const out: { index: number; event: SessionEvent; keepId?: boolean }[] = [];
  for (const [index, block] of content.entries()) {
    const event = blockEvent(record.type, block, uuid, at);
    if (typeof event === "string") return event;
    if (event !== undefined) out.push({ index, ...event });
  }
  const suffix = out.length > 1;
  return out.map(({ index, event, keepId }) => ({
    threadId,
    event: keepId || !suffix ? event : { ...event, id: `${uuid}:${index}` },
  }));
}

/** Why a user or assistant record's members have the wrong types, if they do. */
function envelopeProblem(record: Json): string | undefined {
  if (typeof record.uuid !== "string") return 'the record has no string member "uuid"';
  if (!optional(record.timestamp, "string")) return 'the record\'s "timestamp" is not a string';
  if (!optional(record.isSidechain, "boolean")) {
    return 'the record\'s "isSidechain" is not a boolean';
  }
  if (!optional(record.agentId, "string")) return 'the record\'s "agentId" is not a string';
  if (!isObject(record.message)) return 'the record has no object member "message"';
  const content = record.message.content;
  if (typeof content !== "string" && !Array.isArray(content)) {
    return 'the record\'s "message.content" is neither a string nor an array';
  }
  return undefined;
}

/** One block's event, undefined for a skipped block, or why the block is malformed. */
function blockEvent(
  role: "user" | "assistant",
  block: unknown,
  uuid: string,
  at: { processed_at?: string },
): { event: SessionEvent; keepId?: boolean } | undefined | string {
  if (!isObject(block) || typeof block.type !== "string") {
    return 'a content block is not an object with a string "type"';
  }
  switch (block.type) {
    case "text":
      if (typeof block.text !== "string") return 'a "text" block has no string "text"';
      return {
        event: {
          id: uuid,
          type: role === "user" ? "user.message" : "agent.message",
          ...at,
          content: [{ type: "text", text: block.text }],
        },
      };
    case "image":
      if (role !== "user") return undefined;
      return { event: { id: uuid, type: "user.message", ...at, content: [block as ContentBlock] } };
    case "tool_use":
      if (role !== "assistant") return undefined;
      if (typeof block.id !== "string" || typeof block.name !== "string") {
        return 'a "tool_use" block has no string "id" and "name"';
      }
      if (!isObject(block.input)) return 'a "tool_use" block\'s "input" is not an object';
      return {
        event: {
          id: block.id,
          type: "agent.tool_use",
          ...at,
          name: block.name,
          input: block.input,
        },
        keepId: true,
      };
    case "tool_result": {
      if (role !== "user") return undefined;
      if (typeof block.tool_use_id !== "string") {
        return 'a "tool_result" block has no string "tool_use_id"';
      }
      const content = block.content;
      if (
        content !== undefined && content !== null && typeof content !== "string" &&
        !Array.isArray(content)
      ) {
        return 'a "tool_result" block\'s "content" is neither a string nor an array';
      }
      if (!optional(block.is_error, "boolean")) {
        return 'a "tool_result" block\'s "is_error" is not a boolean';
      }
      return {
        event: {
          id: uuid,
          type: "agent.tool_result",
          ...at,
          tool_use_id: block.tool_use_id,
          content: (content ?? null) as string | ContentBlock[] | null,
          is_error: (block.is_error ?? null) as boolean | null,
        },
      };
    }
    default:
      return undefined;
  }
}
