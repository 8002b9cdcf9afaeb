// Copyright 2026 the brigade authors. MIT license.

import assert from "node:assert/strict";
import { GRADER_TRANSCRIPT_BUDGET } from "../mod.ts";
import { heapChild } from "./_heap_child.ts";

Deno.test("a grader keeping its ends, paused past its head, holds the texts its tail keeps, not the items they came from", async (t) => {
  for (const renderer of ["grader-ends", "grader-ends-ids", "grader-ends-cut"]) {
    await t.step(renderer, () => heldUnder(renderer));
  }
});

async function heldUnder(renderer: string): Promise<void> {
  const child = new URL("./_tail_held_child.ts", import.meta.url);
  const run = await heapChild<{ heldKiB: number; pieces: number; finished: number }>(
    child,
    [renderer, "10", "20000"],
  );
  assert.equal(run.finished, 10, "every grader read its session to the end");
  // The tail holds a few thousand short messages then. It held each one's item (its speakers,
  // label, time, thread and seq) through a closure that built its piece: about 8.6 times the
  // budget in all, per grader. Holding each uncut item's text and a build shared per label, a
  // grader holds its head, those texts and its own state: about 2.8 times the budget. With ids,
  // or items cut, it holds each one's text, seq and cut count, and a build shared per label.
  const budget = GRADER_TRANSCRIPT_BUDGET / 1024;
  assert.ok(
    run.heldKiB < 4 * budget,
    `each grader held ${run.heldKiB.toFixed(1)} KiB of heap, its tail ${run.pieces} messages`,
  );
}
