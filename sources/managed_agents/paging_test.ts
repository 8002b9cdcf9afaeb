// Copyright 2026 the brigade authors. MIT license.

// fromManagedAgents() lists a session the way the API documents it: the query,
// the headers, the page size, one page at a time, and where a list ends (a last
// page, an empty page, a cursor sent before).

import assert from "node:assert/strict";
import { fromManagedAgents } from "@brigade/transcript";
import {
  collect,
  event,
  failure,
  KEY,
  SOLO,
  SOLO_EVENTS,
  startFakeApi,
} from "../../tests/_managed_agents_server.ts";
import { cursorKey } from "./_pages.ts";

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
      assert.equal(request.headers.get("anthropic-version"), "2026-10-21");
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

Deno.test("fromManagedAgents() ends a list at a page with no next_page, as the SDK does", async () => {
  const api = startFakeApi({
    apiKey: KEY,
    sessions: [],
    intercept: () => Response.json({ data: SOLO_EVENTS.slice(0, 2) }),
  });
  try {
    const source = fromManagedAgents({ sessionId: "sesn_live", apiKey: KEY, baseUrl: api.baseUrl });
    assert.deepEqual((await collect(source)).map((entry) => entry.event.id), [
      "sevt_s1",
      "sevt_s2",
    ]);
    assert.equal(api.requests.length, 1);
  } finally {
    await api.shutdown();
  }
});
