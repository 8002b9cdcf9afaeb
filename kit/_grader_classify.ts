// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

import type { LogEntry } from "../events/types.ts";
import { JsonKeyer } from "./_json_key.ts";
import { isShown } from "./_items.ts";
import { PRIMARY, type ThreadBook } from "./_threads.ts";
import { KeyTable } from "./_key_table.ts";
import { fieldsOf } from "../events/fields.ts";

/** What the grader does with an entry. */
export type GraderRole = "drop" | "keep" | "movable" | "span";

/**
 * Whether a type is a tool call's. Compared, not looked up in a set: a type
 * parsed from a line is a string of its own, which a set would hash.
 */
function isToolCall(type: string): boolean {
  return type === "agent.tool_use" || type === "agent.mcp_tool_use" ||
    type === "agent.custom_tool_use";
}

/**
 * How many unmatched sent halves and child calls are remembered. A half is
 * matched within a few entries; a log of millions of unanswered messages must
 * not grow the grader's memory, so the oldest are forgotten (the received
 * half of a forgotten one then renders too).
 */
const PENDING_KEPT = 4_096;

/**
 * Decides, in the log's order, what the grader renders, so that each thread
 * message and each cross-posted tool call is rendered once: a received half
 * is dropped while an earlier sent half with JSON-equal content between the
 * same two threads is unmatched, and a tool call cross-posted to the primary
 * is dropped when the child's own identical call came before it.
 */
export class GraderClassifier {
  #book: ThreadBook;
  #unmatchedSent: KeyTable<number> = new KeyTable(PENDING_KEPT);
  #childCalls: KeyTable<number> = new KeyTable(PENDING_KEPT);
  /**
   * Each key a 64-bit hash in ten units, not the halves' texts: a table always full of a
   * long session's unmatched child calls holds 4,096 short keys, and none is built as a text.
   */
  #keys: JsonKeyer = new JsonKeyer();

  /** @param book What is known of the session's threads. */
  constructor(book: ThreadBook) {
    this.#book = book;
  }

  /** The role of the next entry in log order. */
  classify(entry: LogEntry): GraderRole {
    const type = entry.event.type;
    if (type === "span.model_request_start" || type === "span.model_request_end") return "span";
    if (!isShown(entry.event)) return "drop";
    if (type === "user.message") return "movable";
    if (type === "agent.thread_message_sent") {
      increment(this.#unmatchedSent, this.#messageKey(entry));
      return "keep";
    }
    if (type === "agent.thread_message_received") {
      return decrement(this.#unmatchedSent, this.#messageKey(entry)) ? "drop" : "movable";
    }
    if (isToolCall(type)) return this.#toolCall(entry);
    return "keep";
  }

  #messageKey(entry: LogEntry): string {
    const event = fieldsOf(entry.event);
    const here = entry.thread_id ?? PRIMARY;
    const [from, to] = event.type === "agent.thread_message_sent"
      ? [here, this.#book.key(event.to_session_thread_id)]
      : [this.#book.key(event.from_session_thread_id), here];
    return this.#keys.key([from, to], [event.content]);
  }

  #toolCall(entry: LogEntry): GraderRole {
    const event = fieldsOf(entry.event);
    const copyOf = event.session_thread_id;
    if (entry.thread_id === null && typeof copyOf === "string" && copyOf !== "") {
      return decrement(this.#childCalls, this.#callKey(copyOf, event)) ? "drop" : "keep";
    }
    if (entry.thread_id !== null) {
      increment(this.#childCalls, this.#callKey(entry.thread_id, event));
    }
    return "keep";
  }

  /** A call's key: its thread, its type, its name and input as canonical JSON. */
  #callKey(thread: string, event: Record<string, unknown>): string {
    return this.#keys.key([thread, String(event.type)], [event.name, event.input]);
  }
}

/** Adds one to the count under `key`, which comes last (the oldest past the limit is forgotten). */
function increment(counts: KeyTable<number>, key: string): void {
  const count = counts.get(key);
  // A key not held has no place to leave: only a held one is deleted first.
  if (count !== undefined) counts.delete(key);
  counts.set(key, (count ?? 0) + 1);
}

/** Takes one from the count under `key`; whether there was one to take. */
function decrement(counts: KeyTable<number>, key: string): boolean {
  const count = counts.get(key) ?? 0;
  if (count === 0) return false;
  if (count === 1) counts.delete(key);
  else counts.set(key, count - 1);
  return true;
}
