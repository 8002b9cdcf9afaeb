// Copyright 2026 the brigade authors. MIT license.

// Run by tests/grader_tail_held_test.ts with `--v8-flags=--expose-gc`: GRADERS
// graders keeping their ends (`keep: "ends"`) at once, each over a session of
// short agent messages made as they are read, every one stopped after PAUSE of
// them, well past its head, its tail holding thousands of them; then the heap
// is collected and what the graders hold in it is measured, and they are let go
// to the end. Prints `{ heldKiB, pieces, finished }`: the heap each grader
// holds, and the messages its tail holds then (the tail's half of the budget
// over a message's piece).
// Usage: deno run --v8-flags=--expose-gc _grader_tail_child.ts GRADERS PAUSE

import { GRADER_TRANSCRIPT_BUDGET, type LogEntry, renderGrader } from "../mod.ts";

const graders = Number(Deno.args[0]);
const pause = Number(Deno.args[1]);
const gc = (globalThis as { gc?: () => void }).gc!;
const total = pause + 100;

/** Settled once every grader has read `pause` entries; `release` lets them read on. */
let waiting = graders;
let reached!: () => void;
const allReached = new Promise<void>((resolve) => reached = resolve);
let release!: () => void;
const released = new Promise<void>((resolve) => release = resolve);

/** A message's piece in the grader's text: `\n[agent]\n  done 12345\n`. */
const PIECE_BYTES = "\n[agent]\n  done 12345\n".length;

async function* session(): AsyncGenerator<LogEntry> {
  for (let seq = 1; seq <= total; seq++) {
    const at = new Date(Date.UTC(2026, 8, 14, 10, 0, 0, seq)).toISOString();
    const event = {
      id: `sevt_${seq}`,
      type: "agent.message",
      processed_at: at,
      content: `done ${seq}`,
    };
    yield { seq, session_id: "sesn_tail", thread_id: null, event };
    if (seq === pause) {
      if (--waiting === 0) reached();
      await released;
    }
  }
}

gc();
const before = Deno.memoryUsage().heapUsed;
const running = Promise.all(
  Array.from({ length: graders }, () => renderGrader(session(), { keep: "ends" })),
);
await allReached;
gc();
const heldKiB = (Deno.memoryUsage().heapUsed - before) / 1024 / graders;
release();
const finished = (await running).filter((text) => text.endsWith(`done ${total}\n`)).length;
const pieces = Math.round(GRADER_TRANSCRIPT_BUDGET / 2 / PIECE_BYTES);
console.log(JSON.stringify({ heldKiB, pieces, finished }));
