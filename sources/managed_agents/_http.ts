// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// GET one JSON page from the Managed Agents API, with retries. Kept apart from
// the paging and merging so that the one place that holds the API key and
// builds error messages is small enough to audit for key leaks.

import { attempt } from "./_fetch.ts";
import { excerpt } from "../../redact/excerpt.ts";
import { ManagedAgentsError } from "./_error.ts";
import { backoffDelay, retryDelay, shouldRetry, sleep } from "./_retry.ts";
import type { Scrub } from "./_scrub.ts";

/**
 * The `anthropic-version` header the sessions API is called with by default:
 * the version `@anthropic-ai/sdk` 1.10.0 sends, whose types describe the events.
 */
export const API_VERSION = "2026-10-21";
/** The beta the sessions API belongs to. */
export const BETA = "managed-agents-2026-04-01";

/** How to reach the API; one per {@linkcode fromManagedAgents} call. */
export interface HttpContext {
  apiKey: string;
  /** The `anthropic-version` header. */
  apiVersion: string;
  /** Removes every piece of the key from a text (see `_managed_agents_scrub.ts`). */
  scrub: Scrub;
  baseUrl: string;
  fetch: typeof fetch;
  signal: AbortSignal | undefined;
  maxRetries: number;
  retryBaseDelayMs: number;
  timeoutMs: number;
  maxPageBytes: number;
}

/** One list the API pages through, named for error messages. */
export interface ListTarget {
  /** The URL path, already encoded: `/v1/sessions/sesn_1/events`. */
  path: string;
  /** The error's `source`: the path without `/v1/`. */
  source: string;
  /** What is listed, for "Cannot list …": `events of session "sesn_1"`. */
  what: string;
}

const STATUS_TEXT: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  408: "Request Timeout",
  409: "Conflict",
  413: "Content Too Large",
  422: "Unprocessable Content",
  429: "Too Many Requests",
  500: "Internal Server Error",
  501: "Not Implemented",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
  505: "HTTP Version Not Supported",
  529: "Overloaded",
};

const STATUS_HINT: Record<number, string> = {
  401: " (check the API key)",
  403: " (the API key may lack access to this session or to the managed-agents beta)",
  404: " (check the session id; the API key's workspace must own the session)",
};

/** What a {@linkcode listError} may carry besides its message. */
export interface ListErrorExtra {
  status?: number;
  /** Scrubbed already. */
  cause?: Error;
  /** The `request-id` header of the answer at fault, as sent (see {@linkcode requestIdOf}). */
  requestId?: string | undefined;
}

/**
 * Builds a {@linkcode ManagedAgentsError} about a target. The whole message
 * is scrubbed of the key here, once for all callers, because it may quote
 * what the API or a custom `fetch` sent; a `cause` must be scrubbed already.
 */
export function listError(
  ctx: HttpContext,
  target: ListTarget,
  detail: string,
  extra: ListErrorExtra = {},
): ManagedAgentsError {
  const { requestId, ...rest } = extra;
  const id = requestId === undefined ? undefined : requestIdText(ctx, requestId);
  return new ManagedAgentsError(ctx.scrub(`Cannot list ${target.what}: ${detail}`), {
    code: "api",
    source: ctx.scrub(target.source),
    ...rest,
    ...(id === undefined ? {} : { requestId: id }),
  });
}

/** The `request-id` header of an answer, as sent; undefined when it has none. */
export function requestIdOf(response: Response): string | undefined {
  return response.headers.get("request-id") ?? undefined;
}

/** The longest request id an error carries, in code points (Anthropic's have 28). */
const MAX_REQUEST_ID = 128;

/**
 * A request id as an error carries it: the API sent it, so it is scrubbed of
 * the key, redacted, cut and put on one line, as a quote is; undefined when
 * nothing is left.
 */
function requestIdText(ctx: HttpContext, value: string): string | undefined {
  const head = ctx.scrub(value.slice(0, 4 * MAX_REQUEST_ID + 4 * ctx.apiKey.length));
  const text = excerpt(head.trim(), { maxCodePoints: MAX_REQUEST_ID });
  return text === "" ? undefined : text;
}

