// Copyright 2026 the brigade authors. MIT license.

// fromManagedAgents() retries as the official SDK (@anthropic-ai/sdk 1.10.0,
// `shouldRetry`) does: 408 and 409 too, any status the API sends
// `x-should-retry: true` with, and none it sends `x-should-retry: false` with.

import assert from "node:assert/strict";
import { fromManagedAgents } from "@brigade/transcript";
import {
  apiError,
  collect,
  event,
  failure,
  KEY,
  SOLO,
  startFakeApi,
} from "../../tests/_managed_agents_server.ts";

/** Lists SOLO through a fake API whose first answer is `fault`; returns the requests made. */
async function listAfter(fault: () => Response): Promise<{ requests: number; error?: Error }> {
  const api = startFakeApi({
    apiKey: KEY,
    sessions: [SOLO],
    intercept: (_request, index) => index === 0 ? fault() : undefined,
  });
  try {
    const source = fromManagedAgents({
      sessionId: "sesn_solo",
      apiKey: KEY,
      baseUrl: api.baseUrl,
      retryBaseDelayMs: 0,
    });
    try {
      assert.equal((await collect(source)).length, 7);
      return { requests: api.requests.length };
    } catch (error) {
      return { requests: api.requests.length, error: error as Error };
    }
  } finally {
    await api.shutdown();
  }
}

Deno.test("fromManagedAgents() retries a 408 and a 409, as the SDK does", async (t) => {
  for (const [status, type] of [[408, "timeout_error"], [409, "conflict_error"]] as const) {
    await t.step(`${status}`, async () => {
      const { requests, error } = await listAfter(() => apiError(status, type, "try again"));
      assert.equal(error, undefined);
      assert.equal(requests, 2, "retried once, then listed");
    });
  }
});

Deno.test("fromManagedAgents() retries any status the API sends x-should-retry: true with", async (t) => {
  for (const status of [400, 501]) {
    await t.step(`${status}`, async () => {
      const { requests, error } = await listAfter(() =>
        apiError(status, "api_error", "try again", { "x-should-retry": "true" })
      );
      assert.equal(error, undefined);
      assert.equal(requests, 2);
    });
  }
});

Deno.test("fromManagedAgents() retries no status the API sends x-should-retry: false with", async (t) => {
  for (const status of [429, 500, 503, 529, 408]) {
    await t.step(`${status}`, async () => {
      const { requests, error } = await listAfter(() =>
        apiError(status, "api_error", "do not", { "x-should-retry": "false" })
      );
      assert.equal(requests, 1, "not retried");
      assert.equal((error as { status?: number }).status, status);
      assert.match(
        error!.message,
        new RegExp(`answered ${status} .*\\(not retried: the API sent x-should-retry: false\\)`),
      );
    });
  }
});

Deno.test("fromManagedAgents() still fails at once on a status that will not pass", async () => {
  const { requests, error } = await listAfter(() => apiError(400, "invalid_request_error", "no"));
  assert.equal(requests, 1);
  assert.doesNotMatch(error!.message, /x-should-retry/);
});

Deno.test("fromManagedAgents({ follow: true }) connects a stream again after a 409", async () => {
  const stored = event("sevt_1", "user.message", null, { content: "Go" });
  const end = event("sevt_2", "session.status_terminated", null);
  let streams = 0;
  const api = startFakeApi({
    apiKey: KEY,
    sessions: [{ id: "sesn_live", events: [stored] }],
    intercept: (request) => {
      if (!request.path.endsWith("/stream")) return undefined;
      streams++;
      if (streams === 1) return apiError(409, "conflict_error", "busy");
      return new Response(`event: ${end.type}\ndata: ${JSON.stringify(end)}\n\n`, {
        headers: { "content-type": "text/event-stream" },
      });
    },
  });
  try {
    const entries = await collect(fromManagedAgents({
      sessionId: "sesn_live",
      apiKey: KEY,
      baseUrl: api.baseUrl,
      follow: true,
      retryBaseDelayMs: 0,
    }));
    assert.deepEqual(entries.map((entry) => entry.event.id), ["sevt_1", "sevt_2"]);
    assert.equal(streams, 2);
  } finally {
    await api.shutdown();
  }
});

Deno.test("fromManagedAgents({ follow: true }) ends at once on a stream answered x-should-retry: false", async () => {
  const api = startFakeApi({
    apiKey: KEY,
    sessions: [{ id: "sesn_live", events: [event("sevt_1", "user.message", null)] }],
    intercept: (request) =>
      request.path.endsWith("/stream")
        ? apiError(503, "overloaded_error", "busy", { "x-should-retry": "false" })
        : undefined,
  });
  try {
    const error = await failure(collect(fromManagedAgents({
      sessionId: "sesn_live",
      apiKey: KEY,
      baseUrl: api.baseUrl,
      follow: true,
      retryBaseDelayMs: 0,
    })));
    assert.equal(error.status, 503);
    assert.equal(api.requests.filter((request) => request.path.endsWith("/stream")).length, 1);
  } finally {
    await api.shutdown();
  }
});
