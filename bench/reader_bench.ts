// Copyright 2026 the brigade authors. MIT license.

// `deno bench` for the transcript reader: the first refresh of a 20 MB generated transcript
// against the floor of any line reader, and a refresh after a 10 KB append at 1 MB and at
// 20 MB (it should cost the same). `deno task bench:reader` runs the full 200 MB comparison
// with peak memory and the naive way.

import { fileURLToPath } from "node:url";
import { TranscriptReader } from "../reader/mod.ts";
import { writeTranscript } from "./reader_data.ts";

const DATA = fileURLToPath(new URL("./.data/", import.meta.url));
await Deno.mkdir(DATA, { recursive: true });

async function ensure(name: string, bytes: number): Promise<string> {
  const path = `${DATA}${name}`;
  try {
    if ((await Deno.stat(path)).size >= bytes) return path;
  } catch {
    // Not generated yet.
  }
  await writeTranscript(path, bytes);
  return path;
}

const medium = await ensure("transcript_20mb.jsonl", 20e6);
const small = await ensure("transcript_1mb.jsonl", 1e6);
const growingSmall = `${DATA}append_1mb.jsonl`;
const growingMedium = `${DATA}append_20mb.jsonl`;
await Deno.copyFile(small, growingSmall);
await Deno.copyFile(medium, growingMedium);

const chunk = new TextEncoder().encode(
  (JSON.stringify({
    type: "assistant",
    message: { model: "claude-opus-5", usage: { input_tokens: 1, cache_read_input_tokens: 2 } },
    pad: "x".repeat(2_400),
  }) + "\n").repeat(4),
);

Deno.bench({
  name: "floor: Deno.open + 1 MiB reads + indexOf(10)",
  group: "first refresh, 20 MB",
  baseline: true,
  async fn(): Promise<void> {
    using file = await Deno.open(medium);
    const buffer = new Uint8Array(1 << 20);
    let lines = 0;
    for (let read = await file.read(buffer); read !== null; read = await file.read(buffer)) {
      const view = buffer.subarray(0, read);
      for (let at = view.indexOf(10); at !== -1; at = view.indexOf(10, at + 1)) lines++;
    }
    if (lines === 0) throw new Error("Cannot count lines: none found");
  },
});

Deno.bench({
  name: "TranscriptReader: first refresh",
  group: "first refresh, 20 MB",
  async fn(): Promise<void> {
    const { error } = await new TranscriptReader(medium).refresh();
    if (error) throw error;
  },
});

for (const [label, path] of [["1 MB", growingSmall], ["20 MB", growingMedium]] as const) {
  const reader = new TranscriptReader(path);
  await reader.refresh();
  Deno.bench({
    name: `refresh after a 10 KB append, ${label}`,
    group: "refresh after a 10 KB append",
    baseline: label === "1 MB",
    async fn(b): Promise<void> {
      await Deno.writeFile(path, chunk, { append: true });
      b.start();
      const { error } = await reader.refresh();
      b.end();
      if (error) throw error;
    },
  });
}
