// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// The entries a source's generator gives one at a time or a batch at a time
// (the follow's: what one read of a stream brought), given one at a time
// without an async generator's turn each: an entry of a batch in hand costs
// one resolved promise.

/**
 * The items of `source`, each array it yields taken item by item. `signal`
 * is checked before each item of an array: once it aborts, the source is
 * thrown its reason where it waits (so its `finally` blocks close what it
 * holds) and the iteration fails with it. Closing the iterator (`return`)
 * closes the source.
 */
export function flattened<T extends object>(
  source: AsyncGenerator<T | T[]>,
  signal: AbortSignal | undefined,
): AsyncIterableIterator<T> {
  let batch: T[] = [];
  let index = 0;
  // A pull of the source in flight: a next() while it is answers after it, in order.
  let pulling: Promise<IteratorResult<T>> | undefined;
  const pull = (): Promise<IteratorResult<T>> =>
    source.next().then((result): IteratorResult<T> | Promise<IteratorResult<T>> => {
      pulling = undefined;
      if (result.done) return { done: true, value: undefined };
      if (!Array.isArray(result.value)) return { done: false, value: result.value };
      batch = result.value;
      index = 0;
      return next();
    });
  const next = (): Promise<IteratorResult<T>> => {
    if (pulling !== undefined) return pulling.then(next);
    if (index < batch.length) {
      if (signal?.aborted) {
        batch = [];
        const reason: unknown = signal.reason;
        return source.throw(reason).then(() => Promise.reject(reason));
      }
      return Promise.resolve({ done: false, value: batch[index++]! });
    }
    return pulling = pull();
  };
  const iterator: AsyncIterableIterator<T> = {
    next,
    return: async (): Promise<IteratorResult<T>> => {
      batch = [];
      await source.return(undefined);
      return { done: true, value: undefined };
    },
    throw: async (error?: unknown): Promise<IteratorResult<T>> => {
      batch = [];
      const result = await source.throw(error);
      return result.done
        ? { done: true, value: undefined }
        : { done: false, value: result.value as T };
    },
    [Symbol.asyncIterator]: () => iterator,
  };
  return iterator;
}
