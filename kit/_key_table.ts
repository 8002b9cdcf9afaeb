// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

/**
 * A string-keyed map with a bound, that behaves as a `Map` whose oldest key
 * is deleted whenever a new one takes it past `limit`: `set` on a known key
 * keeps its place, `delete` frees one. It holds its keys as bytes in typed
 * arrays instead of a string and a `Map` entry each. The kit's renderers keep
 * a few thousand tool-call ids (and the grader as many child calls), always
 * full in a long session: as strings in a `Map` they were about 0.4 MiB of
 * heap for each renderer, which V8 sizes its heap after (a hundred dreams in
 * one process peaked at 3.3 MiB of memory each) and which filled most of a
 * 16 MB old generation's room. As bytes they are about 0.2 MiB (30-byte
 * ids), out of the garbage-collected heap, which they no longer make grow.
 *
 * The keys are compared in full, unit by unit: a lookup finds exactly the
 * key a `Map` would.
 */
export class KeyTable<V> {
  #limit: number;
  /** The slots, in the order their keys came; a deleted one stays until compacted. */
  #capacity: number;
  /** The most slots: a few more than the limit, so that a table deleted from is compacted seldom. */
  #most: number;
  #start: Int32Array;
  /**
   * Bytes of a slot's key, `-bytes - 1` once deleted: one byte a slot while every key is of at
   * most 127 (a session's tool-call ids), four from the first longer one on.
   */
  #bytes: Int8Array | Int32Array;
  #values: (V | undefined)[];
  /** A slot's key's hash: a probe compares it before the bytes, a deletion finds its home by it. */
  #hashes: Int32Array;
  /**
   * Mixed into every hash, drawn per table: keys come from the log (tool-call ids), and a log
   * written to make its ids collide must not know where they land.
   */
  #seed: number = (Math.random() * 0x1_0000_0000) | 0;
  /** The oldest slot and the next, as counts of slots ever used (the slot is the count mod capacity). */
  #first = 0;
  #next = 0;
  #size = 0;
  /**
   * Open addressing, linear probing: slot + 1 of each live key, 0 where empty. Two bytes a place
   * while every slot fits (a table of the kit's 4,096 keys), half what four took.
   */
  #index: Uint16Array | Int32Array;
  #mask: number;
  /** The keys' bytes, in a ring: a slot's start, then its bytes (wrapping at the end). */
  #pool: Uint8Array;
  #tail = 0;
  #used = 0;

  /** @param limit The most keys held (at least 1). */
  constructor(limit: number) {
    this.#limit = limit;
    this.#most = limit + (limit >> 3) + 1;
    // A table starts small and grows with what it holds: a short session's costs little.
    this.#capacity = Math.min(16, this.#most);
    this.#start = new Int32Array(this.#capacity);
    this.#bytes = new Int8Array(this.#capacity);
    this.#values = new Array(this.#capacity);
    this.#hashes = new Int32Array(this.#capacity);
    this.#index = newIndex(this.#capacity, limit);
    this.#mask = this.#index.length - 1;
    this.#pool = new Uint8Array(256);
  }

  /** The bytes of the typed arrays the table holds: its slots, its index and its keys' pool. */
  get heldBytes(): number {
    return this.#start.byteLength + this.#bytes.byteLength + this.#hashes.byteLength +
      this.#index.byteLength + this.#pool.byteLength;
  }

  /** How many keys are held. */
  get size(): number {
    return this.#size;
  }

  /** The value of `key`, if it is held. */
  get(key: string): V | undefined {
    const at = this.#find(key, hash(key, this.#seed));
    return at < 0 ? undefined : this.#values[this.#index[at]! - 1];
  }

