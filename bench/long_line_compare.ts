// Copyright 2026 the brigade authors. MIT license.

/**
 * One long NDJSON line (a `user.message` whose content is 5, 20 or 50 MB of
 * text, under the 64 MiB cap) through `fromNdjson`, against `JSON.parse` of
 * the same line read whole (`Deno.readFile`, decode, parse): medians of
 * several runs, ratios from the same run, and each case's peak RSS (VmHWM,
 * runtime included), every case in its own process (run with --allow-all:
 * Deno grants /proc/self/status to nothing less). Linear time shows as a
 * ratio that stays flat across the sizes.
 *
 *   deno task bench:long-line [--runs=5]
 *
 * @module
 */

import { caseInChild, median, peakRssKb } from "./_stats.ts";

const SIZES_MB = [5, 20, 50];
const runs = Number(Deno.args.find((a) => a.startsWith("--runs="))?.slice(7) ?? 5);
const DATA_DIR = new URL("./.data/", import.meta.url);

interface Sample {
  ms: number;
  peakKb: number;
}

/** The path of a one-line log whose content is `mb` MB, written once. */
export async function ensureLongLine(mb: number): Promise<string> {
  const path = new URL(`long_line_${mb}mb.ndjson`, DATA_DIR).pathname;
  const text = "lorem ipsum dolor sit amet, consectetur adipiscing elit. ";
  const head = '{"id":"sevt_long","type":"user.message","content":"';
  const tail = '"}\n';
  const size = head.length + Math.ceil(mb * 1e6 / text.length) * text.length + tail.length;
  const existing = await Deno.stat(path).catch(() => undefined);
  if (existing?.size === size) return path;
  await Deno.mkdir(DATA_DIR, { recursive: true });
  const encoder = new TextEncoder();
  const block = encoder.encode(text.repeat(1000));
  const count = Math.ceil(mb * 1e6 / text.length);
  using file = await Deno.open(path, { write: true, create: true, truncate: true });
  const writer = file.writable.getWriter();
  await writer.write(encoder.encode(head));
  for (let i = 0; i < Math.floor(count / 1000); i++) await writer.write(block);
  await writer.write(encoder.encode(text.repeat(count % 1000) + tail));
  await writer.close();
  return path;
}

/** Reads the file whole and parses its one line. */
export async function parseWhole(path: string): Promise<number> {
  const value = JSON.parse(new TextDecoder().decode(await Deno.readFile(path)));
  return value.content.length;
}

/** Drains `fromNdjson` over the file. */
export async function drainNdjson(path: string): Promise<number> {
  const { fromNdjson } = await import("../mod.ts");
  let length = 0;
  for await (const entry of fromNdjson(path)) {
    length += (entry.event as { content: string }).content.length;
  }
  return length;
}

async function runChild(kind: string, path: string): Promise<void> {
  const started = performance.now();
  const length = kind === "parse" ? await parseWhole(path) : await drainNdjson(path);
  const ms = performance.now() - started;
  const peakKb = peakRssKb();
  if (length === 0) throw new Error("nothing read");
  console.log(JSON.stringify({ ms, peakKb }));
}

async function main(): Promise<void> {
  console.log(`runs: ${runs} (medians; peak RSS includes the runtime)\n`);
  console.log(
    "| line | JSON.parse | fromNdjson | time ratio | parse peak | ndjson peak | peak ratio |",
  );
  console.log("| ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
  for (const mb of SIZES_MB) {
    const path = await ensureLongLine(mb);
    const samples: Record<string, Sample[]> = { parse: [], ndjson: [] };
    for (let i = 0; i < runs; i++) {
      for (const kind of ["parse", "ndjson"]) {
        samples[kind]!.push(await caseInChild<Sample>(import.meta.filename!, kind, path));
      }
    }
    const ms = (kind: string): number => median(samples[kind]!.map((s) => s.ms));
    const peak = (kind: string): number => median(samples[kind]!.map((s) => s.peakKb)) / 1024;
    console.log(
      `| ${mb} MB | ${ms("parse").toFixed(0)} ms | ${ms("ndjson").toFixed(0)} ms | ${
        (ms("ndjson") / ms("parse")).toFixed(2)
      }× | ${peak("parse").toFixed(0)} MB | ${peak("ndjson").toFixed(0)} MB | ${
        (peak("ndjson") / peak("parse")).toFixed(2)
      }× |`,
    );
  }
}

if (import.meta.main) {
  if (Deno.args[0] === "--child") await runChild(Deno.args[1]!, Deno.args[2]!);
  else await main();
}
