// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// The front matter a dream starts with, written so that no value can leave its YAML scalar:
// every string is double-quoted and escaped (JSON's escapes, which YAML reads the same, plus
// `\uXXXX` for what YAML does not take raw), so a value holds no line break, no quote, no `---`
// at a line start; and the whole stays within a budget of bytes.

import { utf8Length } from "../../kit/mod.ts";

/** A front-matter value: a string, a count, or a list of strings. */
export type FrontMatterValue = string | number | readonly string[];

/** The fields of a front-matter block, in the order written. */
export type FrontMatter = Record<string, FrontMatterValue>;

/** The line that opens and closes a front-matter block. */
export const FENCE = "---";

/**
 * What a double-quoted scalar cannot hold raw: C0 controls, the quote and
 * the backslash, DEL and C1 controls, the line and paragraph separators
 * (line breaks to YAML 1.1), the byte-order mark, the two non-characters
 * YAML excludes.
 */
// deno-lint-ignore no-control-regex -- the controls are what it finds
const UNSAFE = /[\u0000-\u001f"\\\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]/g;

const SHORT_ESCAPES: Record<string, string> = {
  '"': '\\"',
  "\\": "\\\\",
  "\n": "\\n",
  "\r": "\\r",
  "\t": "\\t",
};

function escape(char: string): string {
  return SHORT_ESCAPES[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;
}

/** A string as a double-quoted scalar that YAML (1.1 and 1.2) and JSON read back as it was. */
export function quoted(text: string): string {
  // A lone surrogate is not text: it reads as U+FFFD, as the readers of this package do.
  return `"${text.toWellFormed().replace(UNSAFE, escape)}"`;
}

/** What a value cut short ends with, inside its quotes. */
const CUT = "…";

/**
 * A string quoted with {@linkcode quoted}, its text cut (at a code point,
 * never inside an escape) so that the scalar is at most `limit` UTF-8 bytes,
 * quotes included; a cut value ends with `…`.
 */
export function quotedWithin(text: string, limit: number): string {
  const whole = quoted(text);
  if (utf8Length(whole) <= limit) return whole;
  const room = limit - utf8Length(`""${CUT}`);
  let kept = "";
  let bytes = 0;
  for (const point of text.toWellFormed()) {
    const written = point.replace(UNSAFE, escape);
    const size = utf8Length(written);
    if (bytes + size > room) break;
    kept += written;
    bytes += size;
  }
  return `"${kept}${CUT}"`;
}

/** One `key: value` line (no line end), each string at most `limit` bytes. */
function line(key: string, value: FrontMatterValue, limit: number): string {
  if (typeof value === "number") return `${key}: ${value}`;
  // A digest is never cut: a digest cut short would name no text.
  if (key === "digest" && typeof value === "string") return `${key}: ${quoted(value)}`;
  if (typeof value === "string") return `${key}: ${quotedWithin(value, limit)}`;
  return `${key}: [${value.map((item) => quotedWithin(item, limit)).join(", ")}]`;
}

/** The block: the fence, one line per field, the fence, each line ending in `\n`. */
function block(fields: FrontMatter, limit: number): string {
  const lines = Object.entries(fields).map(([key, value]) => line(key, value, limit));
  return `${FENCE}\n${lines.join("\n")}\n${FENCE}\n`;
}

/** The shortest a string value is cut to before the block is let over its budget. */
const SHORTEST = 8;

/**
 * A front-matter block of at most `budget` UTF-8 bytes where it can be: the
 * values whole when they fit, else every string cut to the same limit, the
 * largest (halving from 1,024 bytes down to 8) that fits; a `digest`
 * is never cut. Keys are the
 * caller's plain words, written as they are.
 */
export function frontMatter(fields: FrontMatter, budget: number = Infinity): string {
  let text = block(fields, Infinity);
  for (let limit = 1_024; utf8Length(text) > budget && limit >= SHORTEST; limit /= 2) {
    text = block(fields, limit);
  }
  return text;
}

/** A page split into its front matter and the text after it. */
export interface Page {
  fields: FrontMatter;
  /** The front matter's size in UTF-8 bytes, its fences included. */
  bytes: number;
  body: string;
}

/**
 * Reads a page that starts with a block {@linkcode frontMatter} writes (each
 * value one JSON value on its line: a string, a count, a list of strings);
 * undefined when it has none.
 */
export function parsePage(text: string): Page | undefined {
  if (!text.startsWith(`${FENCE}\n`)) return undefined;
  const end = text.indexOf(`\n${FENCE}\n`, FENCE.length);
  if (end === -1) return undefined;
  const fields: FrontMatter = {};
  for (const line of text.slice(FENCE.length + 1, end).split("\n")) {
    const colon = line.indexOf(": ");
    if (colon <= 0) return undefined;
    let value: unknown;
    try {
      value = JSON.parse(line.slice(colon + 2));
    } catch {
      return undefined;
    }
    if (!isValue(value)) return undefined;
    fields[line.slice(0, colon)] = value;
  }
  const head = text.slice(0, end + FENCE.length + 2);
  return { fields, bytes: utf8Length(head), body: text.slice(head.length) };
}

function isValue(value: unknown): value is FrontMatterValue {
  return typeof value === "string" || typeof value === "number" ||
    (Array.isArray(value) && value.every((item) => typeof item === "string"));
}
