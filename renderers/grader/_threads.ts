// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// The grader's scoping by thread: the items of one thread (`thread: ID | NAME`), or each thread's
// items as a section of their own (`threads: "each"`), told from the items and from what the
// entries say of the threads' names.

import { agentLabel } from "../../kit/agent_label.ts";
import type { ConversationItem } from "../../kit/conversation_item.ts";
import type { LogEntry } from "../../events/types.ts";

/** How the primary thread is named in `thread`. */
export const PRIMARY_NAME = "primary";

/** The key of the primary thread among the sections. */
const PRIMARY = "";

/** How many threads' names are remembered: a session has a few; a log of millions must not grow this. */
const THREADS_KEPT = 4_096;

/**
 * What the entries say of the threads: each child's id and agent name, as
 * the kit learns them (a thread's creation, a status, the primary's thread
 * messages), and who speaks on it in the labels (`@name`, else `@id`).
 */
export class ThreadNames {
  #names: Map<string, string> = new Map();
  #keys: Map<string, string> = new Map();

  /** Learns from one entry: its thread, and the threads its event names. */
  learn(entry: LogEntry): void {
    if (entry.thread_id !== null) this.#child(entry.thread_id, undefined);
    const event = entry.event as unknown as Record<string, unknown>;
    const type = event.type;
    if (type === "session.thread_created" || String(type).startsWith("session.thread_status")) {
      this.#child(event.session_thread_id, event.agent_name);
    } else if (type === "agent.thread_message_sent" && entry.thread_id === null) {
      this.#child(event.to_session_thread_id, event.to_agent_name);
    } else if (type === "agent.thread_message_received" && entry.thread_id === null) {
      this.#child(event.from_session_thread_id, event.from_agent_name);
    }
  }

  /** A child's agent name, when known. */
  name(id: string): string | undefined {
    return this.#names.get(id);
  }

  /** The ids of the children named `name`. */
  idsNamed(name: string): string[] {
    return [...this.#names].filter(([, known]) => known === name).map(([id]) => id);
  }

  /** The thread key (`""` for the primary, else a child's id) a label's speaker names. */
  keyOf(speaker: string): string | undefined {
    return speaker === "agent" ? PRIMARY : this.#keys.get(speaker);
  }

  /** Who speaks on a child in the labels: `@name`, else `@id`. */
  speaker(id: string): string {
    const name = this.#names.get(id);
    return `@${name === undefined ? id : agentLabel(name)}`;
  }

  #child(id: unknown, name: unknown): void {
    if (typeof id !== "string" || id === "") return;
    if (typeof name === "string" && name.trim() !== "") {
      this.#names.delete(id);
      this.#names.set(id, name);
      if (this.#names.size > THREADS_KEPT) this.#names.delete(this.#names.keys().next().value!);
    }
    this.#keys.set(`@${id}`, id);
    this.#keys.set(this.speaker(id), id);
    if (this.#keys.size > 2 * THREADS_KEPT) this.#keys.delete(this.#keys.keys().next().value!);
  }
}

/** The thread keys an item belongs to: its own, and a thread message's other end. */
export function itemThreads(item: ConversationItem, names: ThreadNames): string[] {
  const own = item.thread ?? PRIMARY;
  if (item.kind !== "thread_message") return [own];
  const keys = [own];
  for (const speaker of [item.from, item.to]) {
    const key = names.keyOf(speaker);
    if (key !== undefined && !keys.includes(key)) keys.push(key);
  }
  return keys;
}

/**
 * Whether an item belongs to the thread `wanted` names: `primary`, a child's
 * id, or its agent name (with or without its `@`). A thread message belongs
 * to both its ends.
 */
export function inThread(item: ConversationItem, wanted: string, names: ThreadNames): boolean {
  const keys = itemThreads(item, names);
  if (wanted === PRIMARY_NAME) return keys.includes(PRIMARY);
  const bare = wanted.startsWith("@") ? wanted.slice(1) : wanted;
  return keys.some((key) =>
    key !== PRIMARY && (key === wanted || key === bare || names.name(key) === bare)
  );
}

/** A thread section's heading: `[thread agent]` for the primary, `[thread @name · id]` for a child. */
export function sectionHeading(key: string, names: ThreadNames): string {
  return key === PRIMARY ? "agent" : `${names.speaker(key)} · ${key}`;
}