  /** Sets the value of `key`: a known key keeps its place; a new one comes last, past the limit deleting the oldest. */
  set(key: string, value: V): void {
    const code = hash(key, this.#seed);
    const at = this.#find(key, code);
    if (at >= 0) {
      this.#values[this.#index[at]! - 1] = value;
      return;
    }
    if (this.#next - this.#first === this.#capacity) {
      const grown = Math.min(this.#most, 2 * this.#capacity);
      this.#rebuild(2 * this.#size > this.#capacity ? grown : this.#capacity);
    }
    const slot = this.#next++ % this.#capacity;
    this.#values[slot] = value;
    this.#hashes[slot] = code;
    this.#write(slot, key);
    this.#size++;
    this.#place(slot, code);
    if (this.#size > this.#limit) this.#deleteOldest();
  }

  /** Deletes `key`; whether it was held. */
  delete(key: string): boolean {
    const at = this.#find(key, hash(key, this.#seed));
    if (at < 0) return false;
    this.#drop(at);
    return true;
  }

  /** Where `key`'s slot is in the index, or -1. */
  #find(key: string, code: number): number {
    const index = this.#index;
    const mask = this.#mask;
    for (let at = code & mask;; at = (at + 1) & mask) {
      const held = index[at]!;
      if (held === 0) return -1;
      if (this.#hashes[held - 1] === code && this.#holds(held - 1, key)) return at;
    }
  }

  /** Whether slot `slot` holds `key`: its bytes are the key's, as {@linkcode KeyTable.#write} wrote them. */
  #holds(slot: number, key: string): boolean {
    const pool = this.#pool;
    const end = pool.length;
    const bytes = this.#bytes[slot]!;
    let at = this.#start[slot]!;
    if (bytes === key.length && at + bytes <= end) {
      // Most keys are narrow and not wrapped: a byte a unit, in a row.
      let i = 0;
      for (let unit; i < bytes && (unit = key.charCodeAt(i)) < 0xff && pool[at + i] === unit;) i++;
      if (i === bytes) return true;
    }
    let read = 0;
    for (let i = 0; i < key.length; i++) {
      const unit = key.charCodeAt(i);
      if (unit < 0xff) {
        if (read + 1 > bytes || pool[at] !== unit) return false;
        at = at + 1 === end ? 0 : at + 1;
        read += 1;
        continue;
      }
      if (read + 3 > bytes || pool[at] !== 0xff) return false;
      at = at + 1 === end ? 0 : at + 1;
      if (pool[at] !== unit >> 8) return false;
      at = at + 1 === end ? 0 : at + 1;
      if (pool[at] !== (unit & 0xff)) return false;
      at = at + 1 === end ? 0 : at + 1;
      read += 3;
    }
    return read === bytes;
  }

  /**
   * Appends `key`'s bytes to the pool as slot `slot`'s: a unit below 0xff as
   * one byte, any other as 0xff and its two bytes.
   */
  #write(slot: number, key: string): void {
    let bytes = 0;
    for (let i = 0; i < key.length; i++) bytes += key.charCodeAt(i) < 0xff ? 1 : 3;
    if (this.#used + bytes > this.#pool.length) this.#grow(this.#used + bytes);
    const pool = this.#pool;
    const end = pool.length;
    let at = (this.#tail + this.#used) % end;
    this.#start[slot] = at;
    if (bytes > NARROW_KEY_BYTES && this.#bytes instanceof Int8Array) this.#widen();
    this.#bytes[slot] = bytes;
    this.#used += bytes;
    if (bytes === key.length && at + bytes <= end) {
      // Narrow and not wrapped: a byte a unit, in a row.
      for (let i = 0; i < bytes; i++) pool[at + i] = key.charCodeAt(i);
      return;
    }
    for (let i = 0; i < key.length; i++) {
      const unit = key.charCodeAt(i);
      if (unit < 0xff) {
        pool[at] = unit;
      } else {
        pool[at] = 0xff;
        at = at + 1 === end ? 0 : at + 1;
        pool[at] = unit >> 8;
        at = at + 1 === end ? 0 : at + 1;
        pool[at] = unit & 0xff;
      }
      at = at + 1 === end ? 0 : at + 1;
    }
  }

  /**
   * A pool of an eighth more than `needed` bytes, holding what the pool held, from its start: a
   * full table's pool holds about as many bytes from then on (its keys come and go, one for one).
   */
  #grow(needed: number): void {
    const old = this.#pool;
    const pool = new Uint8Array(Math.max(needed + (needed >> 3), old.length + 256));
    const head = old.subarray(this.#tail, Math.min(old.length, this.#tail + this.#used));
    pool.set(head);
    if (head.length < this.#used) pool.set(old.subarray(0, this.#used - head.length), head.length);
    for (let n = this.#first; n < this.#next; n++) {
      const slot = n % this.#capacity;
      const start = this.#start[slot]!;
      this.#start[slot] = start >= this.#tail
        ? start - this.#tail
        : start + old.length - this.#tail;
    }
    this.#pool = pool;
    this.#tail = 0;
    free(old);
  }

  /** The keys' sizes, four bytes a slot: a key of more than {@linkcode NARROW_KEY_BYTES} came. */
  #widen(): void {
    const wide = new Int32Array(this.#bytes.length);
    wide.set(this.#bytes);
    free(this.#bytes);
    this.#bytes = wide;
  }

  /** Puts slot `slot` in the index at the first free place from its hash. */
  #place(slot: number, code: number): void {
    const index = this.#index;
    const mask = this.#mask;
    let at = code & mask;
    while (index[at] !== 0) at = (at + 1) & mask;
    index[at] = slot + 1;
  }

  /** Deletes the key at index place `at`, shifting back the keys probed past it. */
  #drop(at: number): void {
    const index = this.#index;
    const mask = this.#mask;
    const slot = index[at]! - 1;
    this.#bytes[slot] = -this.#bytes[slot]! - 1;
    this.#values[slot] = undefined;
    this.#size--;
    let hole = at;
    for (let next = (at + 1) & mask;; next = (next + 1) & mask) {
      const held = index[next]!;
      if (held === 0) break;
      const home = this.#hashes[held - 1]! & mask;
      // The key at `next` may fill the hole unless its home lies after the hole, up to `next`.
      const after = hole <= next ? home > hole && home <= next : home > hole || home <= next;
      if (!after) {
        index[hole] = held;
        hole = next;
      }
    }
    index[hole] = 0;
    this.#release();
  }

  /** Frees the pool's bytes of the deleted slots at the start. */
  #release(): void {
    while (this.#first < this.#next) {
      const slot = this.#first % this.#capacity;
      const bytes = this.#bytes[slot]!;
      if (bytes >= 0) break;
      this.#first++;
      this.#used -= -bytes - 1;
      this.#tail = (this.#tail + (-bytes - 1)) % this.#pool.length;
    }
    if (this.#first === this.#next) this.#tail = 0;
  }

  #deleteOldest(): void {
    let n = this.#first;
    while (this.#bytes[n % this.#capacity]! < 0) n++;
    const slot = n % this.#capacity;
    const index = this.#index;
    const mask = this.#mask;
    let at = this.#hashes[slot]! & mask;
    while (index[at] !== slot + 1) at = (at + 1) & mask;
    this.#drop(at);
  }

  /**
   * Every slot in use: the live keys again, in their order, from the first of
   * `capacity` slots (more when the table was more than half full, else the
   * same, the deleted ones left out).
   */
  #rebuild(capacity: number): void {
    const keys: string[] = [];
    const values: (V | undefined)[] = [];
    for (let n = this.#first; n < this.#next; n++) {
      const slot = n % this.#capacity;
      if (this.#bytes[slot]! < 0) continue;
      keys.push(this.#keyOf(slot));
      values.push(this.#values[slot]);
    }
    // The new arrays first: a table whose allocation failed keeps the arrays it had.
    const start = new Int32Array(capacity);
    const bytes = new Int8Array(capacity);
    const hashes = new Int32Array(capacity);
    const index = newIndex(capacity, this.#limit);
    // The arrays replaced are freed now, not when collected: by then V8 has moved them to its
    // old generation, and a hundred renderers' tables growing at once left megabytes behind.
    for (const old of [this.#start, this.#bytes, this.#hashes, this.#index]) free(old);
    this.#capacity = capacity;
    this.#start = start;
    this.#bytes = bytes;
    this.#values = new Array(capacity);
    this.#hashes = hashes;
    this.#index = index;
    this.#mask = this.#index.length - 1;
    this.#first = this.#next = this.#size = 0;
    this.#tail = this.#used = 0;
    for (let i = 0; i < keys.length; i++) {
      const slot = this.#next++;
      this.#values[slot] = values[i];
      this.#hashes[slot] = hash(keys[i]!, this.#seed);
      this.#write(slot, keys[i]!);
      this.#size++;
      this.#place(slot, this.#hashes[slot]!);
    }
  }

  #keyOf(slot: number): string {
    const pool = this.#pool;
    const end = pool.length;
    const bytes = this.#bytes[slot]!;
    let at = this.#start[slot]!;
    const units: number[] = [];
    for (let read = 0; read < bytes;) {
      let unit = pool[at]!;
      at = at + 1 === end ? 0 : at + 1;
      read++;
      if (unit === 0xff) {
        unit = pool[at]! << 8;
        at = at + 1 === end ? 0 : at + 1;
        unit |= pool[at]!;
        at = at + 1 === end ? 0 : at + 1;
        read += 2;
      }
      units.push(unit);
    }
    let key = "";
    for (let i = 0; i < units.length; i += 4096) {
      key += String.fromCharCode(...units.slice(i, i + 4096));
    }
    return key;
  }
}

/** The longest key whose size a one-byte slot holds, deleted (`-bytes - 1`) as well. */
const NARROW_KEY_BYTES = 127;

/** An empty index for `capacity` slots and `limit` keys: two bytes a place when every slot + 1 fits. */
function newIndex(capacity: number, limit: number): Uint16Array | Int32Array {
  const size = indexSize(Math.min(capacity, limit + 1));
  return capacity < 0xffff ? new Uint16Array(size) : new Int32Array(size);
}

/**
 * Frees an array's memory at once (a detached buffer's goes then; a dropped one waits for a
 * full collection). A runtime without `ArrayBuffer.prototype.transfer` leaves it to the collector.
 */
function free(array: Int8Array | Uint8Array | Uint16Array | Int32Array): void {
  (array.buffer as ArrayBuffer).transfer?.(0);
}

/** The index's size for `keys` keys at most: a power of two, at most two-thirds full (never full). */
function indexSize(keys: number): number {
  let size = 4;
  while (size < keys + (keys >> 1) + 2) size *= 2;
  return size;
}

const SEED = 0x811c9dc5;
const PRIME = 0x01000193;

/**
 * FNV-1a over the key's UTF-16 units, two at a time (half the multiplications in a row), from a
 * basis changed by the table's `seed`, mixed.
 */
function hash(key: string, seed: number): number {
  let code = (SEED ^ seed) | 0;
  const pairs = key.length & ~1;
  for (let i = 0; i < pairs; i += 2) {
    code = Math.imul(code ^ (key.charCodeAt(i) | (key.charCodeAt(i + 1) << 16)), PRIME);
  }
  if (pairs < key.length) code = Math.imul(code ^ key.charCodeAt(pairs), PRIME);
  // A multiplication carries a unit's bits only upwards: mixed down (murmur3's finish), the
  // high half of each pair reaches the index's low bits too.
  code = Math.imul(code ^ key.length, PRIME);
  code = Math.imul(code ^ (code >>> 16), 0x85ebca6b);
  code = Math.imul(code ^ (code >>> 13), 0xc2b2ae35);
  return code ^ (code >>> 16);
}
