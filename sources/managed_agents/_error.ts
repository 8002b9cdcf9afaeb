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
  /**
   * The `request-id` header of the API's answer (the SDK's `requestID`): the
   * first thing Anthropic's support asks for. Named at the end of the
   * message; absent when no answer came or it had none.
   */
  requestId?: string;
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
 * stack ever holds 8 characters in a row of the API key, in any case. When
 * the API answered, `requestId` is the answer's `request-id` header (as the
 * SDK's `requestID`), and the message ends with it.
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
 *
 * @example The request-id to give Anthropic's support
 * ```ts
 * import { ManagedAgentsError } from "@brigade/transcript";
 * import assert from "node:assert/strict";
 *
 * const error = new ManagedAgentsError(
 *   'Cannot list events of session "sesn_1": the API answered 529 Overloaded',
 *   { code: "api", source: "sessions/sesn_1/events", status: 529, requestId: "req_011" },
 * );
 * assert.equal(error.requestId, "req_011");
 * assert.ok(error.message.endsWith('529 Overloaded; request-id "req_011"'));
 * ```
 */
export class ManagedAgentsError extends EventSourceError {
  /** The HTTP status the API answered with, when the failure was an HTTP answer. */
  readonly status: number | undefined;
  /** The `request-id` of the API's answer, when there was one. */
  readonly requestId: string | undefined;

  /**
   * Constructs a new instance.
   *
   * @param reason What failed, naming the session (and thread) and the value at fault.
   * @param options Where it failed, the HTTP status and the answer's `request-id`.
   */
  constructor(reason: string, options: ManagedAgentsErrorOptions) {
    const { requestId } = options;
    super(requestId === undefined ? reason : `${reason}; request-id "${requestId}"`, options);
    this.name = "ManagedAgentsError";
    this.status = options.status;
    this.requestId = requestId;
  }
}
