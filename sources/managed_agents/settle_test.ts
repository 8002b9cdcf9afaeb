// Copyright 2026 the brigade authors. MIT license.

// A session listed whole (issue 30, item 7): the events list lags the stream by a second or two,
// so a listing that ends on a session no longer running, whose events do not show that yet,
// lists the tail again, a bounded number of times, each event once.

import assert from "node:assert/strict";
import Anthropic from "@anthropic-ai/sdk";
import {
  fromManagedAgents,
  type LogEntry,
  MANAGED_AGENTS_DEFAULTS,
  type ManagedAgentsClient,
  type ManagedAgentsOptions,
} from "@brigade/transcript";
import {
  collect,
  event,
  failure,
  type FakeApi,
  type FakeSession,
  KEY,
  startFakeApi,
  thrownBy,
} from "../../tests/_managed_agents_server.ts";

function at(second: number): string {
  return `2026-09-14T10:00:${String(second).padStart(2, "0")}Z`;
}

/** A turn under way: the user's message and the running status are listed. */
function turn(id = "sesn_turn"): FakeSession {
  return {
    id,
    events: [
      event("sevt_1", "user.message", at(1), { content: "Go" }),
      event("sevt_2", "session.status_running", at(2)),
    ],
  };
}

/** The end of the turn, as the stream has it: the reply and the idle. */
function ending(api: FakeApi, session: FakeSession, from = 3): void {
  api.append(session.id, event(`sevt_${from}`, "agent.message", at(from), { content: "Done" }));
  api.append(
    session.id,
    event(`sevt_${from + 1}`, "session.status_idle", at(from), {
      stop_reason: { type: "end_turn" },
    }),
  );
  session.status = "idle";
}

function list(
  api: FakeApi,
  sessionId: string,
  extra: Partial<ManagedAgentsOptions> = {},
): Promise<LogEntry[]> {
  return collect(
    fromManagedAgents({ sessionId, apiKey: KEY, baseUrl: api.baseUrl, settleDelayMs: 0, ...extra }),
  );
}

const ids = (entries: LogEntry[]): unknown[] => entries.map((entry) => entry.event.id);
const seqs = (entries: LogEntry[]): number[] => entries.map((entry) => entry.seq);
const paths = (api: FakeApi): string[] =>
  api.requests.map((request) => `${request.path}?${request.params}`);

Deno.test("fromManagedAgents() lists the tail again when the session went idle before its list caught up", async () => {
  const session = turn();
  const api = startFakeApi({ apiKey: KEY, sessions: [session], listLag: 1 });
  try {
    ending(api, session);
    const entries = await list(api, session.id);
    assert.deepEqual(ids(entries), ["sevt_1", "sevt_2", "sevt_3", "sevt_4"]);
    assert.deepEqual(seqs(entries), [1, 2, 3, 4]);
    // Only what came after the last event seen: from its time, that event skipped.
    assert.deepEqual(paths(api), [
      "/v1/sessions/sesn_turn/events?limit=100",
      "/v1/sessions/sesn_turn?",
      `/v1/sessions/sesn_turn/events?limit=100&${new URLSearchParams({
        "created_at[gte]": at(2),
      })}`,
    ]);
  } finally {
    await api.shutdown();
  }
});

Deno.test("fromManagedAgents() waits for a termination the list does not show yet, and for no more than settleTries listings", async (t) => {
  await t.step("until the termination is listed", async () => {
    const session = turn();
    const api = startFakeApi({ apiKey: KEY, sessions: [session], listLag: 3 });
    try {
      ending(api, session);
      api.append(session.id, event("sevt_5", "session.status_terminated", at(5)));
      session.status = "terminated";
      const entries = await list(api, session.id);
      assert.deepEqual(ids(entries), ["sevt_1", "sevt_2", "sevt_3", "sevt_4", "sevt_5"]);
      // The listing, the session, and three listings of the tail: the lag is three.
      assert.equal(api.requests.length, 5);
    } finally {
      await api.shutdown();
    }
  });

  await t.step("a list that never catches up ends the listing as it is", async () => {
    const session = turn();
    const api = startFakeApi({ apiKey: KEY, sessions: [session], listLag: 1_000 });
    try {
      ending(api, session);
      const entries = await list(api, session.id, { settleTries: 4 });
      assert.deepEqual(ids(entries), ["sevt_1", "sevt_2"]);
      assert.equal(api.requests.length, 1 + 1 + 4);
      assert.equal(MANAGED_AGENTS_DEFAULTS.settleTries, 6);
      assert.equal(MANAGED_AGENTS_DEFAULTS.settleDelayMs, 500);
    } finally {
      await api.shutdown();
    }
  });
});

