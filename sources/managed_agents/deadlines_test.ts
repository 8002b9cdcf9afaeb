// Copyright 2026 the brigade authors. MIT license.

// fromManagedAgents() gives each request a deadline (timeoutMs) that holds
// against a server that never answers, a body trickled a byte at a time and a
// custom fetch that ignores the signal; a request past it is retried.

import assert from "node:assert/strict";
import { fromManagedAgents } from "@brigade/transcript";
import {
  assertNoKey,
  collect,
  failure,
  KEY,
  SOLO,
  startFakeApi,
  trickle,
} from "../../tests/_managed_agents_server.ts";

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
