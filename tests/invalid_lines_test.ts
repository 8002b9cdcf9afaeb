// Copyright 2026 the brigade authors. MIT license.

import assert from "node:assert/strict";
import { EventSourceError, fromClaudeCode, fromNdjson } from "../mod.ts";

const encoder = new TextEncoder();

function stream(text: string): ReadableStream<Uint8Array> {
  return ReadableStream.from([encoder.encode(text)]);
}

/** Bad lines that quote a secret or a terminal escape, as they are and inside JSON. */
const HOSTILE = [
  "password=hunter2abc",
  "\x1b]0;x\x07",
  '{"seq":"password=hunter2abc","session_id":"s","thread_id":null,"event":{"type":"x"}}',
  '{"seq":1,"session_id":"s","thread_id":"\\u001b]0;x\\u0007password=hunter2abc","event":[]}',
  `{"text": "password=hunter2abc ${"z".repeat(100)}" oops`,
];

function assertSafe(text: string): void {
  assert.ok(!text.includes("hunter2"), `a secret is quoted: ${JSON.stringify(text)}`);
  assert.ok(!text.includes("\x1b") && !text.includes("\x07"), `a control: ${JSON.stringify(text)}`);
}

Deno.test("reasons and errors never quote a secret or a control character raw", async (t) => {
  for (const line of HOSTILE) {
    await t.step(JSON.stringify(line.slice(0, 40)), async () => {
      const reasons: string[] = [];
      await Array.fromAsync(
        fromNdjson(stream(`${line}\n`), {
          skipInvalid: true,
          onInvalid: (_, reason) => reasons.push(reason),
        }),
      );
      await Array.fromAsync(
        fromClaudeCode(stream(`${line}\n`), { onInvalid: (_, reason) => reasons.push(reason) }),
      );
      await assert.rejects(Array.fromAsync(fromNdjson(stream(`${line}\n`))), (error: unknown) => {
        assert.ok(error instanceof EventSourceError);
        reasons.push(error.message, error.reason);
        return true;
      });
      assert.ok(reasons.length >= 3);
      for (const reason of reasons) assertSafe(reason);
    });
  }
});

Deno.test("the escape is shown, not hidden: the reason still says what the line held", async () => {
  const reasons: string[] = [];
  await Array.fromAsync(
    fromNdjson(stream("\x1b]0;x\x07\n"), {
      skipInvalid: true,
      onInvalid: (_, reason) => reasons.push(reason),
    }),
  );
  assert.equal(reasons.length, 1);
  assert.ok(reasons[0]!.includes("\\x1b]0;x\\x07"), reasons[0]);
});

Deno.test("onInvalid is called as each bad line is met, between the entries around it", async () => {
  const text = [
    '{"id":"1","type":"user.message","content":"a"}',
    "{oops",
    '{"id":"2","type":"user.message","content":"b"}',
    "[1]",
    '{"id":"3","type":"user.message","content":"c"}',
  ].join("\n");
  const order: string[] = [];
  for await (
    const entry of fromNdjson(stream(text), {
      skipInvalid: true,
      onInvalid: (line) => order.push(`bad ${line}`),
    })
  ) order.push(`entry ${entry.event.id}`);
  assert.deepEqual(order, ["entry 1", "bad 2", "entry 2", "bad 4", "entry 3"]);

  const records = [
    '{"type":"user","uuid":"1","message":{"content":"a"}}',
    "nope",
    '{"type":"user","uuid":"2","message":{"content":"b"}}',
  ].join("\n");
  const seen: string[] = [];
  for await (
    const entry of fromClaudeCode(stream(records), {
      onInvalid: (line) => seen.push(`bad ${line}`),
    })
  ) seen.push(`entry ${entry.event.id}`);
  assert.deepEqual(seen, ["entry 1", "bad 2", "entry 2"]);
});
