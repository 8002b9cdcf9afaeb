// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

import type { LogEntry } from "../events/types.ts";

/** An entry on its way to the grader, with whether it may move. */
export interface OrderedItem {
  /** The entry. */
  entry: LogEntry;
  /** A message a model request consumes: it moves past its thread's in-flight request. */
  movable: boolean;
}

interface Held {
  item: OrderedItem;
  arrival: number;
}

/**
 * Reorders a thread's messages to where its model consumed them. A movable
 * item that arrives while its thread has a model request in flight (between
 * `span.model_request_start` and the end naming that start) is held and
 * released just before that thread's next `span.model_request_start`; what is
 * still held at the end comes last, in arrival order. Windows are per thread.
 * An end with no matching start is ignored. The span events themselves are
 * consumed here and not yielded.
 */
export async function* consumptionOrder(
  items: AsyncIterable<OrderedItem>,
): AsyncGenerator<OrderedItem, void, undefined> {
  const open = new Map<string, Set<string>>();
  const held = new Map<string, Held[]>();
  let arrival = 0;
  for await (const item of items) {
    const thread = item.entry.thread_id ?? "";
    const event = item.entry.event;
    if (event.type === "span.model_request_start") {
      yield* release(held, thread);
      openRequests(open, thread).add(String(event.id ?? ""));
    } else if (event.type === "span.model_request_end") {
      open.get(thread)?.delete(String(event.model_request_start_id ?? ""));
    } else if (item.movable && (open.get(thread)?.size ?? 0) > 0) {
      const queue = held.get(thread) ?? [];
      queue.push({ item, arrival: arrival++ });
      held.set(thread, queue);
    } else {
      yield item;
    }
  }
  const rest = [...held.values()].flat().sort((a, b) => a.arrival - b.arrival);
  for (const { item } of rest) yield item;
}

function openRequests(open: Map<string, Set<string>>, thread: string): Set<string> {
  let requests = open.get(thread);
  if (requests === undefined) open.set(thread, requests = new Set());
  return requests;
}

function* release(held: Map<string, Held[]>, thread: string): Generator<OrderedItem> {
  const queue = held.get(thread);
  if (queue === undefined) return;
  held.delete(thread);
  for (const { item } of queue) yield item;
}
