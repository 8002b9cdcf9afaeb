// Copyright 2026 the brigade authors. MIT license.

/**
 * The grader's benchmark as medians: renders a generated 100,000-event and a
 * 1,000,000-event Managed Agents log from NDJSON with
 * `renderGrader(fromNdjson(path))`, against `JSON.parse` of every line of the
 * same file (read with the same streaming approach as `fromNdjson`) and a
 * full drain of `fromNdjson`. After a warmup, the cases run round-robin, N
 * times each; it prints a markdown table of medians, events/s and ratios, and
 * how much of the file the grader read before its budget stopped it.
 *
 * Run: `deno run --allow-read --allow-write bench/grader_compare.ts [--runs=N]`
 *
 * The case functions are exported for `grader_bench.ts`.
 *
 * @module
 */

import { fromNdjson, type LogEntry, renderGrader } from "../mod.ts";
import { ensureLogInfo, type LogInfo, logPath } from "./_generate.ts";
import { median } from "./_stats.ts";
import { parseEveryLine } from "./_parse_floor.ts";

export { parseEveryLine };

/** The log sizes benchmarked, in events. */
export const SIZES: readonly number[] = [100_000, 1_000_000];

/** A short name for a size: `100k`, `1M`. */
export function sizeName(events: number): string {
  return events >= 1_000_000 && events % 1_000_000 === 0
    ? `${events / 1_000_000}M`
    : events >= 1_000 && events % 1_000 === 0
    ? `${events / 1_000}k`
    : String(events);
}

/**
 * Every entry of `fromNdjson(path)`, pulled and dropped: the source's own
 * cost over the whole file.
 *
 * @param path The NDJSON file.
 * @returns How many entries it yielded.
 */
export async function drainNdjson(path: string): Promise<number> {
  let entries = 0;
  for await (const _ of fromNdjson(path)) entries++;
  return entries;
}

/**
 * The case under test: `renderGrader(fromNdjson(path))`.
 *
 * @param path The NDJSON file.
 * @returns The transcript.
 */
export function renderFile(path: string): Promise<string> {
  return renderGrader(fromNdjson(path));
}

/** What one render read from its file. */
export interface RenderReach {
  /** Entries `renderGrader` pulled from `fromNdjson`. */
  entries: number;
  /** Bytes `fromNdjson` read from the file. */
  bytes: number;
  /** The transcript's UTF-8 size. */
  transcriptBytes: number;
  /** Whether the transcript ends with the budget's cut note. */
  cut: boolean;
}

/**
 * Renders as {@linkcode renderFile} does, but through a byte counter on the
 * file's stream and an entry counter on the source, to show where the budget
 * stopped the reading. Not timed.
 *
 * @param path The NDJSON file.
 * @returns Entries and bytes read, and the transcript's size.
 */
export async function renderReach(path: string): Promise<RenderReach> {
  const file = await Deno.open(path, { read: true });
  let bytes = 0;
  const counted = file.readable.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller): void {
        bytes += chunk.byteLength;
        controller.enqueue(chunk);
      },
    }),
  );
  let entries = 0;
  async function* counting(
    source: AsyncIterable<LogEntry>,
  ): AsyncGenerator<LogEntry, void, undefined> {
    for await (const entry of source) {
      entries++;
      yield entry;
    }
  }
  const text = await renderGrader(counting(fromNdjson(counted, { name: path })));
  return {
    entries,
    bytes,
    transcriptBytes: new TextEncoder().encode(text).byteLength,
    cut: text.endsWith("the rest of the session is not shown]\n"),
  };
}

interface Case {
  size: number;
  name: string;
  runs: number;
  run: (path: string) => Promise<unknown>;
  times: number[];
}

function ms(value: number): string {
  return value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2);
}

function rate(perSecond: number): string {
  if (perSecond >= 1e9) return `${(perSecond / 1e9).toFixed(2)} G`;
  if (perSecond >= 1e6) return `${(perSecond / 1e6).toFixed(2)} M`;
  if (perSecond >= 1e3) return `${(perSecond / 1e3).toFixed(1)} k`;
  return perSecond.toFixed(0);
}

