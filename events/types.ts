// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

/**
 * The log entry and the Managed Agents session event types (beta
 * `managed-agents-2026-04-01`) that the renderers consume.
 *
 * The event set is open: an event whose `type` is not listed here is still a
 * {@linkcode SessionEvent} (as {@linkcode UnknownEvent}) and passes through
 * every source and renderer without an error.
 *
 * @module
 */

/** A `text` content block. */
export interface TextBlock {
  /** Block discriminator. */
  type: "text";
  /** The text. */
  text: string;
}

/** Where an image or document block's bytes come from. */
export interface BlockSource {
  /** `"base64"`, `"url"`, `"file"` or `"text"`. */
  type: string;
  /** Inline data (base64, or plain text for a `"text"` document source). */
  data?: string;
  /** The media type of inline data. */
  media_type?: string;
  /** The address of a `"url"` source. */
  url?: string;
  /** The id of a `"file"` source. */
  file_id?: string;
}

/** An `image` content block. */
export interface ImageBlock {
  /** Block discriminator. */
  type: "image";
  /** Where the image comes from. */
  source: BlockSource;
}

/** A `document` content block. */
export interface DocumentBlock {
  /** Block discriminator. */
  type: "document";
  /** Where the document comes from. */
  source: BlockSource;
  /** The document's title, when given. */
  title?: string | null;
  /** Context the sender attached to the document. */
  context?: string | null;
}

/** A `search_result` block: evidence a search tool returned. */
export interface SearchResultBlock {
  /** Block discriminator. */
  type: "search_result";
  /** The result's URL (a string, not an object). */
  source: string;
  /** The result's title. */
  title: string;
  /** The result's text, as text blocks. */
  content: TextBlock[];
  /** Whether citations are enabled for this result. */
  citations?: { enabled: boolean };
}

/** A `redacted` block: content the platform withholds. */
export interface RedactedBlock {
  /** Block discriminator. */
  type: "redacted";
}

/** A block of a type this module does not know; it passes through. */
export interface UnknownBlock {
  /** Block discriminator. */
  type: string;
  /** Any other fields. */
  [field: string]: unknown;
}

/** One content block. */
export type ContentBlock =
  | TextBlock
  | ImageBlock
  | DocumentBlock
  | SearchResultBlock
  | RedactedBlock
  | UnknownBlock;

/**
 * A content field: an array of blocks (the API's form) or a plain string
 * (logs written by other tools).
 */
export type Content = string | ContentBlock[];

/** The fields every event carries. */
export interface EventEnvelope {
  /** The event id (`sevt_…`), opaque; may be empty on interrupt echoes. */
  id: string;
  /** `{domain}.{action}`. */
  type: string;
  /** When the server processed the event (RFC 3339); null while queued. */
  processed_at?: string | null;
}

/** `user.message`: what the user sent. */
export interface UserMessageEvent extends EventEnvelope {
  /** Event discriminator. */
  type: "user.message";
  /** The message. */
  content: Content;
  /**
   * Set when the message is a slash command the user typed rather than a
   * prompt: the command's name with its slash (`"/exit"`). `fromClaudeCode`
   * sets it; the content is then the command line (`"/model opus"`).
   */
  command?: string;
}

/** `user.interrupt`: the user stopped a thread, or every thread. */
export interface UserInterruptEvent extends EventEnvelope {
  /** Event discriminator. */
  type: "user.interrupt";
  /** The thread interrupted; absent means every thread. */
  session_thread_id?: string | null;
}

/** `user.tool_confirmation`: the user allowed or denied a tool call. */
export interface UserToolConfirmationEvent extends EventEnvelope {
  /** Event discriminator. */
  type: "user.tool_confirmation";
  /** The id of the `agent.tool_use` or `agent.mcp_tool_use` event. */
  tool_use_id: string;
  /** `"allow"` or `"deny"`. */
  result: string;
  /** Why, on a deny. */
  deny_message?: string | null;
  /** The thread the call came from, when not the primary. */
  session_thread_id?: string | null;
}

/** `user.custom_tool_result`: the client's answer to a custom tool call. */
export interface UserCustomToolResultEvent extends EventEnvelope {
  /** Event discriminator. */
  type: "user.custom_tool_result";
  /** The id of the `agent.custom_tool_use` event. */
  custom_tool_use_id: string;
  /** The result. */
  content?: Content | null;
  /** Whether the result is an error. */
  is_error?: boolean | null;
  /** The thread the call came from, when not the primary. */
  session_thread_id?: string | null;
}

/** `user.tool_result`: a built-in tool's result run by a self-hosted client. */
export interface UserToolResultEvent extends EventEnvelope {
  /** Event discriminator. */
  type: "user.tool_result";
  /** The id of the `agent.tool_use` event. */
  tool_use_id: string;
  /** The result. */
  content?: Content | null;
  /** Whether the result is an error. */
  is_error?: boolean | null;
  /** The thread the call came from, when not the primary. */
  session_thread_id?: string | null;
}

/**
 * `user.define_outcome`: the outcome a grader judges the session against; the
 * renderers show it as the session's task.
 */
