// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// A source's entries a read at a time, for a reader of this module's own (the kit's item loop):
// an entry of an async generator costs an await, and between two awaits every other task of the
// process runs. A hundred dreams read at once then each hold what a read made (its lines, its
// views) until the ninety-nine others have had their turn at each entry, long enough for the
// garbage collector to move it to its old generation; taken a read at a time, a read's objects
// die young. Entries come in the same order, with the same checks, errors and callbacks.

import type { LogEntry } from "./types.ts";

/** The property of a source that gives its entries a read at a time. */
const ENTRY_BATCHES: unique symbol = Symbol("brigade.entryBatches");

/** A source's entries a read at a time: each batch is iterated (lazily) before the next is read. */
export type EntryBatches = AsyncIterable<Iterable<LogEntry>>;

/** A source whose entries may be taken a read at a time. */
interface Batched {
  [ENTRY_BATCHES]?: () => EntryBatches | undefined;
}

/**
 * The entries of `batches`, as an async generator (one await an entry) that
 * also offers them a read at a time to {@linkcode entryBatches}, as long as
 * it has not been started itself.
 */
export function batchedEntries(
  batches: AsyncGenerator<Iterable<LogEntry>, void, undefined>,
): AsyncGenerator<LogEntry, void, undefined> {
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
  Object.defineProperty(generator, ENTRY_BATCHES, {
    value: (): EntryBatches | undefined => {
      if (started || taken) return undefined;
      taken = true;
      return batches;
    },
  });
  return generator;
}

/**
 * A source's entries a read at a time, when it offers them so (a source of
 * {@linkcode batchedEntries} not started yet), else undefined: read it an
 * entry at a time. Once taken, the source's own iteration gives nothing.
 */
export function entryBatches(source: unknown): EntryBatches | undefined {
  if (typeof source !== "object" || source === null) return undefined;
  return (source as Batched)[ENTRY_BATCHES]?.();
}
