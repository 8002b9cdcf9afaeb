// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

import type { LogEntry } from "../events/types.ts";
import { contentText } from "./content.ts";
import { PRIMARY, type ThreadBook } from "./_threads.ts";
import type { ConversationItem } from "./conversation_item.ts";
import { fieldsOf } from "../events/fields.ts";
import { KeyTable } from "./_key_table.ts";

/**
 * Whether the renderers show an event: a conversation type (messages, tool
 * calls and their results, thread messages and session errors), or a control
 * type, one of the user's acts (the outcome the session was given, its task;
 * an interrupt; a denied tool call: a `user.tool_confirmation` only when it
 * denies, an allowed one is bookkeeping). Spans, status, thinking, usage and
 * outcome-evaluation events are bookkeeping, not conversation.
 *
 * A `switch`, not a set: a type parsed from a line is a string of its own,
 * which a set would hash (and most types are not shown), where a comparison
 * with each case turns most down by their lengths.
 */
export function isShown(event: LogEntry["event"]): boolean {
  switch (event.type) {
    case "user.message":
    case "system.message":
    case "agent.message":
    case "agent.tool_use":
    case "agent.mcp_tool_use":
    case "agent.custom_tool_use":
    case "agent.tool_result":
    case "agent.mcp_tool_result":
    case "user.custom_tool_result":
    case "user.tool_result":
    case "agent.thread_message_sent":
    case "agent.thread_message_received":
    case "session.error":
    case "user.define_outcome":
    case "user.interrupt":
      return true;
    case "user.tool_confirmation":
      return fieldsOf(event).result === "deny";
    default:
      return false;
  }
}

/** An item before budgets and redaction: a {@linkcode ConversationItem} with its full text. */
export type Item = ConversationItem;

/** How many tool calls' names are remembered for their results. */
const TOOL_NAMES_KEPT = 4_096;

/** How many distinct tools' pairs are shared, and the longest tool (in UTF-16 units) shared. */
const TOOLS_SHARED = 1_024;
const TOOL_UNITS_SHARED = 300;

/** The member of a tool result that names its call, or undefined for a type that is no result. */
function resultLink(type: unknown): string | undefined {
  switch (type) {
    case "agent.tool_result":
    case "user.tool_result":
      return "tool_use_id";
    case "agent.mcp_tool_result":
      return "mcp_tool_use_id";
    case "user.custom_tool_result":
      return "custom_tool_use_id";
    default:
      return undefined;
  }
}

/**
 * Labels and bodies of the renderers' items. It remembers the latest tool
 * calls' names by the call event's id, so a result names the tool it answers.
 */
