// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// The line cap alone, apart from the splitter: the reader (and the status line, which starts
// a process per call) imports it without the splitter's diagnostics and the redactor.

/**
 * The longest line read, in bytes, newline excluded: 64 MiB. A real line is
 * at most a few MB (a tool result, an image); a longer one is never held in
 * memory. The Claude Code reader skips it whole and moves its offset past it,
 * so a runaway record never stalls the facts behind it; the sources
 * (`fromNdjson`, `fromClaudeCode`) report it, and take another cap through
 * their option `maxLineBytes`.
 *
 * @example Usage
 * ```ts
 * import { MAX_LINE_BYTES } from "@brigade/transcript/reader";
 * import assert from "node:assert/strict";
 *
 * assert.equal(MAX_LINE_BYTES, 64 * 1024 * 1024);
 * ```
 */
export const MAX_LINE_BYTES: number = 64 << 20;
