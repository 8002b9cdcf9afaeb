// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

import type { EntryIterable, LogEntry } from "../events/types.ts";
import { checkedEntries } from "../events/validate.ts";

/** Options for {@linkcode fromEntries}. */
export interface FromEntriesOptions {
  /**
   * The name errors give the input.
   *
   * @default {"entries"}
   */
  name?: string;
  /**
   * Stops the iteration with the signal's reason when aborted.
   *
   * @default {undefined}
   */
  signal?: AbortSignal;
}

/**
 * Wraps in-memory entries (an array, a generator, sync or async) as an event
 * source. Each entry is checked as it is pulled: one that is not a
 * {@linkcode LogEntry} fails with an {@linkcode EventSourceError} naming its
 * 1-based position. Entries are yielded as they are, never copied or changed.
 *
 * @param entries The entries.
 * @param options Options.
 * @returns A lazy event source.
 * @throws {EventSourceError} When an entry is not a log entry (code `invalid_entry`).
 *
 * @example Usage
 * ```ts
 * import { fromEntries, type LogEntry } from "@brigade/transcript";
 * import assert from "node:assert/strict";
 *
 * const entries: LogEntry[] = [{
 *   seq: 1,
 *   session_id: "sesn_1",
 *   thread_id: null,
 *   event: { id: "sevt_1", type: "user.message", content: "Hello" },
 * }];
 * const seen = [];
 * for await (const entry of fromEntries(entries)) seen.push(entry.seq);
 * assert.deepEqual(seen, [1]);
 * ```
 */
export function fromEntries(
  entries: EntryIterable,
  options: FromEntriesOptions = {},
): AsyncGenerator<LogEntry, void, undefined> {
  return checkedEntries(entries, options);
}
