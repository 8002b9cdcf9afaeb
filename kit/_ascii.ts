// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// Most text a renderer handles is ASCII, where a UTF-16 unit is a UTF-8 byte: one native scan
// says so, and the text is then cut and measured by its length.

const NON_ASCII = /[\x80-\uffff]/;

/**
 * The last text found (or made) of ASCII alone: a renderer that cuts a text, then frames what
 * it kept, asks again of the same text (or of the head it cut), and need not scan it twice.
 */
let lastAscii = "";
/** Texts shorter than this are scanned again: remembering them would cost more. */
const REMEMBERED_UNITS = 256;
/** Texts longer than this are not kept: a huge one would stay alive. */
const KEPT_UNITS = 8192;

/** Whether every unit of `text` is ASCII (so its UTF-8 size is its length). */
export function isAscii(text: string): boolean {
  const ascii = !NON_ASCII.test(text);
  if (ascii) rememberAscii(text);
  return ascii;
}

/** Remembers that `text` is ASCII alone, when it is long enough to be worth it and short enough to keep. */
export function rememberAscii(text: string): void {
  if (text.length >= REMEMBERED_UNITS && text.length <= KEPT_UNITS) lastAscii = text;
}

/**
 * Whether `text` is known to be ASCII alone: the last text {@linkcode isAscii} found so, or
 * {@linkcode rememberAscii} was told of (the same text, or an equal one). `false` says nothing.
 */
export function knownAscii(text: string): boolean {
  return text.length >= REMEMBERED_UNITS && text === lastAscii;
}
