// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

/**
 * Why a refresh could not read the transcript: `"missing"` (it does not exist, yet or any
 * more), `"not_regular"` (a FIFO, a device, a directory: nothing was read) or `"unreadable"`
 * (a permission denial, a path through a file, an open or a read that failed).
 */
export type TranscriptErrorCode = "missing" | "not_regular" | "unreadable";

const MESSAGES: Readonly<Record<TranscriptErrorCode, string>> = {
  missing: "Cannot read transcript: it does not exist",
  not_regular: "Cannot read transcript: it is not a regular file",
  unreadable: "Cannot read transcript: access was denied or a read failed",
};

/**
 * A refresh could not read the transcript. Diagnostic only: the message is fixed text for
 * each {@linkcode TranscriptErrorCode}, never the path, never the underlying error, so it can
 * be logged or sent anywhere.
 *
 * @example Usage
 * ```ts
 * import { TranscriptError } from "@brigade/transcript/reader";
 * import assert from "node:assert/strict";
 *
 * const error = new TranscriptError("missing");
 * assert.equal(error.code, "missing");
 * assert.equal(error.message, "Cannot read transcript: it does not exist");
 * assert.ok(error instanceof Error);
 * ```
 */
export class TranscriptError extends Error {
  /** What went wrong. */
  readonly code: TranscriptErrorCode;

  /**
   * Makes the error for one code; its message is that code's fixed text.
   *
   * @param code What went wrong.
   */
  constructor(code: TranscriptErrorCode) {
    super(MESSAGES[code]);
    this.name = "TranscriptError";
    this.code = code;
  }
}