Deno.test("fromManagedAgents() waits for nothing when the session is running, is listed whole, or settleTries is 0", async (t) => {
  const session = turn();
  const api = startFakeApi({ apiKey: KEY, sessions: [session], listLag: 1_000 });
  try {
    await t.step("running: the listing is the session so far", async () => {
      const before = api.requests.length;
      assert.deepEqual(ids(await list(api, session.id)), ["sevt_1", "sevt_2"]);
      assert.deepEqual(paths(api).slice(before), [
        "/v1/sessions/sesn_turn/events?limit=100",
        "/v1/sessions/sesn_turn?",
      ]);
    });
    await t.step("settleTries 0: the list alone, as before", async () => {
      ending(api, session);
      const before = api.requests.length;
      assert.deepEqual(ids(await list(api, session.id, { settleTries: 0 })), ["sevt_1", "sevt_2"]);
      assert.deepEqual(paths(api).slice(before), ["/v1/sessions/sesn_turn/events?limit=100"]);
    });
  } finally {
    await api.shutdown();
  }
  await t.step(
    "a listing that ends on the idle, or holds no status event, reads no more",
    async () => {
      const idle = turn("sesn_idle");
      idle.events.push(
        event("sevt_3", "agent.message", at(3), { content: "Done" }),
        event("sevt_4", "session.status_idle", at(4), { stop_reason: { type: "end_turn" } }),
        event("sevt_5", "session.usage", at(5)),
      );
      const fresh: FakeSession = {
        id: "sesn_fresh",
        events: [event("sevt_1", "user.message", at(1))],
      };
      const api = startFakeApi({ apiKey: KEY, sessions: [idle, fresh] });
      try {
        assert.equal((await list(api, "sesn_idle")).length, 5);
        assert.equal((await list(api, "sesn_fresh")).length, 1);
        assert.deepEqual(paths(api), [
          "/v1/sessions/sesn_idle/events?limit=100",
          "/v1/sessions/sesn_fresh/events?limit=100",
        ]);
      } finally {
        await api.shutdown();
      }
    },
  );
});

Deno.test("fromManagedAgents({ client }) lists the tail again through the SDK's retrieve, and lists once through a client without it", async () => {
  const session = turn();
  const api = startFakeApi({ apiKey: KEY, sessions: [session], listLag: 1 });
  try {
    ending(api, session);
    const sdk = new Anthropic({ apiKey: KEY, baseURL: api.baseUrl, maxRetries: 0 }).beta.sessions;
    const viaSdk = await collect(
      fromManagedAgents({ sessionId: session.id, client: sdk, settleDelayMs: 0 }),
    );
    assert.deepEqual(ids(viaSdk), ["sevt_1", "sevt_2", "sevt_3", "sevt_4"]);
    assert.equal(api.requests[1]!.path, "/v1/sessions/sesn_turn");
    assert.equal(api.requests[2]!.params.get("created_at[gte]"), at(2));

    // The same events, lagging again, through a client of the shape with no retrieve().
    const lagging = turn("sesn_turn");
    const api2 = startFakeApi({ apiKey: KEY, sessions: [lagging], listLag: 1 });
    try {
      ending(api2, lagging);
      const sdk2 =
        new Anthropic({ apiKey: KEY, baseURL: api2.baseUrl, maxRetries: 0 }).beta.sessions;
      const client: ManagedAgentsClient = { events: sdk2.events, threads: sdk2.threads };
      const once = await collect(
        fromManagedAgents({ sessionId: lagging.id, client, settleDelayMs: 0 }),
      );
      assert.deepEqual(ids(once), ["sevt_1", "sevt_2"]);
      assert.equal(api2.requests.length, 1);
    } finally {
      await api2.shutdown();
    }
  } finally {
    await api.shutdown();
  }
});

Deno.test("fromManagedAgents() fails as a listing does when the session cannot be read", async () => {
  const session = turn();
  const api = startFakeApi({
    apiKey: KEY,
    sessions: [session],
    intercept: (request) =>
      request.path === "/v1/sessions/sesn_turn"
        ? Response.json({ type: "error", error: { type: "permission_error", message: "no" } }, {
          status: 403,
        })
        : undefined,
  });
  try {
    const error = await failure(list(api, session.id));
    assert.equal(error.code, "api");
    assert.equal(error.status, 403);
    assert.match(error.message, /session "sesn_turn" \(its status\)/);
  } finally {
    await api.shutdown();
  }
});

Deno.test("fromManagedAgents() refuses a settleTries, settleDelayMs or stopAt it cannot use", () => {
  const base = { sessionId: "sesn_1", apiKey: KEY };
  const cases: [Partial<ManagedAgentsOptions>, RegExp][] = [
    [{ settleTries: -1 }, /"settleTries" must be an integer >= 0: current value is -1/],
    [{ settleTries: 1.5 }, /"settleTries" must be an integer >= 0/],
    [{ settleDelayMs: -5 }, /"settleDelayMs" must be a finite number >= 0: current value is -5/],
    [
      { follow: true, stopAt: "end" as "idle" },
      /"stopAt" must be "idle" or "terminated": current value is "end"/,
    ],
    [{ stopAt: "idle" }, /"stopAt" ends a follow: it needs "follow: true"/],
  ];
  for (const [extra, message] of cases) {
    const error = thrownBy(() => fromManagedAgents({ ...base, ...extra }));
    assert.match(String((error as Error).message), message);
    assert.equal((error as { code?: string }).code, "invalid_option");
  }
});

Deno.test("fromManagedAgents() lists each event once through a client that ignores the time filter", async () => {
  const session = turn();
  const api = startFakeApi({ apiKey: KEY, sessions: [session], listLag: 1 });
  try {
    ending(api, session);
    const sdk = new Anthropic({ apiKey: KEY, baseURL: api.baseUrl, maxRetries: 0 }).beta.sessions;
    // A client of the shape that drops `created_at[gte]`: the whole list comes back.
    const client: ManagedAgentsClient = {
      retrieve: (id, params, options) => sdk.retrieve(id, params, options),
      events: {
        list: (id, { limit }, options) =>
          sdk.events.list(id, limit === undefined ? {} : { limit }, options),
      },
      threads: sdk.threads,
    };
    const entries = await collect(
      fromManagedAgents({ sessionId: session.id, client, settleDelayMs: 0 }),
    );
    assert.deepEqual(ids(entries), ["sevt_1", "sevt_2", "sevt_3", "sevt_4"]);
    assert.equal(api.requests[2]!.params.get("created_at[gte]"), null);
  } finally {
    await api.shutdown();
  }
});
