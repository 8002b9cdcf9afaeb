// Copyright 2026 the brigade authors. MIT license.

import assert from "node:assert/strict";
import { fromEntries, type LogEntry } from "../mod.ts";
import { entries, user } from "../tests/_entries.ts";
import { rejectsWith } from "../tests/_source_errors.ts";

Deno.test("fromEntries() yields sync and async entries unchanged", async () => {
  const rows = entries([user("a"), user("b")]);
  assert.deepEqual(await Array.fromAsync(fromEntries(rows)), rows);
  async function* generate(): AsyncGenerator<LogEntry> {
    yield* rows;
  }
  const seen = await Array.fromAsync(fromEntries(generate()));
  assert.equal(seen[0], rows[0]);
});

Deno.test("fromEntries() names the position and field of a malformed entry", async (t) => {
  const good = entries([user("a")])[0]!;
  const cases: Array<[unknown, RegExp]> = [
    [null, /^entries:2: .*null, not an object/],
    [{ ...good, seq: "2" }, /^entries:2: .*"seq" is not a non-negative integer: "2"/],
    [{ ...good, session_id: 7 }, /"session_id" is not a string: 7/],
    [{ ...good, thread_id: 1 }, /"thread_id" is neither a string nor null/],
    [{ ...good, event: [] }, /the event is an array/],
    [{ ...good, event: { id: "x" } }, /no string member "type"/],
  ];
  for (const [bad, pattern] of cases) {
    await t.step(pattern.source, async () => {
      await rejectsWith(Array.fromAsync(fromEntries([good, bad as LogEntry])), pattern);
    });
  }
});

Deno.test("fromEntries() stops when its signal aborts", async () => {
  const controller = new AbortController();
  const source = fromEntries(entries([user("a"), user("b")]), { signal: controller.signal });
  const seen: number[] = [];
  await assert.rejects(async () => {
    for await (const entry of source) {
      seen.push(entry.seq);
      controller.abort(new Error("stop"));
    }
  }, /stop/);
  assert.deepEqual(seen, [1]);
});