/** The longest quote of a value from the API in an error, in code points. */
const MAX_QUOTE = 40;

/**
 * A value from the API as an error may quote it: scrubbed of the key first,
 * so that the cut can never leave a piece of it, then redacted, cut and put
 * on one line with its control characters visible ({@linkcode excerpt}).
 */
export function quote(ctx: HttpContext, value: string): string {
  // Only the head can be quoted; four times the key's length more keeps a key
  // that straddles the cut whole for the scrubber, even encoded (hex doubles
  // it, base64 and separators lengthen it).
  const head = ctx.scrub(value.slice(0, 4 * MAX_QUOTE + 4 * ctx.apiKey.length));
  const cut = head.length < value.length ? "…" : "";
  const text = excerpt(head, { maxCodePoints: MAX_QUOTE });
  return `"${text.endsWith("…") ? text : text + cut}"`;
}

/** A JSON page and the `request-id` of the answer that brought it, for the errors about it. */
export interface JsonPage {
  body: unknown;
  requestId: string | undefined;
}

/**
 * GETs `target` with the query `params` and returns the parsed JSON body.
 * Retries what may pass (see {@linkcode shouldRetry}), network errors and
 * timeouts (see {@linkcode retryDelay}); fails at once on any other status
 * that is not 2xx, a redirect to another origin, a page over the cap, a
 * missing permission and any other error.
 */
export async function getJson(
  ctx: HttpContext,
  target: ListTarget,
  params: URLSearchParams,
): Promise<JsonPage> {
  const { response, text } = await request(ctx, target, params, false);
  const requestId = requestIdOf(response);
  return { body: parseJson(ctx, target, text, requestId), requestId };
}

/**
 * Opens a server-sent event stream at `target`: the same retries, deadline
 * (on the headers) and refusals as {@linkcode getJson}, and the 2xx response
 * returned with its body unread, for the caller to read and cancel.
 */
export async function openStream(
  ctx: HttpContext,
  target: ListTarget,
  params: URLSearchParams,
): Promise<Response> {
  const { response } = await request(ctx, target, params, true);
  return response;
}

async function request(
  ctx: HttpContext,
  target: ListTarget,
  params: URLSearchParams,
  stream: boolean,
): Promise<{ response: Response; text: string }> {
  const query = `${params}`;
  const url = new URL(`${ctx.baseUrl}${target.path}${query === "" ? "" : `?${query}`}`);
  const options = {
    fetch: ctx.fetch,
    headers: headers(ctx.apiKey, ctx.apiVersion, stream ? "text/event-stream" : "application/json"),
    signal: ctx.signal,
    timeoutMs: ctx.timeoutMs,
    maxPageBytes: ctx.maxPageBytes,
    stream,
  };
  for (let tries = 0;; tries++) {
    ctx.signal?.throwIfAborted();
    const outcome = await attempt(options, url);
    if (outcome.kind === "fatal") {
      const { status } = outcome;
      const cause = outcome.cause === undefined
        ? undefined
        : scrubbedCause(outcome.cause, ctx.scrub);
      const own = outcome.quoteCause && cause !== undefined ? `: ${causeText(cause)}` : "";
      throw listError(ctx, target, `${outcome.reason}${own}`, {
        ...(status === undefined ? {} : { status }),
        ...(cause === undefined ? {} : { cause }),
        requestId: outcome.requestId,
      });
    }
    if (outcome.kind === "transient") {
      if (tries >= ctx.maxRetries) throw networkFailure(ctx, target, outcome, tries);
      await sleep(backoffDelay(tries, ctx.retryBaseDelayMs), ctx.signal);
      continue;
    }
    const { response, text } = outcome;
    if (response.ok) return { response, text };
    const retry = shouldRetry(response.status, response.headers.get("x-should-retry"));
    if (retry && tries < ctx.maxRetries) {
      await sleep(retryDelay(response.headers, tries, ctx.retryBaseDelayMs), ctx.signal);
      continue;
    }
    throw statusFailure(ctx, target, response, text, tries);
  }
}

