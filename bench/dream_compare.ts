// Copyright 2026 the brigade authors. MIT license.

/**
 * Dream over generated 10k- and 1M-event logs against JSON.parse of the same
 * lines: medians of several runs, ratios from the same run, and each case's
 * peak RSS (VmHWM, runtime included), every case in its own process (run with
 * --allow-all: Deno grants /proc/self/status to nothing less).
 *
 *   deno task bench:dream [--runs=3]
 *
 * @module
 */

import { ensureLog } from "./_generate.ts";
import type { LogEntry } from "../mod.ts";
import { caseInChild, median, peakRssKb } from "./_stats.ts";
import { parseEveryLine } from "./grader_compare.ts";

const SIZES = [10_000, 1_000_000];
const runs = Number(Deno.args.find((a) => a.startsWith("--runs="))?.slice(7) ?? 3);

interface Sample {
  ms: number;
  peakKb: number;
  note: string;
}

async function runChild(kind: string, path: string): Promise<void> {
  const { fromNdjson, renderDream } = await import("../mod.ts");
  const started = performance.now();
  let note = "";
  if (kind === "parse") {
    const lines = await parseEveryLine(path);
    note = `${lines} lines`;
  } else if (kind === "heap") {
    // Retained heap, not garbage: collect every 10,000 entries and keep the largest reading.
    const gc = (globalThis as { gc?: () => void }).gc!;
    let most = 0;
    let seen = 0;
    const sampled = async function* (): AsyncGenerator<LogEntry> {
      for await (const entry of fromNdjson(path)) {
        if (++seen % 10_000 === 0) {
          gc();
          most = Math.max(most, Deno.memoryUsage().heapUsed);
        }
        yield entry;
      }
    };
    await renderDream(sampled());
    note = `max retained heap ${(most / 2 ** 20).toFixed(2)} MB`;
  } else {
    const dream = await renderDream(fromNdjson(path));
    note = `${new TextEncoder().encode(dream.text).length} B text, ${dream.elidedBytes} B elided`;
  }
  const ms = performance.now() - started;
  console.log(JSON.stringify({ ms, peakKb: peakRssKb(), note }));
}

async function main(): Promise<void> {
  const rows: string[] = [];
  const dreamMs: number[] = [];
  const dreamPeak: number[] = [];
  for (const size of SIZES) {
    const path = await ensureLog(size);
    const samples: Record<string, Sample[]> = { parse: [], dream: [] };
    for (let i = 0; i < runs; i++) {
      for (const kind of ["parse", "dream"]) {
        samples[kind]!.push(
          await caseInChild<Sample>(import.meta.filename!, kind, path, ["--expose-gc"]),
        );
      }
    }
    const heap = await caseInChild<Sample>(import.meta.filename!, "heap", path, ["--expose-gc"]);
    const parse = median(samples.parse!.map((s) => s.ms));
    const dream = median(samples.dream!.map((s) => s.ms));
    const peak = (kind: string): number => median(samples[kind]!.map((s) => s.peakKb)) / 1024;
    dreamMs.push(dream);
    dreamPeak.push(peak("dream"));
    rows.push(
      `| ${size} | JSON.parse every line | ${parse.toFixed(0)} ms | ${
        (size / parse * 1000).toFixed(0)
      } | 1.00× | ${peak("parse").toFixed(1)} MB | ${samples.parse![0]!.note} |`,
      `| ${size} | renderDream(fromNdjson) | ${dream.toFixed(0)} ms | ${
        (size / dream * 1000).toFixed(0)
      } | ${(dream / parse).toFixed(2)}× | ${peak("dream").toFixed(1)} MB | ${
        samples.dream![0]!.note
      }; ${heap.note} |`,
    );
  }
  console.log(`runs: ${runs} (medians)\n`);
  console.log("| events | case | median | events/s | vs parse | peak RSS | |");
  console.log("| ---: | --- | ---: | ---: | ---: | ---: | --- |");
  console.log(rows.join("\n"));
  console.log(
    `\n1M vs 10k dream: time ${(dreamMs[1]! / dreamMs[0]!).toFixed(1)}×, peak RSS +${
      (dreamPeak[1]! - dreamPeak[0]!).toFixed(1)
    } MB`,
  );
}

if (Deno.args[0] === "--child") await runChild(Deno.args[1]!, Deno.args[2]!);
else await main();
