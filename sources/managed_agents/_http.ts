// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// GET one JSON page from the Managed Agents API, with retries. Kept apart from
// the paging and merging so that the one place that holds the API key and
// builds error messages is small enough to audit for key leaks.

import { attempt } from "./_fetch.ts";
import { excerpt } from "../../redact/excerpt.ts";
import { ManagedAgentsError } from "./_error.ts";
import type { Scrub } from "./_scrub.ts";

/**
 * The `anthropic-version` header the sessions API is called with by default:
 * the version `@anthropic-ai/sdk` 1.10.0 sends, whose types describe the events.
 */
export const API_VERSION = "2026-10-21";
/** The beta the sessions API belongs to. */
export const BETA = "managed-agents-2026-04-01";

/** The longest wait between two attempts, `retry-after` included. */
const MAX_RETRY_DELAY_MS = 60_000;

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

/**
 * Builds a {@linkcode ManagedAgentsError} about a target. The whole message
 * is scrubbed of the key here, once for all callers, because it may quote
 * what the API or a custom `fetch` sent; a `cause` must be scrubbed already.
 */
export function listError(
  ctx: HttpContext,
  target: ListTarget,
  detail: string,
  extra: { status?: number; cause?: Error } = {},
): ManagedAgentsError {
  return new ManagedAgentsError(ctx.scrub(`Cannot list ${target.what}: ${detail}`), {
    code: "api",
    source: ctx.scrub(target.source),
    ...extra,
  });
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

/**
 * GETs `target` with the query `params` and returns the parsed JSON body.
 * Retries 429, 500, 502, 503, 504 and 529, network errors and timeouts (see
 * {@linkcode retryDelay});
 * fails at once on any other status that is not 2xx, a redirect to another
 * origin, a page over the cap, a missing permission and any other error.
 */
export async function getJson(
  ctx: HttpContext,
  target: ListTarget,
  params: URLSearchParams,
): Promise<unknown> {
  const { text } = await request(ctx, target, params, false);
  return parseJson(ctx, target, text);
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
      });
    }
    if (outcome.kind === "transient") {
      if (tries >= ctx.maxRetries) throw networkFailure(ctx, target, outcome, tries);
      await sleep(backoffDelay(tries, ctx.retryBaseDelayMs), ctx.signal);
      continue;
    }
    const { response, text } = outcome;
    if (response.ok) return { response, text };
    if (isRetryable(response.status) && tries < ctx.maxRetries) {
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

/**
 * The statuses that may pass: too many requests, a server error, a bad
 * gateway, an unavailable service, a gateway timeout and Anthropic's
 * overloaded. Any other (501 Not Implemented, 505 HTTP Version Not Supported,
 * every 4xx) will not pass by trying again, so it fails at once.
 */
const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 500, 502, 503, 504, 529]);

export function isRetryable(status: number): boolean {
  return RETRYABLE_STATUSES.has(status);
}

function parseJson(ctx: HttpContext, target: ListTarget, text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw listError(ctx, target, `the API answered with a page that is not JSON: ${reason}`, {
      cause: scrubbedCause(error, ctx.scrub),
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
  const detail = `the API answered ${name}${times}${STATUS_HINT[status] ?? ""}${api}`;
  return listError(ctx, target, detail, { status });
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

/**
 * The wait before retry number `tries + 1` after a 429 or 5xx: the
 * `retry-after-ms` header (Anthropic's, in milliseconds), else `retry-after`
 * (seconds or an HTTP date), else {@linkcode backoffDelay}. Capped at
 * {@linkcode MAX_RETRY_DELAY_MS}.
 */
function retryDelay(headers: Headers, tries: number, baseMs: number): number {
  const asked = parseRetryAfterMs(headers.get("retry-after-ms")) ??
    parseRetryAfter(headers.get("retry-after"));
  if (asked === undefined) return backoffDelay(tries, baseMs);
  return Math.min(asked, MAX_RETRY_DELAY_MS);
}

/**
 * Exponential backoff: `baseMs * 2 ** tries`, capped at
 * {@linkcode MAX_RETRY_DELAY_MS}, times a jitter factor in (0.75, 1] so that
 * clients that failed together do not retry together.
 */
export function backoffDelay(tries: number, baseMs: number): number {
  const full = Math.min(baseMs * 2 ** tries, MAX_RETRY_DELAY_MS);
  return full * (1 - Math.random() * 0.25);
}

function parseRetryAfterMs(value: string | null): number | undefined {
  if (value === null || !/^\s*\d+(\.\d+)?\s*$/.test(value)) return undefined;
  return Number(value);
}

/** `retry-after` as milliseconds from now; undefined when absent or unreadable. */
function parseRetryAfter(value: string | null): number | undefined {
  if (value === null) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed) * 1000;
  // Only an HTTP date is a date here: Date.parse also reads "1" or "-5" as years.
  if (!/^[A-Za-z]{3}/.test(trimmed)) return undefined;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

/**
 * Resolves after `ms`, or rejects with the signal's reason as soon as it
 * aborts; either way no timer or listener is left behind.
 */
export function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  signal?.throwIfAborted();
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
