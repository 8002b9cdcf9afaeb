// Copyright 2026 the brigade authors. MIT license.

// Run by tests/ndjson_held_test.ts with `--v8-flags=--expose-gc`: READERS
// `fromNdjson` readers at once, each over a stream whose one chunk holds
// 20,000 short event lines, each stopped at its second entry (inside the
// chunk). The heap is then collected and what the readers hold in it is
// measured (the chunk itself, shared by all, is made before). Prints
// `{ heldMiB, readers, entries }`.
// Usage: deno run --v8-flags=--expose-gc _ndjson_held_child.ts READERS

import { fromNdjson } from "../mod.ts";

const readers = Number(Deno.args[0]);
const gc = (globalThis as { gc?: () => void }).gc!;
const LINES = 20_000;

let text = "";
for (let seq = 1; seq <= LINES; seq++) {
  text += `${JSON.stringify({ id: `sevt_${seq}`, type: "user.message", content: "ok" })}\n`;
}
const chunk = new TextEncoder().encode(text);
text = "";

gc();
const before = Deno.memoryUsage().heapUsed;
const iterators = Array.from({ length: readers }, () => fromNdjson(ReadableStream.from([chunk])));
for (const entries of iterators) {
  await entries.next();
  await entries.next();
}
gc();
const heldMiB = (Deno.memoryUsage().heapUsed - before) / 2 ** 20;
let entries = 2 * readers;
for (const rest of iterators) {
  for await (const _ of rest) entries++;
}
console.log(JSON.stringify({ heldMiB, readers, entries }));
