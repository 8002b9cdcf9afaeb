// Copyright 2026 the brigade authors. MIT license.

// fromManagedAgents({ follow: true }): the stored events, then the streams'
// new ones, once each across the seam and a dropped connection, until the
// session terminates or the caller aborts.

import assert from "node:assert/strict";
import Anthropic from "@anthropic-ai/sdk";
import { fromManagedAgents, type LogEntry, type ManagedAgentsOptions } from "@brigade/transcript";
import {
  apiError,
  event,
  failure,
  type FakeApi,
  type FakeSession,
  KEY,
  startFakeApi,
} from "../../tests/_managed_agents_server.ts";

function at(second: number): string {
  return `2026-09-14T10:00:${String(second).padStart(2, "0")}Z`;
}

function message(n: number, type = "agent.message"): Record<string, unknown> {
  return event(`sevt_${n}`, type, at(n), { content: [{ type: "text", text: `message ${n}` }] });
}

function live(): FakeSession {
  return { id: "sesn_live", events: [message(1, "user.message"), message(2), message(3)] };
}

async function until(what: string, condition: () => boolean): Promise<void> {
  for (let waited = 0; !condition(); waited += 5) {
    if (waited > 5_000) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/**
 * Runs `then` once `condition` holds, in the background: the source connects
 * its stream only when the consumer asks for the next entry.
 */
function later(
  tasks: Promise<void>[],
  what: string,
  condition: () => boolean,
  then: () => void,
): void {
  tasks.push(until(what, condition).then(then));
}

function follow(api: FakeApi, extra: Partial<ManagedAgentsOptions> = {}): AsyncIterable<LogEntry> {
  return fromManagedAgents({
    sessionId: "sesn_live",
    apiKey: KEY,
    baseUrl: api.baseUrl,
    follow: true,
    retryBaseDelayMs: 1,
    ...extra,
  });
}

const streamRequests = (api: FakeApi): number =>
  api.requests.filter((request) => request.path.endsWith("/stream")).length;

Deno.test("fromManagedAgents({ follow: true }) yields new events across a dropped stream, once each, until the session terminates", async () => {
  const api = startFakeApi({ apiKey: KEY, sessions: [live()] });
  try {
    const seen: LogEntry[] = [];
    const tasks: Promise<void>[] = [];
    for await (const entry of follow(api)) {
      seen.push(entry);
      const id = entry.event.id;
      if (id === "sevt_3") {
        later(tasks, "the stream", () => api.openStreams() === 1, () => {
          api.append("sesn_live", message(4));
        });
      } else if (id === "sevt_4") {
        // Dropped: sevt_5 is stored while no stream is open, so only the
        // catch-up listing after the reconnection can bring it.
        assert.equal(api.dropStreams(), 1);
        api.append("sesn_live", message(5));
        later(
          tasks,
          "the reconnection",
          () => streamRequests(api) === 2 && api.openStreams() === 1,
          () => api.append("sesn_live", message(6)),
        );
      } else if (id === "sevt_6") {
        api.append("sesn_live", event("sevt_7", "session.status_terminated", at(7)));
      }
    }
    assert.deepEqual(seen.map((entry) => entry.event.id), [
      "sevt_1",
      "sevt_2",
      "sevt_3",
      "sevt_4",
      "sevt_5",
      "sevt_6",
      "sevt_7",
    ]);
    await Promise.all(tasks);
    assert.deepEqual(seen.map((entry) => entry.seq), [1, 2, 3, 4, 5, 6, 7]);
    assert.ok(seen.every((entry) => entry.thread_id === null && entry.session_id === "sesn_live"));
    await until("the streams to close", () => api.openStreams() === 0);
    const stream = api.requests.find((request) => request.path.endsWith("/stream"))!;
    assert.equal(stream.path, "/v1/sessions/sesn_live/events/stream");
    assert.equal(stream.headers.get("accept"), "text/event-stream");
  } finally {
    await api.shutdown();
  }
});

Deno.test("fromManagedAgents({ follow: true }) opens no stream for a session that has terminated", async () => {
  const session = live();
  session.events.push(event("sevt_9", "session.status_terminated", at(9)));
  const api = startFakeApi({ apiKey: KEY, sessions: [session] });
  try {
    const entries = await Array.fromAsync(follow(api));
    assert.equal(entries.length, 4);
    assert.equal(streamRequests(api), 0);
  } finally {
    await api.shutdown();
  }
});

Deno.test("fromManagedAgents({ follow: true, scope: 'all' }) follows the threads, those created while following too", async (t) => {
  await t.step("through the built-in client", () => followThreads({}));
  await t.step("through the SDK's client", () => followThreads({ sdk: true }));
});

async function followThreads({ sdk = false }): Promise<void> {
  const session: FakeSession = {
    id: "sesn_live",
    events: [message(1, "user.message")],
    threads: [{ id: "sthr_p", parent_thread_id: null, agent: { name: "Lead" }, events: [] }],
  };
  const api = startFakeApi({ apiKey: KEY, sessions: [session] });
  try {
    const seen: [string | null, string][] = [];
    const tasks: Promise<void>[] = [];
    const source = sdk
      ? fromManagedAgents({
        sessionId: "sesn_live",
        client: new Anthropic({ apiKey: KEY, baseURL: api.baseUrl, maxRetries: 0 }).beta.sessions,
        scope: "all",
        follow: true,
      })
      : follow(api, { scope: "all" });
    for await (const entry of source) {
      seen.push([entry.thread_id, entry.event.id]);
      const id = entry.event.id;
      if (id === "sevt_1") {
        later(tasks, "the stream", () => api.openStreams() === 1, () => {
          session.threads!.push({
            id: "sthr_c",
            parent_thread_id: "sthr_p",
            agent: { name: "Helper" },
            events: [message(3)],
          });
          api.append("sesn_live", {
            ...event("sevt_2", "session.thread_created", at(2)),
            session_thread_id: "sthr_c",
            agent_name: "Helper",
          });
        });
      } else if (id === "sevt_3") {
        later(tasks, "the thread's stream", () => api.openStreams() === 2, () => {
          api.append("sesn_live", message(4), "sthr_c");
        });
      } else if (id === "sevt_4") {
        api.append("sesn_live", event("sevt_5", "session.status_terminated", at(5)));
      }
    }
    assert.deepEqual(seen, [
      [null, "sevt_1"],
      [null, "sevt_2"],
      ["sthr_c", "sevt_3"],
      ["sthr_c", "sevt_4"],
      [null, "sevt_5"],
    ]);
    await Promise.all(tasks);
    assert.ok(api.requests.some((r) => r.path === "/v1/sessions/sesn_live/threads/sthr_c/stream"));
    await until("the streams to close", () => api.openStreams() === 0);
  } finally {
    await api.shutdown();
  }
}

Deno.test("fromManagedAgents({ follow: true }) stops at once and closes its stream when the signal aborts", async () => {
  const api = startFakeApi({ apiKey: KEY, sessions: [live()] });
  try {
    const controller = new AbortController();
    const reason = new Error("the user stopped");
    const seen: string[] = [];
    const tasks: Promise<void>[] = [];
    await assert.rejects(
      (async () => {
        for await (const entry of follow(api, { signal: controller.signal })) {
          seen.push(entry.event.id as string);
          if (seen.length === 3) {
            later(tasks, "the stream", () => api.openStreams() === 1, () => {
              controller.abort(reason);
            });
          }
        }
      })(),
      (error) => error === reason,
    );
    assert.equal(seen.length, 3);
    await Promise.all(tasks);
    await until("the stream to close", () => api.openStreams() === 0);
  } finally {
    await api.shutdown();
  }
});

Deno.test("fromManagedAgents({ follow: true }) ends with an error when the stream keeps failing", async () => {
  const api = startFakeApi({
    apiKey: KEY,
    sessions: [live()],
    intercept: (request) =>
      request.path.endsWith("/stream")
        ? apiError(503, "overloaded_error", "try later", { "retry-after-ms": "1" })
        : undefined,
  });
  try {
    const error = await failure(Array.fromAsync(follow(api, { maxRetries: 2 })));
    assert.equal(error.code, "api");
    assert.equal(error.status, 503);
    assert.equal(error.source, "sessions/sesn_live/events/stream");
    assert.equal(streamRequests(api), 3);
  } finally {
    await api.shutdown();
  }
});

Deno.test("fromManagedAgents({ follow: true }) reconnects a stream that drops, and gives up after maxRetries drops in a row", async () => {
  const api = startFakeApi({
    apiKey: KEY,
    sessions: [live()],
    // Each stream opens, then closes at once: a drop with nothing new.
    intercept: (request) =>
      request.path.endsWith("/stream")
        ? new Response(": bye\n\n", { headers: { "content-type": "text/event-stream" } })
        : undefined,
  });
  try {
    const error = await failure(Array.fromAsync(follow(api, { maxRetries: 3 })));
    assert.equal(error.code, "api");
    assert.match(error.message, /dropped 4 times in a row/);
    assert.equal(streamRequests(api), 4);
  } finally {
    await api.shutdown();
  }
});

Deno.test("fromManagedAgents({ follow: true, client }) follows through the SDK's client", async () => {
  const api = startFakeApi({ apiKey: KEY, sessions: [live()] });
  try {
    const client = new Anthropic({ apiKey: KEY, baseURL: api.baseUrl, maxRetries: 0 });
    const seen: string[] = [];
    const tasks: Promise<void>[] = [];
    const source = fromManagedAgents({
      sessionId: "sesn_live",
      client: client.beta.sessions,
      follow: true,
    });
    for await (const entry of source) {
      seen.push(entry.event.id as string);
      if (seen.length === 3) {
        later(tasks, "the stream", () => api.openStreams() === 1, () => {
          api.append("sesn_live", message(4));
        });
      } else if (seen.length === 4) {
        api.append("sesn_live", event("sevt_5", "session.status_terminated", at(5)));
      }
    }
    assert.deepEqual(seen, ["sevt_1", "sevt_2", "sevt_3", "sevt_4", "sevt_5"]);
    await Promise.all(tasks);
    await until("the streams to close", () => api.openStreams() === 0);
  } finally {
    await api.shutdown();
  }
});

Deno.test("fromManagedAgents({ follow: true }) connects again after a quiet timeoutMs, which counts as no drop", async () => {
  const api = startFakeApi({ apiKey: KEY, sessions: [live()] });
  try {
    const seen: string[] = [];
    const tasks: Promise<void>[] = [];
    for await (const entry of follow(api, { timeoutMs: 50, maxRetries: 0 })) {
      seen.push(entry.event.id as string);
      if (seen.length === 3) {
        later(tasks, "three quiet streams", () => streamRequests(api) >= 3, () => {
          api.append("sesn_live", event("sevt_4", "session.status_terminated", at(4)));
        });
      }
    }
    await Promise.all(tasks);
    assert.deepEqual(seen, ["sevt_1", "sevt_2", "sevt_3", "sevt_4"]);
    await until("the streams to close", () => api.openStreams() === 0);
  } finally {
    await api.shutdown();
  }
});

Deno.test("fromManagedAgents({ follow: true }) reads a stream only as the consumer asks: a slow one leaves the server's events unsent", async () => {
  let sent = 0;
  let n = 0;
  const filler = "x".repeat(1_000);
  const api = startFakeApi({
    apiKey: KEY,
    sessions: [live()],
    // A stream with no end: it makes an event each time the connection can take one.
    intercept: (request) => {
      if (!request.path.endsWith("/stream")) return undefined;
      const body = new ReadableStream<Uint8Array>({
        pull(controller): void {
          const event = { ...message(100 + n++), content: filler };
          const chunk = new TextEncoder().encode(`data: ${JSON.stringify(event)}\n\n`);
          sent += chunk.byteLength;
          controller.enqueue(chunk);
        },
      }, { highWaterMark: 0 });
      return new Response(body, { headers: { "content-type": "text/event-stream" } });
    },
  });
  try {
    const controller = new AbortController();
    let taken = 0;
    const reading = (async () => {
      for await (const _ of follow(api, { signal: controller.signal })) {
        if (++taken === 10) {
          // The consumer stops asking for a while.
          await new Promise((resolve) => setTimeout(resolve, 500));
          const held = sent;
          await new Promise((resolve) => setTimeout(resolve, 300));
          // Nothing more is read while it does not ask, and what was read is small.
          assert.equal(sent, held);
          controller.abort(new Error("enough"));
        }
      }
    })();
    await assert.rejects(reading, /enough/);
    assert.ok(sent < 16 * 1024 * 1024, `${sent} bytes were sent to a consumer that took 10 events`);
  } finally {
    await api.shutdown();
  }
});

Deno.test("fromManagedAgents({ follow: true, client }) ends at once when the SDK's stream gets a 404", async () => {
  const api = startFakeApi({
    apiKey: KEY,
    sessions: [live()],
    intercept: (request) =>
      request.path.endsWith("/stream") ? apiError(404, "not_found_error", "no stream") : undefined,
  });
  try {
    const client = new Anthropic({ apiKey: KEY, baseURL: api.baseUrl, maxRetries: 0 });
    const source = fromManagedAgents({
      sessionId: "sesn_live",
      client: client.beta.sessions,
      follow: true,
    });
    const error = await failure(Array.fromAsync(source));
    assert.equal(error.status, 404);
    assert.equal(streamRequests(api), 1);
  } finally {
    await api.shutdown();
  }
});

Deno.test("fromManagedAgents({ follow: true, client }) connects again when the SDK's stream gets a 503", async () => {
  const api = startFakeApi({
    apiKey: KEY,
    sessions: [live()],
    intercept: (request) =>
      request.path.endsWith("/stream") && streamRequests(api) === 1
        ? apiError(503, "overloaded_error", "try later")
        : undefined,
  });
  try {
    const client = new Anthropic({ apiKey: KEY, baseURL: api.baseUrl, maxRetries: 0 });
    const tasks: Promise<void>[] = [];
    const seen: string[] = [];
    const source = fromManagedAgents({
      sessionId: "sesn_live",
      client: client.beta.sessions,
      follow: true,
    });
    for await (const entry of source) {
      seen.push(entry.event.id as string);
      if (seen.length === 3) {
        later(tasks, "the second stream", () => api.openStreams() === 1, () => {
          api.append("sesn_live", event("sevt_4", "session.status_terminated", at(4)));
        });
      }
    }
    await Promise.all(tasks);
    assert.deepEqual(seen, ["sevt_1", "sevt_2", "sevt_3", "sevt_4"]);
    assert.equal(streamRequests(api), 2);
  } finally {
    await api.shutdown();
  }
});
