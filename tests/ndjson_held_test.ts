// Copyright 2026 the brigade authors. MIT license.

import assert from "node:assert/strict";
import { heapChild } from "./_heap_child.ts";

Deno.test("a fromNdjson reader stopped inside a read holds its one line, not the read's lines", async () => {
  const child = new URL("./_ndjson_held_child.ts", import.meta.url);
  const run = await heapChild<{ heldMiB: number; readers: number; entries: number }>(child, ["20"]);
  assert.equal(run.entries, 20 * 20_000, "every reader read its stream to the end");
  // A read of 20,000 lines split at once held a line object and a view of the chunk for each,
  // about 3 MiB a reader (59 MiB for the twenty); split as they are parsed, the twenty
  // readers hold their state alone, well under a megabyte.
  assert.ok(run.heldMiB < 4, `the twenty readers held ${run.heldMiB.toFixed(1)} MiB of heap`);
});
