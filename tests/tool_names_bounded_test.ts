// Copyright 2026 the brigade authors. MIT license.

import assert from "node:assert/strict";
import { conversation, type ConversationItem } from "../mod.ts";
import { heapChild } from "./_heap_child.ts";
import { hostileLog } from "./_hostile_calls.ts";

/** How many tool calls the renderers remember for their results (and the grader its child calls). */
const KEPT = 4_096;
const OUTSTANDING = 5_000;

async function labels(view: "grader" | "dream"): Promise<Map<number, ConversationItem>> {
  const items = await Array.fromAsync(conversation(hostileLog(OUTSTANDING), { view }));
  return new Map(items.map((item) => [item.seq, item]));
}

function label(items: Map<number, ConversationItem>, seq: number): string {
  return items.get(seq)?.label ?? "(dropped)";
}

Deno.test("a result names its call's tool in every order: before it, twice, after a denial, for a reused id", async () => {
  for (const view of ["grader", "dream"] as const) {
    const items = await labels(view);
    assert.equal(label(items, 3), "tool result → agent", "a result before its call");
    assert.equal(label(items, 6), "tool grep → agent", "the first of two results");
    assert.equal(label(items, 7), "tool grep → agent", "the second of two results");
    assert.equal(label(items, 8), "user → tool grep, denied", "a denial after the results");
    assert.equal(label(items, 10), "tool bash → agent", "a result of an id's first use");
    assert.equal(label(items, 12), "tool web_fetch → agent", "a result of its second use");
    // Ids of wide units, the empty id, a unit 0xff and one past it: each its own.
    for (const [seq, tool] of [[14, 4], [16, 0], [18, 1], [20, 2], [22, 7]]) {
      assert.equal(label(items, seq!), `tool tool_${tool} → agent`);
      assert.equal(items.get(seq!)?.tool, `tool_${tool}`);
    }
  }
});

Deno.test(`of ${OUTSTANDING} calls outstanding at once the latest ${KEPT} are named, the grader drops copies of the latest ${KEPT} child calls`, async () => {
  const first = 23; // the first outstanding call's seq; its result comes OUTSTANDING entries later
  for (const view of ["grader", "dream"] as const) {
    const items = await labels(view);
    const forgotten = OUTSTANDING - KEPT;
    for (const n of [0, forgotten - 1]) {
      assert.equal(label(items, first + OUTSTANDING + n), "tool result → agent", `result ${n}`);
    }
    for (const n of [forgotten, OUTSTANDING - 1]) {
      const tool = n % 3 === 0 ? "read" : "bash";
      assert.equal(label(items, first + OUTSTANDING + n), `tool ${tool} → agent`, `result ${n}`);
    }
    const late = first + 2 * OUTSTANDING;
    assert.equal(label(items, late), "tool result → agent", "the early call is long forgotten");
    assert.equal(label(items, late + 1), "tool result → agent", "and so is the one answered twice");
    // The child's calls, then their copies on the primary: of 0 (forgotten), the last (twice:
    // one child call to match), 7 (forgotten).
    const copies = late + 2 + OUTSTANDING;
    const shown = [copies, copies + 1, copies + 2, copies + 3].map((seq) => label(items, seq));
    assert.deepEqual(
      shown,
      view === "grader"
        ? ["@Scout → tool read", "(dropped)", "@Scout → tool read", "@Scout → tool read"]
        : ["@Scout → tool read", "@Scout → tool read", "@Scout → tool read", "@Scout → tool read"],
    );
  }
});

/** Runs `_tool_names_held_child.ts`: `renderers` dreams at once, each with `calls` calls outstanding. */
function held(renderers: number, calls: number): Promise<{ heldMiB: number; finished: number }> {
  const child = new URL("./_tool_names_held_child.ts", import.meta.url);
  return heapChild(child, ["dream", String(renderers), String(calls)]);
}

Deno.test("thirty dreams with thousands of tool calls outstanding each hold their ids as bytes, not a Map of strings", async () => {
  const run = await held(30, 5_000);
  assert.equal(run.finished, 30, "every dream read its session to the end");
  // Each dream remembers its latest 4,096 call ids (30 characters each): as strings in a
  // Map they were about 0.36 MiB of heap a dream (10.8 MiB for the thirty); as bytes in
  // typed arrays, out of the heap, the dreams hold about 0.14 MiB each, most of it their
  // text so far.
  assert.ok(run.heldMiB < 7, `the thirty dreams held ${run.heldMiB.toFixed(1)} MiB of heap`);
});