export class ItemRenderer {
  #book: ThreadBook;
  #tools: KeyTable<[speaker: string, name: string]> = new KeyTable(TOOL_NAMES_KEPT);
  /** One `[speaker, name]` per distinct tool, shared by every call of it that is remembered. */
  #toolPairs: Map<string, [speaker: string, name: string]> = new Map();
  /** The pair of each plain tool (`agent.tool_use`) by its name, as `#toolPairs` holds it. */
  #namedTools: Map<string, [speaker: string, name: string]> = new Map();
  /** Labels of two speakers (`from → to`), one string each: see {@linkcode Labels}. */
  #labels = new Labels("");
  /** The same, of an error result (`from → to, error`). */
  #errorLabels = new Labels(", error");
  #seq = 0;
  #body = "";
  #thread: string | null = null;
  #processedAt: string | null = null;
  /** Builds an item of the entry being rendered; the label defaults to the speaker. */
  #make: Make = (kind, from, to, label = from) => ({
    kind,
    from,
    to,
    label,
    text: this.#body,
    cutBytes: 0,
    thread: this.#thread,
    seq: this.#seq,
    processedAt: this.#processedAt,
  });

  /** @param book What is known of the session's threads. */
  constructor(book: ThreadBook) {
    this.#book = book;
  }

  /**
   * The item for an entry the renderers show ({@linkcode isShown}),
   * with `body` as its text: {@linkcode ItemRenderer.text}, worked out (a held
   * message keeps its text, not its event).
   */
  render(entry: LogEntry, body: string): Item {
    const event = fieldsOf(entry.event);
    const here = entry.thread_id ?? PRIMARY;
    // What every item of this entry shares, read by #make (no closure per entry).
    this.#seq = entry.seq;
    this.#body = body;
    this.#thread = here === PRIMARY ? null : here;
    this.#processedAt = typeof event.processed_at === "string" ? event.processed_at : null;
    const make = this.#make;
    switch (event.type) {
      case "user.message": {
        const to = this.#speaker(here);
        return make("message", "user", to, here === PRIMARY ? "user" : `user → ${to}`);
      }
      case "system.message":
        return systemItem(event, this.#speaker(here), make);
      case "agent.message":
        return make("message", this.#speaker(here), "user");
      case "agent.thread_message_sent": {
        const from = this.#speaker(here);
        const to = this.#speaker(this.#book.key(event.to_session_thread_id));
        return make("thread_message", from, to, this.#labels.of(from, to));
      }
      case "agent.thread_message_received": {
        const from = this.#speaker(this.#book.key(event.from_session_thread_id));
        const to = this.#speaker(here);
        return make("thread_message", from, to, this.#labels.of(from, to));
      }
      case "session.error":
        return make("error", "session", this.#speaker(here), "session error");
      case "user.define_outcome": {
        const to = this.#speaker(here);
        return make("control", "user", to, `user → ${to}, task`);
      }
      case "user.interrupt": {
        const to = this.#interrupted(event);
        return make("control", "user", to, `user → ${to}, interrupt`);
      }
      case "user.tool_confirmation":
        return this.#denial(event, here, make);
      default: {
        const link = resultLink(event.type);
        return link !== undefined
          ? this.#result(event, event[link], here, make)
          : this.#call(event, here, make);
      }
    }
  }

  /** The text of an entry's item, which depends on the event alone. */
  text(entry: LogEntry): string {
    const event = fieldsOf(entry.event);
    switch (event.type) {
      case "session.error":
        return errorText(event.error);
      case "user.define_outcome":
        return outcomeText(event);
      case "user.interrupt":
        return typeof event.session_thread_id === "string" && event.session_thread_id !== ""
          ? "(the user stopped this thread's turn)"
          : "(the user stopped every thread's turn)";
      case "user.tool_confirmation":
        return typeof event.deny_message === "string" && event.deny_message.trim() !== ""
          ? event.deny_message
          : "(denied, no reason given)";
    }
    return isToolCall(event.type) ? inputText(event.input) : text(event.content);
  }

  /** Who an interrupt stops: the thread it names, else every thread. */
  #interrupted(event: Record<string, unknown>): string {
    const thread = event.session_thread_id;
    return typeof thread === "string" && thread !== ""
      ? this.#speaker(this.#book.key(thread))
      : "every thread";
  }

  /** A denied tool call: the user to the tool whose call it refused, with the reason as text. */
  #denial(event: Record<string, unknown>, here: string, make: Make): Item {
    const link = event.tool_use_id;
    const known = typeof link === "string" ? this.#tools.get(link) : undefined;
    const to = known?.[0] ?? "tool";
    const routed = here === PRIMARY && typeof event.session_thread_id === "string" &&
        event.session_thread_id !== ""
      ? this.#book.key(event.session_thread_id)
      : here;
    const denial = make("control", "user", to, `user → ${to}, denied`);
    denial.thread = routed === PRIMARY ? null : routed;
    if (known !== undefined) denial.tool = known[1];
    return denial;
  }

  /**
   * Remembers a call's tool name for its result. Only the latest calls are
   * kept: a result follows its call closely, and a log of a million calls must
   * not grow the renderer's memory (a result whose call is forgotten reads
   * `tool result`).
   */
  #remember(id: string, pair: [speaker: string, name: string]): void {
    // A known id keeps its place; past the limit the oldest is forgotten. The ids are
    // held as bytes (`KeyTable`), out of the heap, not a string and a Map entry each.
    this.#tools.set(id, pair);
  }

  /**
   * The pair remembered for a call of `tool`. A call is remembered for the next
   * {@linkcode TOOL_NAMES_KEPT} calls, long enough that V8 moves what it keeps
   * to its old generation: a pair (and two strings) of its own for each call
   * made most of what a long session left there to collect, and with the old
   * generation capped at 16 MB the heap ran out. A session calls a few tools:
   * their pairs are kept (a bounded number, forgotten all at once when full).
   */
  #toolPair(tool: string, name: string): [speaker: string, name: string] {
    if (tool.length > TOOL_UNITS_SHARED) return [tool, name];
    let pair = this.#toolPairs.get(tool);
    if (pair === undefined) {
      if (this.#toolPairs.size >= TOOLS_SHARED) this.#toolPairs.clear();
      this.#toolPairs.set(tool, pair = [tool, name]);
    }
    return pair;
  }

  #speaker(key: string): string {
    return this.#book.speaker(key);
  }

  #call(event: Record<string, unknown>, here: string, make: Make): Item {
    const pair = this.#callPair(event);
    const [tool, name] = pair;
    if (typeof event.id === "string") this.#remember(event.id, pair);
    const caller = typeof event.session_thread_id === "string" && event.session_thread_id !== ""
      ? this.#book.key(event.session_thread_id)
      : here;
    const from = this.#speaker(caller);
    const call = make("tool_call", from, tool, this.#labels.of(from, tool));
    call.thread = caller === PRIMARY ? null : caller;
    call.tool = name;
    return call;
  }

  /**
   * The shared `[speaker, name]` of a call's tool. Every item of a call of the
   * same tool then holds the same strings, not a copy each: the redaction of
   * an item's fields and the dream's headings remember them by these strings,
   * and a string used again has its hash worked out already.
   */
  #callPair(event: Record<string, unknown>): [speaker: string, name: string] {
    const name = event.name;
    if (event.type !== "agent.tool_use" || typeof name !== "string") {
      const tool = toolName(event);
      return this.#toolPair(tool, tool.slice(tool.indexOf("tool ") + 5));
    }
    let pair = this.#namedTools.get(name);
    if (pair === undefined) {
      pair = this.#toolPair(`tool ${name}`, name);
      if (name.length > TOOL_UNITS_SHARED) return pair;
      if (this.#namedTools.size >= TOOLS_SHARED) this.#namedTools.clear();
      this.#namedTools.set(name, pair);
    }
    return pair;
  }

  #result(event: Record<string, unknown>, link: unknown, here: string, make: Make): Item {
    const known = typeof link === "string" ? this.#tools.get(link) : undefined;
    const from = known?.[0] ?? "tool result";
    const routed = here === PRIMARY && typeof event.session_thread_id === "string"
      ? this.#book.key(event.session_thread_id)
      : here;
    const to = this.#speaker(routed);
    const isError = event.is_error === true;
    const label = isError ? this.#errorLabels.of(from, to) : this.#labels.of(from, to);
    const result = make("tool_result", from, to, label);
    result.thread = routed === PRIMARY ? null : routed;
    if (known !== undefined) result.tool = known[1];
    result.isError = isError;
    return result;
  }
}

