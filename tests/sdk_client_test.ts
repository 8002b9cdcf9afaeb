// Copyright 2026 the brigade authors. MIT license.

// fromManagedAgents() through the official SDK's client (`@anthropic-ai/sdk` 1.10.0), pointed at a
// loopback server that speaks the list endpoints with the SDK's page shapes: the same entries, and
// the same bytes out of every renderer, as through the built-in client.

import assert from "node:assert/strict";
import Anthropic from "@anthropic-ai/sdk";
import {
  fromEntries,
  fromManagedAgents,
  type LogEntry,
  type ManagedAgentsClient,
  ManagedAgentsError,
  type ManagedAgentsOptions,
  renderGrader,
  renderHtml,
  renderJson,
} from "@brigade/transcript";
import {
  apiError,
  collect,
  event,
  failure,
  type FakeSession,
  KEY,
  SOLO,
  startFakeApi,
  TEAM,
  thrownBy,
} from "./_managed_agents_server.ts";
import { fromSdkList, sdkEvents } from "./_sdk_events.ts";

/** Every SDK event type in one session, served as the API would. */
const SDK_SESSION: FakeSession = {
  id: "sesn_sdk",
  events: sdkEvents() as unknown as Record<string, unknown>[],
};

function sdk(baseURL: string): Anthropic {
  return new Anthropic({ apiKey: KEY, baseURL, maxRetries: 0 });
}

Deno.test("the SDK's client.beta.sessions is a ManagedAgentsClient, with no cast", () => {
  const client: ManagedAgentsClient = sdk("http://127.0.0.1:9").beta.sessions;
  assert.equal(typeof client.threads.events.list, "function");
});

Deno.test("fromManagedAgents({ client }) lists through the SDK what the built-in client lists", async (t) => {
  const api = startFakeApi({ apiKey: KEY, sessions: [SOLO, TEAM, SDK_SESSION] });
  const client = sdk(api.baseUrl).beta.sessions;
  const cases: [string, Partial<ManagedAgentsOptions>][] = [
    ["sesn_solo", {}],
    ["sesn_solo", { pageSize: 2 }],
    ["sesn_team", {}],
    ["sesn_team", { scope: "all" }],
    ["sesn_team", { scope: "all", pageSize: 1 }],
    ["sesn_sdk", { scope: "all", pageSize: 5 }],
  ];
  try {
    for (const [sessionId, extra] of cases) {
      await t.step(`${sessionId} ${JSON.stringify(extra)}`, async () => {
        const builtIn = (): AsyncIterable<LogEntry> =>
          fromManagedAgents({ sessionId, apiKey: KEY, baseUrl: api.baseUrl, ...extra });
        const viaSdk = (): AsyncIterable<LogEntry> =>
          fromManagedAgents({ sessionId, client, ...extra });
        const before = api.requests.length;
        const expected = await collect(builtIn());
        const builtInRequests = api.requests.slice(before);
        const got = await collect(viaSdk());
        const sdkRequests = api.requests.slice(before + builtInRequests.length);
        assert.deepEqual(got, expected);
        assert.ok(expected.length > 0);
        // The same lists, pages and limits; the SDK adds its `beta=true`.
        const shape = (requests: typeof api.requests): string[] =>
          requests.map((r) =>
            `${r.rawPath}?limit=${r.params.get("limit")}&page=${r.params.get("page")}`
          );
        assert.deepEqual(shape(sdkRequests), shape(builtInRequests));
        assert.ok(sdkRequests.every((r) => r.headers.get("anthropic-version") === "2026-10-21"));
        for (const render of [renderGrader, renderJson, renderHtml]) {
          assert.equal(await render(viaSdk()), await render(builtIn()), render.name);
        }
      });
    }
  } finally {
    await api.shutdown();
  }
});

