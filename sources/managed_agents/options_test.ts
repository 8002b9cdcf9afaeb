// Copyright 2026 the brigade authors. MIT license.

// fromManagedAgents() checks its options before any request, and puts a
// session id (or a thread id from the API) into the URL path as one segment.

import assert from "node:assert/strict";
import {
  fromManagedAgents,
  ManagedAgentsError,
  type ManagedAgentsOptions,
} from "@brigade/transcript";
import {
  assertNoKey,
  collect,
  failure,
  type FakeSession,
  KEY,
  PRIMARY,
  SOLO_EVENTS,
  startFakeApi,
  TEAM,
  thrownBy,
} from "../../tests/_managed_agents_server.ts";

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
    [{ apiVersion: "" }, /"apiVersion" must be a non-empty header value: current value is ""$/],
    [{ apiVersion: "2026-10-21\n" }, /"apiVersion" must be a non-empty header value/],
    ...["http://api.anthropic.com", "http://10.0.0.7:8080", "http://127.0.0.1.example.com"].map((
      baseUrl,
    ): [Record<string, unknown>, RegExp] => [
      { baseUrl },
      /"baseUrl" is http: on a host that is not loopback, so the API key would cross the network in clear text; use https:, or http: only on localhost, 127\.0\.0\.0\/8 or \[::1\]/,
    ]),
    ...["https://api.anthropic.com:25", "http://127.0.0.1:6666", "https://gw.example:10080/v1"]
      .map((baseUrl): [Record<string, unknown>, RegExp] => [
        { baseUrl },
        /"baseUrl" is on port \d+, which the fetch standard blocks \(a "bad port"\), so no request could reach it/,
      ]),
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

Deno.test("fromManagedAgents() takes http: only on a loopback host, and no blocked port", () => {
  let calls = 0;
  const counting: typeof fetch = () => {
    calls++;
    return Promise.resolve(Response.json({ data: [], next_page: null }));
  };
  for (
    const baseUrl of [
      "http://localhost:8080",
      "http://127.0.0.1:8080",
      "http://127.9.8.7",
      "http://[::1]:8443/prefix",
      "http://2130706433", // 127.0.0.1 as one number
      "https://api.anthropic.com:443",
    ]
  ) {
    assert.doesNotThrow(
      () => fromManagedAgents({ sessionId: "sesn_1", apiKey: KEY, baseUrl, fetch: counting }),
      baseUrl,
    );
  }
  const error = thrownBy(() =>
    fromManagedAgents({
      sessionId: "sesn_1",
      apiKey: KEY,
      baseUrl: "http://127.0.0.1:6667",
      fetch: counting,
    })
  );
  assert.ok(error instanceof ManagedAgentsError);
  assert.equal(error.code, "invalid_option");
  assert.equal(calls, 0, "no request, so no retry");
});

Deno.test("fromManagedAgents() sends the apiVersion it is given", async () => {
  const api = startFakeApi({
    apiKey: KEY,
    sessions: [{ id: "sesn_1", events: [] }],
    apiVersion: "2099-01-01",
  });
  try {
    const source = fromManagedAgents({
      sessionId: "sesn_1",
      apiKey: KEY,
      baseUrl: api.baseUrl,
      apiVersion: "2099-01-01",
    });
    assert.deepEqual(await collect(source), []);
    assert.equal(api.requests[0]?.headers.get("anthropic-version"), "2099-01-01");
  } finally {
    await api.shutdown();
  }
});
