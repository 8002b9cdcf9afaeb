// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// Removes every trace of the API key from a text before it goes into an
// error. A server or a proxy may echo the key whole, upper-cased, or in part
// (a cut, a prefix, a middle), so it is not enough to replace the key itself:
// every run of the text made of pieces of the key goes.

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
  return (text) => {
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
  };
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
