// Copyright 2026 the brigade authors. MIT license.

import { MAX_LINE_BYTES } from "../../lines/byte_lines.ts";
import { checkMaxLineBytes, jsonLineBatches } from "../../lines/json_lines.ts";
import { baseName, openFile, pathText } from "../../lines/file_source.ts";
import { ClaudeCodeMapper, type Mapped } from "./_map.ts";
import { planBranches } from "./_branches.ts";
import { overflowNote, Rewinds } from "./_rewinds.ts";
import { SubagentFiles } from "./_subagents.ts";
import type { LogEntry } from "../../events/types.ts";

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
   * Also map an assistant's `thinking` blocks, as `agent.thinking` events
   * whose `thinking` member holds the text (the html renderer shows them,
   * folded; the other renderers skip them). Off, they are skipped, and the
   * entries' `seq` and ids are as without them.
   *
   * @default {false}
   */
  thinking?: boolean;
  /**
   * Map each response's token usage (its records' `message.usage`, counted
   * once per `message.id`) as a model request: a `span.model_request_start`
   * and its `span.model_request_end` with `model_usage`, side by side after
   * the response's last record (the html renderer shows them; the grader and
   * the dream skip spans). `false` leaves them out: the entries are those of
   * version 0.2.0.
   *
   * @default {true}
   */
  usage?: boolean;
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
   * Called, as it happens, for each thing the mapping reads and does not
   * render, with its 1-based line number: a record `type` it does not map
   * (`subtype` `""`), a `system` record's `subtype`, an `attachment`'s type, a
   * `progress` record's `data.type`, a content block (`type` `"block"`, its
   * block type as `subtype`), an `isMeta` record that is neither a command's
   * expansion nor the harness's context (`"user"`, `"isMeta"`), a
   * `<synthetic>` reply, a queued message taken back unread
   * (`"queue-operation"`, `"withdrawn"`) or never read (`"never read"`, at
   * the end, with the line that queued it). `deno task render --unrendered`
   * prints their counts.
   *
   * @default {undefined}
   */
  onUnrendered?: (line: number, type: string, subtype: string) => void;
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
 * - `user` record that is a slash command (`<command-name>/model</command-name>`
 *   with `<command-args>opus</command-args>` and `<command-message>`) → one
 *   `user.message` whose content is the command line (`"/model opus"`) and
 *   whose `command` member is the command's name (`"/model"`), so a renderer
 *   can tell a command from a prompt.
 * - `user` record holding a command's local output
 *   (`<local-command-stdout>…</local-command-stdout>`, or `-stderr`) →
 *   `system.message` `"Output of /model:\n…"` (`"Error output of …"` for
 *   stderr), naming the latest command, its terminal styling (ANSI escape
 *   sequences) removed; an empty output gives nothing.
 * - `user` record with `isCompactSummary: true` (the summary a compaction
 *   leaves) → one `system.message` `"Compaction summary:\n…"`.
 * - `user` record, `tool_result` block → `agent.tool_result` with the block's
 *   `tool_use_id`, `content` (text or blocks, unchanged) and `is_error`.
 * - `assistant` record, `text` block → `agent.message`; `tool_use` block →
 *   `agent.tool_use` whose `id` is the block's `id` (the link a result names),
 *   with its `name` and `input`; `thinking` → `agent.thinking` with the text
 *   as `thinking` when the `thinking` option is on (else skipped);
 *   `redacted_thinking` and other blocks are skipped.
 * - `assistant` record's `message.usage` → the response's token usage, once:
 *   the records of one response (one a content block) repeat its
 *   `message.id` and usage, the output count growing as it streamed, so the
 *   last record's counts are taken. They become a model request: a
 *   `span.model_request_start` (id `"<message.id>:request"`) and, next to
 *   it, a `span.model_request_end` naming it, with `model_usage`
 *   (`input_tokens`, `output_tokens`, `cache_creation_input_tokens`,
 *   `cache_read_input_tokens`, and `speed` when recorded) and `is_error`,
 *   on the response's thread, stamped with its last record's time. They
 *   come just before that thread's next response, or at the end of the
 *   transcript (a response is over only then); `usage: false` leaves them
 *   out.
 * - `progress` record with `data.type: "agent_progress"` (a subagent's turn,
 *   as recent Claude Code versions write it into the main transcript) → the
 *   events of the record in `data.message`, mapped as above, on the
 *   subagent's thread `"sidechain:<data.agentId>"`, the thread its
 *   `isSidechain` records get.
 * - A subagent in its own file (current Claude Code: `<session>/subagents/agent-<id>.jsonl`,
 *   beside `agent-<id>.meta.json`; or, in 2.0, `agent-<id>.jsonl` beside the session's
 *   file) → its records' events on the thread `"sidechain:<id>"`, read when the session
 *   reaches the result of the call that started it (the `Agent` or `Task` call whose id
 *   is the meta's `toolUseId`; without a meta, the call whose result names the agent,
 *   `toolUseResult.agentId` or `agentId: <id>` in its text), so they come after the call
 *   and before its result; a subagent it starts is read the same way, at its result in
 *   its file. The thread is named `"<agentType> (<description>)"` from the meta, else
 *   after the call. A call whose result never came has its subagent read at the end. A
 *   file no call of the session names (a compaction's, a side question's) is not read.
 *   Only a path has files beside it: a stream's subagents are what the stream holds.
 * - A subagent's thread (from any kind of record): before its first event
 *   comes a `session.thread_created` on the main thread naming it
 *   (`agent_name`) after the call that started it (the progress record's
 *   `parentToolUseID`): `"<subagent_type> (<description>)"` from the `Task`
 *   call's input, else `"subagent <agentId>"`. A subagent record seen again
 *   (same `uuid`; the last 10,000 are remembered) is skipped.
 * - What the harness adds is labelled as what it is: `<system-reminder>`,
 *   IDE tags and the local-command caveat in a user text (the person's words
 *   around them stay a `user.message`) → `system.message` with `source:
 *   "context"`; a command's expansion (`<command-contents>`, or the `isMeta`
 *   record right after it) → `source: "command"` with `command`; bash mode
 *   (`<bash-input>`, `<bash-stdout>`, `<bash-stderr>`) → `source: "shell"`,
 *   `"shell_output"`, `"shell_error"`; hook attachments with words
 *   (`hook_additional_context` …) and a failed stop hook → `source: "hook"`;
 *   `system` `away_summary` and `summary` records → `source: "recap"`;
 *   `system` `informational` and a change of model → `source: "notice"`;
 *   `system` `api_error` → `session.error`; `[Request interrupted by user]`
 *   → `user.interrupt`; a `tool_reference` block → a text naming its tool.
 * - `queue-operation` records: a message the person queued is one
 *   `user.message`, shown once where a request read it (its `queued_command`
 *   attachment, else before the next response); a repeat is dropped, and one
 *   never read is not shown.
 * - `custom-title`, else `ai-title`, else the latest `summary` → a
 *   `session.updated` with `title` each time the session's name changes.
 * - Skipped, and told to `onUnrendered`: other `isMeta` records, assistant
 *   records of model `<synthetic>`, other `system` records (a
 *   `compact_boundary` too: the summary record that follows it carries the
 *   compaction), other `progress` records (hooks), other attachments, blocks
 *   not mapped, and every other type (`file-history-snapshot`, …).
 *
 * - The branch the model read: a path is read twice, first for its records'
 *   tree (`parentUuid`, or `logicalParentUuid` across a compaction). A rewind
 *   or an edited prompt forks it where the model answered on both sides: the
 *   branch that leads to the session's last reply is rendered, and where an
 *   abandoned branch ends comes one `system.message` `"Rewound: N items of a
 *   branch the session left …"`, its count in `rewound`. Parallel tool calls
 *   and their results, hook, progress and bash-mode records fork the tree too
 *   but hold no other response (`message.id`): they are kept, with no note. A
 *   stream is read once, in file order, every branch in line; a file of more
 *   than 200,000 records too, after a note saying so.
 *
 * Every entry has `seq` 1, 2, 3… in emitted order, `session_id` from the
 * option (else the file's base name), `thread_id` `null`, or for a
 * subagent's record (an `agent_progress` one, or one with `isSidechain:
 * true`), `"sidechain:<agentId>"` (`"sidechain"` without an `agentId`). An
 * event's `processed_at` is its record's `timestamp` and its `id` the
 * record's `uuid` (`"line-<n>"` for a record without one), suffixed
 * `:<block index>` when the record yields more than one event (a `tool_use`
 * keeps its block's id).
 *
 * Tolerance: a line that is not JSON, not an object, or whose members have
 * the wrong types is skipped and reported to `onInvalid` with its line number
 * as it is met, as is a line longer than `maxLineBytes` (never held whole); invalid UTF-8 decodes as U+FFFD; a final
 * line without a newline is read. The input is read a chunk at a time, in
 * bounded memory, and a file is closed (a stream cancelled) when the
 * iteration ends, however it ends. A path is read with Deno's file API
 * (`--allow-read`), or with `node:fs` on Node and Bun, only when called; a
 * stream works on any runtime.
 *
 * @param input The transcript's path, its `file:` URL, or a stream of its bytes.
 * @param options Options.
 * @returns A lazy event source of one session.
 * @throws {EventSourceError} When the file cannot be opened or the input read (code
 * `unreadable`); the error names the input.
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
 *     '[user]\n  List the files.\n\n[agent → tool Bash]\n  {"command":"ls"}\n\n' +
 *       "[tool Bash → agent]\n  README.md\n\n[agent]\n  One file.\n",
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
  const signal = options.signal;
  // A file is read twice: first for its tree of records (which branch the model read), then
  // for its events. A stream is read once, in its order.
  const plan = isStream ? undefined : await planBranches(input, { name, maxLineBytes, signal });
  let seq = 0;
  const entry = ({ threadId, event }: Mapped): LogEntry => ({
    seq: ++seq,
    session_id: sessionId,
    thread_id: threadId,
    event,
  });
  // Before the file is opened: a consumer that stops at the note leaves nothing open.
  if (plan?.overflow === true) yield entry(overflowNote());
  const stream = isStream ? input : await openFile(input, name, "Claude Code transcript");
  const onInvalid = options.onInvalid ?? options.onSkipped;
  const lines = jsonLineBatches(stream, {
    maxLineBytes,
    name,
    signal,
    // A file this source opened answers BYOB reads; a stream given may not.
    byob: !isStream,
  });
  const mapping = {
    thinking: options.thinking ?? false,
    usage: options.usage ?? true,
    ...(options.onUnrendered === undefined ? {} : { onUnrendered: options.onUnrendered }),
  };
  const mapper = new ClaudeCodeMapper(mapping);
  const subagents = isStream
    ? undefined
    : new SubagentFiles(pathText(input), { maxLineBytes, signal });
  const rewinds = new Rewinds(plan, mapping);
  for await (const batch of lines) {
    for (const { line, value, reason } of batch) {
      if (reason !== undefined) {
        onInvalid?.(line, reason);
        continue;
      }
      if (rewinds.abandoned(line)) {
        const note = rewinds.take(value, line);
        if (note !== undefined) yield entry(note);
        continue;
      }
      if (subagents !== undefined) {
        for await (const out of subagents.before(value, mapper)) {
          if ("reason" in out) onInvalid?.(out.line, out.reason);
          else for (const mapped of out.mapped) yield entry(mapped);
        }
      }
      const mapped = mapper.map(value, line);
      if (typeof mapped === "string") {
        onInvalid?.(line, mapped);
        continue;
      }
      for (const item of mapped) yield entry(item);
    }
  }
  if (subagents !== undefined) {
    for await (const out of subagents.rest(mapper)) {
      if ("reason" in out) onInvalid?.(out.line, out.reason);
      else for (const mapped of out.mapped) yield entry(mapped);
    }
  }
  for (const item of mapper.finish()) yield entry(item);
}
