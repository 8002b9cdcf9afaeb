// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

import type { EntryIterable, LogEntry } from "./types.ts";
import { checkedEntries } from "./validate.ts";

/** One session's run of entries in a source of several. */
export interface SessionGroup {
  /** The session's id. */
  sessionId: string;
  /** The session's entries, read lazily from the shared source. */
  entries: AsyncIterable<LogEntry>;
}

/**
 * Splits a source that holds several sessions, one after another, into one
 * group per run of entries with the same `session_id`. Lazy: a group's
 * entries are read from the source as they are consumed, and moving to the
 * next group skips what was left of the current one. Consume the groups in
 * order, each before asking for the next.
 *
 * @param source The entries of one or more sessions.
 * @returns The groups, in input order.
 * @throws {EventSourceError} When an entry is not a log entry (code `invalid_entry`).
 *
 * @example Usage
 * ```ts
 * import { fromEntries, splitSessions, type LogEntry } from "@brigade/transcript";
 * import assert from "node:assert/strict";
 *
 * const entry = (seq: number, session_id: string): LogEntry => ({
 *   seq,
 *   session_id,
 *   thread_id: null,
 *   event: { id: `sevt_${seq}`, type: "user.message", content: "Hi" },
 * });
 * const counts: Record<string, number> = {};
 * for await (const group of splitSessions([entry(1, "a"), entry(2, "a"), entry(1, "b")])) {
 *   counts[group.sessionId] = (await Array.fromAsync(group.entries)).length;
 * }
 * assert.deepEqual(counts, { a: 2, b: 1 });
 * ```
 */
export async function* splitSessions(
  source: EntryIterable,
): AsyncGenerator<SessionGroup, void, undefined> {
  const iterator = checkedEntries(source)[Symbol.asyncIterator]();
  let next = await iterator.next();
  try {
    while (!next.done) {
      const sessionId = next.value.session_id;
      yield {
        sessionId,
        entries: (async function* (): AsyncGenerator<LogEntry, void, undefined> {
          while (!next.done && next.value.session_id === sessionId) {
            const entry = next.value;
            next = await iterator.next();
            yield entry;
          }
        })(),
      };
      while (!next.done && next.value.session_id === sessionId) next = await iterator.next();
    }
  } finally {
    if (!next.done) await iterator.return();
  }
}
