// Copyright 2026 the brigade authors. MIT license.

// Run by tests/dreams_concurrent_test.ts with `--v8-flags=--expose-gc`: a
// control plane's run in small, DREAMS dreams at once in one process, each
// reading a log file of its own with `fromNdjson`. Every dream stops at its
// second entry until all have reached theirs; then the heap is collected and
// what the dreams hold in it is measured, and they are let go to the end.
// Prints `{ heldMiB, dreams, finished }`.
// Usage: deno run --allow-read --allow-write --v8-flags=--expose-gc _dreams_concurrent_child.ts DREAMS

import { fromNdjson, type LogEntry, renderDream } from "../mod.ts";

const dreams = Number(Deno.args[0]);
const gc = (globalThis as { gc?: () => void }).gc!;
/** A message of many short blocks: a 64 KiB read of them parses to about 200 KiB of heap. */
const blocks = Array.from({ length: 60 }, (_, i) => ({ type: "text", text: `step ${i}` }));

/** A log of 400 user and agent messages, about 2 KB each: a few dozen to a 64 KiB read. */
function log(): string {
  let text = "";
  for (let seq = 1; seq <= 400; seq++) {
    const type = seq % 2 === 1 ? "user.message" : "agent.message";
    const content = [{ type: "text", text: `${seq} Lies die Datei.` }, ...blocks];
    const event = { id: `sevt_${seq}`, type, content };
    text += `${JSON.stringify({ seq, session_id: "sesn_night", thread_id: null, event })}\n`;
  }
  return text;
}

/** Where every dream stops at its second entry, until all have reached theirs. */
class Barrier {
  #waiting: number;
  #reached!: () => void;
  /** Settled when every dream has reached its second entry. */
  readonly reached: Promise<void> = new Promise((resolve) => this.#reached = resolve);
  #release!: () => void;
  /** Settled when the dreams may read on. */
  readonly released: Promise<void> = new Promise((resolve) => this.#release = resolve);

  constructor(count: number) {
    this.#waiting = count;
  }

  /** One dream has reached its second entry: waits until the dreams are let go. */
  arrive(): Promise<void> {
    if (--this.#waiting === 0) this.#reached();
    return this.released;
  }

  release(): void {
    this.#release();
  }
}

/** The log's entries, stopping after the second at the barrier. */
async function* paused(path: string, barrier: Barrier): AsyncGenerator<LogEntry> {
  let seen = 0;
  for await (const entry of fromNdjson(path)) {
    yield entry;
    if (++seen === 2) await barrier.arrive();
  }
}

const dir = await Deno.makeTempDir();
try {
  const paths = await Promise.all(
    Array.from({ length: dreams }, async (_, i) => {
      const path = `${dir}/session_${i}.ndjson`;
      await Deno.writeTextFile(path, log());
      return path;
    }),
  );
  const barrier = new Barrier(dreams);
  gc();
  const before = Deno.memoryUsage().heapUsed;
  const running = Promise.all(paths.map((path) => renderDream(paused(path, barrier))));
  await barrier.reached;
  gc();
  const heldMiB = (Deno.memoryUsage().heapUsed - before) / 2 ** 20;
  barrier.release();
  const finished = (await running).filter((dream) =>
    dream.text.includes("400 Lies die Datei.")
  ).length;
  console.log(JSON.stringify({ heldMiB, dreams, finished }));
} finally {
  await Deno.remove(dir, { recursive: true });
}
