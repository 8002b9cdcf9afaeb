// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

import { EventSourceError } from "../events/errors.ts";
import type { EntryIterable, LogEntry } from "../events/types.ts";
import { entryProblem } from "../events/validate.ts";

/**
 * Checks a source's entries one at a time, as they are pulled: each must be a
 * log entry (as `checkedEntries` checks it) of the session the first one
 * names, and the signal must not be aborted. It is synchronous, so that a
 * renderer reads its source in one loop with no generator between the source
 * and its own per-entry work.
 */
export class SessionGate {
  #renderer: string;
  #signal: AbortSignal | undefined;
  #position = 0;
  #sessionId: string | undefined;

  /**
   * @param renderer The renderer's name, for the error a second session raises.
   * @param signal Aborts the reading.
   */
  constructor(renderer: string, signal?: AbortSignal) {
    this.#renderer = renderer;
    this.#signal = signal;
  }

  /** The entry, checked; throws on a malformed entry or one of a second session. */
  pass(entry: unknown): LogEntry {
    this.#signal?.throwIfAborted();
    this.#position++;
    const problem = entryProblem(entry);
    if (problem !== undefined) {
      throw new EventSourceError(`Cannot read entry: ${problem}`, {
        code: "invalid_entry",
        source: "entries",
        line: this.#position,
      });
    }
    const checked = entry as LogEntry;
    this.#sessionId ??= checked.session_id;
    if (checked.session_id !== this.#sessionId) {
      throw new EventSourceError(
        `Cannot render two sessions with the ${this.#renderer} renderer: "${this.#sessionId}" and "${checked.session_id}" (render them one at a time, or split the input by session)`,
        { code: "second_session", source: `seq ${checked.seq}` },
      );
    }
    return checked;
  }
}

/**
 * Yields a source's entries, checked, and fails on the first entry of a
 * second session: the renderers of one session cannot mix two.
 */
export async function* oneSession(
  source: EntryIterable,
  renderer: string,
  signal?: AbortSignal,
): AsyncGenerator<LogEntry, void, undefined> {
  const gate = new SessionGate(renderer, signal);
  for await (const entry of source) yield gate.pass(entry);
}