export interface UserDefineOutcomeEvent extends EventEnvelope {
  /** Event discriminator. */
  type: "user.define_outcome";
  /** What the outcome is. */
  description?: string;
  /** The rubric: inline (`{ type: "text", content }`) or a file (`{ type: "file", file_id }`). */
  rubric?: unknown;
  /** How many grading iterations the session may take; null when unbounded. */
  max_iterations?: number | null;
  /** The outcome id (`outc_…`). */
  outcome_id?: string;
}

/** `system.message`: a system-role turn. */
export interface SystemMessageEvent extends EventEnvelope {
  /** Event discriminator. */
  type: "system.message";
  /** The message (text blocks). */
  content: Content;
  /**
   * Who added the message, when a source knows (not in the API: `fromClaudeCode`
   * sets it for what Claude Code's harness adds): `"context"` (reminders, IDE
   * context, a caveat), `"hook"`, `"recap"`, `"notice"`, `"command"` (a slash
   * command's expansion, with `command`), `"shell"`, `"shell_output"`,
   * `"shell_error"` (a command the user ran in bash mode, and its output). The
   * renderers label the message by it (`system, hook`, `command /init`,
   * `user → shell`); any other value, or none, reads `system`.
   */
  source?: string;
  /** With `source: "command"`: the command expanded, with its slash (`"/init"`). */
  command?: string;
}

/** `agent.message`: what the agent said. */
export interface AgentMessageEvent extends EventEnvelope {
  /** Event discriminator. */
  type: "agent.message";
  /** The message (text or redacted blocks). */
  content: Content;
}

/**
 * `agent.thinking`: a progress marker; Managed Agents never exposes the
 * thinking itself.
 */
export interface AgentThinkingEvent extends EventEnvelope {
  /** Event discriminator. */
  type: "agent.thinking";
  /**
   * The thinking's text, where the source records it: a Claude Code
   * transcript's `thinking` blocks, read with `fromClaudeCode(…, { thinking: true })`.
   * Only the html renderer shows it.
   */
  thinking?: string;
}

/** The fields of the three tool-call events. */
export interface ToolCallFields {
  /** The tool's name. */
  name: string;
  /** The tool's input. */
  input: Record<string, unknown>;
  /** Set only on a copy cross-posted from a child thread to the primary. */
  session_thread_id?: string | null;
}

/** `agent.tool_use`: a built-in tool call. */
export interface AgentToolUseEvent extends EventEnvelope, ToolCallFields {
  /** Event discriminator. */
  type: "agent.tool_use";
  /** The permission the call was evaluated to. */
  evaluated_permission?: string | null;
}

/** `agent.tool_result`: a built-in tool's result. */
export interface AgentToolResultEvent extends EventEnvelope {
  /** Event discriminator. */
  type: "agent.tool_result";
  /** The id of the `agent.tool_use` event. */
  tool_use_id: string;
  /** The result. */
  content?: Content | null;
  /** Whether the result is an error. */
  is_error?: boolean | null;
}

/** `agent.mcp_tool_use`: a call to an MCP server's tool. */
export interface AgentMcpToolUseEvent extends EventEnvelope, ToolCallFields {
  /** Event discriminator. */
  type: "agent.mcp_tool_use";
  /** The MCP server the tool belongs to. */
  mcp_server_name: string;
  /** The permission the call was evaluated to. */
  evaluated_permission?: string | null;
}

/** `agent.mcp_tool_result`: an MCP tool's result. */
export interface AgentMcpToolResultEvent extends EventEnvelope {
  /** Event discriminator. */
  type: "agent.mcp_tool_result";
  /** The id of the `agent.mcp_tool_use` event. */
  mcp_tool_use_id: string;
  /** The result. */
  content?: Content | null;
  /** Whether the result is an error. */
  is_error?: boolean | null;
}

/** `agent.custom_tool_use`: a call to a tool the client implements. */
export interface AgentCustomToolUseEvent extends EventEnvelope, ToolCallFields {
  /** Event discriminator. */
  type: "agent.custom_tool_use";
}

/** `agent.thread_context_compacted`: the thread's context was compacted. */
export interface AgentThreadContextCompactedEvent extends EventEnvelope {
  /** Event discriminator. */
  type: "agent.thread_context_compacted";
  /** Tokens before compaction, when the platform says. */
  pre_compaction_tokens?: number;
}

/** `agent.thread_message_sent`: the sender's half of a thread message. */
export interface AgentThreadMessageSentEvent extends EventEnvelope {
  /** Event discriminator. */
  type: "agent.thread_message_sent";
  /** The receiving thread. */
  to_session_thread_id: string;
  /** The receiving agent's name; absent when it is the primary agent. */
  to_agent_name?: string | null;
  /** The message. */
  content: Content;
}

/** `agent.thread_message_received`: the receiver's half of a thread message. */
export interface AgentThreadMessageReceivedEvent extends EventEnvelope {
  /** Event discriminator. */
  type: "agent.thread_message_received";
  /** The sending thread. */
  from_session_thread_id: string;
  /** The sending agent's name; absent when it is the primary agent. */
  from_agent_name?: string | null;
  /** The message. */
  content: Content;
}

