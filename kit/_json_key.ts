// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

import { canonicalJson } from "./_canonical_json.ts";

/**
 * A short key for a few strings and a JSON value together, the same for two
 * values exactly when their {@linkcode canonicalJson} texts are the same (up
 * to a 64-bit hash's collisions): the grader pairs a thread message's two
 * halves, and a child's tool call with its copy on the primary, by such a key.
 *
 * Built as a string and hashed, a key cost about 7 µs a call in a long
 * session (the canonical JSON with its sorted copies, a digest of it, a
 * compact copy, the key table's own hash and bytes). This walks the value
 * once and hashes it as it goes, an object's members each apart and summed
 * (so their order does not count, as canonical JSON sorts them), with no
 * string built: a tenth of that. A value that is not plain JSON data (a
 * `toJSON`, a class instance, a number JSON writes as `null`, an omitted
 * member, a `__proto__` key, a nesting deeper than {@linkcode DEPTH}) is
 * hashed as what {@linkcode canonicalJson} makes of it, so the equality is
 * canonical JSON's for every value, and what it throws on (a `BigInt`) it
 * throws on still.
 *
 * The hash is seeded per keyer: a log written to make two keys collide
 * cannot know where they land.
 *
 * @example Usage
 * ```ts
 * import { JsonKeyer } from "./_json_key.ts";
 * import assert from "node:assert/strict";
 *
 * const keyer = new JsonKeyer();
 * // Members in another order are the same canonical JSON, so the same key.
 * assert.equal(keyer.key(["a", "b"], [{ x: 1, y: [2] }]), keyer.key(["a", "b"], [{ y: [2], x: 1 }]));
 * assert.notEqual(keyer.key(["a", "b"], [{ x: 1 }]), keyer.key(["b", "a"], [{ x: 1 }]));
 * ```
 */
export class JsonKeyer {
  #seedA: number;
  #seedB: number;

  /** @param seed Mixed into every key (a random one unless given, for a test). */
  constructor(seed: number = (Math.random() * 0x1_0000_0000) | 0) {
    this.#seedA = (BASIS_A ^ seed) | 0;
    this.#seedB = (BASIS_B ^ Math.imul(seed, 0x9e3779b1)) | 0;
  }

  /**
   * The key of `strings` (each as itself) followed by `values` (each as its
   * canonical JSON), in order.
   *
   * @param strings What the key starts with, e.g. two thread keys.
   * @param values JSON values (or anything {@linkcode canonicalJson} takes), each a value of its own.
   * @returns Ten UTF-16 units under 0x80: the 64 bits of the hash.
   */
  key(strings: readonly string[], values: readonly unknown[]): string {
    laneA = this.#seedA;
    laneB = this.#seedB;
    memberA = this.#seedA;
    memberB = this.#seedB;
    for (const text of strings) hashString(text);
    for (const value of values) {
      const startA = laneA;
      const startB = laneB;
      if (hashPlain(value, 0)) continue;
      laneA = startA;
      laneB = startB;
      hashCanonical(value);
    }
    const a = finish(laneA);
    const b = finish(laneB ^ a);
    // Seven bits a unit, each under 0x80: a one-byte string, which the key table stores and
    // compares a byte a unit, in a row (a wider unit takes it three bytes and a slower path).
    return String.fromCharCode(
      a & 0x7f,
      (a >>> 7) & 0x7f,
      (a >>> 14) & 0x7f,
      (a >>> 21) & 0x7f,
      (a >>> 28) | ((b & 0x07) << 4),
      (b >>> 3) & 0x7f,
      (b >>> 10) & 0x7f,
      (b >>> 17) & 0x7f,
      (b >>> 24) & 0x7f,
      b >>> 31,
    );
  }
}

/** The deepest nesting hashed as it is walked; a deeper value is hashed as its canonical text. */
const DEPTH = 64;

const BASIS_A = 0x811c9dc5;
const BASIS_B = 0x01000193;
const PRIME_A = 0x01000193;
const PRIME_B = 0x5bd1e995;

/** The two lanes of the hash being built (module state: no object a unit, no closure). */
let laneA = 0;
let laneB = 0;
/** Where each object member's own hash starts: the keyer's seed. */
let memberA = 0;
let memberB = 0;

const TAG_NULL = 1;
const TAG_FALSE = 2;
const TAG_TRUE = 3;
const TAG_INT = 4;
const TAG_FLOAT = 5;
const TAG_STRING = 6;
const TAG_ARRAY = 7;
const TAG_OBJECT = 8;
/** What canonical JSON writes as `undefined` (an `undefined`, a function, a symbol). */
const TAG_NONE = 9;
/** A value nested deeper than {@linkcode DEPTH}, hashed as its canonical text. */
const TAG_DEEP = 10;

function mix(unit: number): void {
  laneA = Math.imul(laneA ^ unit, PRIME_A);
  laneB = Math.imul(laneB ^ unit, PRIME_B) ^ (laneB >>> 15);
}

