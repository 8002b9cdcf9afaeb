// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// One attempt at one GET: the deadline, the redirects, the capped body, and
// what kind of failure a thrown error is. It never throws but for the
// caller's abort: every other outcome is a value the retry loop decides on.

/** The most same-origin redirects one attempt follows. */
export const MAX_REDIRECTS = 5;

/** What one attempt needs; the key is in `headers`. */
export interface AttemptOptions {
  fetch: typeof fetch;
  headers: Headers;
  /** The caller's signal: its abort is rethrown as its reason, at once. */
  signal: AbortSignal | undefined;
  /** The deadline of the whole attempt, headers, redirects and body. */
  timeoutMs: number;
  /** The most decompressed bytes a body may have. */
  maxPageBytes: number;
  /**
   * A stream: a 2xx answer is returned as soon as its headers arrive, its
   * body unread (`text` is `""`); the deadline then covers the headers only.
   * Any other answer is read whole, as always.
   */
  stream?: boolean;
}

/** How an attempt ended. */
export type Attempt =
  /** An answer that is not a redirect, its body read whole. */
  | { kind: "answer"; response: Response; text: string }
  /** A failure that may pass: a network error or the deadline. */
  | { kind: "transient"; reason: string; cause: unknown }
  /**
   * A failure that trying again cannot fix. With `quoteCause`, the message
   * ends with the cause's own (scrubbed, then cut, by the caller).
   */
  | {
    kind: "fatal";
    reason: string;
    cause?: unknown;
    status?: number;
    quoteCause?: boolean;
    /** The `request-id` header, as sent, of the answer that ended the attempt. */
    requestId?: string;
  };

const REDIRECTS: Record<number, string> = {
  301: "301 Moved Permanently",
  302: "302 Found",
  303: "303 See Other",
  307: "307 Temporary Redirect",
  308: "308 Permanent Redirect",
};

/**
 * GETs `url`, following at most {@linkcode MAX_REDIRECTS} redirects that stay
 * on its origin (scheme, host and port); a redirect anywhere else ends the
 * attempt before any request goes there, so the key never leaves the origin.
 */
export async function attempt(options: AttemptOptions, url: URL): Promise<Attempt> {
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), options.timeoutMs);
  const signal = options.signal === undefined
    ? deadline.signal
    : AbortSignal.any([options.signal, deadline.signal]);
  try {
    return await follow(options, url, signal);
  } catch (error) {
    if (options.signal?.aborted) throw options.signal.reason;
    if (deadline.signal.aborted) {
      return {
        kind: "transient",
        reason: `no complete answer within ${options.timeoutMs} ms ("timeoutMs")`,
        cause: error,
      };
    }
    return classify(error, url);
  } finally {
    clearTimeout(timer);
  }
}

async function follow(options: AttemptOptions, start: URL, signal: AbortSignal): Promise<Attempt> {
  let url = start;
  for (let hops = 0;; hops++) {
    const response = await abortable(
      options.fetch(url, { headers: options.headers, signal, redirect: "manual" }),
      signal,
      discard,
    );
    const redirect = REDIRECTS[response.status];
    const location = response.headers.get("location");
    if (redirect === undefined || location === null) {
      if (options.stream && response.ok) return { kind: "answer", response, text: "" };
      const text = await readCapped(response, options.maxPageBytes, signal);
      if (typeof text !== "string") return { ...text, ...requestIdOf(response) };
      return { kind: "answer", response, text };
    }
    await discard(response);
    const status = response.status;
    const id = requestIdOf(response);
    let next: URL;
    try {
      next = new URL(location, url);
    } catch {
      return {
        kind: "fatal",
        status,
        reason: `the API answered ${redirect} to an invalid URL`,
        ...id,
      };
    }
    if (!sameOrigin(next, start)) {
      return {
        kind: "fatal",
        status,
        reason: `the API answered ${redirect} to another origin, ${targetOrigin(next)}; ` +
          `it is not followed, so that the API key goes only to ${start.origin}`,
        ...id,
      };
    }
    if (hops === MAX_REDIRECTS) {
      return {
        kind: "fatal",
        status,
        reason: `the API redirected more than ${MAX_REDIRECTS} times in a row`,
        ...id,
      };
    }
    url = next;
  }
}

