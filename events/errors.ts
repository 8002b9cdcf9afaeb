// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

/** Where in its input an {@linkcode EventSourceError} happened. */
export interface EventSourceErrorOptions {
  /** The input's name: a file's path or base name, `"stdin"`, `"entries"`, a URL path. */
  source: string;
  /** The 1-based line (NDJSON) or position (in-memory entries), when there is one. */
  line?: number;
  /** The error that caused this one, when there is one. */
  cause?: unknown;
}

/**
 * An event source or a renderer could not go on: the input is malformed or the
 * store behind it failed. The message says what was wrong and where; `source`
 * and `line` say where, for a caller that reports it.
 *
 * @example Usage
 * ```ts
 * import { EventSourceError } from "@brigade/transcript";
 * import assert from "node:assert/strict";
 *
 * const error = new EventSourceError("Cannot parse line: unexpected end of JSON", {
 *   source: "log.ndjson",
 *   line: 3,
 * });
 * assert.equal(error.message, "log.ndjson:3: Cannot parse line: unexpected end of JSON");
 * assert.equal(error.line, 3);
 * ```
 */
export class EventSourceError extends Error {
  /** The input's name. */
  readonly source: string;
  /** The 1-based line or position, when there is one. */
  readonly line: number | undefined;
  /** The reason alone, without the place. */
  readonly reason: string;

  /**
   * Constructs a new instance.
   *
   * @param reason What was wrong.
   * @param options Where it was.
   */
  constructor(reason: string, options: EventSourceErrorOptions) {
    const where = options.line === undefined ? options.source : `${options.source}:${options.line}`;
    super(`${where}: ${reason}`, { cause: options.cause });
    this.name = "EventSourceError";
    this.source = options.source;
    this.line = options.line;
    this.reason = reason;
  }
}
