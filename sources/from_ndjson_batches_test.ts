// Copyright 2026 the brigade authors. MIT license.

import assert from "node:assert/strict";
import { fromNdjson, renderDream } from "../mod.ts";
import { forEachItem } from "../kit/mod.ts";

/** An NDJSON stream of `count` user messages, `tag` in each, as one chunk. */
function messages(tag: string, count: number): ReadableStream<Uint8Array> {
  let text = "";
  for (let i = 1; i <= count; i++) {
    text += `${JSON.stringify({ id: `sevt_${i}`, type: "user.message", content: `${tag}${i}` })}\n`;
  }
  return ReadableStream.from([new TextEncoder().encode(text)]);
}

Deno.test("the kit's item loop takes fromNdjson's entries a read at a time: two at once do not interleave inside a read", async () => {
  // An await an entry would let the other loop run between any two entries, so that each
  // held what its read made until the other had had its turn.
  const order: string[] = [];
  await Promise.all(
    ["a", "b"].map((tag) =>
      forEachItem(fromNdjson(messages(tag, 5)), (item) => order.push(item.text))
    ),
  );
  assert.deepEqual(order, ["a1", "a2", "a3", "a4", "a5", "b1", "b2", "b3", "b4", "b5"]);
});

Deno.test("a fromNdjson source already started is read on from where it is, an entry at a time", async () => {
  const source = fromNdjson(messages("m", 4));
  assert.equal((await source.next()).value?.event.id, "sevt_1");
  const texts: string[] = [];
  await forEachItem(source, (item) => texts.push(item.text));
  assert.deepEqual(texts, ["m2", "m3", "m4"]);
});

Deno.test("a fromNdjson source read a read at a time gives nothing more to its own iteration", async () => {
  const source = fromNdjson(messages("m", 3));
  let items = 0;
  await forEachItem(source, () => items++);
  assert.equal(items, 3);
  assert.deepEqual(await source.next(), { value: undefined, done: true });
});

Deno.test("a dream read a read at a time still fails at a bad line with its number, and closes the file", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/sesn_bad.ndjson`;
    const good = JSON.stringify({ id: "sevt_1", type: "user.message", content: "Hi" });
    await Deno.writeTextFile(path, `${good}\n{"id":\n${good}\n`);
    await assert.rejects(renderDream(fromNdjson(path)), (error: Error & { line?: number }) => {
      assert.equal(error.line, 2);
      return true;
    });
    // The resource sanitizer fails this test if the file were left open.
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("an item loop that throws inside a read stops the reading and closes the file", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/sesn_many.ndjson`;
    const lines = Array.from(
      { length: 50 },
      (_, i) => JSON.stringify({ id: `sevt_${i}`, type: "user.message", content: `m${i}` }),
    );
    await Deno.writeTextFile(path, lines.join("\n"));
    let seen = 0;
    await assert.rejects(
      forEachItem(fromNdjson(path), () => {
        if (++seen === 3) throw new Error("enough");
      }),
      /enough/,
    );
    assert.equal(seen, 3);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a hundred fromNdjson files read at once hold at most 8 MiB of read buffers between them", async () => {
  const dir = await Deno.makeTempDir();
  const sources: AsyncGenerator<unknown>[] = [];
  try {
    const path = `${dir}/sesn_many.ndjson`;
    let text = "";
    for (let i = 1; i <= 2000; i++) {
      const event = { id: `sevt_${i}`, type: "user.message", content: `${i} ${"x".repeat(480)}` };
      text += `${JSON.stringify(event)}\n`;
    }
    await Deno.writeTextFile(path, text);
    const before = Deno.memoryUsage().external;
    for (let i = 0; i < 100; i++) sources.push(fromNdjson(path));
    // Each source past several reads, all of them open: each holds its two buffers.
    await Promise.all(sources.map(async (source) => {
      for (let i = 0; i < 500; i++) await source.next();
    }));
    const held = Deno.memoryUsage().external - before;
    // 64 KiB buffers, two a source, would be 12.5 MiB.
    assert.ok(held <= 8 * 1024 * 1024, `${(held / 1024 / 1024).toFixed(1)} MiB held`);
  } finally {
    await Promise.all(sources.map((source) => source.return(undefined)));
    await Deno.remove(dir, { recursive: true });
  }
});
