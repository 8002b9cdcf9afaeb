// Copyright 2026 the brigade authors. MIT license.

// A child thread's list takes no time, only a page cursor: a follow remembers the cursor of the
// last page it listed of each thread, and a reconnection's catch-up of that thread lists from
// there (that page again and what came after it), not the thread's whole history; a cursor the
// API refuses sends the catch-up back to the start. Nothing is lost or yielded twice.

import assert from "node:assert/strict";
import Anthropic from "@anthropic-ai/sdk";
import {
  fromManagedAgents,
  type LogEntry,
  type ManagedAgentsClient,
  type ManagedAgentsOptions,
} from "@brigade/transcript";
import {
  apiError,
  event,
  type FakeApi,
  type FakeEvent,
  type Intercept,
  KEY,
  type RecordedRequest,
  startFakeApi,
} from "../../tests/_managed_agents_server.ts";

const BASE = Date.UTC(2026, 8, 14, 10);
const SESSION = "sesn_threads";
const PRIMARY = "sthr_primary";
const CHILD = "sthr_child";
/** The child thread's stored events, in pages of PAGE_SIZE: ten pages to list whole. */
const STORED = 100;
const PAGE_SIZE = 10;
const THREAD_EVENTS = `/v1/sessions/${SESSION}/threads/${CHILD}/events`;

function at(n: number): string {
  return new Date(BASE + n * 1_000).toISOString();
}

function message(n: number): FakeEvent {
  return event(`sevt_c${n}`, "agent.message", at(n), { content: [{ type: "text", text: `${n}` }] });
}

async function until(what: string, condition: () => boolean): Promise<void> {
  for (let waited = 0; !condition(); waited += 5) {
    if (waited > 15_000) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const isThreadStream = (request: RecordedRequest): boolean =>
  request.path === `/v1/sessions/${SESSION}/threads/${CHILD}/stream`;

function startApi(intercept?: Intercept): FakeApi {
  return startFakeApi({
    apiKey: KEY,
    sessions: [{
      id: SESSION,
      events: [event("sevt_p0", "user.message", at(0), { content: "Go" })],
      threads: [
        { id: PRIMARY, parent_thread_id: null, agent: { name: "Lead" }, events: [] },
        {
          id: CHILD,
          parent_thread_id: PRIMARY,
          agent: { name: "Worker" },
          events: Array.from({ length: STORED }, (_, n) => message(n)),
        },
      ],
    }],
    ...(intercept === undefined ? {} : { intercept }),
  });
}

/**
 * Follows the session in scope "all" through `via`: once both streams are open, one event on the
 * thread's, then the streams drop, one event is stored in the thread while they are down, and
 * once the catch-up brought it, the end. Returns the entries and the thread's list requests
 * after its reconnection.
 */
async function dropOnce(
  api: FakeApi,
  via: Partial<ManagedAgentsOptions>,
): Promise<{ entries: LogEntry[]; catchUp: RecordedRequest[] }> {
  const entries: LogEntry[] = [];
  const has = (id: string): boolean => entries.some((entry) => entry.event.id === id);
  const task = until("the streams", () => api.openStreams() === 2).then(async () => {
    api.append(SESSION, message(STORED), CHILD);
    await until("the event streamed", () => has(`sevt_c${STORED}`));
    assert.equal(api.dropStreams(), 2);
    api.append(SESSION, message(STORED + 1), CHILD);
    await until("the catch-up", () => has(`sevt_c${STORED + 1}`));
    api.append(SESSION, event("sevt_end", "session.status_terminated", at(STORED + 2)));
  });
  const source = fromManagedAgents({
    sessionId: SESSION,
    scope: "all",
    follow: true,
    pageSize: PAGE_SIZE,
    ...via,
  });
  for await (const entry of source) entries.push(entry);
  await task;
  const reconnect = api.requests.findLastIndex(isThreadStream);
  const catchUp = api.requests.slice(reconnect).filter((request) => request.path === THREAD_EVENTS);
  return { entries, catchUp };
}

/** Each event once: the primary's first, the thread's stored, streamed and caught up, the end. */
function assertEachOnce(entries: LogEntry[]): void {
  const thread = Array.from({ length: STORED + 2 }, (_, n) => `sevt_c${n}`);
  assert.deepEqual(entries.map((entry) => entry.event.id), ["sevt_p0", ...thread, "sevt_end"]);
  assert.deepEqual(entries.map((entry) => entry.seq), entries.map((_, n) => n + 1));
  const child = entries.filter((entry) => entry.thread_id === CHILD);
  assert.equal(child.length, STORED + 2);
}

/** Asserts that a list request starts at a cursor of the thread's last pages (the fake's offset). */
function assertLastPages(request: RecordedRequest): void {
  const cursor = request.params.get("page");
  assert.ok(cursor !== null, `no page cursor in ${request.params}`);
  const offset = parseInt(cursor.replace(/^cur_/, ""), 36);
  assert.ok(offset >= STORED - PAGE_SIZE, cursor);
}

const CLIENTS: [string, (api: FakeApi) => Partial<ManagedAgentsOptions>][] = [
  [
    "through the built-in client",
    (api) => ({ apiKey: KEY, baseUrl: api.baseUrl, retryBaseDelayMs: 1 }),
  ],
  [
    "through the SDK's client",
    (api) => ({
      client: new Anthropic({ apiKey: KEY, baseURL: api.baseUrl, maxRetries: 0 }).beta.sessions,
    }),
  ],
];

Deno.test("a reconnection lists a child thread from the last page it listed, losing nothing", async (t) => {
  for (const [name, via] of CLIENTS) {
    await t.step(name, async () => {
      const api = startApi();
      try {
        const { entries, catchUp } = await dropOnce(api, via(api));
        assertEachOnce(entries);
        // The last page listed again (events 90–99, or 100 when the first catch-up brought it)
        // and what came after it, each from a cursor: at most two pages of the eleven the whole
        // thread now fills.
        assert.ok(catchUp.length >= 1 && catchUp.length <= 2, `${catchUp.length} pages`);
        for (const request of catchUp) assertLastPages(request);
      } finally {
        await api.shutdown();
      }
    });
  }
});

Deno.test("a reconnection whose page cursor the API refuses lists the child thread whole, losing nothing", async (t) => {
  for (const [name, via] of CLIENTS) {
    await t.step(name, async () => {
      const refused: RecordedRequest[] = [];
      // Once the thread's stream reconnected, the first cursor sent for it is refused, as a stale
      // one would be.
      const api: FakeApi = startApi((request) => {
        const reconnected = api.requests.filter(isThreadStream).length >= 2;
        if (
          request.path === THREAD_EVENTS && request.params.has("page") && reconnected &&
          refused.length === 0
        ) {
          refused.push(request);
          return apiError(400, "invalid_request_error", "page: the cursor has expired");
        }
        return undefined;
      });
      try {
        const { entries, catchUp } = await dropOnce(api, via(api));
        assertEachOnce(entries);
        assert.equal(refused.length, 1);
        assertLastPages(refused[0]!);
        // After the refusal, the whole thread from its first page: eleven pages.
        const pages = catchUp.slice(catchUp.indexOf(refused[0]!) + 1);
        assert.equal(pages[0]!.params.get("page"), null);
        assert.equal(pages.length, Math.ceil((STORED + 2) / PAGE_SIZE));
      } finally {
        await api.shutdown();
      }
    });
  }
});

/** Waits until `signal` aborts, yielding nothing: an open stream that stays quiet. */
async function* quiet(signal: AbortSignal): AsyncGenerator<unknown> {
  await new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));
  yield* [];
}