Deno.test("the SDK's own paging, as a source, compiles and reads the same events", async () => {
  const api = startFakeApi({ apiKey: KEY, sessions: [TEAM] });
  try {
    const client = sdk(api.baseUrl);
    const entries = await collect(fromEntries(fromSdkList(client, "sesn_team")));
    assert.deepEqual(
      entries.filter((entry) => entry.thread_id === null).map((entry) => entry.event.id),
      TEAM.events.map((event) => event.id),
    );
  } finally {
    await api.shutdown();
  }
});

Deno.test("fromManagedAgents({ client }) fails with a ManagedAgentsError that shows no key", async (t) => {
  const api = startFakeApi({
    apiKey: KEY,
    sessions: [SOLO],
    intercept: (request) =>
      request.path.includes("sesn_echo")
        ? apiError(
          401,
          "authentication_error",
          `invalid x-api-key: ${request.headers.get("x-api-key")}`,
        )
        : request.path.includes("sesn_bad_item")
        ? Response.json({ data: [event("sevt_1", "user.message", null), 7], next_page: null })
        : undefined,
  });
  const client = sdk(api.baseUrl).beta.sessions;
  try {
    await t.step("a 404", async () => {
      const error = await failure(collect(fromManagedAgents({ sessionId: "sesn_gone", client })));
      assert.equal(error.code, "api");
      assert.equal(error.status, 404);
      assert.equal(error.source, "sessions/sesn_gone/events");
      assert.match(error.message, /Cannot list events of session "sesn_gone": the client failed: /);
      assert.match(error.message, /session not found/);
    });
    await t.step("a key echoed back", async () => {
      const error = await failure(collect(fromManagedAgents({ sessionId: "sesn_echo", client })));
      assert.equal(error.status, 401);
      for (const view of [error.message, String(error.cause), (error.cause as Error).stack]) {
        assert.ok(!view?.includes(KEY.slice(10, 30)), view);
      }
    });
    await t.step("an item that is not an event", async () => {
      const error = await failure(
        collect(fromManagedAgents({ sessionId: "sesn_bad_item", client })),
      );
      assert.match(
        error.message,
        /the client gave an item that is not valid: item 1 is the number 7/,
      );
    });
    await t.step("the caller's abort", async () => {
      const controller = new AbortController();
      const reason = new Error("stop");
      controller.abort(reason);
      await assert.rejects(
        collect(fromManagedAgents({ sessionId: "sesn_solo", client, signal: controller.signal })),
        (error) => error === reason,
      );
    });
  } finally {
    await api.shutdown();
  }
});

Deno.test("fromManagedAgents({ client }) refuses the built-in client's options and a client of another shape", () => {
  const client = sdk("http://127.0.0.1:9").beta.sessions;
  for (const extra of [{ apiKey: KEY }, { baseUrl: "https://x.example" }, { maxRetries: 1 }]) {
    const error = thrownBy(() => fromManagedAgents({ sessionId: "sesn_1", client, ...extra }));
    assert.ok(error instanceof ManagedAgentsError);
    assert.equal(error.code, "invalid_option");
    assert.match(
      error.message,
      /"client" comes with "[a-zA-Z]+", which configure the built-in client/,
    );
  }
  const error = thrownBy(() =>
    fromManagedAgents({
      sessionId: "sesn_1",
      client: { events: client.events } as unknown as ManagedAgentsClient,
    })
  );
  assert.ok(error instanceof ManagedAgentsError);
  assert.match(error.message, /it has no threads\.list\(\), threads\.events\.list\(\)$/);
});

Deno.test("fromManagedAgents({ client }) names the request-id of the SDK's error", async () => {
  const api = startFakeApi({ apiKey: KEY, sessions: [SOLO], requestIds: true });
  try {
    const client = sdk(api.baseUrl).beta.sessions;
    const error = await failure(collect(fromManagedAgents({ sessionId: "sesn_gone", client })));
    assert.equal(error.status, 404);
    assert.equal(error.requestId, "req_fake_0");
    assert.ok(error.message.endsWith('; request-id "req_fake_0"'), error.message);
  } finally {
    await api.shutdown();
  }
});
