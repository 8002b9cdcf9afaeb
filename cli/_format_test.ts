// Copyright 2026 the brigade authors. MIT license.

import assert from "node:assert/strict";
import { peekFormat, recordFormat } from "./_format.ts";

Deno.test("recordFormat() tells a log, a Claude Code transcript and anything else apart", () => {
  assert.equal(recordFormat('{"seq":1,"event":{"type":"user.message"}}'), "log");
  assert.equal(recordFormat('{"id":"sevt_1","type":"agent.message"}'), "log");
  assert.equal(recordFormat('{"type":"file-history-snapshot"}'), "claude-code");
  assert.equal(recordFormat('{"type":"assistant","message":{}}'), "claude-code");
  assert.equal(recordFormat('{"type":"weird"}'), "unknown");
  assert.equal(recordFormat("[1,2]"), undefined);
  assert.equal(recordFormat("{nope"), undefined);
});

Deno.test("peekFormat() gives back every byte, in order, however the stream is chunked", async () => {
  const text = [
    '{"type":"user","message":{"content":"a"}}',
    ...Array.from({ length: 200 }, (_, i) => `line ${i}`),
  ]
    .join("\n");
  const bytes = new TextEncoder().encode(text);
  // Small chunks that arrive one at a time, as stdin does.
  let at = 0;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller): Promise<void> {
      await new Promise((resolve) => setTimeout(resolve, 0));
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(at, at + 7));
      at += 7;
    },
  });
  const peeked = await peekFormat(stream, 1 << 20);
  assert.equal(peeked.format, "claude-code");
  assert.equal(await new Response(peeked.stream).text(), text);
});

Deno.test("peekFormat() holds at most maxLineBytes and reads an unknown first record as unknown", async () => {
  const long = new TextEncoder().encode(`${"x".repeat(5000)}\n{"seq":1,"event":{}}\n`);
  const over = await peekFormat(ReadableStream.from([long.slice(0, 100), long.slice(100)]), 64);
  assert.equal(
    over.format,
    "log",
    "nothing decided within the cap: read as a log, which says what is wrong",
  );
  assert.equal((await new Response(over.stream).bytes()).length, long.length);
  const unknown = await peekFormat(
    ReadableStream.from([new TextEncoder().encode('{"a":1}\n')]),
    64,
  );
  assert.equal(unknown.format, "unknown");
  await unknown.stream.cancel();
});
