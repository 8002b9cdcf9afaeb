// Copyright 2026 the brigade authors. MIT license.

// Run by tests/dream_tail_held_test.ts and tests/grader_tail_held_test.ts with
// `--v8-flags=--expose-gc`: COUNT renderings at once (RENDERER: `dream`, or
// `grader-ends`, the grader keeping its ends, `-ids` with ids, `-cut` each item cut), each over a session of short
// agent messages made as they are read, every one stopped after PAUSE of them,
// well past its head, its tail holding hundreds or thousands of them; then the
// heap is collected and what the renderings hold in it is measured, and they are
// let go to the end. Prints `{ heldKiB, pieces, finished }`: the heap each
// rendering holds, and the messages its tail holds then (the tail's half of the
// cap or budget over a message's piece).
// Usage: deno run --v8-flags=--expose-gc _tail_held_child.ts RENDERER COUNT PAUSE

import {
  DREAM_TRANSCRIPT_CAP,
  GRADER_TRANSCRIPT_BUDGET,
  type LogEntry,
  renderDream,
  renderGrader,
} from "../mod.ts";

const [renderer, count, pauseArg] = Deno.args;
const renderings = Number(count);
const pause = Number(pauseArg);
const gc = (globalThis as { gc?: () => void }).gc!;
const total = pause + 100;

/** Each renderer's whole text, its cap or budget and a message's piece in it. */
const RENDERERS = {
  dream: {
    text: async (source: AsyncIterable<LogEntry>) => (await renderDream(source)).text,
    cap: DREAM_TRANSCRIPT_CAP,
    piece: "\n### agent\n\n    done 1234\n",
  },
  "grader-ends": {
    text: (source: AsyncIterable<LogEntry>) => renderGrader(source, { keep: "ends" }),
    cap: GRADER_TRANSCRIPT_BUDGET,
    piece: "\n[agent]\n  done 12345\n",
  },
  "grader-ends-ids": {
    text: (source: AsyncIterable<LogEntry>) => renderGrader(source, { keep: "ends", ids: true }),
    cap: GRADER_TRANSCRIPT_BUDGET,
    piece: "\n[M12345 · agent]\n  done 12345\n",
  },
  // Each message over its item budget: every piece is of a cut item.
  "grader-ends-cut": {
    text: (source: AsyncIterable<LogEntry>) =>
      renderGrader(source, { keep: "ends", itemBudget: 12 }),
    cap: GRADER_TRANSCRIPT_BUDGET,
    piece: "\n[agent]\n  done 12345\n[… 37 bytes cut]\n",
  },
};
const { text, cap, piece } = RENDERERS[renderer as keyof typeof RENDERERS];
/** A message's words: long enough to be cut where the renderer cuts each item. */
const words = (seq: number): string =>
  renderer?.endsWith("-cut") === true ? `done ${seq} ${"x".repeat(40)}` : `done ${seq}`;

/** Settled once every rendering has read `pause` entries; `release` lets them read on. */
let waiting = renderings;
let reached!: () => void;
const allReached = new Promise<void>((resolve) => reached = resolve);
let release!: () => void;
const released = new Promise<void>((resolve) => release = resolve);

async function* session(): AsyncGenerator<LogEntry> {
  for (let seq = 1; seq <= total; seq++) {
    const at = new Date(Date.UTC(2026, 8, 14, 10, 0, 0, seq)).toISOString();
    const event = {
      id: `sevt_${seq}`,
      type: "agent.message",
      processed_at: at,
      content: words(seq),
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
const running = Promise.all(Array.from({ length: renderings }, () => text(session())));
await allReached;
gc();
const heldKiB = (Deno.memoryUsage().heapUsed - before) / 1024 / renderings;
release();
const finished = (await running).filter((done) => done.includes(`done ${total}`)).length;
const pieces = Math.round(cap / 2 / piece.length);
console.log(JSON.stringify({ heldKiB, pieces, finished }));