/** The answer's `request-id` header as a fatal attempt carries it: absent when it has none. */
function requestIdOf(response: Response): { requestId?: string } {
  const id = response.headers.get("request-id");
  return id === null || id === "" ? {} : { requestId: id };
}

/** A redirect target's origin as an error names it: its scheme, and its host when it has one. */
function targetOrigin(url: URL): string {
  return url.protocol === "http:" || url.protocol === "https:" ? url.origin : `${url.protocol} URL`;
}

/**
 * Whether a redirect target stays where the key may go: an `http:` or
 * `https:` URL of the start's scheme, host and port. (A `blob:` URL's
 * `origin` is the origin it was made on, so comparing origins alone would let
 * one through.)
 */
function sameOrigin(next: URL, start: URL): boolean {
  return (next.protocol === "http:" || next.protocol === "https:") &&
    next.protocol === start.protocol && next.host === start.host;
}

/**
 * The body as text, counting its decompressed bytes as they arrive; past
 * `cap` it stops reading and returns the failure.
 */
async function readCapped(
  response: Response,
  cap: number,
  signal: AbortSignal,
): Promise<string | Attempt> {
  if (response.body === null) return "";
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  const parts: string[] = [];
  let bytes = 0;
  try {
    for (;;) {
      const { done, value } = await abortable(reader.read(), signal);
      if (done) break;
      bytes += value.byteLength;
      if (bytes > cap) {
        return {
          kind: "fatal",
          reason: `the API answered with a page over the ${cap}-byte cap ("maxPageBytes"); ` +
            `reading stopped at ${bytes} bytes`,
        };
      }
      parts.push(decoder.decode(value, { stream: true }));
    }
    parts.push(decoder.decode());
    return parts.join("");
  } finally {
    // Cancelling releases the connection of a body left unread; it is a
    // no-op on a body read to its end.
    await reader.cancel().catch(() => {});
  }
}

/** Reads nothing more of a response and lets its connection go. */
async function discard(response: Response): Promise<void> {
  await response.body?.cancel().catch(() => {});
}

/**
 * `promise`, or the signal's reason as soon as it aborts: a custom `fetch`
 * may ignore the signal, and the deadline must hold anyway. What the promise
 * yields after losing goes to `dispose`.
 */
function abortable<T>(
  promise: Promise<T>,
  signal: AbortSignal,
  dispose?: (value: T) => Promise<void>,
): Promise<T> {
  if (signal.aborted) {
    promise.then(dispose, () => {});
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        if (signal.aborted) dispose?.(value);
        else resolve(value);
      },
      (error) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

// The errors a network failure shows as: `fetch` rejects with a TypeError, and
// Deno's own errors name the socket's trouble.
const TRANSIENT_NAMES = new Set([
  "TypeError",
  "TimeoutError",
  "ConnectionRefused",
  "ConnectionReset",
  "ConnectionAborted",
  "NotConnected",
  "AddrNotAvailable",
  "BrokenPipe",
  "TimedOut",
  "Interrupted",
  "UnexpectedEof",
  "Http",
  "NetworkUnreachable",
]);

/**
 * A thrown error as an attempt: a network error may pass and is retried; a
 * missing permission or anything else (a bug, a custom `fetch` that throws)
 * will not, and says so at once.
 */
function classify(error: unknown, url: URL): Attempt {
  const name = error instanceof Error ? error.name : "";
  if (name === "NotCapable" || name === "PermissionDenied") {
    return {
      kind: "fatal",
      cause: error,
      reason: `the network permission for ${url.host} is missing: ` +
        `run with --allow-net=${url.host} (or a list that holds it)`,
    };
  }
  const message = error instanceof Error ? error.message : "";
  // `fetch` throws a TypeError for a URL it refuses too (one too long, say).
  if (TRANSIENT_NAMES.has(name) && !/^Invalid URL\b/.test(message)) {
    return { kind: "transient", reason: "", cause: error };
  }
  return {
    kind: "fatal",
    cause: error,
    quoteCause: true,
    reason: `the request to ${url.origin} failed`,
  };
}
