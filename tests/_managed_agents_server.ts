// Copyright 2026 the brigade authors. MIT license.

// A stand-in for the Managed Agents sessions API on loopback, implementing the
// documented list contract (../shared/reference/managed-agents-events.md §4):
// `GET /v1/sessions/{id}/events`, `/threads` and `/threads/{tid}/events`,
// `{data, next_page}` pages with `limit` and an opaque `page` cursor, the
// three headers checked, and Anthropic's error bodies.

import assert from "node:assert/strict";
import { EventSourceError, type LogEntry, ManagedAgentsError } from "@brigade/transcript";

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
  /**
   * The session resource's `status` (`GET /v1/sessions/{id}`); set it as the
   * session goes idle or terminates.
   *
   * @default {"running"}
   */
  status?: "running" | "idle" | "rescheduling" | "terminated";
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
  /** The `anthropic-version` the API requires; the SDK 1.10.0's by default. */
  apiVersion?: string;
  /**
   * Sends a `request-id` header with every answer that has none, as the API
   * does: `req_fake_{index}`, `index` counting requests from 0.
   */
  requestIds?: boolean;
  /**
   * How far the events list lags the stream, as the API's does: an event
   * appended (by {@linkcode FakeApi.append}) is sent to the open streams at
   * once but left out of the next `listLag` listings of its session's events
   * (a listing: a request of the list without a `page` cursor).
   *
   * @default {0}
   */
  listLag?: number;
}

/** A running fake API. */
export interface FakeApi {
  /** `http://127.0.0.1:{port}`. */
  baseUrl: string;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  /**
   * Stores an event of a session (of a thread, when `threadId` names a
   * child) and sends it to the open streams that show it: a stream
   * (`…/events/stream`, `…/threads/{tid}/stream`) sends what is appended while
   * it is open, as server-sent events (`event: <type>`, `data: <json>`).
   */
  append(sessionId: string, event: FakeEvent, threadId?: string | null): void;
  /** Closes every open stream, as a dropped connection would; returns how many. */
  dropStreams(): number;
  /** How many streams are open. */
  openStreams(): number;
  /** Stops the server; await it at the end of each test. */
  shutdown(): Promise<void>;
}

/** The default `limit`, as Anthropic's claude-api skill states it. */
const DEFAULT_LIMIT = 1000;

/** Starts the fake API on 127.0.0.1 on a free port. */
export function startFakeApi(options: FakeApiOptions): FakeApi {
  const requests: RecordedRequest[] = [];
  const streams = new Set<OpenStream>();
  // The events appended and not listed yet, with how many more listings leave each out.
  const lagging = new Map<FakeEvent, number>();
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
      const index = requests.length - 1;
      const intercepted = await options.intercept?.(recorded, index);
      const response = intercepted ?? answer(options, recorded, streams, lagging);
      if (options.requestIds && !response.headers.has("request-id")) {
        response.headers.set("request-id", `req_fake_${index}`);
      }
      return response;
    },
  );
  return {
    baseUrl: `http://127.0.0.1:${server.addr.port}`,
    requests,
    append(sessionId, event, threadId = null): void {
      const session = options.sessions.find((candidate) => candidate.id === sessionId);
      assert.ok(session !== undefined, `no session ${sessionId}`);
      const thread = threadId === null
        ? undefined
        : session.threads?.find((candidate) => candidate.id === threadId);
      const child = thread !== undefined && thread.parent_thread_id !== null;
      (child ? thread.events : session.events).push(event);
      if (!child && (options.listLag ?? 0) > 0) lagging.set(event, options.listLag!);
      for (const stream of streams) {
        if (stream.sessionId === sessionId && stream.threadId === (child ? threadId : null)) {
          stream.send(event);
        }
      }
    },
    dropStreams(): number {
      const count = streams.size;
      for (const stream of [...streams]) stream.close();
      return count;
    },
    openStreams: () => streams.size,
    shutdown: async (): Promise<void> => {
      for (const stream of [...streams]) stream.close();
      await server.shutdown();
    },
  };
}

