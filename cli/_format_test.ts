// Copyright 2026 the brigade authors. MIT license.

import assert from "node:assert/strict";
import { peekFormat, recordFormat, transcriptCwd } from "./_format.ts";

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

Deno.test("peekFormat() tells a long first record by its top-level members, bytes given back", async () => {
  const body = "y".repeat(200_000);
  const records: Array<[string, string]> = [
    [JSON.stringify({ type: "user", message: { content: body } }), "claude-code"],
    [JSON.stringify({ message: { content: body }, event: { type: "x" }, type: "user" }), "log"],
    [JSON.stringify({ id: "sevt_1", content: body, type: "agent.message" }), "log"],
    [JSON.stringify({ content: body, type: "weird" }), "unknown"],
  ];
  for (const [record, format] of records) {
    const text = `${record}\n{"type":"user"}\n`;
    const bytes = new TextEncoder().encode(text);
    const chunks = Array.from(
      { length: Math.ceil(bytes.length / 65_536) },
      (_, i) => bytes.slice(i * 65_536, (i + 1) * 65_536),
    );
    const peeked = await peekFormat(ReadableStream.from(chunks), 1 << 20);
    assert.equal(peeked.format, format, record.slice(-40));
    assert.equal(await new Response(peeked.stream).text(), text);
  }
});

Deno.test("transcriptCwd() reads the directory a transcript ran in from its first records", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/s.jsonl`;
    await Deno.writeTextFile(
      path,
      [
        '{"type":"file-history-snapshot","snapshot":{}}',
        "not json",
        '{"type":"user","cwd":"/home/me/app","message":{"content":"hi"}}',
        '{"type":"user","cwd":"/elsewhere","message":{"content":"hi"}}',
      ].join("\n"),
    );
    assert.equal(await transcriptCwd(path), "/home/me/app");
    await Deno.writeTextFile(path, '{"type":"user","message":{"content":"hi"}}\n');
    assert.equal(await transcriptCwd(path), undefined);
    assert.equal(await transcriptCwd(`${dir}/missing.jsonl`), undefined);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
