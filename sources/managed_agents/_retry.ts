// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// When to try a request again and how long to wait first: the official SDK's
// rule (`@anthropic-ai/sdk` 1.10.0, `shouldRetry`), narrowed to the failures
// that may pass, and its waits (`retry-after-ms`, `retry-after`, else an
// exponential backoff with jitter), capped.

/** The longest wait between two attempts, `retry-after` included. */
const MAX_RETRY_DELAY_MS = 60_000;

/**
 * The statuses that may pass: a request timeout, a conflict (a lock held a
 * moment), too many requests, a server error, a bad gateway, an unavailable
 * service, a gateway timeout and Anthropic's overloaded. Any other (501 Not
 * Implemented, 505 HTTP Version Not Supported, every other 4xx) will not pass
 * by trying again, so it fails at once, unless the API says otherwise.
 */
const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([
  408,
  409,
  429,
  500,
  502,
  503,
  504,
  529,
]);

/**
 * Whether an answer that is not 2xx is tried again, as the SDK decides: the
 * API's `x-should-retry` header first (`true`: yes, whatever the status;
 * `false`: no, even for a 429 or a 5xx), then the status
 * ({@linkcode RETRYABLE_STATUSES}; the SDK retries every 5xx, this module
 * only those that may pass).
 */
export function shouldRetry(status: number, shouldRetryHeader: string | null | undefined): boolean {
  if (shouldRetryHeader === "true") return true;
  if (shouldRetryHeader === "false") return false;
  return RETRYABLE_STATUSES.has(status);
}

/**
 * The wait before retry number `tries + 1` after an answer retried: the
 * `retry-after-ms` header (Anthropic's, in milliseconds), else `retry-after`
 * (seconds or an HTTP date), else {@linkcode backoffDelay}. Capped at
 * {@linkcode MAX_RETRY_DELAY_MS}.
 */
export function retryDelay(headers: Headers, tries: number, baseMs: number): number {
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
