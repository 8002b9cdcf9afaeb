// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

import { EventSourceError } from "./errors.ts";
import type { LogEntry } from "./types.ts";
import { entryProblem } from "./_validate.ts";

/** Anything that yields log entries: an array, a generator, a stream, a source. */
export type EntryIterable = Iterable<LogEntry> | AsyncIterable<LogEntry>;

/** An event source: the one input every renderer consumes. */
export type EventSource = AsyncIterable<LogEntry>;

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
 * @throws {EventSourceError} When an entry is not a log entry.
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
export async function* fromEntries(
  entries: EntryIterable,
  options: FromEntriesOptions = {},
): AsyncGenerator<LogEntry, void, undefined> {
  const name = options.name ?? "entries";
  let position = 0;
  for await (const entry of entries) {
    options.signal?.throwIfAborted();
    position++;
    const problem = entryProblem(entry);
    if (problem !== undefined) {
      throw new EventSourceError(`Cannot read entry: ${problem}`, { source: name, line: position });
    }
    yield entry;
  }
}
