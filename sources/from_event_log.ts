// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

import { EventSourceError } from "../events/errors.ts";
import type { LogEntry, Scope } from "../events/types.ts";
import { describe, entryProblem } from "../events/validate.ts";

/**
 * The keyset page a log is read in: large enough that a long session is not a
 * thousand round trips, small enough that one page of tool results is not
 * itself the memory bound the dream cap exists to hold.
 *
 * @example Usage
 * ```ts
 * import { DREAM_PAGE_SIZE } from "@brigade/transcript";
 * import assert from "node:assert/strict";
 *
 * assert.equal(DREAM_PAGE_SIZE, 200);
 * ```
 */
export const DREAM_PAGE_SIZE: number = 200;

/** One page request to an {@linkcode EventLog}. */
export interface EventLogQuery {
  /** The session whose rows to list. */
  sessionId: string;
  /** `"session"`: the primary thread's rows (`thread_id === null`); `"all"`: every thread's. */
  scope: Scope;
  /** List rows whose `seq` is greater than this; 0 for the first page. */
  afterSeq: number;
  /** At most this many rows, in increasing `seq` order. */
  limit: number;
}

/** A store of session logs that lists one session's rows by keyset. */
export interface EventLog {
  /**
   * Lists up to `limit` rows after `afterSeq`, in increasing `seq` order.
   *
   * @param query What to list.
   * @returns The page; shorter than `limit` only at the end of the log.
   */
  list(query: EventLogQuery): Promise<LogEntry[]>;
}

/** Options for {@linkcode fromEventLog}. */
export interface FromEventLogOptions {
  /** The session to read. */
  sessionId: string;
  /**
   * Which rows: the coordinator's view (`"session"`) or every thread (`"all"`).
   *
   * @default {"session"}
   */
  scope?: Scope;
  /**
   * Rows asked for per call to `log.list`.
   *
   * @default {DREAM_PAGE_SIZE}
   */
  pageSize?: number;
  /**
   * Stops the paging with the signal's reason when aborted.
   *
   * @default {undefined}
   */
  signal?: AbortSignal;
}

/**
 * Pages through a caller's log store by keyset: the first call passes
 * `afterSeq: 0`, each next one the last `seq` seen, until a page comes back
 * shorter than the page size. One page is held at a time. A page whose `seq`s
 * do not increase, or a row that is not a {@linkcode LogEntry}, fails with an
 * {@linkcode EventSourceError}.
 *
 * @param log The store.
 * @param options Which session, scope and page size.
 * @returns A lazy event source.
 * @throws {RangeError} When `pageSize` is not a positive integer.
 * @throws {EventSourceError} When a page is not an array or holds a row of
 * another session (code `invalid_page`), a row is not a log entry
 * (`invalid_entry`), or a `seq` does not increase (`out_of_order`).
 *
 * @example Usage
 * ```ts
 * import { fromEventLog, type EventLog, type LogEntry } from "@brigade/transcript";
 * import assert from "node:assert/strict";
 *
 * const rows: LogEntry[] = [1, 2, 3].map((seq) => ({
 *   seq,
 *   session_id: "sesn_1",
 *   thread_id: null,
 *   event: { id: `sevt_${seq}`, type: "agent.message", content: `step ${seq}` },
 * }));
 * const log: EventLog = {
 *   list: ({ afterSeq, limit }) =>
 *     Promise.resolve(rows.filter((row) => row.seq > afterSeq).slice(0, limit)),
 * };
 * const seqs = [];
 * for await (const entry of fromEventLog(log, { sessionId: "sesn_1", pageSize: 2 })) {
 *   seqs.push(entry.seq);
 * }
 * assert.deepEqual(seqs, [1, 2, 3]);
 * ```
 */
export function fromEventLog(
  log: EventLog,
  options: FromEventLogOptions,
): AsyncGenerator<LogEntry, void, undefined> {
  const pageSize = options.pageSize ?? DREAM_PAGE_SIZE;
  if (!Number.isSafeInteger(pageSize) || pageSize < 1) {
    throw new RangeError(`Cannot page the log: pageSize must be a positive integer: ${pageSize}`);
  }
  return pages(log, { ...options, pageSize, scope: options.scope ?? "session" });
}

async function* pages(
  log: EventLog,
  options: Required<Omit<FromEventLogOptions, "signal">> & { signal?: AbortSignal | undefined },
): AsyncGenerator<LogEntry, void, undefined> {
  const { sessionId, scope, pageSize: limit, signal } = options;
  const source = `session ${sessionId}`;
  let afterSeq = 0;
  while (true) {
    signal?.throwIfAborted();
    const page: unknown = await log.list({ sessionId, scope, afterSeq, limit });
    signal?.throwIfAborted();
    if (!Array.isArray(page)) {
      throw new EventSourceError(
        `Cannot page the log: list() after seq ${afterSeq} returned ${
          describe(page)
        }, not an array`,
        { code: "invalid_page", source },
      );
    }
    for (const row of page) {
      checkRow(row, afterSeq, sessionId, source);
      afterSeq = (row as LogEntry).seq;
      yield row as LogEntry;
    }
    if (page.length < limit) return;
  }
}

function checkRow(row: unknown, afterSeq: number, sessionId: string, source: string): void {
  const problem = entryProblem(row);
  if (problem !== undefined) {
    throw new EventSourceError(`Cannot read a row after seq ${afterSeq}: ${problem}`, {
      code: "invalid_entry",
      source,
    });
  }
  const { seq, session_id: rowSession } = row as LogEntry;
  if (rowSession !== sessionId) {
    throw new EventSourceError(
      `Cannot page the log: row seq ${seq} belongs to session ${describe(rowSession)}`,
      { code: "invalid_page", source },
    );
  }
  if (seq <= afterSeq) {
    throw new EventSourceError(
      `Cannot page the log: seq ${seq} does not increase after seq ${afterSeq}`,
      { code: "out_of_order", source },
    );
  }
}
