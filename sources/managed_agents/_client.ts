// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// Listing through a client the caller already holds: the official SDK's
// `client.beta.sessions`, or anything of its shape. The client pages, retries
// and authenticates; this module checks what it yields and turns what it
// throws into a ManagedAgentsError that quotes nothing unredacted.

import { excerpt } from "../../redact/excerpt.ts";
import { redact } from "../../redact/mod.ts";
import { ManagedAgentsError } from "./_error.ts";
import type { ListTarget } from "./_http.ts";
import type { Item, ItemCheck, Quote } from "./_pages.ts";

/**
 * What {@linkcode ManagedAgentsClient} list calls are given besides their
 * parameters: the caller's signal, so that an abort stops the client's
 * request too.
 *
 * @example Usage
 * ```ts
 * import type { ManagedAgentsRequestOptions } from "@brigade/transcript";
 * import assert from "node:assert/strict";
 *
 * const options: ManagedAgentsRequestOptions = { signal: AbortSignal.timeout(1_000) };
 * assert.ok(options.signal instanceof AbortSignal);
 * ```
 */
export interface ManagedAgentsRequestOptions {
  /** The listing's signal, when it has one. */
  signal?: AbortSignal;
}

/**
 * The part of a Managed Agents client that {@linkcode fromManagedAgents}
 * lists through, typed by its shape: the official TypeScript SDK's
 * `client.beta.sessions` (`@anthropic-ai/sdk`) is one, with no dependency of
 * this package on the SDK. Each `list` returns what yields the list's items
 * across its pages (the SDK's page promises do), in the API's order.
 *
 * @example Usage
 * ```ts
 * import { fromManagedAgents, type ManagedAgentsClient } from "@brigade/transcript";
 * import assert from "node:assert/strict";
 *
 * // A stand-in of the SDK's shape: one event, no threads.
 * const client: ManagedAgentsClient = {
 *   events: {
 *     list: async function* () {
 *       yield { id: "sevt_1", type: "user.message", processed_at: null, content: "Hi" };
 *     },
 *   },
 *   threads: {
 *     list: async function* () {},
 *     events: { list: async function* () {} },
 *   },
 * };
 * const entries = await Array.fromAsync(fromManagedAgents({ sessionId: "sesn_1", client }));
 * assert.deepEqual(entries.map((entry) => entry.event.type), ["user.message"]);
 * ```
 */
export interface ManagedAgentsClient {
  /**
   * Reads the session (`GET /v1/sessions/{id}`) for its `status`, so that a
   * listing of a session that is no longer running waits for its last
   * events (see the `settleTries` option of `fromManagedAgents`). A
   * client without it lists once, as the listing ends.
   */
  retrieve?(
    sessionId: string,
    params: Record<string, never>,
    options: ManagedAgentsRequestOptions,
  ): PromiseLike<unknown>;
  /** The session's events: the primary thread's. */
  events: {
    /**
     * Lists a session's events (`GET /v1/sessions/{id}/events`); with
     * `created_at[gte]`, those processed at or after that time.
     */
    list(
      sessionId: string,
      params: { limit?: number; "created_at[gte]"?: string },
      options: ManagedAgentsRequestOptions,
    ): AsyncIterable<unknown>;
    /**
     * Opens the session's event stream (`GET /v1/sessions/{id}/events/stream`),
     * resolving once it is open; needed with `follow: true` only.
     */
    stream?(
      sessionId: string,
      params: Record<string, never>,
      options: ManagedAgentsRequestOptions,
    ): PromiseLike<AsyncIterable<unknown>>;
  };
  /** The session's threads and their events. */
  threads: {
    /** Lists a session's threads (`GET /v1/sessions/{id}/threads`). */
    list(
      sessionId: string,
      params: { limit?: number },
      options: ManagedAgentsRequestOptions,
    ): AsyncIterable<unknown>;
    /** One thread's events. */
    events: {
      /**
       * Lists a thread's events (`GET /v1/sessions/{id}/threads/{tid}/events`);
       * with `page`, from that page cursor on. When what it returns is also a
       * promise of the first page (`{data, next_page}`, as the SDK's page
       * promise is), a follow lists it a page at a time, and a reconnection's
       * catch-up of the thread lists from the cursor of the last page it
       * listed, not from the start.
       */
      list(
        threadId: string,
        params: { session_id: string; limit?: number; page?: string },
        options: ManagedAgentsRequestOptions,
      ): AsyncIterable<unknown>;
      /**
       * Opens a thread's event stream (`GET /v1/sessions/{id}/threads/{tid}/stream`),
       * resolving once it is open; needed with `follow: true` in scope `"all"` only.
       */
      stream?(
        threadId: string,
        params: { session_id: string },
        options: ManagedAgentsRequestOptions,
      ): PromiseLike<AsyncIterable<unknown>>;
    };
  };
}

