// Copyright 2026 the brigade authors. MIT license.

// A ManagedAgentsError about an answer of the API carries that answer's
// `request-id` (the first thing Anthropic's support asks for): as its
// `requestId` and at the end of its message, for a listing and a stream,
// scrubbed of the key like everything else it says.

import assert from "node:assert/strict";
import { fromManagedAgents, ManagedAgentsError } from "@brigade/transcript";
import {
  apiError,
  assertNoKey,
  collect,
  event,
  failure,
  KEY,
  SOLO,
  startFakeApi,
} from "../../tests/_managed_agents_server.ts";

Deno.test("fromManagedAgents() names the request-id of a 404 in its error", async () => {
  const api = startFakeApi({ apiKey: KEY, sessions: [SOLO], requestIds: true });
  try {
    const error = await failure(collect(
      fromManagedAgents({ sessionId: "sesn_gone", apiKey: KEY, baseUrl: api.baseUrl }),
    ));
    assert.equal(error.status, 404);
    assert.equal(error.requestId, "req_fake_0");
    assert.equal(
      error.message,
      'sessions/sesn_gone/events: Cannot list events of session "sesn_gone": ' +
        "the API answered 404 Not Found (check the session id; the API key's workspace must " +
        'own the session): not_found_error: session not found; request-id "req_fake_0"',
    );
    assert.ok(error.reason.endsWith('; request-id "req_fake_0"'), "the CLI shows it too");
  } finally {
    await api.shutdown();
  }
});

Deno.test("fromManagedAgents() names the request-id of the last attempt after the retries", async () => {
  const api = startFakeApi({
    apiKey: KEY,
    sessions: [SOLO],
    requestIds: true,
    intercept: () => apiError(529, "overloaded_error", "Overloaded"),
  });
  try {
    const error = await failure(collect(fromManagedAgents({
      sessionId: "sesn_solo",
      apiKey: KEY,
      baseUrl: api.baseUrl,
      maxRetries: 2,
      retryBaseDelayMs: 0,
    })));
    assert.equal(api.requests.length, 3);
    assert.equal(error.requestId, "req_fake_2");
    assert.match(error.message, /on each of 3 attempts: .*; request-id "req_fake_2"$/);
  } finally {
    await api.shutdown();
  }
});

Deno.test("fromManagedAgents() names the request-id of a page it refuses", async (t) => {
  const bad: Record<string, () => Response> = {
    "not JSON": () => new Response("<html>", { headers: { "request-id": "req_page" } }),
    "not a page": () => Response.json({ items: [] }, { headers: { "request-id": "req_page" } }),
    "over the cap": () => new Response("x".repeat(8192), { headers: { "request-id": "req_page" } }),
  };
  for (const [name, answer] of Object.entries(bad)) {
    await t.step(name, async () => {
      const api = startFakeApi({ apiKey: KEY, sessions: [SOLO], intercept: answer });
      try {
        const error = await failure(collect(fromManagedAgents({
          sessionId: "sesn_solo",
          apiKey: KEY,
          baseUrl: api.baseUrl,
          maxPageBytes: 4096,
        })));
        assert.equal(error.requestId, "req_page");
        assert.ok(error.message.endsWith('; request-id "req_page"'), error.message);
      } finally {
        await api.shutdown();
      }
    });
  }
});

Deno.test("fromManagedAgents({ follow: true }) names the request-id of a stream that fails", async (t) => {
  const stored = [event("sevt_1", "user.message", null, { content: "Go" })];
  await t.step("a stream answered 404", async () => {
    const api = startFakeApi({
      apiKey: KEY,
      sessions: [{ id: "sesn_live", events: stored }],
      requestIds: true,
      intercept: (request) =>
        request.path.endsWith("/stream")
          ? apiError(404, "not_found_error", "stream not found")
          : undefined,
    });
    try {
      const error = await failure(collect(fromManagedAgents({
        sessionId: "sesn_live",
        apiKey: KEY,
        baseUrl: api.baseUrl,
        follow: true,
      })));
      const index = api.requests.findIndex((request) => request.path.endsWith("/stream"));
      assert.equal(error.status, 404);
      assert.equal(error.source, "sessions/sesn_live/events/stream");
      assert.equal(error.requestId, `req_fake_${index}`);
      assert.ok(error.message.endsWith(`; request-id "req_fake_${index}"`), error.message);
    } finally {
      await api.shutdown();
    }
  });
  await t.step("a stream message that is not JSON", async () => {
    const api = startFakeApi({
      apiKey: KEY,
      sessions: [{ id: "sesn_live", events: stored }],
      intercept: (request) =>
        request.path.endsWith("/stream")
          ? new Response("event: agent.message\ndata: {oops\n\n", {
            headers: { "content-type": "text/event-stream", "request-id": "req_stream" },
          })
          : undefined,
    });
    try {
      const error = await failure(collect(fromManagedAgents({
        sessionId: "sesn_live",
        apiKey: KEY,
        baseUrl: api.baseUrl,
        follow: true,
      })));
      assert.match(error.message, /a stream message that is not JSON/);
      assert.equal(error.requestId, "req_stream");
    } finally {
      await api.shutdown();
    }
  });
});

Deno.test("fromManagedAgents() scrubs the key from a request-id that echoes it", async () => {
  const api = startFakeApi({
    apiKey: KEY,
    sessions: [SOLO],
    intercept: () => apiError(400, "invalid_request_error", "no", { "request-id": `req_${KEY}` }),
  });
  try {
    const error = await failure(collect(
      fromManagedAgents({ sessionId: "sesn_solo", apiKey: KEY, baseUrl: api.baseUrl }),
    ));
    assert.equal(error.requestId, "req_[API key]");
    assertNoKey(error);
    assertNoKey(error.requestId);
  } finally {
    await api.shutdown();
  }
});

Deno.test("fromManagedAgents() gives no request-id when the API sent none", async () => {
  const api = startFakeApi({ apiKey: KEY, sessions: [SOLO] });
  try {
    const error = await failure(collect(
      fromManagedAgents({ sessionId: "sesn_gone", apiKey: KEY, baseUrl: api.baseUrl }),
    ));
    assert.equal(error.requestId, undefined);
    assert.doesNotMatch(error.message, /request-id/);
  } finally {
    await api.shutdown();
  }
});

Deno.test("new ManagedAgentsError() names a request-id given to it", () => {
  const error = new ManagedAgentsError("Cannot list events: the API answered 500", {
    code: "api",
    source: "sessions/sesn_1/events",
    status: 500,
    requestId: "req_1",
  });
  assert.equal(error.requestId, "req_1");
  assert.equal(
    error.message,
    'sessions/sesn_1/events: Cannot list events: the API answered 500; request-id "req_1"',
  );
});
