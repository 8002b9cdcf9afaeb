// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

/**
 * Lenient decoding of one transcript line: invalid UTF-8 becomes U+FFFD (the decoder is not
 * fatal), a duplicated member takes its last value (as `JSON.parse` reads it), and a line
 * that is not JSON decodes to `undefined`. Lone surrogate escapes survive `JSON.parse` as lone
 * UTF-16 code units; the fact rules replace them in the strings they keep.
 *
 * @module
 */

/** Keeps a byte order mark so that decoding never depends on where a line starts. */
const DECODER = new TextDecoder("utf-8", { ignoreBOM: true });

/**
 * Decodes one line (newline excluded). `atFileStart` says the line is the file's first,
 * where a UTF-8 byte order mark is skipped.
 */
export function decodeLine(bytes: Uint8Array, atFileStart: boolean): unknown {
  let view = bytes;
  if (atFileStart && view[0] === 0xef && view[1] === 0xbb && view[2] === 0xbf) {
    view = view.subarray(3);
  }
  try {
    return JSON.parse(DECODER.decode(view));
  } catch {
    return undefined;
  }
}
