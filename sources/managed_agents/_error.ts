// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

import { EventSourceError, type EventSourceErrorOptions } from "../../events/errors.ts";

/**
 * Why and where a {@linkcode ManagedAgentsError} happened, and the HTTP status, if any.
 *
 * @example Usage
 * ```ts
 * import { ManagedAgentsError, type ManagedAgentsErrorOptions } from "@brigade/transcript";
 * import assert from "node:assert/strict";
 *
 * const options: ManagedAgentsErrorOptions = {
 *   code: "api",
 *   source: "sessions/sesn_1/threads",
 *   status: 503,
 * };
 * assert.equal(new ManagedAgentsError("Cannot list threads", options).status, 503);
 * ```
 */
export interface ManagedAgentsErrorOptions extends EventSourceErrorOptions {
  /**
   * The HTTP status the API answered with; absent when the failure was not an
   * HTTP answer (bad options, a network error, a malformed page).
   */
  status?: number;
}

/**
 * {@linkcode fromManagedAgents} could not list a session: bad options, a
 * missing API key, an HTTP status that is not retried (or still failing after
 * the retries), a network error or a timeout after the retries, a redirect to
 * another origin, a page over the size cap, a cursor that cycles, a missing
 * network permission, or a page that is not the documented shape. Its `code`
 * is `"invalid_option"` for bad options and a missing API key (thrown before
 * any request), `"api"` for everything else. `source` names the API path
 * (`sessions/sesn_…/events`); neither the message, `source`, `cause` nor a
 * stack ever holds 8 characters in a row of the API key, in any case.
 *
 * @example Usage
 * ```ts
 * import { ManagedAgentsError } from "@brigade/transcript";
 * import assert from "node:assert/strict";
 *
 * const error = new ManagedAgentsError(
 *   'Cannot list events of session "sesn_1": the API answered 404 Not Found',
 *   { code: "api", source: "sessions/sesn_1/events", status: 404 },
 * );
 * assert.equal(error.code, "api");
 * assert.equal(error.status, 404);
 * assert.equal(error.name, "ManagedAgentsError");
 * assert.equal(
 *   error.message,
 *   "sessions/sesn_1/events: " +
 *     'Cannot list events of session "sesn_1": the API answered 404 Not Found',
 * );
 * ```
 */
export class ManagedAgentsError extends EventSourceError {
  /** The HTTP status the API answered with, when the failure was an HTTP answer. */
  readonly status: number | undefined;

  /**
   * Constructs a new instance.
   *
   * @param reason What failed, naming the session (and thread) and the value at fault.
   * @param options Where it failed, and the HTTP status.
   */
  constructor(reason: string, options: ManagedAgentsErrorOptions) {
    super(reason, options);
    this.name = "ManagedAgentsError";
    this.status = options.status;
  }
}
