// Copyright 2026 the brigade authors. MIT license.

// fromManagedAgents() retries what may pass (429, 5xx, a network error), with
// the backoff or the wait retry-after asks for, and gives up after maxRetries.

import assert from "node:assert/strict";
import { fromManagedAgents } from "@brigade/transcript";
import {
  apiError,
  assertNoKey,
  collect,
  failure,
  type Intercept,
  KEY,
  SOLO,
  startFakeApi,
} from "../../tests/_managed_agents_server.ts";

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

Deno.test("fromManagedAgents() retries only 429, 500, 502, 503, 504 and 529", async (t) => {
  for (const status of [429, 500, 502, 503, 504, 529]) {
    await t.step(`${status} is retried`, async () => {
      const api = startFakeApi({
        apiKey: KEY,
        sessions: [SOLO],
        intercept: failFirst(1, () => apiError(status, "api_error", "try again")),
      });
      try {
        const source = fromManagedAgents({
          sessionId: "sesn_solo",
          apiKey: KEY,
          baseUrl: api.baseUrl,
          retryBaseDelayMs: 0,
        });
        assert.equal((await collect(source)).length, 7);
        assert.equal(api.requests.length, 2);
      } finally {
        await api.shutdown();
      }
    });
  }
  for (const status of [501, 505, 507, 511, 599, 418]) {
    await t.step(`${status} fails at once`, async () => {
      const api = startFakeApi({
        apiKey: KEY,
        sessions: [SOLO],
        intercept: () => apiError(status, "api_error", "no"),
      });
      try {
        const error = await failure(collect(fromManagedAgents({
          sessionId: "sesn_solo",
          apiKey: KEY,
          baseUrl: api.baseUrl,
          retryBaseDelayMs: 0,
        })));
        assert.equal(error.status, status);
        assert.match(error.message, new RegExp(`the API answered ${status}\\b`));
        assert.doesNotMatch(error.message, /attempts/);
        assert.equal(api.requests.length, 1, "not retried");
      } finally {
        await api.shutdown();
      }
    });
  }
});
