// Copyright 2026 the brigade authors. MIT license.

// fromNdjson() over a recorded session stream: the previews (`event_start`, `event_delta`) are
// skipped as the stream's rules say, and a raw `text/event-stream` recording says what it is.

import assert from "node:assert/strict";
import type {
  BetaManagedAgentsDeltaEvent,
  BetaManagedAgentsStartEvent,
} from "@anthropic-ai/sdk/resources/beta/sessions/sessions";
import type { BetaManagedAgentsStreamSessionEvents } from "@anthropic-ai/sdk/resources/beta/sessions/events";
import { EventSourceError, fromNdjson, renderGrader } from "../mod.ts";

function stream(text: string): ReadableStream<Uint8Array> {
  return ReadableStream.from([new TextEncoder().encode(text)]);
}

const T = "2026-10-30T09:00:00Z";
const start: BetaManagedAgentsStartEvent = {
  type: "event_start",
  event: { type: "agent.message", id: "sevt_2" },
};
const delta = (text: string): BetaManagedAgentsDeltaEvent => ({
  type: "event_delta",
  event_id: "sevt_2",
  delta: { type: "content_delta", index: 0, content: { type: "text", text } },
});
/** What the SDK's `events.stream()` yields for one turn, previews requested. */
const RECORDED: BetaManagedAgentsStreamSessionEvents[] = [
  { type: "user.message", id: "sevt_1", processed_at: T, content: [{ type: "text", text: "Hi" }] },
  { type: "session.status_running", id: "sevt_r", processed_at: T },
  start,
  delta("Hel"),
  delta("lo"),
  {
    type: "agent.message",
    id: "sevt_2",
    processed_at: T,
    content: [{ type: "text", text: "Hello" }],
  },
  { type: "session.status_terminated", id: "sevt_t", processed_at: T },
];
const ndjson = (records: unknown[]): string =>
  records.map((record) => `${JSON.stringify(record)}\n`).join("");

Deno.test("fromNdjson() reads a recorded stream back, skipping its event_start and event_delta previews", async () => {
  const entries = await Array.fromAsync(
    fromNdjson(stream(ndjson(RECORDED)), { sessionId: "sesn_1" }),
  );
  assert.deepEqual(entries.map((entry) => [entry.seq, entry.event.id]), [
    [1, "sevt_1"],
    [2, "sevt_r"],
    [6, "sevt_2"],
    [7, "sevt_t"],
  ]);
  const stored = RECORDED.filter((record) =>
    record.type !== "event_start" && record.type !== "event_delta"
  );
  assert.equal(
    await renderGrader(fromNdjson(stream(ndjson(RECORDED)))),
    await renderGrader(fromNdjson(stream(ndjson(stored)))),
  );
  assert.equal(
    await renderGrader(fromNdjson(stream(ndjson(RECORDED)))),
    "[user]\n  Hi\n\n[agent]\n  Hello\n",
  );
});

Deno.test("fromNdjson() skips a preview held in a log entry too, and reports none of them as invalid", async () => {
  const lines = [
    { seq: 1, session_id: "sesn_1", thread_id: null, event: start },
    { seq: 2, session_id: "sesn_1", thread_id: null, event: delta("Hel") },
    { seq: 3, session_id: "sesn_1", thread_id: null, event: RECORDED[5] },
  ];
  const invalid: number[] = [];
  const entries = await Array.fromAsync(
    fromNdjson(stream(ndjson(lines)), {
      skipInvalid: true,
      onInvalid: (line) => invalid.push(line),
    }),
  );
  assert.deepEqual(entries.map((entry) => entry.seq), [3]);
  assert.deepEqual(invalid, []);
});

Deno.test("fromNdjson() says a raw server-sent event recording is one, at its first line", async () => {
  const raw = RECORDED.map((record) => `event: ${record.type}\ndata: ${JSON.stringify(record)}\n\n`)
    .join("");
  await assert.rejects(
    Array.fromAsync(fromNdjson(stream(raw), { name: "session.sse" })),
    (error) => {
      assert.ok(error instanceof EventSourceError);
      assert.equal(error.code, "invalid_entry");
      assert.equal(error.line, 1);
      assert.match(error.message, /server-sent event stream/);
      assert.match(error.message, /keep the JSON after each `data: `/);
      return true;
    },
  );
  const reasons: string[] = [];
  const entries = await Array.fromAsync(
    fromNdjson(stream(": keep-alive\n"), {
      skipInvalid: true,
      onInvalid: (_, why) => reasons.push(why),
    }),
  );
  assert.deepEqual(entries, []);
  assert.match(reasons[0]!, /server-sent event stream/);
});
