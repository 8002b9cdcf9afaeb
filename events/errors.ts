// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

/**
 * Why an {@linkcode EventSourceError} was thrown, for a caller that decides on it (the message
 * is for people):
 *
 * - `"invalid_entry"`: a line, an in-memory entry or a row of a page is not a log entry: not
 *   JSON, not an object, not a valid entry or event.
 * - `"line_too_long"`: a line is over the source's `maxLineBytes` cap.
 * - `"second_session"`: a renderer of one session was given entries of a second session.
 * - `"unreadable"`: the input cannot be opened or read (no such file, permission denied, a
 *   directory or a device, a read that failed, no Deno to open a path with).
 * - `"out_of_order"`: a page of `fromEventLog` holds a `seq` that does not increase.
 * - `"invalid_page"`: `fromEventLog`'s `list()` returned something that is not an array, or a
 *   row of another session.
 * - `"invalid_option"`: an option is invalid, or the API key is missing (`fromManagedAgents`,
 *   before any request).
 * - `"api"`: the Managed Agents API answered with an error or a page it should not have sent,
 *   or could not be reached (see `ManagedAgentsError.status`).
 *
 * @example Usage
 * ```ts
 * import { EventSourceError, type EventSourceErrorCode, fromEntries } from "@brigade/transcript";
 * import assert from "node:assert/strict";
 *
 * let code: EventSourceErrorCode | undefined;
 * try {
 *   await Array.fromAsync(fromEntries([{ seq: 1 }] as never));
 * } catch (error) {
 *   if (error instanceof EventSourceError) code = error.code;
 * }
 * assert.equal(code, "invalid_entry");
 * ```
 */
export type EventSourceErrorCode =
  | "invalid_entry"
  | "line_too_long"
  | "second_session"
  | "unreadable"
  | "out_of_order"
  | "invalid_page"
  | "invalid_option"
  | "api";

/** Why and where in its input an {@linkcode EventSourceError} happened. */
export interface EventSourceErrorOptions {
  /** Why: what a caller decides on, the message aside. */
  code: EventSourceErrorCode;
  /** The input's name: a file's path or base name, `"stdin"`, `"entries"`, a URL path. */
  source: string;
  /** The 1-based line (NDJSON) or position (in-memory entries), when there is one. */
  line?: number;
  /** The error that caused this one, when there is one. */
  cause?: unknown;
}

/**
 * An event source or a renderer could not go on: the input is malformed or the
 * store behind it failed. The message says what was wrong and where; `code`
 * says why, for a caller that decides on it, and `source` and `line` say
 * where, for a caller that reports it.
 *
 * @example Usage
 * ```ts
 * import { EventSourceError } from "@brigade/transcript";
 * import assert from "node:assert/strict";
 *
 * const error = new EventSourceError("Cannot parse line: unexpected end of JSON", {
 *   code: "invalid_entry",
 *   source: "log.ndjson",
 *   line: 3,
 * });
 * assert.equal(error.message, "log.ndjson:3: Cannot parse line: unexpected end of JSON");
 * assert.equal(error.code, "invalid_entry");
 * assert.equal(error.line, 3);
 * ```
 */
export class EventSourceError extends Error {
  /** Why it was thrown. */
  readonly code: EventSourceErrorCode;
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
   * @param options Why and where it was.
   */
  constructor(reason: string, options: EventSourceErrorOptions) {
    const where = options.line === undefined ? options.source : `${options.source}:${options.line}`;
    super(`${where}: ${reason}`, { cause: options.cause });
    this.name = "EventSourceError";
    this.code = options.code;
    this.source = options.source;
    this.line = options.line;
    this.reason = reason;
  }
}