/** How to list through a client; one per {@linkcode fromManagedAgents} call. */
export interface ClientContext {
  client: ManagedAgentsClient;
  signal: AbortSignal | undefined;
}

/** The longest quote of a value from the client in an error, in code points. */
const MAX_QUOTE = 40;

/** The longest text of what a client threw that an error quotes, in code points. */
const MAX_DETAIL = 300;

/**
 * Yields the items of one list the client makes, each checked by `check`;
 * what the client throws ends the listing with a {@linkcode ManagedAgentsError}
 * (code `api`, the HTTP `status` when the error carries one), its text
 * redacted and cut; the caller's abort ends it with the signal's reason.
 */
export async function* clientItems(
  ctx: ClientContext,
  target: ListTarget,
  list: (options: ManagedAgentsRequestOptions) => AsyncIterable<unknown>,
  check: ItemCheck,
): AsyncGenerator<Item> {
  const options: ManagedAgentsRequestOptions = ctx.signal === undefined
    ? {}
    : { signal: ctx.signal };
  const quote: Quote = (value) => `"${excerpt(value, { maxCodePoints: MAX_QUOTE })}"`;
  let iterator: AsyncIterator<unknown> | undefined;
  try {
    iterator = list(options)[Symbol.asyncIterator]();
    for (let index = 0;; index++) {
      let next: IteratorResult<unknown>;
      try {
        next = await iterator.next();
      } catch (error) {
        ctx.signal?.throwIfAborted();
        throw clientError(target, error);
      }
      if (next.done) {
        iterator = undefined;
        return;
      }
      const problem = check(next.value, quote);
      if (problem !== undefined) {
        throw new ManagedAgentsError(
          `Cannot list ${target.what}: the client gave an item that is not valid: ` +
            `item ${index} ${problem}`,
          { code: "api", source: target.source },
        );
      }
      ctx.signal?.throwIfAborted();
      yield next.value as Item;
    }
  } catch (error) {
    if (error instanceof ManagedAgentsError || ctx.signal?.aborted) throw error;
    // `list` itself threw, or returned something that cannot be iterated.
    throw clientError(target, error);
  } finally {
    // A consumer that stops early lets the client's pages go.
    await iterator?.return?.()?.catch?.(() => {});
  }
}

/**
 * What a client threw, as an error that can be shown: its name, status,
 * request id (the SDK's `requestID`) and message, redacted (a server may have
 * echoed the key into it) and cut, and a `cause` made of those alone (the
 * original may hold the request's headers).
 */
export function clientError(target: ListTarget, error: unknown): ManagedAgentsError {
  const name = error instanceof Error ? error.name : typeof error;
  const message = error instanceof Error ? error.message : String(error);
  const rawStatus = (error as { status?: unknown } | null | undefined)?.status;
  const status = Number.isInteger(rawStatus) ? rawStatus as number : undefined;
  const requestId = clientRequestId(error);
  const said = excerpt(message, { maxCodePoints: MAX_DETAIL });
  const cause = new Error(excerpt(message, { maxCodePoints: MAX_DETAIL }));
  cause.name = excerpt(name, { maxCodePoints: MAX_QUOTE });
  cause.stack = `${cause.name}: ${cause.message}`;
  return new ManagedAgentsError(
    redact(
      `Cannot list ${target.what}: the client failed: ${cause.name}${said ? `: ${said}` : ""}`,
    ),
    {
      code: "api",
      source: target.source,
      cause,
      ...(status === undefined ? {} : { status }),
      ...(requestId === undefined ? {} : { requestId }),
    },
  );
}

/** The longest request id an error carries, in code points (Anthropic's have 28). */
const MAX_REQUEST_ID = 128;

/**
 * The `request-id` of the answer an SDK error came from (its `requestID`),
 * redacted and cut; undefined when it has none.
 */
function clientRequestId(error: unknown): string | undefined {
  const id = (error as { requestID?: unknown } | null | undefined)?.requestID;
  if (typeof id !== "string") return undefined;
  const text = excerpt(id.trim(), { maxCodePoints: MAX_REQUEST_ID });
  return text === "" ? undefined : text;
}

/**
 * The `x-should-retry` header of the answer an SDK error came from (its
 * `headers`), when it has one.
 */
export function clientShouldRetryHeader(error: unknown): string | undefined {
  const headers = (error as { headers?: unknown } | null | undefined)?.headers;
  const get = (headers as { get?: unknown } | null | undefined)?.get;
  if (typeof get !== "function") return undefined;
  const value: unknown = get.call(headers, "x-should-retry");
  return typeof value === "string" ? value : undefined;
}
