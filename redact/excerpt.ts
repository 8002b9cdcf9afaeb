// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// How a value is quoted in an error message or a label: redacted first, then cut, its controls
// made visible. It sits beside the redactor because its promise is the redactor's: no message
// this package writes quotes a secret, nor part of one. `visibleControls` is exported by the kit
// (`./kit`), for a team's renderer that writes fields on one line; every folder may import it.

import { redact } from "./mod.ts";

/** Options for {@linkcode visibleControls}. */
export interface VisibleControlsOptions {
  /**
   * Also escape line breaks and tabs (`\n`, `\r`, `\t`, U+2028, U+2029), for
   * a field that must stay on one line: an index row, a heading, a message.
   *
   * @default {false}
   */
  oneLine?: boolean;
}

// C0 controls but tab and newline, DEL, C1 controls, and the bidi controls that
// reorder what a terminal shows (LRM, RLM, ALM, embeddings, overrides, isolates).
// deno-lint-ignore no-control-regex -- control characters are what is matched
const CONTROLS = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const CONTROLS_AND_BREAKS =
  // deno-lint-ignore no-control-regex -- control characters are what is matched
  /[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2028\u2029\u2066-\u2069]/g;

const NAMED: Record<string, string> = { "\n": "\\n", "\r": "\\r", "\t": "\\t" };

function escapeOne(char: string): string {
  const named = NAMED[char];
  if (named !== undefined) return named;
  const code = char.charCodeAt(0);
  return code < 0x100
    ? `\\x${code.toString(16).padStart(2, "0")}`
    : `\\u${code.toString(16).padStart(4, "0")}`;
}

/**
 * Makes the control characters of a text visible as escapes (`\x1b`,
 * `\u202e`), so a text taken from a log cannot retitle a terminal, move its
 * cursor or reorder what it shows. Newline and tab stay unless `oneLine`.
 * Everything else, backslashes included, is left as it is.
 *
 * @param text The text.
 * @param options Whether line breaks are escaped too.
 * @returns The text with its control characters escaped.
 *
 * @example Usage
 * ```ts
 * import { visibleControls } from "@brigade/transcript/kit";
 * import assert from "node:assert/strict";
 *
 * assert.equal(visibleControls("red \x1b[31mtext\x1b[0m"), "red \\x1b[31mtext\\x1b[0m");
 * assert.equal(visibleControls("two\nlines", { oneLine: true }), "two\\nlines");
 * ```
 */
export function visibleControls(text: string, options: VisibleControlsOptions = {}): string {
  return text.replace(options.oneLine ? CONTROLS_AND_BREAKS : CONTROLS, escapeOne);
}

/** Options for {@linkcode excerpt}. */
export interface ExcerptOptions {
  /**
   * The most code points kept; a longer text is cut there and ends with `…`.
   *
   * @default {60}
   */
  maxCodePoints?: number;
}

/** How much of a text is redacted before the excerpt is cut from it. */
const REDACT_WINDOW = 4096;

/**
 * What a diagnostic may quote of its input: the text redacted first (so a cut
 * can never leave part of a secret), then cut to a short excerpt, then put on
 * one line with its control characters visible. Only the first 4 KiB of the
 * text are read, so quoting a 64 MiB line costs no more than quoting a short
 * one; a secret that starts inside the excerpt and runs past that window
 * still matches its shape inside the window and goes.
 *
 * @param text The text from the input: a line, a value, a message quoting it.
 * @param options How much to keep.
 * @returns The safe excerpt.
 */
export function excerpt(text: string, options: ExcerptOptions = {}): string {
  const max = options.maxCodePoints ?? 60;
  const window = text.length > REDACT_WINDOW ? codePointsHead(text, REDACT_WINDOW) : text;
  const clean = redact(window);
  const head = codePointsHead(clean, max);
  const cut = head.length < clean.length || window.length < text.length;
  return visibleControls(cut ? `${head}…` : head, { oneLine: true });
}

/** The first `max` code points of a text (never half of a surrogate pair). */
function codePointsHead(text: string, max: number): string {
  let units = 0;
  let count = 0;
  for (const char of text) {
    if (count === max) break;
    units += char.length;
    count++;
  }
  return text.slice(0, units);
}
