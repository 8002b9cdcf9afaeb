// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// What the session's own events (the primary thread's) say of its state, as
// they are listed or streamed: whether it has terminated, whether its last
// turn has ended, and whether the listing has caught up with the status the
// session resource reports.

import type { Item } from "./_pages.ts";

/** The event types after which a session sends nothing more. */
export const SESSION_END_TYPES: ReadonlySet<string> = new Set([
  "session.status_terminated",
  "session.deleted",
]);

/**
 * Whether `type` is one of {@linkcode SESSION_END_TYPES}, by comparison: the
 * follow asks it of every event, whose type, fresh from `JSON.parse`, has no
 * hash for a `Set` yet.
 */
export function endsSession(type: unknown): boolean {
  return type === "session.status_terminated" || type === "session.deleted";
}

/**
 * The `stop_reason` types of a `session.status_idle` that end a turn: the
 * session waits for a user message. `requires_action` waits on the client in
 * the middle of a turn; an unknown type (the set is open) is not taken to end
 * one.
 */
const TURN_END_REASONS: ReadonlySet<string> = new Set([
  "end_turn",
  "retries_exhausted",
  "budget_reached",
  "refusal",
]);

/** The user's events that set the session to work: a status change must follow them. */
const USER_INPUT_TYPES: ReadonlySet<string> = new Set([
  "user.message",
  "user.define_outcome",
  "user.tool_confirmation",
  "user.custom_tool_result",
  "user.tool_result",
]);

/** The status event the session resource's `status` implies a listing ends with, if any. */
export function impliedStatusEvent(session: unknown): string | undefined {
  const status = (session as { status?: unknown } | null | undefined)?.status;
  if (status === "idle") return "session.status_idle";
  if (status === "terminated") return "session.status_terminated";
  return undefined;
}

/** Whether the session resource says it is at work (`running`, `rescheduling`). */
export function isRunning(session: unknown): boolean {
  const status = (session as { status?: unknown } | null | undefined)?.status;
  return status === "running" || status === "rescheduling";
}

/** Whether an event is a `session.status_idle` that ends a turn. */
export function endsTurn(item: Item): boolean {
  if (item.type !== "session.status_idle") return false;
  const reason = (item.stop_reason as { type?: unknown } | null | undefined)?.type;
  return typeof reason === "string" && TURN_END_REASONS.has(reason);
}

/** The state the primary thread's events, seen in order, leave the session in. */
export class SessionState {
  /** The last `session.status_*` (or `session.deleted`) event seen. */
  #status: Item | undefined;
  /** Whether a user input or an agent event came after it: another status must follow. */
  #pending = false;

  /** Takes one event of the primary thread into account. */
  observe(item: Item): void {
    const type = item.type as string;
    if (type.startsWith("session.status_") || type === "session.deleted") {
      this.#status = item;
      this.#pending = false;
    } else if (USER_INPUT_TYPES.has(type) || type.startsWith("agent.")) {
      this.#pending = true;
    }
  }

  /** Whether any status event was seen: a session that never ran has none. */
  get sawStatus(): boolean {
    return this.#status !== undefined;
  }

  /** Whether the session has terminated (or was deleted): nothing follows. */
  get ended(): boolean {
    return this.#status !== undefined && SESSION_END_TYPES.has(this.#status.type as string);
  }

  /** Whether the events end on a turn-ending idle, with nothing after it but bookkeeping. */
  get turnEnded(): boolean {
    return !this.#pending && this.#status !== undefined && endsTurn(this.#status);
  }

  /** Whether the events end on the status event `type`, with nothing after it but bookkeeping. */
  shows(type: string): boolean {
    return !this.#pending && this.#status?.type === type;
  }
}
