// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

import { commandOutput, slashCommand } from "./_commands.ts";
import { harnessMessage, hookEvent, systemEvent, words } from "./_harness.ts";
import { type Queued, SteeringQueue } from "./_queue.ts";
import { recordTitle, SessionTitle } from "./_titles.ts";
import type { OnUnrendered } from "./_unrendered.ts";
import { isInterrupt, type Voice, voicesOf } from "./_voices.ts";
import type { ContentBlock, ModelUsage, SessionEvent } from "../../events/types.ts";
import { asEvent, fieldsOf } from "../../events/fields.ts";

/** A subagent's own transcript file, as its records are mapped: who it is, what started it. */
export interface SubagentFile {
  /** The agent id its file is named after (`agent-<agentId>.jsonl`): its thread's. */
  agentId: string;
  /** The id of the tool call that started it, when known. */
  call?: string | undefined;
  /** Its thread's name, from its `.meta.json`; else the call's. */
  name?: string | undefined;
}

/** One event a record maps to, and the thread it is on. */
export interface Mapped {
  /** `null` for the main conversation, `sidechain:<agentId>` for a subagent's. */
  threadId: string | null;
  /** The event. */
  event: SessionEvent;
}

type Json = Record<string, unknown>;
type At = { processed_at?: string };

/**
 * How many subagent record uuids are remembered to drop a repeat. Repeats of
 * a progress record come close together; a bound keeps a huge transcript's
 * memory flat (a repeat further back than this renders twice).
 */
const UUIDS_KEPT = 10_000;
/** How many subagent calls (`Task` tool uses) are remembered to name their thread. */
const CALLS_KEPT = 1_000;

/** A response whose usage is known, waiting for its last record (they repeat its `message.id`). */
interface Response {
  /** The response's `message.id`. */
  id: string;
  threadId: string | null;
  usage: ModelUsage;
  speed: string | undefined;
  isError: boolean;
  at: At;
}

/** A set that forgets its oldest members past a size. */
class RecentSet {
  #members = new Set<string>();
  constructor(readonly size: number) {}
  has(value: string): boolean {
    return this.#members.has(value);
  }
  add(value: string): void {
    this.#members.add(value);
    if (this.#members.size > this.size) this.#members.delete(this.#members.values().next().value!);
  }
}

/**
 * Maps Claude Code transcript records to session events, one record at a
 * time, remembering (boundedly) what later records need: which subagent
 * records were already seen, what each subagent call was for, which threads
 * were named, and the last slash command.
 */
export class ClaudeCodeMapper {
  #seen = new RecentSet(UUIDS_KEPT);
  #announced = new RecentSet(CALLS_KEPT);
  #calls = new Map<string, SubagentCall>();
  /** The prompts of the latest subagent calls, for a sidechain record that names no call. */
  #prompts = new RecentSet(CALLS_KEPT);
  #lastCommand: string | undefined;
  /** The slash command just read, whose expansion (an `isMeta` record) may follow. */
  #expanding: string | undefined;
  #queue = new SteeringQueue();
  #title = new SessionTitle();
  /** The primary thread's model and response, for the notice of a model switch. */
  #model: string | undefined;
  #responseId: string | undefined;
  #unrendered: OnUnrendered;
  #thinking: boolean;
  #usage: boolean;
  /** Per thread, the response whose records are being read, its usage not yet emitted. */
  #responses = new Map<string, Response>();
  /** The `message.id`s whose usage was taken: a response repeated later is counted once. */
  #counted = new RecentSet(UUIDS_KEPT);

  /**
   * @param options Whether `thinking` blocks are mapped (as `agent.thinking`
   * with their text), and whether each response's usage is (as a model request's spans).
   */
  constructor(
    options: { thinking?: boolean; usage?: boolean; onUnrendered?: OnUnrendered } = {},
  ) {
    this.#thinking = options.thinking ?? false;
    this.#usage = options.usage ?? true;
    this.#unrendered = options.onUnrendered ?? (() => {});
  }