/**
 * A string as its length then its units, two at a time (half the
 * multiplications): no two tuples of strings hash as one.
 */
function hashString(text: string): void {
  let a = Math.imul(laneA ^ TAG_STRING, PRIME_A);
  let b = Math.imul(laneB ^ TAG_STRING, PRIME_B) ^ (laneB >>> 15);
  const length = text.length;
  a = Math.imul(a ^ length, PRIME_A);
  b = Math.imul(b ^ length, PRIME_B) ^ (b >>> 15);
  const pairs = length & ~1;
  for (let i = 0; i < pairs; i += 2) {
    const unit = text.charCodeAt(i) | (text.charCodeAt(i + 1) << 16);
    a = Math.imul(a ^ unit, PRIME_A);
    b = Math.imul(b ^ unit, PRIME_B) ^ (b >>> 15);
  }
  if (pairs < length) {
    const unit = text.charCodeAt(pairs);
    a = Math.imul(a ^ unit, PRIME_A);
    b = Math.imul(b ^ unit, PRIME_B) ^ (b >>> 15);
  }
  laneA = a;
  laneB = b;
}

const float = new Float64Array(1);
const floatWords = new Int32Array(float.buffer);

/**
 * Hashes `value` when it is plain JSON data, as JSON.parse gives (walked, no
 * text built); `false`, with the lanes left anywhere, when it holds anything
 * canonical JSON would change.
 */
function hashPlain(value: unknown, depth: number): boolean {
  switch (typeof value) {
    case "string":
      hashString(value);
      return true;
    case "number":
      if ((value | 0) === value) {
        // -0 is `value | 0 === 0`: JSON writes it as 0, and so it is hashed.
        mix(TAG_INT);
        mix(value | 0);
        return true;
      }
      if (!Number.isFinite(value)) return false;
      float[0] = value;
      mix(TAG_FLOAT);
      mix(floatWords[0]!);
      mix(floatWords[1]!);
      return true;
    case "boolean":
      mix(value ? TAG_TRUE : TAG_FALSE);
      return true;
    case "object":
      if (value === null) {
        mix(TAG_NULL);
        return true;
      }
      // A `toJSON` anywhere (own, not enumerable, inherited) is what canonical JSON writes.
      if (depth >= DEPTH || "toJSON" in value) return false;
      return Array.isArray(value)
        ? hashArray(value, depth + 1)
        : hashObject(value as Record<string, unknown>, depth + 1);
    default:
      return false;
  }
}

function hashArray(array: unknown[], depth: number): boolean {
  if (Object.getPrototypeOf(array) !== Array.prototype) return false;
  mix(TAG_ARRAY);
  mix(array.length);
  for (let i = 0; i < array.length; i++) {
    if (!hashPlain(array[i], depth)) return false;
  }
  return true;
}

/** An object's members, each hashed from the seed alone and summed: their order does not count. */
function hashObject(object: Record<string, unknown>, depth: number): boolean {
  const prototype = Object.getPrototypeOf(object);
  if (prototype !== Object.prototype && prototype !== null) return false;
  const outerA = laneA;
  const outerB = laneB;
  let sumA = 0;
  let sumB = 0;
  let count = 0;
  for (const name of Object.keys(object)) {
    // Canonical JSON's sorted copy sets `__proto__` as the prototype, not a member.
    if (name === "__proto__") return false;
    laneA = memberA;
    laneB = memberB;
    hashString(name);
    if (!hashPlain(object[name], depth)) return false;
    const a = finish(laneA);
    sumA = (sumA + a) | 0;
    sumB = (sumB + finish(laneB ^ a)) | 0;
    count++;
  }
  laneA = outerA;
  laneB = outerB;
  mix(TAG_OBJECT);
  mix(count);
  mix(sumA);
  mix(sumB);
  return true;
}

/**
 * A value that is not plain JSON data, hashed as what canonical JSON makes
 * of it: its text parsed back is plain, and hashed as a plain value is (a
 * plain value and an odd one with the same text get the same key).
 */
function hashCanonical(value: unknown): void {
  const text = canonicalJson(value);
  if (text === "undefined") {
    mix(TAG_NONE);
    return;
  }
  const outerA = laneA;
  const outerB = laneB;
  if (hashPlain(JSON.parse(text), 0)) return;
  // Only too deep a nesting is left: hashed as its text, as a plain value that deep is.
  laneA = outerA;
  laneB = outerB;
  mix(TAG_DEEP);
  hashString(text);
}

/** Murmur3's finish: every bit of the lane reaches every bit of the result. */
function finish(lane: number): number {
  let code = Math.imul(lane ^ (lane >>> 16), 0x85ebca6b);
  code = Math.imul(code ^ (code >>> 13), 0xc2b2ae35);
  return (code ^ (code >>> 16)) >>> 0;
}
