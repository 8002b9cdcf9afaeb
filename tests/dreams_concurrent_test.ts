// Copyright 2026 the brigade authors. MIT license.

import assert from "node:assert/strict";
import { heapChild } from "./_heap_child.ts";

/** Runs `_dreams_concurrent_child.ts` with `dreams` dreams at once; its report. */
function concurrentDreams(
  dreams: number,
): Promise<{ heldMiB: number; dreams: number; finished: number }> {
  const child = new URL("./_dreams_concurrent_child.ts", import.meta.url);
  return heapChild(child, [String(dreams)], ["--allow-read", "--allow-write"]);
}

Deno.test("a hundred dreams at once each hold the entry they read, not a 64 KiB read's worth of parsed entries", async () => {
  const run = await concurrentDreams(100);
  assert.equal(run.finished, 100, "every dream read its log to the end");
  // Each dream's read is 64 KiB of lines: parsed all at once, a hundred reads held about
  // 12 MiB of values between two entries; parsed as they are read, a dream holds one (and
  // its own state: its source's buffers' handles, the heading and the head of its text),
  // about 3 MiB for the hundred.
  assert.ok(run.heldMiB < 6, `the hundred dreams held ${run.heldMiB.toFixed(1)} MiB of heap`);
});