  /**
   * The spans of the responses still open at the end of the transcript: the
   * last response of each thread ends with the file.
   */
  finish(): Mapped[] {
    const { taken, unread } = this.#queue.finish();
    const out = [
      ...taken.map((message) => queuedMessage(message, `line-${message.line}:queued`, {})),
      ...[...this.#responses.values()].flatMap(requestSpans),
    ];
    for (const message of unread) this.#unrendered(message.line, "queue-operation", "never read");
    this.#responses.clear();
    return out;
  }

  /**
   * The spans of a subagent's last response when its own file ends: its
   * work is over there, before its call's result.
   */
  finishAgent(agentId: string): Mapped[] {
    const thread = threadOf(agentId);
    const open = this.#responses.get(thread);
    if (open === undefined) return [];
    this.#responses.delete(thread);
    return requestSpans(open);
  }

  /**
   * The events of one record, or why the record is unreadable.
   *
   * @param record The line's JSON value.
   * @param line The line number, for the id of a record without `uuid`.
   * @param file The subagent file the record was read from, if it was.
   */
  map(record: unknown, line: number, file?: SubagentFile): Mapped[] | string {
    if (!isObject(record)) return "the line is not a JSON object";
    if (typeof record.type !== "string") return 'the record has no string member "type"';
    // A subagent's own records (its file, or sidechain records in the parent) other than its
    // turns are not the session's: counted, never shown on the primary thread.
    const subagent = record.isSidechain === true || file !== undefined;
    if (subagent && record.type !== "user" && record.type !== "assistant") {
      if (record.type === "progress") return this.#progress(record, line);
      this.#unrendered(line, record.type, "subagent");
      return [];
    }
    switch (record.type) {
      case "user":
      case "assistant":
        break;
      case "progress":
        return this.#progress(record, line);
      case "queue-operation":
        return this.#queueOperation(record, line);
      case "system":
        return this.#system(record, line);
      case "attachment":
        return this.#attachment(record, line);
      case "summary":
      case "ai-title":
      case "custom-title":
        return this.#named(record, line);
      default:
        this.#unrendered(line, record.type, "");
        return [];
    }
    if (!subagent) return this.#primary(record, line);
    // A subagent's own file names it (its records may not): one agent, one thread, however its
    // records are split between files.
    const agentId = file?.agentId ??
      (typeof record.agentId === "string" ? record.agentId : undefined);
    const mapped = this.#delegated(this.#message(record, line, threadOf(agentId)), file?.call);
    return this.#announce(mapped, agentId, file?.call, file?.name);
  }

  /**
   * A primary-thread record: before a response's first record, the queued
   * messages its request took and no record repeated, and a notice when the
   * model changed.
   */
  #primary(record: Json, line: number): Mapped[] | string {
    const mapped = this.#message(record, line, null);
    if (typeof mapped === "string" || record.type !== "assistant") return mapped;
    const message = record.message as Json;
    const id = typeof message.id === "string" ? message.id : undefined;
    if (id === undefined || id === this.#responseId) return mapped;
    this.#responseId = id;
    const at = recordAt(record);
    const before = this.#queue.response().map((queued, n) =>
      queuedMessage(queued, `${id}:queued:${n}`, at)
    );
    const model = message.model;
    if (typeof model === "string" && model !== "<synthetic>") {
      if (this.#model !== undefined && this.#model !== model) {
        const notice = harnessMessage(
          `${id}:model`,
          at,
          "notice",
          `Model switched from ${this.#model} to ${model}`,
        );
        before.push({ threadId: null, event: notice });
      }
      this.#model = model;
    }
    return before.length === 0 ? mapped : [...before, ...mapped];
  }

  /** A `queue-operation` record: a message the person queued, shown where a request read it. */
  #queueOperation(record: Json, line: number): Mapped[] {
    switch (record.operation) {
      case "enqueue":
        this.#queue.enqueue(record.content, line);
        return [];
      case "dequeue":
        this.#queue.dequeue();
        return [];
      case "remove":
        this.#queue.remove(record.content, line);
        return [];
      case "popAll":
        for (const message of this.#queue.popAll()) {
          this.#unrendered(message.line, "queue-operation", "withdrawn");
        }
        return [];
      default:
        this.#unrendered(line, "queue-operation", String(record.operation ?? ""));
        return [];
    }
  }

