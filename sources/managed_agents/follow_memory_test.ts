// Copyright 2026 the brigade authors. MIT license.

// The follow's memory is bounded (4,096 ids a stream), and still loses nothing: an event that
// arrives on the open stream is new unless its id is remembered, whatever its `processed_at`
// says. The two cases the security audit measured (issue 30): one far-future stamp, then 5,000
// events (907 were lost), and a 1 ms step back every tenth event of 6,001 (191 were lost).

import assert from "node:assert/strict";
import { fromManagedAgents, type LogEntry } from "@brigade/transcript";
import { FOLLOW_MEMORY } from "./_seen.ts";

type Event = Record<string, unknown>;

const BASE = Date.UTC(2026, 8, 14, 10);

function message(n: number, processedAt: string | null): Event {
  return { id: `sevt_${n}`, type: "agent.message", processed_at: processedAt, content: `m${n}` };
}

/** The session's events: `count` messages stamped by `stamp`, then the termination. */
function session(count: number, stamp: (n: number) => string): Event[] {
  const events = Array.from({ length: count }, (_, n) => message(n, stamp(n)));
  events.push({ id: "sevt_end", type: "session.status_terminated", processed_at: null });
  return events;
}

/**
 * A stand-in for the API: nothing stored, then one stream that sends `streamed` and ends; the
 * session is running (so the listing waits for nothing).
 */
function api(streamed: Event[]): typeof fetch {
  return (input) => {
    const path = new URL(String(input)).pathname;
    if (path.endsWith("/stream")) {
      const body = streamed.map((event) =>
        `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`
      );
      return Promise.resolve(new Response(body.join("")));
    }
    if (path.endsWith("/events")) {
      return Promise.resolve(Response.json({ data: [], next_page: null }));
    }
    return Promise.resolve(Response.json({ id: "sesn_1", type: "session", status: "running" }));
  };
}

async function followed(streamed: Event[]): Promise<LogEntry[]> {
  return await Array.fromAsync(fromManagedAgents({
    sessionId: "sesn_1",
    apiKey: "sk-x",
    fetch: api(streamed),
    follow: true,
    maxRetries: 0,
    retryBaseDelayMs: 0,
  }));
}

function ids(entries: LogEntry[]): unknown[] {
  return entries.map((entry) => entry.event.id);
}

Deno.test("follow loses no event after a far-future processed_at, past its memory of ids", async () => {
  // The first event is stamped 2099; the 5,000 after it are stamped today, a second apart.
  const events = session(
    5_001,
    (n) => new Date(n === 0 ? Date.UTC(2099, 0) : BASE + n * 1_000).toISOString(),
  );
  assert.equal(events.length, 5_002);
  assert.ok(events.length > FOLLOW_MEMORY);
  const entries = await followed(events);
  assert.equal(entries.length, 5_002);
  assert.deepEqual(ids(entries), events.map((event) => event.id));
  assert.deepEqual(entries.map((entry) => entry.seq), events.map((_, n) => n + 1));
});

Deno.test("follow loses no event that steps 1 ms back, past its memory of ids", async () => {
  // Ten milliseconds apart, but every tenth event is stamped 1 ms before the one it follows.
  const stamp = (n: number): string => {
    const ms = n % 10 === 9 ? BASE + (n - 1) * 10 - 1 : BASE + n * 10;
    return new Date(ms).toISOString();
  };
  const events = session(6_000, stamp);
  assert.equal(events.length, 6_001);
  const entries = await followed(events);
  assert.equal(entries.length, 6_001);
  assert.deepEqual(ids(entries), events.map((event) => event.id));
});
