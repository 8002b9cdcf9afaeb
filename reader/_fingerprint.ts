// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

/**
 * A fingerprint of a few bytes of a transcript, to tell whether the bytes read before are
 * still there: a 64-bit non-cryptographic hash, as 16 hex digits. It guards against a file
 * rewritten by accident (truncated and regrown, replaced in place), not against someone who
 * controls the file: such a writer controls the facts anyway. A hash, not the bytes, so that
 * a saved reader state never holds transcript text.
 *
 * @module
 */

/**
 * Hashes `bytes`: two 32-bit multiply-xor lanes over its 32-bit little-endian words (then its
 * last bytes one by one), mixed at the end.
 *
 * A word at a time, not a byte: a status line fingerprints 2 KiB in a fresh process, where a
 * loop of 2,048 turns ran long enough in V8's interpreter for V8 to compile it (1–3 ms of a
 * call on a loaded machine, more than the hashing), and 512 turns do not.
 *
 * @example Usage
 * ```ts
 * import { fingerprint } from "./_fingerprint.ts";
 * import assert from "node:assert/strict";
 *
 * const bytes = new TextEncoder().encode('{"type":"user"}\n');
 * assert.match(fingerprint(bytes), /^[0-9a-f]{16}$/);
 * assert.equal(fingerprint(bytes.slice()), fingerprint(bytes));
 * assert.notEqual(fingerprint(bytes.subarray(1)), fingerprint(bytes));
 * ```
 */
export function fingerprint(bytes: Uint8Array): string {
  const length = bytes.length;
  const view = new DataView(bytes.buffer, bytes.byteOffset, length);
  let a = 0xdeadbeef ^ length;
  let b = 0x41c6ce57 ^ length;
  const words = length - (length & 3);
  for (let i = 0; i < words; i += 4) {
    const word = view.getUint32(i, true);
    // The shifts carry each product's high bits down: a multiply alone never moves a bit to
    // a lower one, so a word's high bytes would reach only the lanes' high bits.
    a = Math.imul(a ^ word, 2654435761);
    a ^= a >>> 15;
    b = Math.imul(b ^ word, 1597334677);
    b ^= b >>> 13;
  }
  for (let i = words; i < length; i++) {
    const byte = bytes[i]!;
    a = Math.imul(a ^ byte, 2654435761);
    b = Math.imul(b ^ byte, 1597334677);
  }
  a = Math.imul(a ^ (a >>> 16), 2246822507) ^ Math.imul(b ^ (b >>> 13), 3266489909);
  b = Math.imul(b ^ (b >>> 16), 2246822507) ^ Math.imul(a ^ (a >>> 13), 3266489909);
  return hex(a) + hex(b);
}

function hex(value: number): string {
  return (value >>> 0).toString(16).padStart(8, "0");
}

/** Whether `value` has the shape of a {@linkcode fingerprint}. */
export function isFingerprint(value: unknown): value is string {
  if (typeof value !== "string" || value.length !== 16) return false;
  for (let i = 0; i < 16; i++) {
    const code = value.charCodeAt(i);
    if (!((code >= 0x30 && code <= 0x39) || (code >= 0x61 && code <= 0x66))) return false;
  }
  return true;
}