  /** A `system` record: an error, a recap, a notice, a failed hook, a local command; or nothing. */
  #system(record: Json, line: number): Mapped[] {
    const id = recordId(record, line);
    const at = recordAt(record);
    const thread = sidechainThread(record);
    if (record.subtype === "local_command" && typeof record.content === "string") {
      const event = this.#command(record.content, id, at);
      if (event !== undefined) return event === null ? [] : [{ threadId: thread, event }];
    }
    const event = systemEvent(record, id, at);
    if (event === undefined) {
      this.#unrendered(line, "system", String(record.subtype ?? ""));
      return [];
    }
    return [{ threadId: thread, event }];
  }

  /** An `attachment` record: a hook's output, or a queued message given to the running turn. */
  #attachment(record: Json, line: number): Mapped[] {
    const attachment = isObject(record.attachment) ? record.attachment : {};
    const id = recordId(record, line);
    const at = recordAt(record);
    const thread = sidechainThread(record);
    if (attachment.type === "queued_command") {
      const origin = isObject(attachment.origin) ? attachment.origin.kind : undefined;
      const mode = attachment.commandMode;
      const person = (origin === undefined || origin === "human") &&
        (mode === undefined || mode === "prompt");
      if (person && thread === null) {
        const shown = this.#queue.delivered(attachment.prompt, line);
        return shown === undefined ? [] : [queuedMessage(shown, id, at)];
      }
      const text = words(attachment.prompt);
      if (text !== undefined) {
        return [{ threadId: thread, event: harnessMessage(id, at, "context", text) }];
      }
    }
    const event = hookEvent(attachment, id, at);
    if (event === undefined) {
      this.#unrendered(line, "attachment", String(attachment.type ?? ""));
      return [];
    }
    return [{ threadId: thread, event }];
  }

  /**
   * A record that names the session (`custom-title`, `ai-title`, `summary`):
   * a `session.updated` with the `title` when it is now the session's name,
   * and a `summary`'s text as a recap.
   */
  #named(record: Json, line: number): Mapped[] {
    const id = recordId(record, line);
    const at = recordAt(record);
    const out: Mapped[] = [];
    const named = recordTitle(record);
    if (named !== undefined && this.#title.take(named.title, named.source)) {
      const event = asEvent({
        id: `${id}:title`,
        type: "session.updated",
        ...at,
        title: named.title,
      });
      out.push({ threadId: null, event });
    }
    if (record.type === "summary") {
      const text = words(record.summary);
      if (text !== undefined) {
        out.push({ threadId: null, event: harnessMessage(id, at, "recap", text) });
      }
    }
    // A title a stronger one outranks was read, not dropped: only a record naming nothing counts.
    if (named === undefined && out.length === 0) this.#unrendered(line, record.type as string, "");
    return out;
  }

  /** A subagent's record carried by an `agent_progress` record: its thread's events. */
  #progress(record: Json, line: number): Mapped[] | string {
    const data = record.data;
    if (!isObject(data) || data.type !== "agent_progress" || !isObject(data.message)) {
      this.#unrendered(line, "progress", isObject(data) ? String(data.type ?? "") : "");
      return [];
    }
    const inner = data.message;
    if (inner.type !== "user" && inner.type !== "assistant") {
      this.#unrendered(line, "progress", `agent_progress ${String(inner.type ?? "")}`);
      return [];
    }
    const agentId = typeof data.agentId === "string" ? data.agentId : undefined;
    const call = typeof record.parentToolUseID === "string" ? record.parentToolUseID : undefined;
    const mapped = this.#delegated(this.#message(inner, line, threadOf(agentId)), call);
    return this.#announce(mapped, agentId, call);
  }

  /**
   * A subagent's thread holds no words of the person: what reads as a user
   * message there is the task its caller gave it. It is dropped when the call
   * that started the thread already carries it (the `Task` call's `prompt`),
   * else it becomes the delegation it is, a thread message received from the
   * calling thread.
   */
  #delegated(mapped: Mapped[] | string, call: string | undefined): Mapped[] | string {
    if (typeof mapped === "string") return mapped;
    const known = call === undefined ? undefined : this.#calls.get(call);
    const out: Mapped[] = [];
    for (const item of mapped) {
      const event = item.event;
      if (item.threadId === null || event.type !== "user.message") {
        out.push(item);
        continue;
      }
      const words = plainText(fieldsOf(event).content as string | unknown[])?.trim();
      const carried = words !== undefined &&
        (known !== undefined ? known.prompt === words : this.#prompts.has(words));
      if (carried) continue;
      const { type: _, ...rest } = fieldsOf(event);
      out.push({
        threadId: item.threadId,
        event: asEvent({
          ...rest,
          type: "agent.thread_message_received",
          from_session_thread_id: known?.thread ?? null,
        }),
      });
    }
    return out;
  }

  /**
   * Puts a `session.thread_created` before the first events of a subagent's
   * thread, naming it after the call that started it when known, else after
   * its agent id.
   */
  #announce(
    mapped: Mapped[] | string,
    agentId: string | undefined,
    call: string | undefined,
    named?: string,
  ): Mapped[] | string {
    const threadId = threadOf(agentId);
    if (typeof mapped === "string" || mapped.length === 0 || this.#announced.has(threadId)) {
      return mapped;
    }
    this.#announced.add(threadId);
    const known = named ?? (call === undefined ? undefined : this.#calls.get(call)?.name);
    const name = known ?? (agentId === undefined ? "subagent" : `subagent ${agentId}`);
    const first = mapped[0]!.event;
    const created: SessionEvent = {
      id: `${first.id}:thread`,
      type: "session.thread_created",
      ...(typeof first.processed_at === "string" ? { processed_at: first.processed_at } : {}),
      session_thread_id: threadId,
      agent_name: name,
    };
    return [{ threadId: null, event: created }, ...mapped];
  }

  /** A user or assistant record's events on `threadId`. */
  #message(record: Json, line: number, threadId: string | null): Mapped[] | string {
    const problem = envelopeProblem(record);
    if (problem !== undefined) return problem;
    if (record.isMeta === true) return this.#meta(record, line, threadId);
    const message = record.message as Json;
    if (record.type === "assistant" && message.model === "<synthetic>") {
      this.#unrendered(line, "assistant", "<synthetic>");
      return [];
    }
    const uuid = recordId(record, line);
    if (threadId !== null && typeof record.uuid === "string") {
      if (this.#seen.has(uuid)) return [];
      this.#seen.add(uuid);
    }
    const at = recordAt(record);
    const events = this.#events(record, uuid, at, threadId, line);
    // An unreadable record is skipped whole: its usage too.
    if (typeof events === "string" || record.type !== "assistant") return events;
    const ended = this.#response(record, uuid, at, threadId);
    return ended.length === 0 ? events : [...ended, ...events];
  }

  /**
   * Notes an assistant record's usage. Claude Code writes one record per
   * content block of a response, each repeating the response's `message.id`
   * and usage (the output count growing as it streamed): the response's
   * usage is its last record's, taken once. It is emitted as a model
   * request's `span.model_request_start` and `span.model_request_end`, side
   * by side, when the thread's next response begins (returned here, before
   * that record's events) or at the end of the transcript. Side by side, the
   * request holds no message in flight: the grader's order is the records'.
   */
  #response(record: Json, uuid: string, at: At, threadId: string | null): Mapped[] {
    if (!this.#usage) return [];
    const message = record.message as Json;
    const usage = modelUsage(message.usage);
    if (usage === undefined) return [];
    const id = typeof message.id === "string" && message.id !== "" ? message.id : uuid;
    const thread = threadId ?? "";
    const open = this.#responses.get(thread);
    const speed = (message.usage as Json).speed;
    const response: Response = {
      id,
      threadId,
      usage,
      speed: typeof speed === "string" ? speed : undefined,
      isError: record.isApiErrorMessage === true,
      at,
    };
    if (open?.id === id) {
      this.#responses.set(thread, response);
      return [];
    }
    const out: Mapped[] = [];
    if (open !== undefined) {
      this.#responses.delete(thread);
      out.push(...requestSpans(open));
    }
    if (this.#counted.has(id)) return out;
    this.#counted.add(id);
    this.#responses.set(thread, response);
    if (this.#responses.size > CALLS_KEPT) {
      const [oldest, first] = this.#responses.entries().next().value!;
      this.#responses.delete(oldest);
      out.push(...requestSpans(first));
    }
    return out;
  }

  /**
   * An `isMeta` user record: text Claude Code sent the model that no one
   * typed. It is shown as the expansion of the slash command just before it,
   * or as the harness's context when all of it is wrapped as such (a
   * caveat, a reminder); any other is counted as not rendered.
   */
  #meta(record: Json, line: number, threadId: string | null): Mapped[] {
    const command = this.#expanding;
    this.#expanding = undefined;
    const content = (record.message as Json).content as string | unknown[];
    const text = plainText(content);
    const id = recordId(record, line);
    const at = recordAt(record);
    if (record.type === "user" && text !== undefined && text.trim() !== "") {
      if (command !== undefined) {
        const event = harnessMessage(id, at, "command", text.trim(), { command });
        return [{ threadId, event }];
      }
      const voices = voicesOf(text);
      if (voices.length > 0 && voices.every((voice) => voice.kind !== "person")) {
        return voices.map((voice, n) => ({
          threadId,
          event: voiceEvent(voice, n === 0 ? id : `${id}:${n}`, at, undefined, true),
        }));
      }
    }
    this.#unrendered(line, String(record.type), "isMeta");
    return [];
  }

  /** A user or assistant record's own events on `threadId`. */
  #events(
    record: Json,
    uuid: string,
    at: At,
    threadId: string | null,
    line: number,
  ): Mapped[] | string {
    const message = record.message as Json;
    const content = message.content as string | unknown[];
    const on = (event: SessionEvent): Mapped[] => [{ threadId, event }];
    const role = record.type as "user" | "assistant";
    this.#expanding = undefined;

    if (role === "user") {
      const text = plainText(content);
      if (record.isCompactSummary === true) {
        const body = text ?? blocksText(content as unknown[]);
        return on({
          id: uuid,
          type: "system.message",
          ...at,
          content: `Compaction summary:\n${body}`,
        });
      }
      const special = text === undefined ? undefined : this.#commandRecord(text, uuid, at);
      if (special !== undefined) {
        const command = special[0];
        if (threadId === null && command?.type === "user.message") {
          this.#queue.command(fieldsOf(command).content as string);
        }
        return special.map((event) => ({ threadId, event }));
      }
      if (text !== undefined && isInterrupt(text)) return on(interrupt(uuid, at, threadId));
      if (text !== undefined && threadId === null && this.#queue.repeats(text)) return [];
    }
    if (typeof content === "string") {
      if (role === "assistant") {
        return content.trim() === "" ? [] : on({ id: uuid, type: "agent.message", ...at, content });
      }
      return userTextEvents(content, uuid, at, threadId, true);
    }
    const out: { index: number; sub: number; event: SessionEvent; keepId?: boolean }[] = [];
    for (const [index, raw] of content.entries()) {
      // A bare string in a content array is a text block.
      const block = typeof raw === "string" ? { type: "text", text: raw } : raw;
      if (role === "user" && isObject(block) && block.type === "text") {
        if (typeof block.text !== "string") return 'a "text" block has no string "text"';
        const parts = userTextEvents(block.text, uuid, at, threadId, false);
        parts.forEach(({ event }, sub) => out.push({ index, sub, event }));
        continue;
      }
      const event = blockEvent(role, block, uuid, at, this.#thinking);
      if (typeof event === "string") return event;
      if (event === undefined) {
        this.#unrendered(line, "block", isObject(block) ? String(block.type) : "");
        continue;
      }
      if (event.event.type === "agent.message" && blank(event.event)) continue;
      out.push({ index, sub: 0, ...event });
      if (event.event.type === "agent.tool_use") this.#rememberCall(block as Json, threadId);
    }
    const suffix = out.length > 1;
    return out.map(({ index, sub, event, keepId }) => ({
      threadId,
      event: keepId || !suffix
        ? event
        : { ...event, id: sub === 0 ? `${uuid}:${index}` : `${uuid}:${index}.${sub}` },
    }));
  }

  /**
   * A slash command record's events: the command line, then its expansion
   * when the record holds it (`<command-contents>`); a command's local output;
   * undefined for any other text.
   */
  #commandRecord(text: string, id: string, at: At): SessionEvent[] | undefined {
    const event = this.#command(text, id, at);
    if (event === undefined) return undefined;
    if (event === null) return [];
    if (event.type !== "user.message") return [event];
    const command = fieldsOf(event).command as string;
    const contents = /<command-contents>([\s\S]*?)<\/command-contents>/.exec(text)?.[1]?.trim();
    if (contents === undefined || contents === "") {
      this.#expanding = command;
      return [event];
    }
    const expansion = harnessMessage(`${id}:expansion`, at, "command", contents, { command });
    return [event, expansion];
  }

  /**
   * A slash command as one user message marked with `command`, or its local
   * output as a system message; null for an empty output, undefined for any
   * other text.
   */
  #command(text: string, id: string, at: At): SessionEvent | null | undefined {
    const command = slashCommand(text);
    if (command !== undefined) {
      this.#lastCommand = command.name;
      return { id, type: "user.message", ...at, content: command.line, command: command.name };
    }
    const output = commandOutput(text);
    if (output === undefined) return undefined;
    if (output.text === "") return null;
    const of = this.#lastCommand ?? "a command";
    const what = output.stderr ? `Error output of ${of}` : `Output of ${of}`;
    return { id, type: "system.message", ...at, content: `${what}:\n${output.text}` };
  }

  /** Remembers what a subagent call (a tool use with `subagent_type`) is for, and who made it. */
  #rememberCall(block: Json, thread: string | null): void {
    const input = block.input as Json;
    const type = typeof input.subagent_type === "string" ? input.subagent_type.trim() : "";
    const description = typeof input.description === "string" ? input.description.trim() : "";
    if (type === "" && block.name !== "Task" && block.name !== "Agent") return;
    const name = type !== "" && description !== ""
      ? `${type} (${description})`
      : type || description || "subagent";
    const prompt = typeof input.prompt === "string" ? input.prompt.trim() : "";
    this.#calls.set(block.id as string, { name, prompt, thread });
    if (prompt !== "") this.#prompts.add(prompt);
    if (this.#calls.size > CALLS_KEPT) this.#calls.delete(this.#calls.keys().next().value!);
  }
}

