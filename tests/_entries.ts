// Copyright 2026 the brigade authors. MIT license.

import type { LogEntry, SessionEvent } from "../mod.ts";

/** Builds log entries from events: seq from 1, one session, thread per row. */
export function entries(
  rows: Array<SessionEvent | [thread: string | null, event: SessionEvent]>,
  sessionId = "sesn_test",
): LogEntry[] {
  return rows.map((row, i) => {
    const [thread, event] = Array.isArray(row) ? row : [null, row];
    return { seq: i + 1, session_id: sessionId, thread_id: thread, event };
  });
}

let counter = 0;

/** A fresh event id. */
export function id(): string {
  return `sevt_${++counter}`;
}

/** A `user.message` event. */
export function user(text: string): SessionEvent {
  return { id: id(), type: "user.message", content: [{ type: "text", text }] };
}

/** An `agent.message` event. */
export function agent(text: string): SessionEvent {
  return { id: id(), type: "agent.message", content: [{ type: "text", text }] };
}

/** A `span.model_request_start` event with the given id. */
export function start(startId: string): SessionEvent {
  return { id: startId, type: "span.model_request_start" };
}

/** A `span.model_request_end` event closing `startId`. */
export function end(startId: string): SessionEvent {
  return { id: id(), type: "span.model_request_end", model_request_start_id: startId };
}

/** Freezes a value and everything in it, so a test sees any mutation as a throw. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const member of Object.values(value)) deepFreeze(member);
    Object.freeze(value);
  }
  return value;
}
