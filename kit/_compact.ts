// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

import { secretSpans } from "../redact/spans.ts";

/** Two 32-bit FNV-style digests of a text, as hex: a key for a text too long to keep. */
export function digest(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    a = Math.imul(a ^ unit, 0x01000193);
    b = Math.imul(b ^ unit, 0x5bd1e995) ^ (b >>> 15);
  }
  return (a >>> 0).toString(16).padStart(8, "0") + (b >>> 0).toString(16).padStart(8, "0");
}

/**
 * A text short enough to remember as a key: itself when at most `limit`
 * UTF-16 units, else its head, a digest of the whole and its length, built
 * as a string of its own (never a view that keeps the long text alive).
 */
export function compact(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const head = secretSafeHead(text, Math.max(0, limit - 40));
  return [head, "…", digest(text), "/", text.length].join("");
}

/** How far past a cut a secret that crosses it is looked for: longer than any shape needs. */
const SECRET_WINDOW = 1_024;

/**
 * The first `units` UTF-16 units of `text`, or fewer: a cut never keeps the
 * start of a secret that the whole text holds across it (redaction, which
 * comes after, would not know the cut piece for one), so the head then ends
 * where that secret starts. Secrets are found around the cut, on the text as
 * it is.
 */
export function secretSafeHead(text: string, units: number): string {
  if (text.length <= units) return text;
  let end = units;
  for (const [start, stop] of secretSpans(text.slice(0, units + SECRET_WINDOW))) {
    if (start < end && stop > end) end = start;
  }
  return text.slice(0, end);
}