/** A queued message as the person's `user.message`, on the primary thread. */
function queuedMessage(queued: Queued, id: string, at: At): Mapped {
  return {
    threadId: null,
    event: { id, type: "user.message", ...at, content: queued.content } as SessionEvent,
  };
}

/** Claude Code's note that the person stopped the request, as the interrupt it is. */
function interrupt(id: string, at: At, threadId: string | null): SessionEvent {
  return {
    id,
    type: "user.interrupt",
    ...at,
    ...(threadId === null ? {} : { session_thread_id: threadId }),
  };
}

/**
 * The events of a user text, one a voice: the person's words as a
 * `user.message` (a text that is all theirs keeps its shape: the string, or
 * one text block), the harness's parts as system messages marked with who
 * added them, an interrupt note as `user.interrupt`. Their ids are the
 * record's; the caller suffixes them.
 */
function userTextEvents(
  text: string,
  id: string,
  at: At,
  threadId: string | null,
  asString: boolean,
): Mapped[] {
  if (isInterrupt(text)) return [{ threadId, event: interrupt(id, at, threadId) }];
  const voices = voicesOf(text);
  const whole = voices.length === 1 && voices[0]!.kind === "person" && voices[0]!.text === text;
  return voices.map((voice, n) => ({
    threadId,
    event: voiceEvent(
      voice,
      asString && n > 0 ? `${id}:${n}` : id,
      at,
      whole ? text : undefined,
      asString,
    ),
  }));
}

