// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// The item types alone, apart from `conversation()`: the kit's internals and the built-ins
// name it, and `conversation()` imports them, so the type lives where both can reach it.

/**
 * What a {@linkcode ConversationItem} is:
 * - `message`: a user's message (`from: "user"`) or an agent's (`to: "user"`);
 * - `tool_call`: a call of a tool, its input as JSON in `text`;
 * - `tool_result`: what a tool gave back, `isError` set when it failed;
 * - `thread_message`: a message between two threads of a multi-agent session;
 * - `error`: a session error (`from: "session"`);
 * - `system`: a system note (`from: "system"`), or what an agent's harness
 *   added, by the message's `source`: its context, a hook, a recap, a notice
 *   (label `system, hook`…), a command's expansion (`from: "command /init"`),
 *   a shell command the user ran (`from: "user"`, `to: "shell"`) and its
 *   output (`from: "shell"`);
 * - `control`: an act of the user's that is not a message (`from: "user"`):
 *   the outcome the session must reach (label `user → agent, task`, its
 *   description and rubric as `text`), an interrupt (`user → every thread,
 *   interrupt`, or the thread it stopped), a denied tool call
 *   (`user → tool bash, denied`, the user's reason as `text`).
 */
export type ConversationItemKind =
  | "message"
  | "tool_call"
  | "tool_result"
  | "thread_message"
  | "error"
  | "system"
  | "control";

/**
 * One item of a conversation, as {@linkcode conversation} yields it: a plain
 * object (JSON round-trips it) saying who said what to whom, where in the
 * log it came from, and the grader's label for it.
 *
 * Speakers are the grader's: `user`, `agent` (the primary thread), `@name`
 * (a child thread, by agent name, else by thread id), `tool bash`,
 * `mcp tool server/name`, `custom tool name`, `tool result` (a result whose
 * call is not known), `system`, `session`.
 */
export interface ConversationItem {
  /** What the item is. */
  kind: ConversationItemKind;
  /** Who speaks: `user`, `agent`, `@name`, `tool bash`, `system`, `session`… */
  from: string;
  /** Who is spoken to: `agent`, `@name`, `user`, `tool bash`… */
  to: string;
  /**
   * The label the grader prints in brackets: `user`, `agent`, `@name`,
   * `user → @name`, `agent → tool bash`, `tool bash → agent, error`,
   * `agent → @name`, `system`, `system, context`, `system, hook`,
   * `system, recap`, `system, notice`, `command /init`, `user → shell`,
   * `shell → user` (`, error`), `session error`, `user → agent, task`,
   * `user → every thread, interrupt`, `user → tool bash, denied`.
   */
  label: string;
  /**
   * The text: flattened content, a call's input as JSON, or an error's
   * type and message; `(no content)` or `(no input)` when empty. Cut to the
   * item budget with a `\n[cut: N more bytes]` note when longer.
   */
  text: string;
  /** UTF-8 bytes the item budget cut from `text` (its note says so too); 0 when whole. */
  cutBytes: number;
  /**
   * On a `tool_call`, the tool's name (`bash`, `server/name` for MCP); on a
   * `tool_result`, the name of the call it answers, when that call is known.
   */
  tool?: string;
  /** On a `tool_result`: whether the tool reported an error. */
  isError?: boolean;
  /**
   * The thread the item belongs to: `null` for the primary thread, else the
   * child thread's id. A call cross-posted to the primary belongs to the child
   * that made it, and its result too.
   */
  thread: string | null;
  /** The `seq` of the log entry the item came from. */
  seq: number;
  /** The entry's `processed_at`; `null` when the event has none. */
  processedAt: string | null;
}

/**
 * An item's whole text before its cut, as the `onText` option of {@linkcode conversation}
 * is given it: redacted when the view redacts, read in part, so that a huge
 * text is neither copied whole nor scanned for secrets a second time.
 */
export interface ItemText {
  /** The text's length, in UTF-16 code units. */
  readonly length: number;
  /**
   * The text's first `units` UTF-16 code units, or all of it when it is shorter.
   *
   * @param units How many code units to read.
   * @returns The head.
   */
  head(units: number): string;
}
