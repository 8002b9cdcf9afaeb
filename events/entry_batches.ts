// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// A source's entries a read at a time, for a reader of this module's own (the kit's item loop):
// an entry of an async generator costs an await, and between two awaits every other task of the
// process runs. A hundred dreams read at once then each hold what a read made (its lines, its
// views) until the ninety-nine others have had their turn at each entry, long enough for the
// garbage collector to move it to its old generation; taken a read at a time, a read's objects
// die young. Entries come in the same order, with the same checks, errors and callbacks.

import type { LogEntry } from "./types.ts";

/** A source's entries a read at a time: each batch is iterated (lazily) before the next is read. */
export type EntryBatches = AsyncIterable<Iterable<LogEntry>>;

/** A source's entries taken a read at a time, from {@linkcode entryBatches}. */
export interface TakenBatches {
  /** The entries, a read at a time. */
  batches: EntryBatches;
  /**
   * Whether the source made and checked each entry itself, as the batch is
   * iterated: then no one else has held the entry before the taker.
   */
  checked: boolean;
}

/** Options for {@linkcode batchedEntries}. */
export interface BatchedEntriesOptions {
  /**
   * Whether each entry of a batch is made and checked (as `entryProblem`
   * checks it) as the batch is iterated, by this module's own source: a
   * reader that takes the batches need not check it again.
   *
   * @default {false}
   */
  checked?: boolean;
}

/**
 * How to take each batched source's entries. A map this module holds, not a
 * property of the source: no one else can find it, nor give a source of their
 * own (of entries no one checked) the look of a checked one.
 */
const TAKERS = new WeakMap<object, () => TakenBatches | undefined>();

/**
 * The entries of `batches`, as an async generator (one await an entry) that
 * also offers them a read at a time to {@linkcode entryBatches}, as long as
 * it has not been started itself.
 */
export function batchedEntries(
  batches: AsyncGenerator<Iterable<LogEntry>, void, undefined>,
  options: BatchedEntriesOptions = {},
): AsyncGenerator<LogEntry, void, undefined> {
  const checked = options.checked ?? false;
  let started = false;
  let taken = false;
  async function* entries(): AsyncGenerator<LogEntry, void, undefined> {
    started = true;
    if (taken) return;
    for await (const batch of batches) {
      for (const entry of batch) yield entry;
    }
  }
  const generator = entries();
  TAKERS.set(generator, (): TakenBatches | undefined => {
    if (started || taken) return undefined;
    taken = true;
    return { batches, checked };
  });
  return generator;
}

/**
 * A source's entries a read at a time, when it offers them so (a source of
 * {@linkcode batchedEntries} not started yet), else undefined: read it an
 * entry at a time. Once taken, the source's own iteration gives nothing.
 */
export function entryBatches(source: unknown): TakenBatches | undefined {
  if (typeof source !== "object" || source === null) return undefined;
  return TAKERS.get(source)?.();
}
