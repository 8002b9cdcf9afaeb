// Copyright 2026 the brigade authors. MIT license.

/**
 * A small deterministic pseudo-random generator (mulberry32), for tests and
 * generated benchmark data that must be replayable from a seed.
 */
export function makeRandom(seed: number): () => number {
  let state = seed >>> 0;
  return function next(): number {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
