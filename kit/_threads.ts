// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

import type { LogEntry } from "../events/types.ts";
import { fieldsOf } from "../events/fields.ts";
import { agentLabel } from "./agent_label.ts";

/** The primary thread's key: the primary has no thread id in the log. */
export const PRIMARY = "";

/**
 * How many child threads (ids and names) are remembered. A session has a few
 * children; a log of millions of `session.thread_created` events must not
 * grow the renderers' memory, so the least recently seen are forgotten (a
 * forgotten child then reads as the primary, or by its id).
 */
export const THREADS_KEPT = 4_096;

/** Adds `key` to a bounded map as its most recent member, forgetting the oldest past `limit`. */
export function rememberBounded<K, V>(map: Map<K, V>, key: K, value: V, limit: number): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > limit) map.delete(map.keys().next().value!);
}

/**
 * What a reader of a session's log learns about its threads as it goes: which
 * ids are child threads and the agent names behind them. Events name the
 * primary thread by an id of its own (`sthr_…`) while the log stores its rows
 * with `thread_id: null`; since delegation is one level deep, an id that was
 * never seen as a child is the primary.
 */
export class ThreadBook {
  #children: Map<string, true> = new Map();
  /** Each named child's speaker (`@name`), one string that all its items share. */
  #speakers: Map<string, string> = new Map();

  /** Learns from one entry: the thread holding it, and threads its event names. */
  learn(entry: LogEntry): void {
    if (entry.thread_id !== null) this.#addChild(entry.thread_id);
    const event = fieldsOf(entry.event);
    switch (event.type) {
      case "session.thread_created":
        this.#child(event.session_thread_id, event.agent_name);
        break;
      case "agent.thread_message_sent":
        if (entry.thread_id === null) this.#child(event.to_session_thread_id, event.to_agent_name);
        break;
      case "agent.thread_message_received":
        if (entry.thread_id === null) {
          this.#child(event.from_session_thread_id, event.from_agent_name);
        }
        break;
      default:
        if (typeof event.type === "string" && event.type.startsWith("session.thread_status")) {
          this.#child(event.session_thread_id, event.agent_name);
        }
    }
  }

  /** The key of a thread id as an event names it: {@linkcode PRIMARY} unless a known child. */
  key(id: unknown): string {
    return typeof id === "string" && this.#children.has(id) ? id : PRIMARY;
  }

  /** Who speaks on a thread: `agent` on the primary, `@name` (else `@id`) on a child. */
  speaker(key: string): string {
    if (key === PRIMARY) return "agent";
    return this.#speakers.get(key) ?? `@${key}`;
  }

  #child(id: unknown, name: unknown): void {
    if (typeof id !== "string" || id === "") return;
    this.#addChild(id);
    if (typeof name === "string" && name.trim() !== "") {
      // Cut where no secret straddles the cut: the label is redacted after.
      const speaker = `@${agentLabel(name)}`;
      // The same name named again keeps its string, which the items' labels are remembered by.
      const known = this.#speakers.get(id);
      rememberBounded(this.#speakers, id, known === speaker ? known : speaker, THREADS_KEPT);
    }
  }

  #addChild(id: string): void {
    // The common case, a row of a known child, costs one lookup and no reordering.
    if (this.#children.has(id) && this.#children.size < THREADS_KEPT) return;
    rememberBounded(this.#children, id, true, THREADS_KEPT);
  }
}
