// Copyright 2026 the brigade authors. MIT license.

// The grader's `chunks` option: the whole session as ordered chunks of at most N bytes.

import assert from "node:assert/strict";
import { fromNdjson, type LogEntry, renderGrader, streamGrader } from "../../mod.ts";
import { agent, end, entries, start, user } from "../../tests/_entries.ts";
import { renderBounded } from "../../tests/_bounded.ts";
import { parseGrader } from "../../tests/_transcript_parse.ts";

const FIXTURES = new URL("../../fixtures/", import.meta.url);
const utf8 = (text: string): number => new TextEncoder().encode(text).length;
const HEADING = /^\[chunk (\d+)(?: of (\d+))? · items? (\d+)(?:–(\d+))?\]\n/;

/** A long session: varied sizes (some over a chunk), a message moved by consumption order. */
function longSession(): LogEntry[] {
  const rows = [
    user("first"),
    start("r1"),
    user("moved after the reply"),
    agent("reply"),
    end("r1"),
  ];
  for (let i = 0; i < 600; i++) {
    const size = i % 97 === 0 ? 9_000 : (i * 37) % 700;
    rows.push(i % 2 ? agent(`a${i} ${"é".repeat(size)}`) : user(`u${i} ${"x".repeat(size)}`));
  }
  return entries(rows);
}

Deno.test("renderGrader() with chunks: joined, the chunks hold every item once, in order, each within its bytes", async (t) => {
  const sessions: [string, LogEntry[]][] = [
    ["long", longSession()],
    [
      "coordinator_all_threads",
      await Array.fromAsync(fromNdjson(new URL("coordinator_all_threads.ndjson", FIXTURES))),
    ],
  ];
  for (const [name, rows] of sessions) {
    for (const bytes of [4_096, 10_000]) {
      await t.step(`${name}, ${bytes} bytes`, async () => {
        const chunks = await Array.fromAsync(
          streamGrader(rows, { chunks: { bytes }, ids: true, itemBudget: 2_000 }),
        );
        assert.equal(
          chunks.join(""),
          await renderGrader(rows, { chunks: { bytes }, ids: true, itemBudget: 2_000 }),
        );
        const whole = parseGrader(
          await renderGrader(rows, { transcriptBudget: Infinity, itemBudget: 2_000, ids: true }),
        ).items;
        const seen: { label: string; body: string; cutBytes: number }[] = [];
        let next = 1;
        for (const [i, chunk] of chunks.entries()) {
          assert.ok(utf8(chunk) <= bytes, `chunk ${i + 1}: ${utf8(chunk)} bytes`);
          const [, index, of, first, last] = HEADING.exec(chunk)!;
          assert.equal(Number(index), i + 1);
          assert.equal(of, i === chunks.length - 1 ? index : undefined, "the last says it is");
          assert.equal(Number(first), next, "no item lost or repeated between chunks");
          next = Number(last ?? first) + 1;
          const items = parseGrader(chunk.replace(HEADING, "")).items;
          assert.equal(items.length, next - Number(first));
          seen.push(...items);
        }
        assert.equal(next - 1, whole.length);
        assert.deepEqual(seen.map((item) => item.label), whole.map((item) => item.label));
        for (const [i, item] of seen.entries()) {
          // An item over a chunk is cut, with its note; the others are whole (no transcript budget).
          const full = whole[i]!;
          if (item.cutBytes === full.cutBytes) assert.equal(item.body, full.body);
          else assert.ok(full.body.startsWith(item.body) && item.cutBytes > full.cutBytes);
        }
      });
    }
  }
});

Deno.test("renderGrader() with chunks cuts an item too long for a chunk, with a note", async () => {
  const rows = entries([user("hi"), agent("y".repeat(20_000)), user("bye")]);
  const text = await renderGrader(rows, { chunks: { bytes: 5_000 }, itemBudget: 50_000 });
  const chunks = text.split(/^(?=\[chunk )/m);
  assert.deepEqual(chunks.map((chunk) => chunk.slice(0, chunk.indexOf("\n"))), [
    "[chunk 1 · item 1]",
    "[chunk 2 · item 2]",
    "[chunk 3 of 3 · item 3]",
  ]);
  assert.ok(utf8(chunks[1]!) <= 5_000 && utf8(chunks[1]!) > 4_900);
  assert.match(chunks[1]!, /\n\[cut: \d+ more bytes\]\n$/);
});

Deno.test("renderGrader() with chunks: no transcript budget, and an empty session has none", async () => {
  const rows = entries(
    Array.from({ length: 20_000 }, (_, i) => i % 2 ? agent(`a ${i}`) : user(`u ${i}`)),
  );
  const text = await renderGrader(rows, { chunks: { bytes: 100_000 } });
  assert.ok(utf8(text) > 200_000);
  assert.doesNotMatch(text, /transcript cut/);
  assert.equal(await renderGrader([], { chunks: { bytes: 4_096 } }), "");
});

Deno.test("renderGrader() refuses chunks it cannot make", () => {
  const rows = entries([user("hi")]);
  for (
    const options of [
      { chunks: { bytes: 4_095 } },
      { chunks: { bytes: 5_000.5 } },
      { chunks: { bytes: 5_000 }, transcriptBudget: 10_000 },
      { chunks: { bytes: 5_000 }, keep: "ends" as const },
      { chunks: { bytes: 5_000 }, outcome: true },
      { chunks: { bytes: 5_000 }, envelope: true },
      { chunks: { bytes: 5_000 }, threads: "each" as const },
    ]
  ) {
    assert.throws(() => renderGrader(rows, options), RangeError, JSON.stringify(options));
  }
});

Deno.test("streamGrader() with chunks holds one chunk: a 1M-event session under a 24 MiB heap", async () => {
  const run = await renderBounded("turns", "grader-chunks", 190, 24);
  assert.equal(run.code, 0, run.stderr);
  const report = run.report!;
  assert.equal(report.streamedMiB, 190, "the whole log was read");
  assert.ok(report.items! >= 1_000_000, `${report.items} items`);
  assert.ok(report.outputBytes > 24 * 1024 * 1024, "more than the heap came out");
  assert.ok(report.maxChunkBytes! <= 16_384);
  assert.ok(report.continuous, "the items' numbers run on from chunk to chunk");
  assert.match(report.tail, /\n$/);
});