/**
 * Labels of two speakers (`agent → tool bash`, `tool bash → agent, error`), one
 * string for each pair met: a session repeats a few pairs on every item, and
 * an item's label is then the string its pair's items share, not a copy of
 * its own (a bounded number of pairs, forgotten all at once when full).
 */
class Labels {
  #suffix: string;
  #byFrom: Map<string, Map<string, string>> = new Map();
  #size = 0;

  /** @param suffix What ends each label (`", error"`), after `from → to`. */
  constructor(suffix: string) {
    this.#suffix = suffix;
  }

  /** `from → to`, then the suffix. */
  of(from: string, to: string): string {
    let byTo = this.#byFrom.get(from);
    let label = byTo?.get(to);
    if (label !== undefined) return label;
    label = `${from} → ${to}${this.#suffix}`;
    if (from.length + to.length > LABEL_UNITS_SHARED) return label;
    if (this.#size >= LABELS_SHARED) {
      this.#byFrom.clear();
      this.#size = 0;
      byTo = undefined;
    }
    if (byTo === undefined) this.#byFrom.set(from, byTo = new Map());
    byTo.set(to, label);
    this.#size++;
    return label;
  }
}

/** How many labels are shared, and the longest pair (in UTF-16 units) shared. */
const LABELS_SHARED = 1_024;
const LABEL_UNITS_SHARED = 300;