/** One voice of a user text as its event. */
function voiceEvent(
  voice: Voice,
  id: string,
  at: At,
  whole: string | undefined,
  asString: boolean,
): SessionEvent {
  if (voice.kind !== "person") return harnessMessage(id, at, voice.kind, voice.text);
  const text = whole ?? voice.text;
  const content = asString ? text : [{ type: "text" as const, text }];
  return { id, type: "user.message", ...at, content };
}

/** Whether an agent message holds no words (Claude Code writes `"\n\n"` texts). */
function blank(event: SessionEvent): boolean {
  const content = fieldsOf(event).content;
  if (typeof content === "string") return content.trim() === "";
  return Array.isArray(content) &&
    content.every((b) => isObject(b) && b.type === "text" && String(b.text).trim() === "");
}

function stringOr(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/** A subagent call: the thread's name, the task it was given, the thread that made it. */
interface SubagentCall {
  name: string;
  prompt: string;
  thread: string | null;
}

/** A response's usage as one model request: its start and, next to it, its end. */
function requestSpans(response: Response): Mapped[] {
  const start = `${response.id}:request`;
  const usage = response.speed === undefined
    ? response.usage
    : { ...response.usage, speed: response.speed };
  return [
    {
      threadId: response.threadId,
      event: { id: start, type: "span.model_request_start", ...response.at },
    },
    {
      threadId: response.threadId,
      event: {
        id: `${response.id}:usage`,
        type: "span.model_request_end",
        ...response.at,
        model_request_start_id: start,
        is_error: response.isError,
        model_usage: usage,
      },
    },
  ];
}

/** The token counts of a `message.usage` object; undefined when it holds none. */
function modelUsage(value: unknown): ModelUsage | undefined {
  if (!isObject(value)) return undefined;
  const usage: ModelUsage = {};
  let found = false;
  for (const key of USAGE_KEYS) {
    const count = value[key];
    if (typeof count === "number" && Number.isSafeInteger(count) && count >= 0) {
      usage[key] = count;
      found = true;
    }
  }
  return found ? usage : undefined;
}

const USAGE_KEYS = [
  "input_tokens",
  "output_tokens",
  "cache_creation_input_tokens",
  "cache_read_input_tokens",
] as const;

/** A record's id: its `uuid`, or its line's place when it has none. */
function recordId(record: Json, line: number): string {
  return typeof record.uuid === "string" ? record.uuid : `line-${line}`;
}

/** A record's time, as an event's `processed_at` (none when it has no `timestamp`). */
function recordAt(record: Json): At {
  return typeof record.timestamp === "string" ? { processed_at: record.timestamp } : {};
}

/** The thread of a sidechain record (a subagent's), `null` for the primary thread's. */
function sidechainThread(record: Json): string | null {
  return record.isSidechain === true ? threadOf(stringOr(record.agentId)) : null;
}

/** A subagent's thread: `sidechain:<agentId>`, `sidechain` without an id. */
function threadOf(agentId: string | undefined): string {
  return agentId === undefined ? "sidechain" : `sidechain:${agentId}`;
}

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function optional(value: unknown, type: "string" | "boolean"): boolean {
  return value === undefined || value === null || typeof value === type;
}

/** The text of a string content or of a content made only of text blocks; else undefined. */
function plainText(content: string | unknown[]): string | undefined {
  if (typeof content === "string") return content;
  if (content.length === 0) return undefined;
  const texts: string[] = [];
  for (const block of content) {
    if (typeof block === "string") {
      texts.push(block);
      continue;
    }
    if (!isObject(block) || block.type !== "text" || typeof block.text !== "string") {
      return undefined;
    }
    texts.push(block.text);
  }
  return texts.join("\n");
}

function blocksText(content: unknown[]): string {
  return content
    .filter((b): b is { type: "text"; text: string } =>
      isObject(b) && b.type === "text" && typeof b.text === "string"
    )
    .map((b) => b.text).join("\n");
}

/** Why a user or assistant record's members have the wrong types, if they do. */
function envelopeProblem(record: Json): string | undefined {
  if (!optional(record.uuid, "string")) return 'the record\'s "uuid" is not a string';
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
  at: At,
  thinking: boolean,
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
    case "tool_result":
      return role === "user" ? toolResult(block, uuid, at) : undefined;
    case "thinking":
      if (!thinking || role !== "assistant" || typeof block.thinking !== "string") return undefined;
      if (block.thinking.trim() === "") return undefined;
      return { event: { id: uuid, type: "agent.thinking", ...at, thinking: block.thinking } };
    default:
      return undefined;
  }
}

/**
 * A block of a tool result as the renderers read it: a `tool_reference` (a
 * tool a search loaded, by name) as a text naming the tool, a bare string as
 * a text block; any other unchanged.
 */
function resultBlock(block: unknown): unknown {
  if (typeof block === "string") return { type: "text", text: block };
  if (!isObject(block) || block.type !== "tool_reference") return block;
  const name = typeof block.tool_name === "string" ? block.tool_name : "?";
  return { type: "text", text: `[tool_reference: ${name}]` };
}

function toolResult(block: Json, uuid: string, at: At): { event: SessionEvent } | string {
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
      content: (Array.isArray(content) ? content.map(resultBlock) : content ?? null) as
        | string
        | ContentBlock[]
        | null,
      is_error: (block.is_error ?? null) as boolean | null,
    },
  };
}
