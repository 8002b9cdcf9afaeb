// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// A set of event ids hashed here rather than by a `Set`: an id fresh from
// `JSON.parse` has no hash yet, and a `Set` computes it in a call out of
// JavaScript that costs, per event, about what parsing a small event does.
// The hash is computed once (`idHash`) and serves every look-up and the
// insertion; a random seed a memory keeps the ids a server chooses from
// colliding on purpose.

/** The hash of `id` under `seed`: FNV-1a over its UTF-16 units, then mixed (murmur3's finish). */
export function idHash(id: string, seed: number): number {
  let hash = (0x811c9dc5 ^ seed) | 0;
  for (let at = 0; at < id.length; at++) hash = Math.imul(hash ^ id.charCodeAt(at), 0x01000193);
  hash = Math.imul(hash ^ (hash >>> 16), 0x85ebca6b);
  hash = Math.imul(hash ^ (hash >>> 13), 0xc2b2ae35);
  return hash ^ (hash >>> 16);
}

/** A new seed for {@linkcode idHash}. */
export function idSeed(): number {
  return (Math.random() * 0x1_0000_0000) | 0;
}

const FIRST_SLOTS = 16;

/**
 * Ids with their {@linkcode idHash}, in an open-addressed table at most half
 * full: it starts small and doubles as ids are added (so a stream that sends
 * few events holds little), and {@linkcode IdTable.clear} keeps its slots for
 * the next ids.
 */
export class IdTable {
  #ids: (string | undefined)[] = new Array(FIRST_SLOTS).fill(undefined);
  #hashes = new Int32Array(FIRST_SLOTS);
  #mask = FIRST_SLOTS - 1;
  /** How many ids it holds. */
  size = 0;

  /** Whether `id`, of hash `hash`, is held. */
  has(id: string, hash: number): boolean {
    if (this.size === 0) return false;
    const ids = this.#ids;
    const mask = this.#mask;
    for (let slot = hash & mask;; slot = (slot + 1) & mask) {
      const held = ids[slot];
      if (held === undefined) return false;
      if (this.#hashes[slot] === hash && held === id) return true;
    }
  }

  /** Adds `id`, of hash `hash`, which it does not hold. */
  add(id: string, hash: number): void {
    if ((this.size + 1) * 2 > this.#ids.length) this.#grow();
    this.#place(id, hash);
    this.size++;
  }

  /** Forgets every id, keeping the slots. */
  clear(): void {
    this.#ids.fill(undefined);
    this.size = 0;
  }

  #place(id: string, hash: number): void {
    const mask = this.#mask;
    let slot = hash & mask;
    while (this.#ids[slot] !== undefined) slot = (slot + 1) & mask;
    this.#ids[slot] = id;
    this.#hashes[slot] = hash;
  }

  /** Twice the slots, the ids placed again by the hashes kept (none is hashed again). */
  #grow(): void {
    const ids = this.#ids;
    const hashes = this.#hashes;
    this.#ids = new Array(ids.length * 2).fill(undefined);
    this.#hashes = new Int32Array(ids.length * 2);
    this.#mask = ids.length * 2 - 1;
    for (let slot = 0; slot < ids.length; slot++) {
      const id = ids[slot];
      if (id !== undefined) this.#place(id, hashes[slot]!);
    }
  }
}
