// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

import { excerpt } from "../redact/excerpt.ts";
import { EventSourceError } from "./errors.ts";
import type { EntryIterable, LogEntry } from "./types.ts";

/** Returns why `value` is not an object, or undefined when it is one. */
function notAnObject(value: unknown): string | undefined {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value !== "object") return `a ${typeof value}`;
  return undefined;
}

/**
 * Returns why `value` is not a session event (an object with a string
 * `type`), or undefined when it is one. Other fields are not checked: the
 * event set is open and renderers read fields defensively.
 */
export function eventProblem(value: unknown): string | undefined {
  const kind = notAnObject(value);
  if (kind !== undefined) return `the event is ${kind}, not an object`;
  const type = (value as { type?: unknown }).type;
  if (typeof type !== "string") return 'the event has no string member "type"';
  const id = (value as { id?: unknown }).id;
  if (id !== undefined && typeof id !== "string") return 'the event\'s "id" is not a string';
  return undefined;
}

/** Returns why `value` is not a {@linkcode LogEntry}, or undefined when it is one. */
export function entryProblem(value: unknown): string | undefined {
  const kind = notAnObject(value);
  if (kind !== undefined) return `the entry is ${kind}, not an object`;
  const entry = value as Record<string, unknown>;
  if (typeof entry.seq !== "number" || !Number.isSafeInteger(entry.seq) || entry.seq < 0) {
    return `the entry's "seq" is not a non-negative integer: ${describe(entry.seq)}`;
  }
  if (typeof entry.session_id !== "string") {
    return `the entry's "session_id" is not a string: ${describe(entry.session_id)}`;
  }
  if (entry.thread_id !== null && typeof entry.thread_id !== "string") {
    return `the entry's "thread_id" is neither a string nor null: ${describe(entry.thread_id)}`;
  }
  return eventProblem(entry.event);
}

/**
 * Describes a value for an error message without dumping it whole: redacted,
 * cut to 40 code points, control characters visible.
 */
export function describe(value: unknown): string {
  if (value === undefined) return "missing";
  return excerpt(JSON.stringify(value) ?? String(value), { maxCodePoints: 40 });
}

/** Options for {@linkcode checkedEntries}. */
export interface CheckedEntriesOptions {
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
 * Yields `entries` as they are, each checked as it is pulled: one that is not
 * a {@linkcode LogEntry} fails with an {@linkcode EventSourceError} naming its
 * 1-based position. The renderers check their input through it, and
 * `fromEntries` is its public face.
 */
export async function* checkedEntries(
  entries: EntryIterable,
  options: CheckedEntriesOptions = {},
): AsyncGenerator<LogEntry, void, undefined> {
  const name = options.name ?? "entries";
  let position = 0;
  for await (const entry of entries) {
    options.signal?.throwIfAborted();
    position++;
    const problem = entryProblem(entry);
    if (problem !== undefined) {
      throw new EventSourceError(`Cannot read entry: ${problem}`, {
        code: "invalid_entry",
        source: name,
        line: position,
      });
    }
    yield entry;
  }
}