/** Yields what `items` holds once `ready` resolves. */
async function* after(ready: Promise<void>, items: unknown[]): AsyncGenerator<unknown> {
  await ready;
  yield* items;
}

Deno.test("a client whose thread list is only an iterable of items catches the thread up whole", async () => {
  const stored = Array.from({ length: 5 }, (_, n) => message(n));
  const listed: Record<string, unknown>[] = [];
  let caughtUp: () => void = () => {};
  const threeListings = new Promise<void>((resolve) => caughtUp = resolve);
  let threadStreams = 0;
  const client: ManagedAgentsClient = {
    events: {
      list: () => after(Promise.resolve(), [event("sevt_p0", "user.message", at(0), {})]),
      // The end, once the thread was caught up after its stream dropped.
      stream: (): Promise<AsyncIterable<unknown>> =>
        Promise.resolve(
          after(threeListings, [event("sevt_end", "session.status_terminated", at(STORED))]),
        ),
    },
    threads: {
      list: () => after(Promise.resolve(), [{ id: CHILD, parent_thread_id: PRIMARY }]),
      events: {
        list: (_thread, params): AsyncIterable<unknown> => {
          listed.push({ ...params });
          // The first listing, the catch-up at the first connection and the one after the drop.
          if (listed.length === 3) caughtUp();
          return after(Promise.resolve(), stored);
        },
        // The first connection drops at once; the second stays open until the follow is over.
        stream: (_thread, _params, options): Promise<AsyncIterable<unknown>> =>
          Promise.resolve(
            ++threadStreams === 1 ? after(Promise.resolve(), []) : quiet(options.signal!),
          ),
      },
    },
  };
  const entries = await Array.fromAsync(fromManagedAgents({
    sessionId: SESSION,
    client,
    scope: "all",
    follow: true,
    pageSize: PAGE_SIZE,
  }));
  assert.deepEqual(entries.map((entry) => entry.event.id), [
    "sevt_p0",
    ...stored.map((item) => item.id),
    "sevt_end",
  ]);
  assert.equal(listed.length, 3);
  assert.ok(listed.every((params) => !("page" in params)), JSON.stringify(listed));
});
