// Copyright 2026 the brigade authors. MIT license.

// Run by tests/tool_names_bounded_test.ts with `--v8-flags=--expose-gc`:
// RENDERERS renderers at once in one process (`dream`, or `grader-ends` for
// `renderGrader` with `keep: "ends"`), each reading a session of its own in
// which CALLS tool calls of the primary and as many of a child thread are
// made before any result comes. Every renderer stops there until all have;
// then the heap is collected and what they hold in it is measured, and they
// are let go to the end (each call's result, then a closing message).
// Prints `{ heldMiB, renderers, finished }`.
// Usage: deno run --v8-flags=--expose-gc _tool_names_held_child.ts RENDERER RENDERERS CALLS

import { type LogEntry, renderDream, renderGrader } from "../mod.ts";

const [renderer, count, calls] = [Deno.args[0]!, Number(Deno.args[1]), Number(Deno.args[2])];
const gc = (globalThis as { gc?: () => void }).gc!;

/** One entry as a source gives it: parsed from its line, so its strings are its own. */
function entry(seq: number, thread: string | null, event: Record<string, unknown>): LogEntry {
  return JSON.parse(JSON.stringify({ seq, session_id: "sesn_calls", thread_id: thread, event }));
}

/** A Claude Code-sized tool-call id (30 characters). */
function id(n: number): string {
  return `toolu_01${String(n).padStart(22, "0")}`;
}

let waiting = count;
let reached!: () => void;
const allReached = new Promise<void>((resolve) => reached = resolve);
let release!: () => void;
const released = new Promise<void>((resolve) => release = resolve);

async function* session(): AsyncGenerator<LogEntry> {
  let seq = 0;
  yield entry(++seq, null, { type: "user.message", content: "Read them all." });
  for (let n = 0; n < calls; n++) {
    const input = { file_path: `/src/${n}.ts` };
    yield entry(++seq, null, { type: "agent.tool_use", id: id(n), name: "read", input });
    const child = { type: "agent.tool_use", id: id(calls + n), name: "grep", input };
    yield entry(++seq, "sthr_child", child);
  }
  if (--waiting === 0) reached();
  await released;
  for (let n = 0; n < calls; n++) {
    const content = [{ type: "text", text: `file ${n}` }];
    yield entry(++seq, null, { type: "agent.tool_result", tool_use_id: id(n), content });
  }
  yield entry(++seq, null, { type: "agent.message", content: "All read." });
}

gc();
const before = Deno.memoryUsage().heapUsed;
const running = Promise.all(
  Array.from(
    { length: count },
    () =>
      renderer === "dream"
        ? renderDream(session()).then((dream) => dream.text)
        : renderGrader(session(), { keep: "ends" }),
  ),
);
await allReached;
gc();
const heldMiB = (Deno.memoryUsage().heapUsed - before) / 2 ** 20;
release();
const finished = (await running).filter((text) => text.includes("All read.")).length;
console.log(JSON.stringify({ heldMiB, renderers: count, finished }));