/** The error a `session.error` event reports. */
export interface SessionErrorDetail {
  /** The error's kind (an open set). */
  type: string;
  /** What went wrong. */
  message?: string;
  /** Whether the platform retries. */
  retry_status?: { type: string } | null;
  /** The MCP server the error concerns (`mcp_*` error types). */
  mcp_server_name?: string | null;
}

/** `session.error`: the session hit an error. */
export interface SessionErrorEvent extends EventEnvelope {
  /** Event discriminator. */
  type: "session.error";
  /** The error. */
  error: SessionErrorDetail;
}

/** `session.thread_created`: a child thread was started. */
export interface SessionThreadCreatedEvent extends EventEnvelope {
  /** Event discriminator. */
  type: "session.thread_created";
  /** The new thread. */
  session_thread_id: string;
  /** The agent that runs it. */
  agent_name: string;
}

/** `span.model_request_start`: a model request began. */
export interface SpanModelRequestStartEvent extends EventEnvelope {
  /** Event discriminator. */
  type: "span.model_request_start";
}

/** Token counts of one model request. */
export interface ModelUsage {
  /** Input tokens. */
  input_tokens?: number;
  /** Output tokens. */
  output_tokens?: number;
  /** Tokens written to the prompt cache. */
  cache_creation_input_tokens?: number;
  /** Tokens read from the prompt cache. */
  cache_read_input_tokens?: number;
}

/** `span.model_request_end`: a model request ended. */
export interface SpanModelRequestEndEvent extends EventEnvelope {
  /** Event discriminator. */
  type: "span.model_request_end";
  /** The id of the matching `span.model_request_start`. */
  model_request_start_id: string;
  /** Whether the request failed. */
  is_error?: boolean | null;
  /** This request's usage. */
  model_usage?: ModelUsage;
}

/**
 * An event of a type this module does not know, or knows only by name. It
 * declares only the envelope, with no index signature, so that any event
 * interface (the official SDK's, a team's own) is assignable to it; its other
 * fields are still there at run time, unchanged (read them through a
 * `Record<string, unknown>` view).
 */
export interface UnknownEvent extends EventEnvelope {}

/** The event types this module reads fields of. */
export type KnownSessionEvent =
  | UserMessageEvent
  | UserInterruptEvent
  | UserToolConfirmationEvent
  | UserCustomToolResultEvent
  | UserToolResultEvent
  | UserDefineOutcomeEvent
  | SystemMessageEvent
  | AgentMessageEvent
  | AgentThinkingEvent
  | AgentToolUseEvent
  | AgentToolResultEvent
  | AgentMcpToolUseEvent
  | AgentMcpToolResultEvent
  | AgentCustomToolUseEvent
  | AgentThreadContextCompactedEvent
  | AgentThreadMessageSentEvent
  | AgentThreadMessageReceivedEvent
  | SessionErrorEvent
  | SessionThreadCreatedEvent
  | SpanModelRequestStartEvent
  | SpanModelRequestEndEvent;

/**
 * One Managed Agents session event, as the API returns it: a known type, or
 * any other type with its fields unchanged (the set is open).
 */
export type SessionEvent = KnownSessionEvent | UnknownEvent;

/** The known event types by their `type` string. */
export type EventOfType<T extends KnownSessionEvent["type"]> = Extract<
  KnownSessionEvent,
  { type: T }
>;

/**
 * One row of a session's event log: the API's event, unchanged, plus what the
 * log that stores it adds.
 */
export interface LogEntry {
  /** Strictly increasing within one session's log; the paging keyset (from 1). */
  seq: number;
  /** The session the event belongs to. */
  session_id: string;
  /** The thread whose log holds the event; `null` is the primary thread. */
  thread_id: string | null;
  /** The API's event object, unchanged. */
  event: SessionEvent;
}

/**
 * Which rows a session source yields: `"session"` is the coordinator's view
 * (the primary thread's rows), `"all"` is every thread.
 */
export type Scope = "session" | "all";

/**
 * Narrows an event to a known type by its `type` string.
 *
 * @param event The event to test.
 * @param type The type to test for.
 * @returns Whether `event.type` is `type`.
 *
 * @example Usage
 * ```ts
 * import { isEventType, type SessionEvent } from "@brigade/transcript";
 * import assert from "node:assert/strict";
 *
 * const event: SessionEvent = { id: "sevt_1", type: "agent.message", content: "hi" };
 * if (isEventType(event, "agent.message")) assert.equal(event.content, "hi");
 * assert.ok(!isEventType(event, "user.message"));
 * ```
 */
export function isEventType<T extends KnownSessionEvent["type"]>(
  event: SessionEvent,
  type: T,
): event is EventOfType<T> {
  return event.type === type;
}

/** Anything that yields log entries: an array, a generator, a stream, a source. */
export type EntryIterable = Iterable<LogEntry> | AsyncIterable<LogEntry>;

/** An event source: the one input every renderer consumes. */
export type EventSource = AsyncIterable<LogEntry>;