function ratio(value: number): string {
  return value >= 10
    ? `${value.toFixed(1)}×`
    : value >= 0.1
    ? `${value.toFixed(2)}×`
    : `${value.toFixed(4)}×`;
}

async function main(args: string[]): Promise<void> {
  const runsArg = args.find((arg) => arg.startsWith("--runs="));
  const runs = runsArg === undefined ? 5 : Number(runsArg.slice("--runs=".length));
  if (!Number.isSafeInteger(runs) || runs < 1) {
    console.error(`grader_compare: --runs must be a positive integer: ${runsArg}`);
    Deno.exit(2);
  }
  const infos = new Map<number, LogInfo>();
  for (const size of SIZES) {
    const started = performance.now();
    infos.set(size, await ensureLogInfo(size));
    const took = performance.now() - started;
    if (took > 1_000) console.error(`generated ${logPath(size)} in ${(took / 1000).toFixed(1)} s`);
  }

  const renderRuns = Math.max(runs, 21);
  const cases: Case[] = SIZES.flatMap((size) => [
    { size, name: "JSON.parse every line", runs, run: parseEveryLine, times: [] },
    { size, name: "fromNdjson, every entry", runs, run: drainNdjson, times: [] },
    { size, name: "renderGrader(fromNdjson)", runs: renderRuns, run: renderFile, times: [] },
  ]);
  console.error(`warmup, then ${runs} runs of each full read and ${renderRuns} of each render…`);
  for (const c of cases) await c.run(logPath(c.size));
  const most = Math.max(...cases.map((c) => c.runs));
  for (let round = 0; round < most; round++) {
    for (const c of cases) {
      if (round >= c.runs) continue;
      const started = performance.now();
      await c.run(logPath(c.size));
      c.times.push(performance.now() - started);
    }
  }

  const reach = new Map<number, RenderReach>();
  for (const size of SIZES) reach.set(size, await renderReach(logPath(size)));

  const medianOf = (size: number, name: string): number =>
    median(cases.find((c) => c.size === size && c.name === name)!.times);

  const out: string[] = [];
  out.push(
    `Deno ${Deno.version.deno}, V8 ${Deno.version.v8}, ${Deno.build.os}/${Deno.build.arch}; ` +
      `median of ${runs} runs (renders: ${renderRuns}) after one warmup, cases round-robin.`,
    "",
    "| log | case | entries read | median | min … max | events/s (read) | log events/s | vs JSON.parse |",
    "|---|---|---:|---:|---:|---:|---:|---:|",
  );
  for (const c of cases) {
    const info = infos.get(c.size)!;
    const m = median(c.times);
    const read = c.name.startsWith("render") ? reach.get(c.size)!.entries : info.events;
    const parse = medianOf(c.size, "JSON.parse every line");
    out.push(
      `| ${sizeName(c.size)} (${(info.bytes / 1e6).toFixed(0)} MB) | ${c.name} | ${read} | ` +
        `${ms(m)} ms | ${ms(Math.min(...c.times))} … ${ms(Math.max(...c.times))} ms | ` +
        `${rate(read / (m / 1000))} | ${rate(info.events / (m / 1000))} | ${ratio(m / parse)} |`,
    );
  }
  const [small, large] = [SIZES[0]!, SIZES[SIZES.length - 1]!];
  out.push(
    "",
    `| ratio (same run) | ${sizeName(large)} ÷ ${sizeName(small)} |`,
    "|---|---:|",
  );
  for (
    const name of ["JSON.parse every line", "fromNdjson, every entry", "renderGrader(fromNdjson)"]
  ) {
    out.push(`| ${name} | ${ratio(medianOf(large, name) / medianOf(small, name))} |`);
  }
  out.push("", "| grader reach | entries pulled | bytes read | of the file | transcript | cut |");
  out.push("|---|---:|---:|---:|---:|---|");
  for (const size of SIZES) {
    const r = reach.get(size)!;
    const info = infos.get(size)!;
    out.push(
      `| ${sizeName(size)} | ${r.entries} | ${r.bytes} | ${
        (100 * r.bytes / info.bytes).toFixed(3)
      } % | ` +
        `${r.transcriptBytes} B | ${r.cut ? "yes" : "no"} |`,
    );
  }
  console.log(out.join("\n"));
}

if (import.meta.main) await main(Deno.args);
