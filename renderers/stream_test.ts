// Copyright 2026 the brigade authors. MIT license.

// The incremental renderers: their chunks, joined, are the whole renderer's
// text, under every budget; and each item comes out as soon as it is complete.

import assert from "node:assert/strict";
import {
  fromNdjson,
  type LogEntry,
  registry,
  renderDream,
  renderGrader,
  renderJson,
  streamDream,
  streamGrader,
  streamJson,
} from "../mod.ts";
import { agent, end, entries, start, user } from "../tests/_entries.ts";

const FIXTURES = new URL("../fixtures/", import.meta.url);
const NAMES = ["single_agent", "coordinator_all_threads", "coordinator_primary_only"];

async function fixture(name: string): Promise<LogEntry[]> {
  return await Array.fromAsync(fromNdjson(new URL(`${name}.ndjson`, FIXTURES)));
}

Deno.test("streamGrader() and streamJson() chunks join to renderGrader() and renderJson() text, under every budget", async () => {
  for (const name of NAMES) {
    const source = await fixture(name);
    const whole = await renderGrader(source, { transcriptBudget: Number.MAX_SAFE_INTEGER });
    const size = new TextEncoder().encode(whole).byteLength;
    const budgets = [256, 300, 512, 1_000, 2_048, size - 1, size, size + 1, 200_000];
    for (const transcriptBudget of budgets) {
      for (const keep of ["head", "ends"] as const) {
        if (keep === "ends" && transcriptBudget < 1_024) continue;
        const options = { transcriptBudget, keep, itemBudget: 300 };
        const chunks = await Array.fromAsync(streamGrader(source, options));
        assert.equal(
          chunks.join(""),
          await renderGrader(source, options),
          `${name} ${keep} ${transcriptBudget}`,
        );
      }
      const chunks = await Array.fromAsync(streamJson(source, { transcriptBudget }));
      assert.equal(
        chunks.join(""),
        await renderJson(source, { transcriptBudget }),
        `${name} json ${transcriptBudget}`,
      );
    }
  }
});

Deno.test("streamDream() chunks join to renderDream()'s text, under every cap", async () => {
  for (const name of NAMES) {
    const source = await fixture(name);
    const whole = (await renderDream(source, { cap: 1_000_000 })).text;
    const size = new TextEncoder().encode(whole).byteLength;
    for (const cap of [1_024, 1_500, 2_048, 4_096, size - 1, size, size + 1, 24 * 1024]) {
      if (cap < 1_024) continue;
      const chunks = await Array.fromAsync(streamDream(source, { cap }));
      assert.equal(chunks.join(""), (await renderDream(source, { cap })).text, `${name} ${cap}`);
      // The text starts with a front matter of facts known at the end: it comes out whole.
      assert.equal(chunks.length, 1, `${name} ${cap}: the whole text, once the source has ended`);
    }
  }
});

Deno.test("streamGrader() and streamJson() give out each item before the source yields the next entry", async () => {
  const rows = entries([
    user("Go"),
    start("sevt_req"),
    agent("Working"),
    end("sevt_req"),
    agent("Done"),
  ]);
  const graderEnds = (source: AsyncIterable<LogEntry>): AsyncIterable<string> =>
    streamGrader(source, { keep: "ends" });
  for (const stream of [streamGrader, streamJson, graderEnds]) {
    let pulled = 0;
    const source = async function* (): AsyncGenerator<LogEntry> {
      for (const row of rows) {
        pulled++;
        yield row;
      }
    };
    const seen: [number, string][] = [];
    for await (const chunk of stream(source())) seen.push([pulled, chunk]);
    // The user's message is out once its entry is read (the next is not pulled yet).
    assert.equal(seen[0]![0], 1, stream.name);
    assert.match(seen[0]![1], /Go/);
    assert.equal(seen.length, 3, stream.name);
  }
});

Deno.test("the grader and json renderers offer stream(); streamGrader() checks its options when called", () => {
  assert.equal(registry.get("grader").stream, streamGrader);
  assert.equal(registry.get("json").stream, streamJson);
  assert.equal(registry.get("dream").stream, streamDream);
  assert.throws(() => streamDream([], { cap: 10 }), RangeError);
  assert.throws(() => streamGrader([], { transcriptBudget: 0 }), RangeError);
  assert.throws(() => streamJson([], { transcriptBudget: 10 }), RangeError);
});
