// Copyright 2026 the brigade authors. MIT license.

// A stand-in for the Managed Agents sessions API on loopback, implementing the
// documented list contract (../shared/reference/managed-agents-events.md §4):
// `GET /v1/sessions/{id}/events`, `/threads` and `/threads/{tid}/events`,
// `{data, next_page}` pages with `limit` and an opaque `page` cursor, the
// three headers checked, and Anthropic's error bodies.

/** An event as the API returns it. */
export type FakeEvent = Record<string, unknown>;

/** A thread of a fake session, with its own events. */
export interface FakeThread {
  id: string;
  /** Null for the primary thread, whose events are the session's list. */
  parent_thread_id: string | null;
  agent: { name: string };
  /** Ignored for the primary thread: the session's `events` are served. */
  events: FakeEvent[];
}

/** A session the fake API knows. */
export interface FakeSession {
  id: string;
  events: FakeEvent[];
  threads?: FakeThread[];
}

/** A request the fake API received. */
export interface RecordedRequest {
  method: string;
  /** The decoded path, e.g. `/v1/sessions/sesn_a/events`. */
  path: string;
  /** The path as sent, percent-encoding kept. */
  rawPath: string;
  params: URLSearchParams;
  headers: Headers;
  /** Aborts when the client goes away. */
  signal: AbortSignal;
}

/**
 * Answers a request before the contract does, to inject a fault; `undefined`
 * lets the contract answer. `index` counts requests from 0.
 */
export type Intercept = (
  request: RecordedRequest,
  index: number,
) => Response | Promise<Response | undefined> | undefined;

/** Options for {@linkcode startFakeApi}. */
export interface FakeApiOptions {
  /** The key the API accepts. */
  apiKey: string;
  sessions: FakeSession[];
  intercept?: Intercept;
}

/** A running fake API. */
export interface FakeApi {
  /** `http://127.0.0.1:{port}`. */
  baseUrl: string;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  /** Stops the server; await it at the end of each test. */
  shutdown(): Promise<void>;
}

/** The default `limit`, as Anthropic's claude-api skill states it. */
const DEFAULT_LIMIT = 1000;

/** Starts the fake API on 127.0.0.1 on a free port. */
export function startFakeApi(options: FakeApiOptions): FakeApi {
  const requests: RecordedRequest[] = [];
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen(): void {} },
    async (request) => {
      const url = new URL(request.url);
      const recorded: RecordedRequest = {
        method: request.method,
        path: decodeURIComponent(url.pathname),
        rawPath: url.pathname,
        params: url.searchParams,
        headers: request.headers,
        signal: request.signal,
      };
      requests.push(recorded);
      const intercepted = await options.intercept?.(recorded, requests.length - 1);
      return intercepted ?? answer(options, recorded);
    },
  );
  return {
    baseUrl: `http://127.0.0.1:${server.addr.port}`,
    requests,
    shutdown: () => server.shutdown(),
  };
}

/** An answer with Anthropic's error body. */
export function apiError(
  status: number,
  type: string,
  message: string,
  headers: HeadersInit = {},
): Response {
  return Response.json({ type: "error", error: { type, message } }, { status, headers });
}

function answer(options: FakeApiOptions, request: RecordedRequest): Response {
  if (request.method !== "GET") {
    return apiError(405, "invalid_request_error", `${request.method} is not allowed`);
  }
  return checkHeaders(options, request.headers) ?? route(options, request);
}

function checkHeaders(options: FakeApiOptions, headers: Headers): Response | undefined {
  const key = headers.get("x-api-key");
  if (key !== options.apiKey) {
    // Echoes the key it got, as some proxies do, so that tests can check that
    // the client scrubs it from what it throws.
    return apiError(401, "authentication_error", `invalid x-api-key: ${key}`);
  }
  if (headers.get("anthropic-version") !== "2023-06-01") {
    return apiError(400, "invalid_request_error", "anthropic-version: header is required");
  }
  const betas = headers.get("anthropic-beta")?.split(",").map((beta) => beta.trim()) ?? [];
  if (!betas.includes("managed-agents-2026-04-01")) {
    return apiError(400, "invalid_request_error", "this endpoint requires the managed-agents beta");
  }
  return undefined;
}

const SESSION_LIST = /^\/v1\/sessions\/([^/]+)\/(events|threads)$/;
const THREAD_EVENTS = /^\/v1\/sessions\/([^/]+)\/threads\/([^/]+)\/events$/;

function route(options: FakeApiOptions, request: RecordedRequest): Response {
  const list = SESSION_LIST.exec(request.rawPath);
  const threadEvents = THREAD_EVENTS.exec(request.rawPath);
  const sessionId = decodeURIComponent((list ?? threadEvents)?.[1] ?? "");
  const session = options.sessions.find((candidate) => candidate.id === sessionId);
  if (session === undefined) return apiError(404, "not_found_error", "session not found");
  if (list?.[2] === "events") return page(session.events, request.params);
  if (list?.[2] === "threads") return page(threadObjects(session), request.params);
  const threadId = decodeURIComponent(threadEvents?.[2] ?? "");
  const thread = session.threads?.find((candidate) => candidate.id === threadId);
  if (thread === undefined) return apiError(404, "not_found_error", "thread not found");
  return page(thread.parent_thread_id === null ? session.events : thread.events, request.params);
}

function threadObjects(session: FakeSession): FakeEvent[] {
  return (session.threads ?? []).map((thread) => ({
    type: "session_thread",
    id: thread.id,
    session_id: session.id,
    parent_thread_id: thread.parent_thread_id,
    agent: { type: "agent", name: thread.agent.name },
    status: "idle",
    archived_at: null,
  }));
}

/** One page of `items`; the cursor is opaque to clients (`cur_` + offset in base 36). */
function page(items: readonly unknown[], params: URLSearchParams): Response {
  const limit = Number(params.get("limit") ?? DEFAULT_LIMIT);
  if (!Number.isSafeInteger(limit) || limit < 1) {
    return apiError(400, "invalid_request_error", `limit: invalid value ${params.get("limit")}`);
  }
  const cursor = params.get("page");
  const offset = cursor === null ? 0 : parseCursor(cursor);
  if (offset === undefined) return apiError(400, "invalid_request_error", "page: invalid cursor");
  const end = offset + limit;
  const next_page = end < items.length ? `cur_${end.toString(36)}` : null;
  return Response.json({ data: items.slice(offset, end), next_page });
}

function parseCursor(cursor: string): number | undefined {
  const match = /^cur_([0-9a-z]+)$/.exec(cursor);
  return match === null ? undefined : parseInt(match[1]!, 36);
}
