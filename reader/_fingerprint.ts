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

/** Hashes `bytes` (two 32-bit multiply-xor lanes, mixed at the end). */
export function fingerprint(bytes: Uint8Array): string {
  let a = 0xdeadbeef ^ bytes.length;
  let b = 0x41c6ce57 ^ bytes.length;
  for (let i = 0; i < bytes.length; i++) {
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
