// Copyright 2026 the brigade authors. MIT license.

import assert from "node:assert/strict";
import fc from "fast-check";
import {
  EventSourceError,
  fromManagedAgents,
  type LogEntry,
  ManagedAgentsError,
  type ManagedAgentsOptions,
} from "@brigade/transcript";
import {
  apiError,
  type FakeEvent,
  type FakeSession,
  type Intercept,
  startFakeApi,
} from "../../tests/_managed_agents_server.ts";
import { cursorKey } from "./_pages.ts";

const KEY = "sk-ant-api03-test-key-0123456789abcdef";
const WRONG_KEY = "sk-ant-api03-wrong-key-9876543210fedcba";

function event(id: string, type: string, processedAt: string | null, extra = {}): FakeEvent {
  return { id, type, processed_at: processedAt, ...extra };
}

/** Seven events of a one-thread session, one a second. */
const SOLO_EVENTS: FakeEvent[] = Array.from(
  { length: 7 },
  (_, index) =>
    event(`sevt_s${index + 1}`, index % 2 === 0 ? "user.message" : "agent.message", at(index), {
      content: [{ type: "text", text: `message ${index + 1}` }],
    }),
);

function at(second: number): string {
  return `2026-09-14T10:00:${String(second).padStart(2, "0")}Z`;
}

const SOLO: FakeSession = { id: "sesn_solo", events: SOLO_EVENTS };

async function collect(source: AsyncIterable<LogEntry>): Promise<LogEntry[]> {
  const entries: LogEntry[] = [];
  for await (const entry of source) entries.push(entry);
  return entries;
}

async function failure(promise: Promise<unknown>): Promise<ManagedAgentsError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof ManagedAgentsError, `not a ManagedAgentsError: ${error}`);
    assert.ok(error instanceof EventSourceError);
    return error;
  }
  assert.fail("the listing did not fail");
}

function thrownBy(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  return undefined;
}

