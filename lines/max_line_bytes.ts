// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// The line cap alone, apart from the splitter, so a module that needs the number does not load
// the splitter's diagnostics and the redactor. The reader states the same number itself.

/**
 * The longest line read, in bytes, newline excluded: 64 MiB. A real line is
 * at most a few MB (a tool result, an image); a longer one is never held in
 * memory. The sources (`fromNdjson`, `fromClaudeCode`) report it, and take
 * another cap through their option `maxLineBytes`; the Claude Code reader
 * (`@brigade/transcript/reader`) skips it whole under the same cap.
 *
 * @example Usage
 * ```ts
 * import { MAX_LINE_BYTES } from "@brigade/transcript";
 * import assert from "node:assert/strict";
 *
 * assert.equal(MAX_LINE_BYTES, 64 * 1024 * 1024);
 * ```
 */
export const MAX_LINE_BYTES: number = 64 << 20;
