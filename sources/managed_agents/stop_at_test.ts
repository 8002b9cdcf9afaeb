// Copyright 2026 the brigade authors. MIT license.

// `stopAt: "idle"`: a follow that ends with the turn, at the first idle that ends it after the
// last user message, rather than at the session's termination.

import assert from "node:assert/strict";
import { fromManagedAgents, type LogEntry } from "@brigade/transcript";
import {
  event,
  type FakeApi,
  type FakeSession,
  KEY,
  startFakeApi,
} from "../../tests/_managed_agents_server.ts";

function at(second: number): string {
  return `2026-09-14T10:00:${String(second).padStart(2, "0")}Z`;
}

const idle = (id: string, second: number, reason: string): Record<string, unknown> =>
  event(id, "session.status_idle", at(second), { stop_reason: { type: reason } });

async function until(what: string, condition: () => boolean): Promise<void> {
  for (let waited = 0; !condition(); waited += 5) {
    if (waited > 10_000) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

function follow(api: FakeApi, sessionId: string): AsyncIterable<LogEntry> {
  return fromManagedAgents({
    sessionId,
    apiKey: KEY,
    baseUrl: api.baseUrl,
    follow: true,
    stopAt: "idle",
    settleDelayMs: 0,
    retryBaseDelayMs: 0,
  });
}

/** Once the stream is open (the follow opens it when asked for the next entry), appends `events`. */
function appendOnceOpen(
  api: FakeApi,
  sessionId: string,
  events: Record<string, unknown>[],
): Promise<void> {
  return until("the stream", () => api.openStreams() === 1).then(() => {
    for (const item of events) api.append(sessionId, item);
  });
}

const streamRequests = (api: FakeApi): number =>
  api.requests.filter((request) => request.path.endsWith("/stream")).length;

Deno.test("fromManagedAgents({ follow: true, stopAt: 'idle' }) ends at the idle that ends the turn, not at one that waits on the client", async () => {
  const session: FakeSession = {
    id: "sesn_turn",
    events: [
      event("sevt_1", "user.message", at(1), { content: "Go" }),
      event("sevt_2", "session.status_running", at(2)),
    ],
  };
  const api = startFakeApi({ apiKey: KEY, sessions: [session] });
  try {
    const appended = appendOnceOpen(api, session.id, [
      event("sevt_3", "agent.tool_use", at(3), { name: "bash", input: {} }),
      idle("sevt_4", 4, "requires_action"),
      event("sevt_5", "user.tool_confirmation", at(5), { result: "allow" }),
      event("sevt_6", "session.status_running", at(6)),
      event("sevt_7", "agent.message", at(7), { content: "Done" }),
      idle("sevt_8", 8, "end_turn"),
      // Never yielded: the follow is over.
      event("sevt_9", "user.message", at(9), { content: "More" }),
    ]);
    const seen: unknown[] = [];
    for await (const entry of follow(api, session.id)) seen.push(entry.event.id);
    await appended;
    assert.deepEqual(seen, [
      "sevt_1",
      "sevt_2",
      "sevt_3",
      "sevt_4",
      "sevt_5",
      "sevt_6",
      "sevt_7",
      "sevt_8",
    ]);
    await until("the stream to close", () => api.openStreams() === 0);
  } finally {
    await api.shutdown();
  }
});

Deno.test("fromManagedAgents({ follow: true, stopAt: 'idle' }) opens no stream for a session whose turn has ended", async (t) => {
  const ended: FakeSession = {
    id: "sesn_ended",
    status: "idle",
    events: [
      event("sevt_1", "user.message", at(1), { content: "Go" }),
      event("sevt_2", "session.status_running", at(2)),
      event("sevt_3", "agent.message", at(3), { content: "Done" }),
      idle("sevt_4", 4, "end_turn"),
      event("sevt_5", "session.usage", at(5)),
    ],
  };
  await t.step("listed whole", async () => {
    const api = startFakeApi({ apiKey: KEY, sessions: [ended] });
    try {
      const entries = await Array.fromAsync(follow(api, ended.id));
      assert.equal(entries.length, 5);
      assert.equal(streamRequests(api), 0);
    } finally {
      await api.shutdown();
    }
  });
  await t.step("its end still lagging in the list", async () => {
    const lagging: FakeSession = { ...ended, id: "sesn_lag", events: ended.events.slice(0, 2) };
    const api = startFakeApi({ apiKey: KEY, sessions: [lagging], listLag: 1 });
    try {
      for (const item of ended.events.slice(2)) api.append(lagging.id, item);
      const entries = await Array.fromAsync(follow(api, lagging.id));
      assert.deepEqual(entries.map((entry) => entry.event.id), [
        "sevt_1",
        "sevt_2",
        "sevt_3",
        "sevt_4",
        "sevt_5",
      ]);
      assert.equal(streamRequests(api), 0);
    } finally {
      await api.shutdown();
    }
  });
});

Deno.test("fromManagedAgents({ follow: true, stopAt: 'idle' }) follows a session at work again after the idle it lists", async () => {
  // The list ends on an ended turn, but the session runs again: its new message is not listed yet.
  const session: FakeSession = {
    id: "sesn_again",
    status: "running",
    events: [
      event("sevt_1", "user.message", at(1), { content: "Go" }),
      idle("sevt_2", 2, "end_turn"),
    ],
  };
  const api = startFakeApi({ apiKey: KEY, sessions: [session] });
  try {
    const appended = appendOnceOpen(api, session.id, [
      event("sevt_3", "user.message", at(3), { content: "Again" }),
      event("sevt_4", "agent.message", at(4), { content: "Done again" }),
      idle("sevt_5", 5, "refusal"),
    ]);
    const seen: unknown[] = [];
    for await (const entry of follow(api, session.id)) seen.push(entry.event.id);
    await appended;
    assert.deepEqual(seen, ["sevt_1", "sevt_2", "sevt_3", "sevt_4", "sevt_5"]);
  } finally {
    await api.shutdown();
  }
});
