// Copyright 2026 the brigade authors. MIT license.

/**
 * The format of one long record told from its bytes, without decoding or
 * parsing it: the format peek looks only at the record's top-level `event`
 * and `type` members, and a 60 MiB first line decoded and parsed for that
 * would cost its size three times over before the source reads it again.
 *
 * @module
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
/** Keys and `type` values longer than this are none the peek looks for. */
const MAX_NAME_BYTES = 256;

/** What a record's top-level members say of it: see `recordFormat`. */
export interface TopLevel {
  /** Whether it has an `event` member that is an object. */
  eventObject: boolean;
  /** Its `type` member when that is a short string; the last one, as `JSON.parse` keeps. */
  type: string | undefined;
  /** Whether its `type` member is a string holding a dot, however long. */
  typeHasDot: boolean;
}

/**
 * Reads the top-level members of the JSON object in `bytes` (whitespace
 * around it allowed); undefined when `bytes` is not one object. Values are
 * skipped, not checked: a record malformed inside a value is the source's to
 * report. Linear in the bytes; allocates only the short names it compares.
 *
 * @param bytes One line's UTF-8 bytes.
 * @returns The `event` and `type` members, or undefined.
 */
export function topLevel(bytes: Uint8Array): TopLevel | undefined {
  const found: TopLevel = { eventObject: false, type: undefined, typeHasDot: false };
  let at = skipSpace(bytes, 0);
  if (bytes[at] !== OPEN_BRACE) return undefined;
  at = skipSpace(bytes, at + 1);
  if (bytes[at] === CLOSE_BRACE) {
    return skipSpace(bytes, at + 1) === bytes.length ? found : undefined;
  }
  for (;;) {
    if (bytes[at] !== QUOTE) return undefined;
    const keyEnd = stringEnd(bytes, at);
    if (keyEnd === -1) return undefined;
    const key = shortString(bytes, at, keyEnd);
    at = skipSpace(bytes, keyEnd + 1);
    if (bytes[at] !== COLON) return undefined;
    const valueStart = skipSpace(bytes, at + 1);
    const valueEnd = skipValue(bytes, valueStart);
    if (valueEnd === -1) return undefined;
    if (key === "event") found.eventObject = bytes[valueStart] === OPEN_BRACE;
    if (key === "type") {
      const isString = bytes[valueStart] === QUOTE;
      found.type = isString ? shortString(bytes, valueStart, valueEnd - 1) : undefined;
      found.typeHasDot = isString && hasDot(bytes, valueStart + 1, valueEnd - 1);
    }
    at = skipSpace(bytes, valueEnd);
    if (bytes[at] === COMMA) {
      at = skipSpace(bytes, at + 1);
      continue;
    }
    if (bytes[at] !== CLOSE_BRACE) return undefined;
    return skipSpace(bytes, at + 1) === bytes.length ? found : undefined;
  }
}

function isSpace(byte: number | undefined): boolean {
  return byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;
}

function skipSpace(bytes: Uint8Array, at: number): number {
  while (isSpace(bytes[at])) at++;
  return at;
}

/** The index of the quote that closes the string opened at `at`; -1 when it never closes. */
function stringEnd(bytes: Uint8Array, at: number): number {
  for (let i = at + 1; i < bytes.length; i++) {
    if (bytes[i] === BACKSLASH) i++;
    else if (bytes[i] === QUOTE) return i;
  }
  return -1;
}

/** The string between the quotes at `open` and `close`, when short; else undefined. */
function shortString(bytes: Uint8Array, open: number, close: number): string | undefined {
  if (close - open - 1 > MAX_NAME_BYTES) return undefined;
  try {
    const value: unknown = JSON.parse(new TextDecoder().decode(bytes.subarray(open, close + 1)));
    return typeof value === "string" ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the raw string between `start` and `end` holds a dot, written or escaped. */
function hasDot(bytes: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    if (bytes[i] === 0x2e) return true;
    if (bytes[i] !== BACKSLASH) continue;
    // `\u002e` or `\u002E`; any other escape is two bytes, or six that are not a dot.
    const escape = new TextDecoder().decode(bytes.subarray(i + 1, i + 6)).toLowerCase();
    if (escape === "u002e") return true;
    i++;
  }
  return false;
}

/** The index just past the value that starts at `at`; -1 when it does not end. */
function skipValue(bytes: Uint8Array, at: number): number {
  const first = bytes[at];
  if (first === undefined) return -1;
  if (first === QUOTE) {
    const end = stringEnd(bytes, at);
    return end === -1 ? -1 : end + 1;
  }
  if (first === OPEN_BRACE || first === OPEN_BRACKET) return containerEnd(bytes, at);
  let i = at;
  while (i < bytes.length && !isSpace(bytes[i]) && !isDelimiter(bytes[i]!)) i++;
  return i === at ? -1 : i;
}

function isDelimiter(byte: number): boolean {
  return byte === COMMA || byte === CLOSE_BRACE || byte === CLOSE_BRACKET || byte === COLON;
}

/** The index just past the object or array opened at `at`, strings skipped whole. */
function containerEnd(bytes: Uint8Array, at: number): number {
  let depth = 0;
  for (let i = at; i < bytes.length; i++) {
    const byte = bytes[i];
    if (byte === QUOTE) {
      i = stringEnd(bytes, i);
      if (i === -1) return -1;
    } else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
      depth++;
    } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
      if (--depth === 0) return i + 1;
    }
  }
  return -1;
}
