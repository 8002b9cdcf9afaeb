// Copyright 2026 the brigade authors. MIT license.

import assert from "node:assert/strict";
import { DREAM_TRANSCRIPT_CAP } from "../mod.ts";
import { heapChild } from "./_heap_child.ts";

Deno.test("a dream paused past its head holds the texts its tail keeps, not the items they came from", async () => {
  const child = new URL("./_tail_held_child.ts", import.meta.url);
  const run = await heapChild<{ heldKiB: number; pieces: number; finished: number }>(
    child,
    ["dream", "20", "3000"],
  );
  assert.equal(run.finished, 20, "every dream read its session to the end");
  // The tail holds a few hundred short messages then. It held each one's item (its speakers,
  // label, time, thread and seq) through a closure that built its piece: about 7.7 times the cap
  // in all, per dream. Holding each uncut item's text and a build shared per heading, a dream
  // holds its head, those texts and its own state: about 3.7 times the cap.
  const cap = DREAM_TRANSCRIPT_CAP / 1024;
  assert.ok(
    run.heldKiB < 5 * cap,
    `each dream held ${run.heldKiB.toFixed(1)} KiB of heap, its tail ${run.pieces} messages`,
  );
});
