// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

import type { LogEntry } from "../events/types.ts";
import { contentText } from "./content.ts";
import { PRIMARY, type ThreadBook } from "./_threads.ts";

/**
 * The event types the renderers show: messages, tool calls and their results,
 * thread messages and session errors. Spans, status, thinking, usage and
 * outcome-evaluation events are bookkeeping, not conversation.
 */
export const CONVERSATION_TYPES: ReadonlySet<string> = new Set([
  "user.message",
  "system.message",
  "agent.message",
  "agent.tool_use",
  "agent.mcp_tool_use",
  "agent.custom_tool_use",
  "agent.tool_result",
  "agent.mcp_tool_result",
  "user.custom_tool_result",
  "user.tool_result",
  "agent.thread_message_sent",
  "agent.thread_message_received",
  "session.error",
]);

/** One rendered item: who said what, before budgets. */
export interface Item {
  /** The role label, without brackets: `user`, `agent → tool bash`, `@child → agent`. */
  label: string;
  /** The item's text. */
  body: string;
}

/** How many tool calls' names are remembered for their results. */
const TOOL_NAMES_KEPT = 4_096;

const RESULT_LINKS: Record<string, string> = {
  "agent.tool_result": "tool_use_id",
  "agent.mcp_tool_result": "mcp_tool_use_id",
  "user.custom_tool_result": "custom_tool_use_id",
  "user.tool_result": "tool_use_id",
};

/**
 * Labels and bodies of the renderers' items. It remembers the latest tool
 * calls' names by the call event's id, so a result names the tool it answers.
 */
export class ItemRenderer {
  #book: ThreadBook;
  #tools: Map<string, string> = new Map();

  /** @param book What is known of the session's threads. */
  constructor(book: ThreadBook) {
    this.#book = book;
  }

  /** The item for an entry whose type is in {@linkcode CONVERSATION_TYPES}. */
  render(entry: LogEntry): Item {
    const event = entry.event as Record<string, unknown>;
    const here = entry.thread_id ?? PRIMARY;
    switch (event.type) {
      case "user.message":
        return {
          label: here === PRIMARY ? "user" : `user → ${this.#speaker(here)}`,
          body: text(event.content),
        };
      case "system.message":
        return { label: "system", body: text(event.content) };
      case "agent.message":
        return { label: this.#speaker(here), body: text(event.content) };
      case "agent.thread_message_sent":
        return {
          label: `${this.#speaker(here)} → ${
            this.#speaker(this.#book.key(event.to_session_thread_id))
          }`,
          body: text(event.content),
        };
      case "agent.thread_message_received":
        return {
          label: `${this.#speaker(this.#book.key(event.from_session_thread_id))} → ${
            this.#speaker(here)
          }`,
          body: text(event.content),
        };
      case "session.error":
        return { label: "session error", body: errorText(event.error) };
      default:
        return Object.hasOwn(RESULT_LINKS, String(event.type))
          ? this.#result(event, here)
          : this.#call(event, here);
    }
  }

  /**
   * Remembers a call's tool name for its result. Only the latest calls are
   * kept: a result follows its call closely, and a log of a million calls must
   * not grow the renderer's memory (a result whose call is forgotten reads
   * `tool result`).
   */
  #remember(id: string, tool: string): void {
    this.#tools.set(id, tool);
    if (this.#tools.size > TOOL_NAMES_KEPT) {
      this.#tools.delete(this.#tools.keys().next().value!);
    }
  }

  #speaker(key: string): string {
    return this.#book.speaker(key);
  }

  #call(event: Record<string, unknown>, here: string): Item {
    const tool = toolName(event);
    if (typeof event.id === "string") this.#remember(event.id, tool);
    const caller = typeof event.session_thread_id === "string" && event.session_thread_id !== ""
      ? this.#book.key(event.session_thread_id)
      : here;
    return { label: `${this.#speaker(caller)} → ${tool}`, body: inputText(event.input) };
  }

  #result(event: Record<string, unknown>, here: string): Item {
    const link = event[RESULT_LINKS[event.type as string]!];
    const tool = (typeof link === "string" ? this.#tools.get(link) : undefined) ?? "tool result";
    const routed = here === PRIMARY && typeof event.session_thread_id === "string"
      ? this.#book.key(event.session_thread_id)
      : here;
    const error = event.is_error === true ? ", error" : "";
    return { label: `${tool} → ${this.#speaker(routed)}${error}`, body: text(event.content) };
  }
}

function toolName(event: Record<string, unknown>): string {
  const name = typeof event.name === "string" ? event.name : "?";
  if (event.type === "agent.mcp_tool_use") {
    const server = typeof event.mcp_server_name === "string" ? event.mcp_server_name : "?";
    return `mcp tool ${server}/${name}`;
  }
  return event.type === "agent.custom_tool_use" ? `custom tool ${name}` : `tool ${name}`;
}

function text(content: unknown): string {
  const body = contentText(content);
  return body.trim() === "" ? "(no content)" : body;
}

function inputText(input: unknown): string {
  return input === undefined ? "(no input)" : JSON.stringify(input) ?? String(input);
}

function errorText(error: unknown): string {
  if (typeof error !== "object" || error === null) return text(error);
  const { type, message, retry_status: retry } = error as Record<string, unknown>;
  const kind = typeof type === "string" ? type : "error";
  const said = typeof message === "string" && message !== "" ? `: ${message}` : "";
  const status = (retry as { type?: unknown } | null | undefined)?.type;
  return `${kind}${said}${typeof status === "string" ? ` (${status})` : ""}`;
}
