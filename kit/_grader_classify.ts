// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

import type { LogEntry } from "../events/types.ts";
import { canonicalJson } from "./_canonical_json.ts";
import { digest } from "./_compact.ts";
import { isShown } from "./_items.ts";
import { PRIMARY, type ThreadBook } from "./_threads.ts";
import { KeyTable } from "./_key_table.ts";
import { fieldsOf } from "../events/fields.ts";

/** What the grader does with an entry. */
export type GraderRole = "drop" | "keep" | "movable" | "span";

const TOOL_CALLS = new Set(["agent.tool_use", "agent.mcp_tool_use", "agent.custom_tool_use"]);

/**
 * How many unmatched sent halves and child calls are remembered. A half is
 * matched within a few entries; a log of millions of unanswered messages must
 * not grow the grader's memory, so the oldest are forgotten (the received
 * half of a forgotten one then renders too).
 */
const PENDING_KEPT = 4_096;

/**
 * Keys longer than this many UTF-16 units are kept as a head, a digest and a
 * length. Up to {@linkcode PENDING_KEPT} keys are remembered a map, and in a
 * log whose child calls are never cross-posted that map is always full: at
 * 512 units a key (a two-byte string, for the `…` of a shown text) it held
 * 2.4 MB, which with V8's old generation capped at 16 MB left too little room
 * to promote the young generation into: every scavenge became a full
 * mark-compact, then the heap ran out. A key is never shown, so it needs
 * neither a readable head nor a cut clear of secrets: about 70 bytes each.
 */
const KEY_UNITS_KEPT = 64;

/** The head a longer key keeps: with its digest and length, it tells two keys apart. */
const KEY_HEAD_UNITS = 32;

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
    if (TOOL_CALLS.has(type)) return this.#toolCall(entry);
    return "keep";
  }

  #messageKey(entry: LogEntry): string {
    const event = fieldsOf(entry.event);
    const here = entry.thread_id ?? PRIMARY;
    const [from, to] = event.type === "agent.thread_message_sent"
      ? [here, this.#book.key(event.to_session_thread_id)]
      : [this.#book.key(event.from_session_thread_id), here];
    return compactKey(`${from}\u0000${to}\u0000${canonicalJson(event.content)}`);
  }

  #toolCall(entry: LogEntry): GraderRole {
    const event = fieldsOf(entry.event);
    const copyOf = event.session_thread_id;
    if (entry.thread_id === null && typeof copyOf === "string" && copyOf !== "") {
      return decrement(this.#childCalls, callKey(copyOf, event)) ? "drop" : "keep";
    }
    if (entry.thread_id !== null) increment(this.#childCalls, callKey(entry.thread_id, event));
    return "keep";
  }
}

function callKey(thread: string, event: Record<string, unknown>): string {
  return compactKey(
    `${thread}\u0000${event.type}\u0000${canonicalJson(event.name)}\u0000${
      canonicalJson(event.input)
    }`,
  );
}

/**
 * A key short enough to remember: a longer one as its head, a digest of the
 * whole and its length, joined into a string of its own (a slice would keep
 * the whole key alive).
 */
function compactKey(key: string): string {
  if (key.length <= KEY_UNITS_KEPT) return key;
  return [key.slice(0, KEY_HEAD_UNITS), "\u0000", digest(key), "/", key.length].join("");
}

/** Adds one to the count under `key`, which comes last (the oldest past the limit is forgotten). */
function increment(counts: KeyTable<number>, key: string): void {
  const count = counts.get(key) ?? 0;
  counts.delete(key);
  counts.set(key, count + 1);
}

/** Takes one from the count under `key`; whether there was one to take. */
function decrement(counts: KeyTable<number>, key: string): boolean {
  const count = counts.get(key) ?? 0;
  if (count === 0) return false;
  if (count === 1) counts.delete(key);
  else counts.set(key, count - 1);
  return true;
}
