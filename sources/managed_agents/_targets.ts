// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// The API paths a session is read from, each named for the errors about it.

import type { ListTarget } from "./_http.ts";

/** The session's path under `/v1/`, its id encoded. */
function sessionPath(sessionId: string): string {
  return `sessions/${encodeURIComponent(sessionId)}`;
}

/** The session itself (`GET /v1/sessions/{id}`), read for its `status`. */
export function sessionTarget(sessionId: string): ListTarget {
  const source = sessionPath(sessionId);
  return { path: `/v1/${source}`, source, what: `session "${sessionId}" (its status)` };
}

/** The session's stored events: the primary thread's. */
export function eventsTarget(sessionId: string): ListTarget {
  const source = `${sessionPath(sessionId)}/events`;
  return { path: `/v1/${source}`, source, what: `events of session "${sessionId}"` };
}

/** The session's threads. */
export function threadsTarget(sessionId: string): ListTarget {
  const source = `${sessionPath(sessionId)}/threads`;
  return { path: `/v1/${source}`, source, what: `threads of session "${sessionId}"` };
}

/** The event stream of the session (`threadId` null) or of one of its threads. */
export function streamTarget(sessionId: string, threadId: string | null): ListTarget {
  if (threadId === null) {
    const source = `${sessionPath(sessionId)}/events/stream`;
    return { path: `/v1/${source}`, source, what: `events of session "${sessionId}" (streamed)` };
  }
  const source = `${sessionPath(sessionId)}/threads/${encodeURIComponent(threadId)}/stream`;
  const what = `events of thread "${threadId}" of session "${sessionId}" (streamed)`;
  return { path: `/v1/${source}`, source, what };
}

/** The stored events of one thread of the session. */
export function threadEventsTarget(sessionId: string, threadId: string): ListTarget {
  const source = `${sessionPath(sessionId)}/threads/${encodeURIComponent(threadId)}/events`;
  const what = `events of thread "${threadId}" of session "${sessionId}"`;
  return { path: `/v1/${source}`, source, what };
}