/**
 * A system message by who added it, as its `source` member says (a source
 * that writes for a harness, such as `fromClaudeCode`, sets it): the
 * harness's context, a hook, a recap, a notice (`system, context`…), a
 * command's expansion (`command /init`), a shell command the user ran and
 * its output (`user → shell`, `shell → user`, `shell → user, error`); a plain
 * `system` without one.
 */
function systemItem(event: Record<string, unknown>, to: string, make: Make): Item {
  const source = event.source;
  switch (source) {
    case "context":
    case "hook":
    case "recap":
    case "notice":
      return make("system", "system", to, `system, ${source}`);
    case "command": {
      const name = typeof event.command === "string" && event.command !== ""
        ? `command ${event.command}`
        : "command";
      return make("system", name, to);
    }
    case "shell":
      return make("system", "user", "shell", "user → shell");
    case "shell_output":
      return make("system", "shell", "user", "shell → user");
    case "shell_error":
      return make("system", "shell", "user", "shell → user, error");
    default:
      return make("system", "system", to);
  }
}

/** Whether a type is a tool call's (its text is its input). */
function isToolCall(type: unknown): boolean {
  return type === "agent.tool_use" || type === "agent.mcp_tool_use" ||
    type === "agent.custom_tool_use";
}

/** Builds an item of the entry being rendered; the label defaults to the speaker. */
type Make = (kind: Item["kind"], from: string, to: string, label?: string) => Item;

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
  const { type, message, retry_status: retry, mcp_server_name: server } = error as Record<
    string,
    unknown
  >;
  const kind = typeof type === "string" ? type : "error";
  const where = typeof server === "string" && server !== "" ? ` (MCP server ${server})` : "";
  const said = typeof message === "string" && message !== "" ? `: ${message}` : "";
  const status = (retry as { type?: unknown } | null | undefined)?.type;
  return `${kind}${where}${said}${typeof status === "string" ? ` (${status})` : ""}`;
}

/** An outcome as the task it sets: its description, then its rubric (inline text, or the file it names). */
function outcomeText(event: Record<string, unknown>): string {
  const parts: string[] = [];
  if (typeof event.description === "string" && event.description.trim() !== "") {
    parts.push(event.description);
  }
  const rubric = event.rubric;
  if (typeof rubric === "object" && rubric !== null) {
    const { content, file_id: file } = rubric as Record<string, unknown>;
    if (typeof content === "string" && content.trim() !== "") {
      parts.push(`Rubric:\n${content}`);
    } else if (typeof file === "string" && file !== "") {
      parts.push(`[rubric: file ${file}]`);
    }
  } else if (typeof rubric === "string" && rubric.trim() !== "") {
    parts.push(`Rubric:\n${rubric}`);
  }
  if (typeof event.max_iterations === "number") {
    parts.push(`[at most ${event.max_iterations} iterations]`);
  }
  return parts.length === 0 ? "(no description)" : parts.join("\n\n");
}
