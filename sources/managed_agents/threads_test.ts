// Copyright 2026 the brigade authors. MIT license.

// fromManagedAgents() with scope "all": the threads list, the merge of the
// threads' events by processed_at, and the errors that name a thread.

import assert from "node:assert/strict";
import { fromManagedAgents } from "@brigade/transcript";
import {
  apiError,
  collect,
  failure,
  KEY,
  PRIMARY,
  READER,
  startFakeApi,
  TEAM,
  WRITER,
} from "../../tests/_managed_agents_server.ts";

/** TEAM's events in the order the merge gives them, by the rule told where TEAM is. */
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