/** The key must not appear anywhere in what was thrown. */
function assertNoKey(error: unknown, key: string = KEY): void {
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

Deno.test("fromManagedAgents() pages a session's events with the documented query and headers", async () => {
  const api = startFakeApi({ apiKey: KEY, sessions: [SOLO] });
  try {
    const source = fromManagedAgents({
      sessionId: "sesn_solo",
      apiKey: KEY,
      baseUrl: `${api.baseUrl}/`,
      pageSize: 3,
    });
    assert.equal(api.requests.length, 0, "nothing is fetched before the iteration");
    const entries = await collect(source);

    assert.deepEqual(
      entries,
      SOLO_EVENTS.map((event, index) => ({
        seq: index + 1,
        session_id: "sesn_solo",
        thread_id: null,
        event,
      })),
    );
    assert.deepEqual(
      api.requests.map((request) => [request.path, request.params.toString()]),
      [
        ["/v1/sessions/sesn_solo/events", "limit=3"],
        ["/v1/sessions/sesn_solo/events", "limit=3&page=cur_3"],
        ["/v1/sessions/sesn_solo/events", "limit=3&page=cur_6"],
      ],
    );
    for (const request of api.requests) {
      assert.equal(request.method, "GET");
      assert.equal(request.headers.get("x-api-key"), KEY);
      assert.equal(request.headers.get("anthropic-version"), "2023-06-01");
      assert.equal(request.headers.get("anthropic-beta"), "managed-agents-2026-04-01");
    }
  } finally {
    await api.shutdown();
  }
});

Deno.test("fromManagedAgents() defaults to 100 a page and lists afresh on each iteration", async () => {
  const api = startFakeApi({ apiKey: KEY, sessions: [SOLO] });
  try {
    const source = fromManagedAgents({ sessionId: "sesn_solo", apiKey: KEY, baseUrl: api.baseUrl });
    assert.equal((await collect(source)).length, 7);
    assert.equal((await collect(source)).length, 7);
    assert.deepEqual(api.requests.map((request) => request.params.toString()), [
      "limit=100",
      "limit=100",
    ]);
  } finally {
    await api.shutdown();
  }
});

Deno.test("fromManagedAgents() encodes the session id in the path", async () => {
  const weird: FakeSession = { id: "sesn weird/../id?x", events: SOLO_EVENTS.slice(0, 1) };
  const api = startFakeApi({ apiKey: KEY, sessions: [weird] });
  try {
    const entries = await collect(
      fromManagedAgents({ sessionId: weird.id, apiKey: KEY, baseUrl: api.baseUrl }),
    );
    assert.equal(entries[0]?.session_id, weird.id);
    assert.equal(api.requests[0]?.rawPath, "/v1/sessions/sesn%20weird%2F..%2Fid%3Fx/events");
  } finally {
    await api.shutdown();
  }
});

Deno.test("fromManagedAgents() fetches only the pages the consumer reaches", async () => {
  const api = startFakeApi({ apiKey: KEY, sessions: [SOLO] });
  try {
    const source = fromManagedAgents({
      sessionId: "sesn_solo",
      apiKey: KEY,
      baseUrl: api.baseUrl,
      pageSize: 2,
    });
    for await (const entry of source) {
      if (entry.seq === 2) break;
    }
    assert.equal(api.requests.length, 1);
  } finally {
    await api.shutdown();
  }
});

// A coordinator (sthr_p) and two children. Expected merge, by the rule: a head
// without a time goes at once; else the earliest; ties to the primary, then to
// the children in the threads list's order.
const PRIMARY = "sthr_p";
const READER = "sthr_a";
const WRITER = "sthr_b";
const TEAM: FakeSession = {
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

const TEAM_ORDER: [string | null, string][] = [
  [WRITER, "sevt_b0"],
  [null, "sevt_p1"],
  [null, "sevt_p2"],
  [null, "sevt_p3"],
  [READER, "sevt_a1"],
  [WRITER, "sevt_b1"],
  [READER, "sevt_a2"],
  [READER, "sevt_a3"],
  [null, "sevt_p4"],
  [READER, "sevt_a4"],
  [null, "sevt_p5"],
  [WRITER, "sevt_b2"],
  [null, "sevt_p6"],
];

Deno.test("fromManagedAgents() with scope all merges the threads by processed_at", async () => {
  const api = startFakeApi({ apiKey: KEY, sessions: [TEAM] });
  try {
    const entries = await collect(fromManagedAgents({
      sessionId: "sesn_team",
      apiKey: KEY,
      baseUrl: api.baseUrl,
      scope: "all",
      pageSize: 2,
    }));

    assert.deepEqual(entries.map((entry) => [entry.thread_id, entry.event.id]), TEAM_ORDER);
    assert.deepEqual(entries.map((entry) => entry.seq), TEAM_ORDER.map((_, index) => index + 1));
    assert.ok(entries.every((entry) => entry.session_id === "sesn_team"));
    const p4 = entries.find((entry) => entry.event.id === "sevt_p4");
    assert.deepEqual(p4?.event, TEAM.events[3], "events pass through unchanged");

    const paths = api.requests.map((request) => request.path);
    assert.ok(!paths.some((path) => path.includes(PRIMARY)), "the primary is not fetched twice");
    const count = (path: string): number => paths.filter((seen) => seen === path).length;
    assert.equal(count("/v1/sessions/sesn_team/threads"), 2);
    assert.equal(count("/v1/sessions/sesn_team/events"), 3);
    assert.equal(count(`/v1/sessions/sesn_team/threads/${READER}/events`), 2);
    assert.equal(count(`/v1/sessions/sesn_team/threads/${WRITER}/events`), 2);
    assert.ok(api.requests.every((request) => request.params.get("limit") === "2"));
  } finally {
    await api.shutdown();
  }
});

Deno.test("fromManagedAgents() with scope all holds one page a stream", async () => {
  const api = startFakeApi({ apiKey: KEY, sessions: [TEAM] });
  try {
    const source = fromManagedAgents({
      sessionId: "sesn_team",
      apiKey: KEY,
      baseUrl: api.baseUrl,
      scope: "all",
      pageSize: 2,
    });
    for await (const _ of source) break;
    // Two pages of threads, then the first page of each of the three streams.
    assert.equal(api.requests.length, 5);
  } finally {
    await api.shutdown();
  }
});

Deno.test("fromManagedAgents() with scope session lists only the primary thread", async () => {
  const api = startFakeApi({ apiKey: KEY, sessions: [TEAM] });
  try {
    const entries = await collect(
      fromManagedAgents({ sessionId: "sesn_team", apiKey: KEY, baseUrl: api.baseUrl }),
    );
    assert.deepEqual(
      entries.map((entry) => [entry.seq, entry.thread_id, entry.event.id]),
      TEAM.events.map((event, index) => [index + 1, null, event.id]),
    );
    assert.deepEqual(api.requests.map((request) => request.path), [
      "/v1/sessions/sesn_team/events",
    ]);
  } finally {
    await api.shutdown();
  }
});

/** Answers the first `times` requests with `fault`, then lets the contract answer. */
function failFirst(times: number, fault: () => Response): Intercept {
  return (_request, index) => index < times ? fault() : undefined;
}

Deno.test("fromManagedAgents() retries a 429 and honours retry-after: 0", async () => {
  const api = startFakeApi({
    apiKey: KEY,
    sessions: [SOLO],
    intercept: failFirst(
      1,
      () => apiError(429, "rate_limit_error", "slow down", { "retry-after": "0" }),
    ),
  });
  try {
    const started = performance.now();
    const entries = await collect(fromManagedAgents({
      sessionId: "sesn_solo",
      apiKey: KEY,
      baseUrl: api.baseUrl,
      // The backoff alone would wait at least 3.75 s.
      retryBaseDelayMs: 5_000,
    }));
    assert.ok(performance.now() - started < 1_000, "retry-after replaced the backoff");
    assert.equal(entries.length, 7);
    assert.equal(api.requests.length, 2);
  } finally {
    await api.shutdown();
  }
});

Deno.test("fromManagedAgents() waits the seconds retry-after asks for", async () => {
  const api = startFakeApi({
    apiKey: KEY,
    sessions: [SOLO],
    intercept: failFirst(
      1,
      () => apiError(429, "rate_limit_error", "slow down", { "retry-after": "1" }),
    ),
  });
  try {
    const started = performance.now();
    await collect(fromManagedAgents({
      sessionId: "sesn_solo",
      apiKey: KEY,
      baseUrl: api.baseUrl,
      retryBaseDelayMs: 1,
    }));
    assert.ok(performance.now() - started >= 950, "the retry waited for retry-after");
    assert.equal(api.requests.length, 2);
  } finally {
    await api.shutdown();
  }
});

Deno.test("fromManagedAgents() reads a retry-after HTTP date", async () => {
  const past = new Date(Date.now() - 10_000).toUTCString();
  const api = startFakeApi({
    apiKey: KEY,
    sessions: [SOLO],
    intercept: failFirst(
      1,
      () => apiError(503, "overloaded_error", "busy", { "retry-after": past }),
    ),
  });
  try {
    const started = performance.now();
    await collect(fromManagedAgents({
      sessionId: "sesn_solo",
      apiKey: KEY,
      baseUrl: api.baseUrl,
      retryBaseDelayMs: 5_000,
    }));
    assert.ok(performance.now() - started < 1_000, "a date in the past means now");
    assert.equal(api.requests.length, 2);
  } finally {
    await api.shutdown();
  }
});

Deno.test("fromManagedAgents() retries a 500 then succeeds", async () => {
  const api = startFakeApi({
    apiKey: KEY,
    sessions: [SOLO],
    intercept: failFirst(2, () => new Response("<html>upstream error</html>", { status: 500 })),
  });
  try {
    const entries = await collect(fromManagedAgents({
      sessionId: "sesn_solo",
      apiKey: KEY,
      baseUrl: api.baseUrl,
      pageSize: 4,
      retryBaseDelayMs: 1,
    }));
    assert.deepEqual(entries.map((entry) => entry.seq), [1, 2, 3, 4, 5, 6, 7]);
    assert.deepEqual(api.requests.map((request) => request.params.toString()), [
      "limit=4",
      "limit=4",
      "limit=4",
      "limit=4&page=cur_4",
    ]);
  } finally {
    await api.shutdown();
  }
});

Deno.test("fromManagedAgents() gives up after maxRetries on a lasting 5xx", async () => {
  const api = startFakeApi({
    apiKey: KEY,
    sessions: [SOLO],
    intercept: () => apiError(529, "overloaded_error", "Overloaded"),
  });
  try {
    const error = await failure(collect(fromManagedAgents({
      sessionId: "sesn_solo",
      apiKey: KEY,
      baseUrl: api.baseUrl,
      maxRetries: 2,
      retryBaseDelayMs: 1,
    })));
    assert.equal(api.requests.length, 3);
    assert.equal(error.status, 529);
    assert.equal(error.source, "sessions/sesn_solo/events");
    assert.equal(
      error.message,
      'sessions/sesn_solo/events: Cannot list events of session "sesn_solo": ' +
        "the API answered 529 Overloaded on each of 3 attempts: overloaded_error: Overloaded",
    );
    assertNoKey(error);
  } finally {
    await api.shutdown();
  }
});

Deno.test("fromManagedAgents() fails at once on a 401, naming the session and the status, never the key", async () => {
  const api = startFakeApi({ apiKey: KEY, sessions: [SOLO] });
  try {
    const error = await failure(collect(
      fromManagedAgents({ sessionId: "sesn_solo", apiKey: WRONG_KEY, baseUrl: api.baseUrl }),
    ));
    assert.equal(api.requests.length, 1);
    assert.equal(error.status, 401);
    assert.equal(
      error.message,
      'sessions/sesn_solo/events: Cannot list events of session "sesn_solo": ' +
        "the API answered 401 Unauthorized (check the API key): " +
        "authentication_error: invalid x-api-key: [API key]",
    );
    assertNoKey(error, WRONG_KEY);
  } finally {
    await api.shutdown();
  }
});

Deno.test("fromManagedAgents() fails at once on a 403 and a 404", async () => {
  const api = startFakeApi({
    apiKey: KEY,
    sessions: [SOLO, TEAM],
    intercept: (request) =>
      request.path.startsWith("/v1/sessions/sesn_team/")
        ? apiError(403, "permission_error", "no access to this workspace")
        : undefined,
  });
  try {
    const forbidden = await failure(collect(
      fromManagedAgents({ sessionId: "sesn_team", apiKey: KEY, baseUrl: api.baseUrl }),
    ));
    assert.equal(forbidden.status, 403);
    assert.match(forbidden.message, /session "sesn_team": the API answered 403 Forbidden/);

    const missing = await failure(collect(
      fromManagedAgents({ sessionId: "sesn_gone", apiKey: KEY, baseUrl: api.baseUrl }),
    ));
    assert.equal(missing.status, 404);
    assert.match(missing.message, /session "sesn_gone": the API answered 404 Not Found/);
    assert.match(missing.message, /not_found_error: session not found$/);
    assert.equal(api.requests.length, 2, "neither was retried");
    assertNoKey(forbidden);
    assertNoKey(missing);
  } finally {
    await api.shutdown();
  }
});

Deno.test("fromManagedAgents() names a failing thread's list", async () => {
  const api = startFakeApi({
    apiKey: KEY,
    sessions: [TEAM],
    intercept: (request) =>
      request.path.endsWith(`/threads/${WRITER}/events`)
        ? apiError(404, "not_found_error", "thread not found")
        : undefined,
  });
  try {
    const error = await failure(collect(fromManagedAgents({
      sessionId: "sesn_team",
      apiKey: KEY,
      baseUrl: api.baseUrl,
      scope: "all",
    })));
    assert.equal(error.source, `sessions/sesn_team/threads/${WRITER}/events`);
    assert.match(error.message, /Cannot list events of thread "sthr_b" of session "sesn_team"/);
  } finally {
    await api.shutdown();
  }
});

Deno.test("fromManagedAgents() rejects a page that is not the documented shape", async () => {
  const pages: Record<string, () => Response> = {
    sesn_html: () => new Response("<html>proxy login</html>", { status: 200 }),
    sesn_list: () => Response.json([{ id: "sevt_1", type: "user.message" }]),
    sesn_nodata: () => Response.json({ events: [], next_page: null }),
    sesn_untyped: () => Response.json({ data: [{ id: "sevt_1" }], next_page: null }),
    sesn_scalar: () =>
      Response.json({ data: [event("sevt_1", "user.message", null), 7], next_page: null }),
    sesn_cursor: () => Response.json({ data: [], next_page: 2 }),
  };
  const api = startFakeApi({
    apiKey: KEY,
    sessions: [],
    intercept: (request) => pages[request.path.split("/")[3]!]?.(),
  });
  const expected: Record<string, RegExp> = {
    sesn_html: /session "sesn_html": the API answered with a page that is not JSON: /,
    sesn_list: /not \{data: \[\.\.\.\], next_page: string \| null\}: the body is an array$/,
    sesn_nodata: /: "data" is missing$/,
    sesn_untyped: /: data\[0\] has "type" missing, not a string$/,
    sesn_scalar: /: data\[1\] is the number 7, not an event object$/,
    sesn_cursor: /: "next_page" is the number 2$/,
  };
  try {
    for (const [sessionId, pattern] of Object.entries(expected)) {
      const error = await failure(
        collect(fromManagedAgents({ sessionId, apiKey: KEY, baseUrl: api.baseUrl })),
      );
      assert.match(error.message, pattern);
      assert.equal(error.status, undefined);
      assertNoKey(error);
    }
    assert.equal(api.requests.length, Object.keys(expected).length, "none was retried");
  } finally {
    await api.shutdown();
  }
});

Deno.test("fromManagedAgents() rejects a threads page without thread ids", async () => {
  const api = startFakeApi({
    apiKey: KEY,
    sessions: [TEAM],
    intercept: (request) =>
      request.path.endsWith("/threads")
        ? Response.json({ data: [{ parent_thread_id: null }], next_page: null })
        : undefined,
  });
  try {
    const error = await failure(collect(fromManagedAgents({
      sessionId: "sesn_team",
      apiKey: KEY,
      baseUrl: api.baseUrl,
      scope: "all",
    })));
    assert.match(error.message, /^sessions\/sesn_team\/threads: Cannot list threads of session/);
    assert.match(error.message, /data\[0\] has "id" missing, not a thread id$/);
  } finally {
    await api.shutdown();
  }
});

Deno.test("fromManagedAgents() stops on a cursor sent before in the same list", async (t) => {
  // Each row: the next_page the API answers for each page param; "" is the first page.
  const cycles: [string, Record<string, string>, number][] = [
    ["the same cursor twice in a row", { "": "same", same: "same" }, 2],
    ["A → B → A", { "": "A", A: "B", B: "A" }, 3],
    ["A → B → C → B", { "": "A", A: "B", B: "C", C: "B" }, 4],
  ];
  for (const [name, next, requests] of cycles) {
    await t.step(name, async () => {
      const api = startFakeApi({
        apiKey: KEY,
        sessions: [],
        intercept: (request) =>
          Response.json({
            data: [event(`sevt_${request.params.get("page")}`, "x", null)],
            next_page: next[request.params.get("page") ?? ""] ?? null,
          }),
      });
      try {
        const error = await failure(collect(
          fromManagedAgents({ sessionId: "sesn_loop", apiKey: KEY, baseUrl: api.baseUrl }),
        ));
        const last = next[api.requests.at(-1)?.params.get("page") ?? ""];
        assert.match(
          error.message,
          new RegExp(
            `the API sent the page cursor "${last}" again after ${requests} pages: ` +
              "the list would cycle$",
          ),
        );
        assert.equal(api.requests.length, requests, "not one page more, and no retry");
      } finally {
        await api.shutdown();
      }
    });
  }
});

Deno.test("fromManagedAgents() keeps 32 characters a page to find cycles of long cursors", async () => {
  // 16 KB cursors, each different, then one sent before: the set of cursors
  // seen holds a fixed-size key for each, never the cursor itself.
  const cursor = (n: number): string => `${n}`.padEnd(16 * 1024, "c");
  const api = startFakeApi({
    apiKey: KEY,
    sessions: [],
    intercept: (_request, index) =>
      Response.json({
        data: [event(`sevt_${index}`, "x", null)],
        next_page: cursor(index === 5 ? 2 : index),
      }),
  });
  try {
    const error = await failure(collect(
      fromManagedAgents({ sessionId: "sesn_long", apiKey: KEY, baseUrl: api.baseUrl }),
    ));
    assert.match(
      error.message,
      /the API sent the page cursor "2c{39}…" again after 6 pages: the list would cycle$/,
    );
    assert.equal(api.requests.length, 6);
  } finally {
    await api.shutdown();
  }
  const keys = await Promise.all([cursor(1), cursor(2), cursor(1), "A"].map(cursorKey));
  assert.deepEqual(keys.map((key) => key.length), [32, 32, 32, 32]);
  assert.equal(keys[0], keys[2]);
  assert.notEqual(keys[0], keys[1]);
});

Deno.test("fromManagedAgents() ends a list at an empty page", async () => {
  const api = startFakeApi({
    apiKey: KEY,
    sessions: [],
    intercept: () => Response.json({ data: [], next_page: "cur_more" }),
  });
  try {
    const source = fromManagedAgents({ sessionId: "sesn_live", apiKey: KEY, baseUrl: api.baseUrl });
    assert.deepEqual(await collect(source), []);
    assert.equal(api.requests.length, 1);
  } finally {
    await api.shutdown();
  }
});

Deno.test("fromManagedAgents() aborts a slow page when the signal fires", async () => {
  const arrived = Promise.withResolvers<void>();
  const release = Promise.withResolvers<void>();
  const api = startFakeApi({
    apiKey: KEY,
    sessions: [SOLO],
    intercept: async () => {
      arrived.resolve();
      await release.promise;
      return Response.json({ data: [], next_page: null });
    },
  });
  try {
    const controller = new AbortController();
    const listing = collect(fromManagedAgents({
      sessionId: "sesn_solo",
      apiKey: KEY,
      baseUrl: api.baseUrl,
      signal: controller.signal,
    }));
    await arrived.promise;
    const reason = new Error("the user stopped");
    const started = performance.now();
    controller.abort(reason);
    await assert.rejects(listing, (error) => error === reason);
    assert.ok(performance.now() - started < 1_000);
  } finally {
    release.resolve();
    await api.shutdown();
  }
});

Deno.test("fromManagedAgents() aborts a wait between retries when the signal fires", async () => {
  const arrived = Promise.withResolvers<void>();
  const api = startFakeApi({
    apiKey: KEY,
    sessions: [SOLO],
    intercept: () => {
      arrived.resolve();
      return apiError(429, "rate_limit_error", "slow down", { "retry-after": "30" });
    },
  });
  try {
    const controller = new AbortController();
    const listing = collect(fromManagedAgents({
      sessionId: "sesn_solo",
      apiKey: KEY,
      baseUrl: api.baseUrl,
      signal: controller.signal,
    }));
    await arrived.promise;
    // Let the client read the 429 and start waiting.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = performance.now();
    controller.abort();
    await assert.rejects(
      listing,
      (error) => error instanceof DOMException && error.name === "AbortError",
    );
    assert.ok(performance.now() - started < 1_000);
    assert.equal(api.requests.length, 1);
  } finally {
    await api.shutdown();
  }
});

Deno.test("fromManagedAgents() fails at once with a signal already aborted", async () => {
  let calls = 0;
  const reason = new Error("already stopped");
  const source = fromManagedAgents({
    sessionId: "sesn_solo",
    apiKey: KEY,
    fetch: () => {
      calls++;
      return Promise.resolve(Response.json({ data: [], next_page: null }));
    },
    signal: AbortSignal.abort(reason),
  });
  await assert.rejects(collect(source), (error) => error === reason);
  assert.equal(calls, 0);
});

Deno.test("fromManagedAgents() retries a refused connection, then fails clearly", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr;
  listener.close();
  const error = await failure(collect(fromManagedAgents({
    sessionId: "sesn_solo",
    apiKey: KEY,
    baseUrl: `http://127.0.0.1:${port}`,
    maxRetries: 2,
    retryBaseDelayMs: 1,
  })));
  assert.match(
    error.message,
    new RegExp(
      `^sessions/sesn_solo/events: Cannot list events of session "sesn_solo": ` +
        `the request to http://127\\.0\\.0\\.1:${port} failed on each of 3 attempts: .+`,
    ),
  );
  assert.equal(error.status, undefined);
  assert.ok(error.cause instanceof Error);
  assertNoKey(error);
});

Deno.test("fromManagedAgents() retries a network error, then succeeds", async () => {
  const api = startFakeApi({ apiKey: KEY, sessions: [SOLO] });
  let calls = 0;
  try {
    const entries = await collect(fromManagedAgents({
      sessionId: "sesn_solo",
      apiKey: KEY,
      baseUrl: api.baseUrl,
      retryBaseDelayMs: 1,
      fetch: (input: RequestInfo | URL, init?: RequestInit) => {
        calls++;
        if (calls === 1) return Promise.reject(new TypeError("connection reset by peer"));
        return fetch(input, init);
      },
    }));
    assert.equal(entries.length, 7);
    assert.equal(calls, 2);
  } finally {
    await api.shutdown();
  }
});

Deno.test("fromManagedAgents() never lets a custom fetch's error carry the key", async () => {
  const error = await failure(collect(fromManagedAgents({
    sessionId: "sesn_solo",
    apiKey: KEY,
    maxRetries: 1,
    retryBaseDelayMs: 1,
    // A fetch that puts its request headers in what it throws.
    fetch: (_input: RequestInfo | URL, init?: RequestInit) => {
      const key = new Headers(init?.headers).get("x-api-key");
      const thrown = new TypeError(`proxy refused x-api-key=${key}`);
      Object.assign(thrown, { headers: init?.headers, key });
      return Promise.reject(thrown);
    },
  })));
  assert.match(error.message, /failed on each of 2 attempts: proxy refused x-api-key=\[API key\]$/);
  assert.equal((error.cause as Error).name, "TypeError");
  assertNoKey(error);
});

Deno.test("fromManagedAgents() reads ANTHROPIC_API_KEY when no key is given", async () => {
  const saved = Deno.env.get("ANTHROPIC_API_KEY");
  const api = startFakeApi({ apiKey: KEY, sessions: [SOLO] });
  try {
    Deno.env.set("ANTHROPIC_API_KEY", KEY);
    const source = fromManagedAgents({ sessionId: "sesn_solo", baseUrl: api.baseUrl });
    Deno.env.delete("ANTHROPIC_API_KEY"); // read when called, not when iterated
    assert.equal((await collect(source)).length, 7);
  } finally {
    if (saved === undefined) Deno.env.delete("ANTHROPIC_API_KEY");
    else Deno.env.set("ANTHROPIC_API_KEY", saved);
    await api.shutdown();
  }
});

Deno.test("fromManagedAgents() fails before any request without an API key", () => {
  const saved = Deno.env.get("ANTHROPIC_API_KEY");
  let calls = 0;
  try {
    Deno.env.delete("ANTHROPIC_API_KEY");
    assert.throws(
      () =>
        fromManagedAgents({
          sessionId: "sesn_solo",
          fetch: () => {
            calls++;
            return Promise.reject(new Error("unreachable"));
          },
        }),
      (error: unknown) =>
        error instanceof ManagedAgentsError &&
        error.message ===
          'sessions/sesn_solo/events: Cannot list session "sesn_solo" as there is no API key: ' +
            'pass "apiKey" or set ANTHROPIC_API_KEY',
    );
    assert.equal(calls, 0);
  } finally {
    if (saved !== undefined) Deno.env.set("ANTHROPIC_API_KEY", saved);
  }
});

Deno.test("fromManagedAgents() rejects invalid options before any request", () => {
  const cases: [Record<string, unknown>, RegExp][] = [
    [
      { sessionId: "" },
      /^fromManagedAgents: .*"sessionId" must be a non-empty string: current value is ""$/,
    ],
    [{ sessionId: 42 }, /"sessionId" must be a non-empty string: current value is 42$/],
    [{ pageSize: 0 }, /"pageSize" must be an integer >= 1: current value is 0$/],
    [{ pageSize: 1.5 }, /"pageSize" must be an integer >= 1: current value is 1.5$/],
    [{ maxRetries: -1 }, /"maxRetries" must be an integer >= 0: current value is -1$/],
    [{ retryBaseDelayMs: Infinity }, /"retryBaseDelayMs" must be a finite number >= 0/],
    [{ scope: "threads" }, /"scope" must be "session" or "all": current value is "threads"$/],
    [
      { baseUrl: "api.anthropic.com" },
      /"baseUrl" is not a URL: current value is "api.anthropic.com"$/,
    ],
    [{ baseUrl: "ftp://example.com" }, /"baseUrl" must be an http or https URL/],
    [
      { baseUrl: "https://user:hunter2@proxy.example" },
      /"baseUrl" must not hold a user name or password$/,
    ],
    [{ apiKey: `${KEY}\n` }, /the API key is not a valid header value$/],
  ];
  for (const [override, pattern] of cases) {
    const options = { sessionId: "sesn_solo", apiKey: KEY, ...override };
    const error = thrownBy(() => fromManagedAgents(options as ManagedAgentsOptions));
    assert.ok(error instanceof ManagedAgentsError, `accepted ${JSON.stringify(override)}`);
    assert.match(error.message, pattern);
    assert.ok(!error.message.includes("hunter2"));
    assertNoKey(error);
  }
});

// A server that is hostile or broken, as an attacker would set one up.

function redirect(status: number, location: string): Response {
  return new Response(null, { status, headers: { location } });
}

Deno.test("fromManagedAgents() follows a same-origin redirect with the key", async () => {
  const api = startFakeApi({
    apiKey: KEY,
    sessions: [SOLO],
    // Three hops within the origin, each with another status, then the page.
    intercept: (request, index) =>
      index < 3
        ? redirect([301, 307, 308][index]!, `/v1/moved/${index}?${request.params}`)
        : Response.json({ data: SOLO_EVENTS, next_page: null }),
  });
  try {
    const entries = await collect(
      fromManagedAgents({ sessionId: "sesn_solo", apiKey: KEY, baseUrl: api.baseUrl }),
    );
    assert.equal(entries.length, 7);
    assert.deepEqual(api.requests.map((request) => request.path), [
      "/v1/sessions/sesn_solo/events",
      "/v1/moved/0",
      "/v1/moved/1",
      "/v1/moved/2",
    ]);
    for (const request of api.requests) assert.equal(request.headers.get("x-api-key"), KEY);
  } finally {
    await api.shutdown();
  }
});

Deno.test("fromManagedAgents() follows at most 5 redirects within the origin", async () => {
  const api = startFakeApi({
    apiKey: KEY,
    sessions: [],
    intercept: (_request, index) => redirect(302, `/v1/loop/${index}`),
  });
  try {
    const error = await failure(collect(
      fromManagedAgents({ sessionId: "sesn_loop", apiKey: KEY, baseUrl: api.baseUrl }),
    ));
    assert.match(error.message, /: the API redirected more than 5 times in a row$/);
    assert.equal(error.status, 302);
    assert.equal(api.requests.length, 6, "the first request and 5 redirects, no retry");
  } finally {
    await api.shutdown();
  }
});

Deno.test("fromManagedAgents() refuses a redirect to another origin and never sends it the key", async (t) => {
  // The other origin serves a page of its own, to be rendered as if it came
  // from the API if it were ever asked.
  const other = startFakeApi({
    apiKey: KEY,
    sessions: [],
    intercept: () => Response.json({ data: [event("sevt_evil", "x", null)], next_page: null }),
  });
  let target = "";
  const api = startFakeApi({
    apiKey: KEY,
    sessions: [SOLO],
    intercept: (request) =>
      request.path.startsWith("/v1/sessions/")
        ? redirect(Number(request.params.get("status") ?? 302), target)
        : undefined,
  });
  const port = new URL(api.baseUrl).port;
  const origins: [string, string][] = [
    ["another port", other.baseUrl],
    ["another scheme", `https://127.0.0.1:${port}`],
    ["another host", `http://localhost:${port}`],
  ];
  const names: Record<number, string> = {
    301: "301 Moved Permanently",
    302: "302 Found",
    303: "303 See Other",
    307: "307 Temporary Redirect",
    308: "308 Permanent Redirect",
  };
  try {
    for (const [what, origin] of origins) {
      for (const [status, name] of Object.entries(names)) {
        await t.step(`${what}, ${status}`, async () => {
          target = `${origin}/v1/sessions/sesn_solo/events?limit=100`;
          const before = api.requests.length;
          const error = await failure(collect(fromManagedAgents({
            sessionId: "sesn_solo",
            apiKey: KEY,
            baseUrl: api.baseUrl,
            // The status to answer with rides in the fetch's query.
            fetch: (input, init) => {
              const url = new URL(String(input));
              if (url.origin === api.baseUrl) url.searchParams.set("status", status);
              return fetch(url, init);
            },
          })));
          assert.equal(
            error.message,
            'sessions/sesn_solo/events: Cannot list events of session "sesn_solo": ' +
              `the API answered ${name} to another origin, ${origin}; it is not followed, ` +
              `so that the API key goes only to ${api.baseUrl}`,
          );
          assert.equal(error.status, Number(status));
          assert.equal(api.requests.length - before, 1, "not retried");
        });
      }
    }
    assert.equal(other.requests.length, 0, "the other origin was never asked");
  } finally {
    await api.shutdown();
    await other.shutdown();
  }
});

Deno.test("fromManagedAgents() refuses a redirect to an invalid URL at once", async () => {
  const api = startFakeApi({
    apiKey: KEY,
    sessions: [],
    intercept: () => redirect(307, "http://[::1"),
  });
  try {
    const error = await failure(collect(
      fromManagedAgents({ sessionId: "sesn_bad", apiKey: KEY, baseUrl: api.baseUrl }),
    ));
    assert.match(error.message, /: the API answered 307 Temporary Redirect to an invalid URL$/);
    assert.equal(api.requests.length, 1);
  } finally {
    await api.shutdown();
  }
});

/** A body that sends one byte every 10 ms until it is cancelled or stopped. */
function trickle(): { body: ReadableStream<Uint8Array>; stop(): void } {
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

Deno.test("fromManagedAgents() gives a server that never answers a deadline, then retries", async () => {
  const release = Promise.withResolvers<void>();
  const api = startFakeApi({
    apiKey: KEY,
    sessions: [SOLO],
    intercept: async () => {
      await release.promise;
      return Response.json({ data: [], next_page: null });
    },
  });
  try {
    const error = await failure(collect(fromManagedAgents({
      sessionId: "sesn_solo",
      apiKey: KEY,
      baseUrl: api.baseUrl,
      timeoutMs: 100,
      maxRetries: 2,
      retryBaseDelayMs: 1,
    })));
    assert.equal(
      error.message,
      'sessions/sesn_solo/events: Cannot list events of session "sesn_solo": ' +
        `the request to ${api.baseUrl} failed on each of 3 attempts: ` +
        'no complete answer within 100 ms ("timeoutMs")',
    );
    assert.equal(api.requests.length, 3);
    assertNoKey(error);
  } finally {
    release.resolve();
    await api.shutdown();
  }
});

Deno.test("fromManagedAgents() gives a body trickled a byte at a time a deadline", async () => {
  const trickles: { stop(): void }[] = [];
  const api = startFakeApi({
    apiKey: KEY,
    sessions: [SOLO],
    intercept: () => {
      const slow = trickle();
      trickles.push(slow);
      return new Response(slow.body, { headers: { "content-type": "application/json" } });
    },
  });
  try {
    const error = await failure(collect(fromManagedAgents({
      sessionId: "sesn_solo",
      apiKey: KEY,
      baseUrl: api.baseUrl,
      timeoutMs: 150,
      maxRetries: 1,
      retryBaseDelayMs: 1,
    })));
    assert.match(
      error.message,
      /failed on each of 2 attempts: no complete answer within 150 ms \("timeoutMs"\)$/,
    );
    assert.equal(api.requests.length, 2);
  } finally {
    for (const slow of trickles) slow.stop();
    await api.shutdown();
  }
});

Deno.test("fromManagedAgents() holds the deadline with a custom fetch that ignores the signal", async () => {
  let calls = 0;
  const error = await failure(collect(fromManagedAgents({
    sessionId: "sesn_solo",
    apiKey: KEY,
    timeoutMs: 50,
    maxRetries: 1,
    retryBaseDelayMs: 1,
    fetch: () => {
      calls++;
      return new Promise<Response>(() => {});
    },
  })));
  assert.match(error.message, /on each of 2 attempts: no complete answer within 50 ms/);
  assert.equal(calls, 2);
});

Deno.test("fromManagedAgents() retries a request past its deadline and goes on", async () => {
  const release = Promise.withResolvers<void>();
  const api = startFakeApi({
    apiKey: KEY,
    sessions: [SOLO],
    intercept: async (_request, index) => {
      if (index === 0) await release.promise;
      return undefined;
    },
  });
  try {
    const entries = await collect(fromManagedAgents({
      sessionId: "sesn_solo",
      apiKey: KEY,
      baseUrl: api.baseUrl,
      timeoutMs: 100,
      retryBaseDelayMs: 1,
    }));
    assert.equal(entries.length, 7);
    assert.equal(api.requests.length, 2);
  } finally {
    release.resolve();
    await api.shutdown();
  }
});

Deno.test("fromManagedAgents() stops a trickling body when the signal fires", async () => {
  const arrived = Promise.withResolvers<void>();
  const trickles: { stop(): void }[] = [];
  const api = startFakeApi({
    apiKey: KEY,
    sessions: [SOLO],
    intercept: () => {
      const slow = trickle();
      trickles.push(slow);
      arrived.resolve();
      return new Response(slow.body);
    },
  });
  try {
    const controller = new AbortController();
    const listing = collect(fromManagedAgents({
      sessionId: "sesn_solo",
      apiKey: KEY,
      baseUrl: api.baseUrl,
      signal: controller.signal,
    }));
    await arrived.promise;
    const reason = new Error("the user stopped");
    controller.abort(reason);
    // With the default 60 s deadline, only the signal can end this in time.
    await assert.rejects(listing, (error) => error === reason);
    assert.equal(api.requests.length, 1);
  } finally {
    for (const slow of trickles) slow.stop();
    await api.shutdown();
  }
});

async function gzip(bytes: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

Deno.test("fromManagedAgents() stops reading a page over maxPageBytes, with no retry", async () => {
  const page = JSON.stringify({
    data: [event("sevt_1", "agent.message", null, { content: "x".repeat(5000) })],
    next_page: null,
  });
  const api = startFakeApi({ apiKey: KEY, sessions: [], intercept: () => new Response(page) });
  try {
    const error = await failure(collect(fromManagedAgents({
      sessionId: "sesn_big",
      apiKey: KEY,
      baseUrl: api.baseUrl,
      maxPageBytes: 4096,
    })));
    assert.match(
      error.message,
      /: the API answered with a page over the 4096-byte cap \("maxPageBytes"\); reading stopped at \d+ bytes$/,
    );
    assert.equal(api.requests.length, 1);
    // Just under the cap, the same page is read.
    const entries = await collect(fromManagedAgents({
      sessionId: "sesn_big",
      apiKey: KEY,
      baseUrl: api.baseUrl,
      maxPageBytes: new TextEncoder().encode(page).length,
    }));
    assert.equal(entries.length, 1);
  } finally {
    await api.shutdown();
  }
});

Deno.test("fromManagedAgents() counts a gzip bomb's bytes decompressed, against the 64 MiB default", async () => {
  // 65 MiB of spaces, about 65 KB on the wire.
  const bomb = await gzip(new Uint8Array(65 * 1024 * 1024).fill(0x20));
  assert.ok(bomb.length < 200_000, `${bomb.length} bytes on the wire`);
  const api = startFakeApi({
    apiKey: KEY,
    sessions: [],
    intercept: () =>
      new Response(bomb, {
        headers: { "content-encoding": "gzip", "content-type": "application/json" },
      }),
  });
  try {
    const error = await failure(collect(
      fromManagedAgents({ sessionId: "sesn_bomb", apiKey: KEY, baseUrl: api.baseUrl }),
    ));
    assert.match(error.message, /a page over the 67108864-byte cap \("maxPageBytes"\)/);
    assert.equal(error.status, undefined);
    assert.equal(api.requests.length, 1, "downloaded once, not retried");
  } finally {
    await api.shutdown();
  }
});

Deno.test("fromManagedAgents() fails at once on an error that a retry cannot fix", async (t) => {
  await t.step("a programming error in a custom fetch", async () => {
    let calls = 0;
    const error = await failure(collect(fromManagedAgents({
      sessionId: "sesn_solo",
      apiKey: KEY,
      fetch: () => {
        calls++;
        throw new RangeError(`bad state near ${KEY}`);
      },
    })));
    assert.equal(calls, 1);
    assert.equal(
      error.message,
      'sessions/sesn_solo/events: Cannot list events of session "sesn_solo": ' +
        "the request to https://api.anthropic.com failed: RangeError: bad state near [API key]",
    );
    assert.ok(error.cause instanceof Error);
    assert.equal(error.cause.name, "RangeError");
    assert.equal(error.cause.message, "bad state near [API key]");
    assertNoKey(error);
  });

  await t.step("a URL that fetch refuses (a 1 MB cursor)", async () => {
    const api = startFakeApi({
      apiKey: KEY,
      sessions: [],
      intercept: () =>
        Response.json({ data: [event("sevt_1", "x", null)], next_page: "c".repeat(1024 * 1024) }),
    });
    try {
      const error = await failure(collect(
        fromManagedAgents({ sessionId: "sesn_long", apiKey: KEY, baseUrl: api.baseUrl }),
      ));
      assert.match(
        error.message,
        new RegExp(`: the request to ${api.baseUrl} failed: TypeError: Invalid URL .{0,300}…$`),
      );
      assert.equal(api.requests.length, 1, "the first page only: the second was never retried");
    } finally {
      await api.shutdown();
    }
  });

  await t.step("a missing network permission, in a process without it", async () => {
    const api = startFakeApi({ apiKey: KEY, sessions: [SOLO] });
    try {
      const host = new URL(api.baseUrl).host;
      // Only the default API host is allowed: the loopback base URL is not.
      const script = `
        import { fromManagedAgents } from "@brigade/transcript";
        let calls = 0;
        const source = fromManagedAgents({
          sessionId: "sesn_solo",
          apiKey: "${KEY}",
          baseUrl: "${api.baseUrl}",
          fetch: (input, init) => { calls++; return fetch(input, init); },
        });
        try {
          for await (const _ of source);
        } catch (error) {
          console.log(JSON.stringify({ calls, message: error.message, cause: error.cause?.name }));
        }
      `;
      const output = await new Deno.Command(Deno.execPath(), {
        args: ["run", "--allow-net=api.anthropic.com", "-"],
        cwd: new URL("../..", import.meta.url),
        stdin: "piped",
        stdout: "piped",
        stderr: "piped",
        env: { NO_COLOR: "1" },
      }).spawn();
      const writer = output.stdin.getWriter();
      await writer.write(new TextEncoder().encode(script));
      await writer.close();
      const { code, stdout, stderr } = await output.output();
      const text = new TextDecoder().decode(stdout);
      assert.equal(code, 0, new TextDecoder().decode(stderr));
      const result = JSON.parse(text);
      assert.equal(result.calls, 1, "tried once, not six times");
      assert.equal(result.cause, "NotCapable");
      assert.equal(
        result.message,
        'sessions/sesn_solo/events: Cannot list events of session "sesn_solo": ' +
          `the network permission for ${host} is missing: ` +
          `run with --allow-net=${host} (or a list that holds it)`,
      );
      assert.equal(api.requests.length, 0);
    } finally {
      await api.shutdown();
    }
  });
});

Deno.test("fromManagedAgents() never sends a dot segment as an id", async (t) => {
  const api = startFakeApi({
    apiKey: KEY,
    sessions: [{
      ...TEAM,
      threads: [
        { id: PRIMARY, parent_thread_id: null, agent: { name: "Coordinator" }, events: [] },
        { id: "..", parent_thread_id: PRIMARY, agent: { name: "Climber" }, events: [] },
      ],
    }],
  });
  try {
    for (const sessionId of [".", ".."]) {
      await t.step(`session id ${JSON.stringify(sessionId)}`, () => {
        const error = thrownBy(() =>
          fromManagedAgents({ sessionId, apiKey: KEY, baseUrl: api.baseUrl })
        );
        assert.ok(error instanceof ManagedAgentsError);
        assert.equal(
          error.message,
          `sessions/${sessionId}/events: Cannot list session "${sessionId}" as ` +
            `"sessionId" must not be "." or "..", which a URL reads as a step of the path`,
        );
      });
    }
    await t.step('thread id ".." from the API', async () => {
      const error = await failure(collect(fromManagedAgents({
        sessionId: "sesn_team",
        apiKey: KEY,
        baseUrl: api.baseUrl,
        scope: "all",
      })));
      assert.match(error.message, /: data\[1\] has "id" "\.\.", which cannot be a path segment$/);
    });
    await t.step("ids that only look like dots stay one segment", async () => {
      const sessions = ["...", "%2e%2e", "./x"];
      for (const sessionId of sessions) {
        await assert.rejects(
          collect(fromManagedAgents({ sessionId, apiKey: KEY, baseUrl: api.baseUrl })),
          /404 Not Found/,
        );
      }
      assert.deepEqual(api.requests.slice(-3).map((request) => request.rawPath), [
        "/v1/sessions/.../events",
        "/v1/sessions/%252e%252e/events",
        "/v1/sessions/.%2Fx/events",
      ]);
    });
    assert.ok(api.requests.every((request) => request.path.startsWith("/v1/sessions/")));
  } finally {
    await api.shutdown();
  }
});

Deno.test("fromManagedAgents() says to pass apiKey where there is no Deno to read the environment", () => {
  const deno = Object.getOwnPropertyDescriptor(globalThis, "Deno")!;
  let error: unknown;
  try {
    Object.defineProperty(globalThis, "Deno", { value: undefined, configurable: true });
    error = thrownBy(() => fromManagedAgents({ sessionId: "sesn_solo" }));
  } finally {
    Object.defineProperty(globalThis, "Deno", deno);
  }
  assert.ok(error instanceof ManagedAgentsError);
  assert.equal(
    error.message,
    'sessions/sesn_solo/events: Cannot list session "sesn_solo" as there is no API key: ' +
      'pass "apiKey"',
  );
});

/**
 * Every view of a thrown error a user or a log could see, lower-cased, but
 * the stack frames: they name this code's files and functions, never input.
 */
function errorViews(error: unknown): string {
  const cause = (error as { cause?: unknown }).cause;
  return [
    String(error),
    (error as Error).stack ?? "",
    JSON.stringify(error),
    String(cause),
    (cause as Error | undefined)?.stack ?? "",
    JSON.stringify(cause) ?? "",
    Deno.inspect(error, { depth: 10, showHidden: true }),
  ].join("\n").replace(/^\s+at .*$/gm, "").toLowerCase();
}

/** Fails when any 8 characters in a row of the key show, in any case. */
function assertNoKeyPiece(error: unknown, key: string): void {
  const views = errorViews(error);
  const lower = key.toLowerCase();
  for (let i = 0; i + 8 <= lower.length; i++) {
    const piece = lower.slice(i, i + 8);
    assert.ok(!views.includes(piece), `${JSON.stringify(piece)} of the key shows in:\n${views}`);
  }
}

Deno.test("fromManagedAgents() lets no piece of the key of 8 characters into an error", async (t) => {
  const keys = fc.tuple(
    fc.constantFrom("sk-ant-api03-", "sk-", ""),
    fc.string({
      unit: fc.constantFrom(..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"),
      minLength: 12,
      maxLength: 60,
    }),
  ).map(([prefix, body]) => prefix + body);
  // What a server or a custom fetch does with the key it was sent.
  const echoes = fc.constantFrom(
    (key: string) => key,
    (key: string) => key.toUpperCase(),
    (key: string) => key.toLowerCase(),
    (key: string) => key.slice(3, 14),
    (key: string) => key.slice(0, 10),
    (key: string) => key.slice(-9),
    (key: string) => `${key.slice(0, 9).toUpperCase()}${key.slice(9)}`,
  );
  type Answer = (echo: string) => Response;
  const answers: Record<string, Answer> = {
    "an error body": (echo) => apiError(401, "authentication_error", `bad key ${echo}`),
    "a string as data": (echo) => Response.json({ data: `${echo}${echo}`, next_page: null }),
    "a page that is not JSON": (echo) => new Response(`x${echo}`),
    "a cursor that cycles": (echo) =>
      Response.json({ data: [event("sevt_1", "x", null)], next_page: `${echo}/${echo}` }),
    "an item that is not an event": (echo) =>
      Response.json({ data: [{ type: "x" }, `${echo}`], next_page: null }),
    "a redirect to a host named by the key": (echo) =>
      redirect(302, `http://${echo.replace(/[^A-Za-z0-9-]/g, "")}.example/`),
  };
  for (const [name, answer] of Object.entries(answers)) {
    await t.step(`echoed in ${name}`, async () => {
      await fc.assert(
        fc.asyncProperty(keys, echoes, async (key, echo) => {
          const error = await failure(collect(fromManagedAgents({
            sessionId: "sesn_leak",
            apiKey: key,
            maxRetries: 1,
            retryBaseDelayMs: 0,
            fetch: (_input, init) => {
              const sent = new Headers(init?.headers).get("x-api-key")!;
              return Promise.resolve(answer(echo(sent)));
            },
          })));
          assertNoKeyPiece(error, key);
        }),
        { numRuns: 60 },
      );
    });
  }
  await t.step("thrown by a custom fetch, retried or not", async () => {
    await fc.assert(
      fc.asyncProperty(keys, echoes, fc.boolean(), async (key, echo, transient) => {
        const error = await failure(collect(fromManagedAgents({
          sessionId: "sesn_leak",
          apiKey: key,
          maxRetries: 1,
          retryBaseDelayMs: 0,
          fetch: (_input, init) => {
            const sent = echo(new Headers(init?.headers).get("x-api-key")!);
            const thrown = transient ? new TypeError(`reset ${sent}`) : new SyntaxError(sent);
            thrown.name = `${thrown.name}${sent.slice(0, 12)}`;
            return Promise.reject(thrown);
          },
        })));
        assertNoKeyPiece(error, key);
      }),
      { numRuns: 60 },
    );
  });
});

Deno.test("fromManagedAgents() scrubs a key a loopback server echoes upper-cased and in part", async () => {
  const api = startFakeApi({
    apiKey: KEY,
    sessions: [SOLO],
    intercept: (request) => {
      const key = request.headers.get("x-api-key") ?? "";
      return apiError(
        403,
        "permission_error",
        `${key.toUpperCase()} has no access; prefix ${key.slice(0, 12)}, middle ${
          key.slice(9, 20)
        }`,
      );
    },
  });
  try {
    const error = await failure(collect(
      fromManagedAgents({ sessionId: "sesn_solo", apiKey: KEY, baseUrl: api.baseUrl }),
    ));
    assert.match(
      error.message,
      /permission_error: \[API key\] has no access; prefix \[API key\], middle \[API key\]$/,
    );
    assertNoKeyPiece(error, KEY);
  } finally {
    await api.shutdown();
  }
});