/** A stream a client holds open. */
interface OpenStream {
  sessionId: string;
  /** Null for the session's own stream (and the primary thread's). */
  threadId: string | null;
  send(event: FakeEvent): void;
  close(): void;
}

/** A server-sent event stream that sends what is appended while it is open. */
function openStream(
  streams: Set<OpenStream>,
  sessionId: string,
  threadId: string | null,
): Response {
  const encoder = new TextEncoder();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const stream: OpenStream = {
    sessionId,
    threadId,
    send(event): void {
      const type = typeof event.type === "string" ? event.type : "message";
      try {
        controller.enqueue(encoder.encode(`event: ${type}\ndata: ${JSON.stringify(event)}\n\n`));
      } catch {
        streams.delete(stream);
      }
    },
    close(): void {
      streams.delete(stream);
      try {
        controller.close();
      } catch {
        // Already closed or cancelled.
      }
    },
  };
  const body = new ReadableStream<Uint8Array>({
    start(given): void {
      controller = given;
      // A comment first, as servers do to open the stream at once.
      given.enqueue(encoder.encode(": open\n\n"));
    },
    cancel(): void {
      streams.delete(stream);
    },
  });
  streams.add(stream);
  return new Response(body, {
    headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
  });
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

function answer(
  options: FakeApiOptions,
  request: RecordedRequest,
  streams: Set<OpenStream>,
  lagging: Map<FakeEvent, number>,
): Response {
  if (request.method !== "GET") {
    return apiError(405, "invalid_request_error", `${request.method} is not allowed`);
  }
  const refused = checkHeaders(options, request.headers);
  if (refused !== undefined) return refused;
  const stream = SESSION_STREAM.exec(request.rawPath) ?? THREAD_STREAM.exec(request.rawPath);
  if (stream !== null) {
    const sessionId = decodeURIComponent(stream[1]!);
    const session = options.sessions.find((candidate) => candidate.id === sessionId);
    if (session === undefined) return apiError(404, "not_found_error", "session not found");
    const threadId = stream[2] === undefined ? null : decodeURIComponent(stream[2]);
    const thread = session.threads?.find((candidate) => candidate.id === threadId);
    if (threadId !== null && thread === undefined) {
      return apiError(404, "not_found_error", "thread not found");
    }
    const child = thread !== undefined && thread.parent_thread_id !== null ? threadId : null;
    return openStream(streams, sessionId, child);
  }
  return route(options, request, lagging);
}

const SESSION_STREAM = /^\/v1\/sessions\/([^/]+)\/events\/stream$/;
const THREAD_STREAM = /^\/v1\/sessions\/([^/]+)\/threads\/([^/]+)\/stream$/;

function checkHeaders(options: FakeApiOptions, headers: Headers): Response | undefined {
  // The built-in client sends `x-api-key`; the SDK (1.10.0) sends `authorization: Bearer`.
  const bearer = /^Bearer (.*)$/.exec(headers.get("authorization") ?? "")?.[1];
  const key = headers.get("x-api-key") ?? bearer ?? null;
  if (key !== options.apiKey) {
    // Echoes the key it got, as some proxies do, so that tests can check that
    // the client scrubs it from what it throws.
    return apiError(401, "authentication_error", `invalid x-api-key: ${key}`);
  }
  if (headers.get("anthropic-version") !== (options.apiVersion ?? "2026-10-21")) {
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

const SESSION = /^\/v1\/sessions\/([^/]+)$/;

function route(
  options: FakeApiOptions,
  request: RecordedRequest,
  lagging: Map<FakeEvent, number>,
): Response {
  const list = SESSION_LIST.exec(request.rawPath);
  const threadEvents = THREAD_EVENTS.exec(request.rawPath);
  const one = SESSION.exec(request.rawPath);
  const sessionId = decodeURIComponent((list ?? threadEvents ?? one)?.[1] ?? "");
  const session = options.sessions.find((candidate) => candidate.id === sessionId);
  if (session === undefined) return apiError(404, "not_found_error", "session not found");
  if (one !== null) return Response.json(sessionObject(session));
  if (list?.[2] === "events") {
    return page(listedEvents(session, request.params, lagging), request.params);
  }
  if (list?.[2] === "threads") return page(threadObjects(session), request.params);
  const threadId = decodeURIComponent(threadEvents?.[2] ?? "");
  const thread = session.threads?.find((candidate) => candidate.id === threadId);
  if (thread === undefined) return apiError(404, "not_found_error", "thread not found");
  return page(thread.parent_thread_id === null ? session.events : thread.events, request.params);
}

/** The session resource, as `GET /v1/sessions/{id}` returns it (the fields tests read). */
function sessionObject(session: FakeSession): Record<string, unknown> {
  return { type: "session", id: session.id, status: session.status ?? "running", title: null };
}

/**
 * The events a listing shows: those not lagging, and with `created_at[gte]` or `created_at[gt]`
 * (compared with `processed_at`) those processed at or after (after) that time. A listing's
 * first page counts one listing of each lagging event.
 */
function listedEvents(
  session: FakeSession,
  params: URLSearchParams,
  lagging: Map<FakeEvent, number>,
): FakeEvent[] {
  const gte = params.get("created_at[gte]");
  const gt = params.get("created_at[gt]");
  const time = (event: FakeEvent): number =>
    typeof event.processed_at === "string" ? Date.parse(event.processed_at) : NaN;
  const listed = session.events.filter((event) =>
    !lagging.has(event) &&
    (gte === null || time(event) >= Date.parse(gte)) &&
    (gt === null || time(event) > Date.parse(gt))
  );
  if (params.get("page") === null) {
    for (const event of session.events) {
      const left = lagging.get(event);
      if (left === undefined) continue;
      if (left <= 1) lagging.delete(event);
      else lagging.set(event, left - 1);
    }
  }
  return listed;
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

// What the suites of sources/managed_agents/ share around this fake API: the
// key it accepts, two sessions, and how they collect a listing, catch its
// failure and check that the key never shows.

/** The key {@linkcode startFakeApi} is given to accept in these suites. */
export const KEY = "sk-ant-api03-test-key-0123456789abcdef";

/** An event with an id, a type and a `processed_at`. */
export function event(id: string, type: string, processedAt: string | null, extra = {}): FakeEvent {
  return { id, type, processed_at: processedAt, ...extra };
}

/** A `processed_at` on 2026-09-14 at 10:00 and `second` seconds. */
function at(second: number): string {
  return `2026-09-14T10:00:${String(second).padStart(2, "0")}Z`;
}

/** Seven events of a one-thread session, one a second. */
export const SOLO_EVENTS: FakeEvent[] = Array.from(
  { length: 7 },
  (_, index) =>
    event(`sevt_s${index + 1}`, index % 2 === 0 ? "user.message" : "agent.message", at(index), {
      content: [{ type: "text", text: `message ${index + 1}` }],
    }),
);

/** A session of one thread: {@linkcode SOLO_EVENTS}. */
export const SOLO: FakeSession = { id: "sesn_solo", events: SOLO_EVENTS };

// A coordinator (sthr_p) and two children. Expected merge, by the rule: a head
// without a time goes at once; else the earliest; ties to the primary, then to
// the children in the threads list's order.
/** The primary thread of {@linkcode TEAM}. */
export const PRIMARY = "sthr_p";
/** A child thread of {@linkcode TEAM}. */
export const READER = "sthr_a";
/** The other child thread of {@linkcode TEAM}. */
export const WRITER = "sthr_b";
/** A session of three threads. */
export const TEAM: FakeSession = {
  id: "sesn_team",
  events: [
    event("sevt_p1", "user.message", at(0), { content: "Summarise the changelog" }),
    event("sevt_p2", "session.thread_created", at(1), {
      session_thread_id: READER,
      agent_name: "Reader",
    }),
    event("sevt_p3", "agent.thread_message_sent", at(2), {
      to_session_thread_id: READER,
      content: "Read it",
    }),
    // The cross-posted copy of sevt_a2: it stays.
    event("sevt_p4", "agent.tool_use", "2026-09-14T10:00:05.000300Z", {
      name: "bash",
      input: {},
      session_thread_id: READER,
    }),
    event("sevt_p5", "agent.thread_message_received", at(7), {
      from_session_thread_id: READER,
      content: "Done",
    }),
    event("sevt_p6", "session.status_idle", at(9), { stop_reason: { type: "end_turn" } }),
  ],
  threads: [
    { id: PRIMARY, parent_thread_id: null, agent: { name: "Coordinator" }, events: [] },
    {
      id: READER,
      parent_thread_id: PRIMARY,
      agent: { name: "Reader" },
      events: [
        // Ties with sevt_p3: the primary goes first.
        event("sevt_a1", "agent.thread_message_received", at(2), {
          from_session_thread_id: PRIMARY,
          content: "Read it",
        }),
        // 0.1 ms before sevt_p4: sub-millisecond digits count.
        event("sevt_a2", "agent.tool_use", "2026-09-14T10:00:05.000200Z", {
          name: "bash",
          input: {},
        }),
        // No time: right behind sevt_a2, its predecessor.
        event("sevt_a3", "user.tool_confirmation", null, {
          tool_use_id: "sevt_a2",
          result: "allow",
        }),
        // 10:00:06.5 UTC, written with an offset.
        event("sevt_a4", "agent.thread_message_sent", "2026-09-14T11:00:06.5+01:00", {
          to_session_thread_id: PRIMARY,
          content: "Done",
        }),
      ],
    },
    {
      id: WRITER,
      parent_thread_id: PRIMARY,
      agent: { name: "Writer" },
      events: [
        // No time, first in its stream: it goes at once.
        event("sevt_b0", "user.message", null, { content: "queued" }),
        event("sevt_b1", "agent.message", at(3), { content: "Drafting" }),
        event("sevt_b2", "agent.message", at(8), { content: "Drafted" }),
      ],
    },
  ],
};

/** Every entry of a listing. */
export async function collect(source: AsyncIterable<LogEntry>): Promise<LogEntry[]> {
  const entries: LogEntry[] = [];
  for await (const entry of source) entries.push(entry);
  return entries;
}

/** The ManagedAgentsError a listing fails with; fails if it does not. */
export async function failure(promise: Promise<unknown>): Promise<ManagedAgentsError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof ManagedAgentsError, `not a ManagedAgentsError: ${error}`);
    assert.ok(error instanceof EventSourceError);
    return error;
  }
  assert.fail("the listing did not fail");
}

/** What `fn` throws, or undefined. */
export function thrownBy(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  return undefined;
}

/** The key must not appear anywhere in what was thrown. */
export function assertNoKey(error: unknown, key: string = KEY): void {
  const cause = (error as { cause?: unknown }).cause;
  const views = [
    String(error),
    JSON.stringify(error),
    (error as Error).stack ?? "",
    String(cause),
    JSON.stringify(cause) ?? "",
    Deno.inspect(error, { depth: 10, showHidden: true }),
  ];
  for (const view of views) assert.ok(!view.includes(key), `the key leaked into: ${view}`);
}

/** A redirect to `location`. */
export function redirect(status: number, location: string): Response {
  return new Response(null, { status, headers: { location } });
}

/** A body that sends one byte every 10 ms until it is cancelled or stopped. */
export function trickle(): { body: ReadableStream<Uint8Array>; stop(): void } {
  let timer: ReturnType<typeof setInterval> | undefined;
  const stop = (): void => clearInterval(timer);
  const body = new ReadableStream<Uint8Array>({
    start(controller): void {
      controller.enqueue(new TextEncoder().encode('{"data": ['));
      timer = setInterval(() => {
        try {
          controller.enqueue(new TextEncoder().encode(" "));
        } catch {
          stop();
        }
      }, 10);
    },
    cancel: stop,
  });
  return { body, stop };
}
