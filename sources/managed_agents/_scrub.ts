// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// Removes every trace of the API key from a text before it goes into an
// error. A server or a proxy may echo the key whole, upper-cased, or in part
// (a cut, a prefix, a middle), so it is not enough to replace the key itself:
// every run of the text made of pieces of the key goes. It may also echo it
// encoded (hex, base64 of a header line, or cut into short runs by spaces,
// dots or dashes), so those forms go too.

/** What a piece of the key becomes in an error. */
export const KEY_MARKER = "[API key]";

/** The shortest piece of the key that is removed wherever it appears. */
export const MIN_KEY_PIECE = 8;

/** Removes the pieces of one key from a text. */
export type Scrub = (text: string) => string;

/**
 * A scrubber for `apiKey`: it replaces every run of the text covered by
 * substrings of the key of {@linkcode MIN_KEY_PIECE} characters or more (the
 * whole key when it is shorter), compared without case, with
 * {@linkcode KEY_MARKER}. Linear in the text: each position is looked up once
 * in the set of the key's windows.
 */
export function keyScrubber(apiKey: string): Scrub {
  if (apiKey === "") return (text) => text;
  const width = Math.min(MIN_KEY_PIECE, apiKey.length);
  const key = fold(apiKey);
  const windows = new Set<string>();
  for (let i = 0; i + width <= key.length; i++) windows.add(key.slice(i, i + width));
  const encoded = encodedWindows(apiKey);
  return (text) => scrubEncoded(scrubPlain(text, windows, width), encoded);
}

/** Replaces each run of `text` covered by windows of the folded key with the marker. */
function scrubPlain(text: string, windows: Set<string>, width: number): string {
  if (text.length < width) return text;
  const folded = fold(text);
  let out = "";
  let copied = 0;
  let runEnd = -1;
  for (let i = 0; i + width <= folded.length; i++) {
    if (!windows.has(folded.slice(i, i + width))) continue;
    if (i > runEnd) {
      // A new run: copy what precedes it and write the marker once.
      out += text.slice(copied, i) + KEY_MARKER;
    }
    runEnd = i + width;
    copied = runEnd;
  }
  return runEnd === -1 ? text : out + text.slice(copied);
}

/**
 * The windows of {@linkcode MIN_KEY_PIECE} letters and digits of the key's
 * skeletons: the key itself, its hex and its base64 (both alphabets, at the
 * three alignments a header line may put it at), each in lower case with all
 * but letters and digits left out. A text whose skeleton holds one of them
 * holds a piece of the key, however it was cut into runs. Empty when the key
 * has fewer than {@linkcode MIN_KEY_PIECE} letters and digits (a key that
 * short is matched whole, above).
 */
function encodedWindows(apiKey: string): Set<string> {
  const windows = new Set<string>();
  if (skeleton(apiKey).length < MIN_KEY_PIECE) return windows;
  const bytes = new TextEncoder().encode(apiKey);
  const forms = [apiKey, [...bytes].map((byte) => byte.toString(16).padStart(2, "0")).join("")];
  for (let pad = 0; pad < 3; pad++) {
    const padded = new Uint8Array(pad + bytes.length);
    padded.set(bytes, pad);
    const base64 = btoa(String.fromCharCode(...padded)).replace(/=+$/, "");
    // The characters that depend on the padding before or the bytes after the key go.
    const first = [0, 2, 3][pad]!;
    const last = (pad + bytes.length) % 3 === 0 ? base64.length : base64.length - 1;
    forms.push(base64.slice(first, last));
  }
  for (const form of forms) {
    const bare = skeleton(form);
    for (let i = 0; i + MIN_KEY_PIECE <= bare.length; i++) {
      windows.add(bare.slice(i, i + MIN_KEY_PIECE));
    }
  }
  return windows;
}

/** The letters and digits of a text, in lower case. */
function skeleton(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]/g, "");
}

/**
 * Replaces each run of `text` whose letters and digits hold a window of
 * `windows` (whatever separates them) with the marker. Linear in the text,
 * and it keeps only the last window and where its letters are, so a huge
 * text costs no more than its copy.
 */
function scrubEncoded(text: string, windows: Set<string>): string {
  if (windows.size === 0) return text;
  const width = MIN_KEY_PIECE;
  // Where the last `width` letters and digits are, as a ring.
  const at = new Array<number>(width).fill(0);
  let count = 0;
  let window = "";
  let out = "";
  let copied = 0;
  let runStart = -1;
  let runEnd = -1;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const lower = code >= 65 && code <= 90 ? code + 32 : code;
    if (!((lower >= 97 && lower <= 122) || (lower >= 48 && lower <= 57))) continue;
    window = (window.length === width ? window.slice(1) : window) + String.fromCharCode(lower);
    at[count % width] = i;
    count++;
    if (count < width || !windows.has(window)) continue;
    const start = at[count % width]!;
    if (start < runEnd) {
      runEnd = i + 1; // overlapping windows are one run
      continue;
    }
    if (runStart !== -1) {
      out += text.slice(copied, runStart) + KEY_MARKER;
      copied = runEnd;
    }
    runStart = start;
    runEnd = i + 1;
  }
  if (runStart === -1) return text;
  return out + text.slice(copied, runStart) + KEY_MARKER + text.slice(runEnd);
}

/**
 * The text in lower case, one UTF-16 unit for one: a character whose lower
 * case is longer (`İ`) stays, so indexes in the folded text are indexes in
 * the text.
 */
function fold(text: string): string {
  return text.replace(/[A-Z\u00c0-\uffff]/g, (char) => {
    const lower = char.toLowerCase();
    return lower.length === 1 ? lower : char;
  });
}
