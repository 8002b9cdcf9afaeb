// Copyright 2026 the brigade authors. MIT license.

// The server-sent event reader under the follow: line ends of every kind, split anywhere,
// comments and fields it ignores, the cap on a message and the deadline on silence.

import assert from "node:assert/strict";
import { SseFailure, sseMessages } from "./_sse.ts";

function body(chunks: string[]): ReadableStream<Uint8Array> {
  return ReadableStream.from(chunks.map((chunk) => new TextEncoder().encode(chunk)));
}

const OPTIONS = { idleMs: 1_000, maxMessageBytes: 1_000 };

Deno.test("sseMessages() reads messages split anywhere, with LF, CRLF or CR line ends", async () => {
  const text =
    '\uFEFF: hello\nevent: a\ndata: {"x":1}\n\nid: 7\r\ndata: two\r\ndata: lines\r\n\r\n' +
    "event: ping\rdata:\r\rretry: 10\ndata:no space\n\n";
  const expected = [
    { event: "a", data: '{"x":1}', id: "" },
    { event: null, data: "two\nlines", id: "7" },
    { event: "ping", data: "", id: "7" },
    { event: null, data: "no space", id: "7" },
  ];
  for (const size of [1, 2, 3, 7, text.length]) {
    const chunks: string[] = [];
    for (let at = 0; at < text.length; at += size) chunks.push(text.slice(at, at + size));
    const messages = await Array.fromAsync(sseMessages(body(chunks), OPTIONS));
    assert.deepEqual(messages, expected, `chunks of ${size}`);
  }
});

Deno.test("sseMessages() stops at a message over the cap, and on silence past idleMs", async () => {
  await assert.rejects(
    Array.fromAsync(sseMessages(body([`data: ${"x".repeat(2_000)}`]), OPTIONS)),
    (error) => error instanceof SseFailure && error.kind === "too_large",
  );
  const silent = new ReadableStream<Uint8Array>({ pull: () => new Promise(() => {}) });
  await assert.rejects(
    Array.fromAsync(sseMessages(silent, { ...OPTIONS, idleMs: 20 })),
    (error) => error instanceof SseFailure && error.kind === "idle",
  );
});
