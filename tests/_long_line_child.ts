// Copyright 2026 the brigade authors. MIT license.

// Run by tests/line_bounds_test.ts with a small heap: streams one line of
// `MiB` mebibytes (never on disk) then a valid line through a source with
// `skipInvalid`, and prints what came out and the peak resident memory.
// Usage: deno run --allow-read=/proc/self/status --v8-flags=--max-old-space-size=N \
//   _long_line_child.ts ndjson|claude MiB

import { fromClaudeCode, fromNdjson } from "../mod.ts";

const [which, mebibytes] = [Deno.args[0], Number(Deno.args[1])];
const encoder = new TextEncoder();
const chunk = new Uint8Array(1 << 20).fill(0x78); // "x"
const good = which === "ndjson"
  ? '{"id":"sevt_2","type":"user.message","content":"after"}\n'
  : '{"type":"user","uuid":"u2","message":{"content":"after"}}\n';

async function* bytes(): AsyncGenerator<Uint8Array> {
  yield encoder.encode('{"id":"sevt_1","type":"user.message","content":"');
  for (let i = 0; i < mebibytes; i++) yield chunk;
  yield encoder.encode('"}\n');
  yield encoder.encode(good);
}

const stream = ReadableStream.from(bytes());
const invalid: string[] = [];
const onInvalid = (line: number, reason: string): number => invalid.push(`${line}: ${reason}`);
const source = which === "ndjson"
  ? fromNdjson(stream, { skipInvalid: true, onInvalid })
  : fromClaudeCode(stream, { onInvalid });
const ids: string[] = [];
for await (const entry of source) ids.push(`${entry.seq} ${entry.event.id}`);
console.log(JSON.stringify({ ids, invalid, peakMiB: peakMiB() }));

/** The process's peak resident memory (VmHWM on Linux, else the current RSS), in MiB. */
function peakMiB(): number {
  try {
    const status = Deno.readTextFileSync("/proc/self/status");
    const kib = Number(/^VmHWM:\s+(\d+) kB/m.exec(status)?.[1]);
    if (kib > 0) return Math.round(kib / 1024);
  } catch {
    // not Linux: the current figure, read after the long line is gone, is a lower bound
  }
  return Math.round(Deno.memoryUsage().rss / (1 << 20));
}
