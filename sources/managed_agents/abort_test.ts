// Copyright 2026 the brigade authors. MIT license.

// fromManagedAgents() stops when its signal fires: before the first request,
// during a page, during a body, during a wait between retries.

import assert from "node:assert/strict";
import { fromManagedAgents } from "@brigade/transcript";
import {
  apiError,
  collect,
  KEY,
  SOLO,
  startFakeApi,
  trickle,
} from "../../tests/_managed_agents_server.ts";

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