function headers(apiKey: string, apiVersion: string, accept: string): Headers {
  return new Headers({
    "x-api-key": apiKey,
    "anthropic-version": apiVersion,
    "anthropic-beta": BETA,
    "accept": accept,
  });
}

function parseJson(
  ctx: HttpContext,
  target: ListTarget,
  text: string,
  requestId: string | undefined,
): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw listError(ctx, target, `the API answered with a page that is not JSON: ${reason}`, {
      cause: scrubbedCause(error, ctx.scrub),
      requestId,
    });
  }
}

function statusFailure(
  ctx: HttpContext,
  target: ListTarget,
  response: Response,
  body: string,
  tries: number,
): ManagedAgentsError {
  const { status } = response;
  const name = `${status} ${STATUS_TEXT[status] ?? response.statusText}`.trimEnd();
  const times = tries === 0 ? "" : ` on each of ${tries + 1} attempts`;
  const api = apiErrorMessage(body, ctx.scrub);
  // A status that is retried otherwise: say why this one was not.
  const refused = tries === 0 && ctx.maxRetries > 0 && shouldRetry(status, null) &&
      response.headers.get("x-should-retry") === "false"
    ? " (not retried: the API sent x-should-retry: false)"
    : "";
  const detail = `the API answered ${name}${times}${refused}${STATUS_HINT[status] ?? ""}${api}`;
  return listError(ctx, target, detail, { status, requestId: requestIdOf(response) });
}

/**
 * The API's own explanation from an error body
 * (`{"type":"error","error":{"type":"…","message":"…"}}`), shortened and with
 * the key scrubbed (an API or a proxy may echo the header it rejected).
 */
function apiErrorMessage(body: string, scrub: Scrub): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return "";
  }
  const error = isObject(parsed) ? parsed.error : undefined;
  if (!isObject(error)) return "";
  const parts = [error.type, error.message].filter((part) => typeof part === "string");
  if (parts.length === 0) return "";
  // Scrubbed before it is shortened: a cut could leave part of the key.
  const text = scrub(parts.join(": "));
  return `: ${shorten(text)}`;
}

function networkFailure(
  ctx: HttpContext,
  target: ListTarget,
  failure: { reason: string; cause: unknown },
  tries: number,
): ManagedAgentsError {
  const cause = scrubbedCause(failure.cause, ctx.scrub);
  // The origin only: a base URL may carry a proxy's user and password.
  const origin = new URL(ctx.baseUrl).origin;
  const reason = failure.reason || shorten(cause.message) || cause.name;
  const detail = `the request to ${origin} failed on each of ${tries + 1} attempts: ${reason}`;
  return listError(ctx, target, detail, { cause });
}

/** The longest text of an API error or a cause quoted in a message. */
const MAX_DETAIL = 300;

/** A text cut to {@linkcode MAX_DETAIL} code units, with `…` when cut. */
function shorten(text: string): string {
  return text.length > MAX_DETAIL ? `${text.slice(0, MAX_DETAIL)}…` : text;
}

/** A scrubbed cause as a message quotes it: `RangeError: its message`, cut. */
function causeText(cause: Error): string {
  return shorten(cause.message === "" ? cause.name : `${cause.name}: ${cause.message}`);
}

/**
 * A copy of a thrown value that cannot hold the key: a custom `fetch` may put
 * its request (headers and all) in what it throws, so the original is never
 * attached. Only the name and the message are kept, scrubbed before the stack
 * is made from them.
 */
function scrubbedCause(error: unknown, scrub: Scrub): Error {
  const name = error instanceof Error ? error.name : "Error";
  const message = error instanceof Error ? error.message : String(error);
  const copy = new Error(scrub(message));
  copy.name = scrub(name);
  copy.stack = `${copy.name}: ${copy.message}`;
  return copy;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
