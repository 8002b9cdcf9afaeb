// Copyright 2026 the brigade authors. MIT license.

// A reconnection lists only what came after the events the follow remembers: the primary
// thread's catch-up list carries `created_at[gte]` (the newest time among the ids forgotten),
// so a long session that drops its stream does not list its whole history again, and still
// nothing is lost or yielded twice.

import assert from "node:assert/strict";
import Anthropic from "@anthropic-ai/sdk";
import { fromManagedAgents, type LogEntry, type ManagedAgentsOptions } from "@brigade/transcript";
import {
  event,
  type FakeApi,
  type FakeEvent,
  KEY,
  type RecordedRequest,
  startFakeApi,
} from "../../tests/_managed_agents_server.ts";
import { FOLLOW_MEMORY } from "./_seen.ts";

const BASE = Date.UTC(2026, 8, 14, 10);
/** More stored events than the follow remembers ids of (at most twice its memory). */
const STORED = FOLLOW_MEMORY * 3;

function at(n: number): string {
  return new Date(BASE + n * 1_000).toISOString();
}

function message(n: number): FakeEvent {
  return event(`sevt_${n}`, "agent.message", at(n), { content: [{ type: "text", text: `m${n}` }] });
}

async function until(what: string, condition: () => boolean): Promise<void> {
  for (let waited = 0; !condition(); waited += 5) {
    if (waited > 10_000) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

const isStream = (request: RecordedRequest): boolean => request.path.endsWith("/stream");

/**
 * Follows the session through `via`: once the stream is open, one event on it, then the stream
 * drops, one event is stored while it is down, and after the reconnection the end. Returns the
 * entries and the list requests made after the reconnection.
 */
async function dropOnce(
  api: FakeApi,
  via: Partial<ManagedAgentsOptions>,
): Promise<{ entries: LogEntry[]; catchUp: RecordedRequest[] }> {
  const streams = (): number => api.requests.filter(isStream).length;
  const entries: LogEntry[] = [];
  const task = until("the stream", () => api.openStreams() === 1).then(async () => {
    api.append("sesn_long", message(STORED));
    await until("the event streamed", () => entries.length === STORED + 1);
    assert.equal(api.dropStreams(), 1);
    api.append("sesn_long", message(STORED + 1));
    await until("the reconnection", () => streams() === 2 && api.openStreams() === 1);
    api.append("sesn_long", event("sevt_end", "session.status_terminated", at(STORED + 2)));
  });
  const source = fromManagedAgents({
    sessionId: "sesn_long",
    follow: true,
    pageSize: 1_000,
    ...via,
  });
  for await (const entry of source) entries.push(entry);
  await task;
  const reconnect = api.requests.findLastIndex(isStream);
  const catchUp = api.requests.slice(reconnect).filter((request) =>
    request.path === "/v1/sessions/sesn_long/events"
  );
  return { entries, catchUp };
}

Deno.test("a reconnection lists only what came after the events the follow remembers, losing nothing", async (t) => {
  const cases: [string, (api: FakeApi) => Partial<ManagedAgentsOptions>][] = [
    [
      "through the built-in client",
      (api) => ({ apiKey: KEY, baseUrl: api.baseUrl, retryBaseDelayMs: 1 }),
    ],
    [
      "through the SDK's client",
      (api) => ({
        client: new Anthropic({ apiKey: KEY, baseURL: api.baseUrl, maxRetries: 0 }).beta.sessions,
      }),
    ],
  ];
  for (const [name, via] of cases) {
    await t.step(name, async () => {
      const stored = Array.from({ length: STORED }, (_, n) => message(n));
      const api = startFakeApi({
        apiKey: KEY,
        sessions: [{ id: "sesn_long", events: [...stored] }],
      });
      try {
        const { entries, catchUp } = await dropOnce(api, via(api));
        // Each event once, in order: the stored ones, the streamed one, the one stored while the
        // stream was down (which only the catch-up brings), the end.
        const ids = [...stored.map((item) => item.id), `sevt_${STORED}`, `sevt_${STORED + 1}`];
        assert.deepEqual(entries.map((entry) => entry.event.id), [...ids, "sevt_end"]);
        assert.deepEqual(entries.map((entry) => entry.seq), entries.map((_, n) => n + 1));
        // The catch-up after the reconnection starts at a time, past the first events stored and
        // no later than the last one streamed: it lists at most what the follow remembers.
        assert.ok(catchUp.length > 0);
        for (const request of catchUp) {
          const since = request.params.get("created_at[gte]");
          assert.ok(since !== null, `no created_at[gte] in ${request.params}`);
          assert.ok(Date.parse(since) >= Date.parse(at(STORED - 2 * FOLLOW_MEMORY)), since);
          assert.ok(Date.parse(since) <= Date.parse(at(STORED)), since);
        }
      } finally {
        await api.shutdown();
      }
    });
  }
});
