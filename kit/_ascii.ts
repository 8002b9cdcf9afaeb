// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// Most text a renderer handles is ASCII, where a UTF-16 unit is a UTF-8 byte: one native scan
// says so, and the text is then cut and measured by its length.

const NON_ASCII = /[\x80-\uffff]/;

/** Whether every unit of `text` is ASCII (so its UTF-8 size is its length). */
export function isAscii(text: string): boolean {
  return !NON_ASCII.test(text);
}
