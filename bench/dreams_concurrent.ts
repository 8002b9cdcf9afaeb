// Copyright 2026 the brigade authors. MIT license.

/**
 * A control plane's nightly run: N dreams at once in one process, each
 * reading a session log of M events of its own (`renderDream(fromNdjson(…))`
 * started together and awaited with `Promise.all`), and the peak resident
 * memory of that process (VmHWM, runtime included) with no V8 flag, beside
 * its CPU and wall time, and, sampled every 10 ms, V8's heap (`heapTotal`:
 * both generations as V8 has sized them) and the memory outside it
 * (`external`: read buffers, typed arrays) when the RSS was highest. Each run is a fresh process (this script again,
 * with `--child`), so no run inherits another's heap.
 *
 * Beside the dreams, in the same rounds: the readers alone (`fromNdjson`
 * drained, no dream), the parse floor of the cost benchmarks, and two memory
 * floors that load no module of this package: each file's bytes read (32 KiB
 * at a time, as `fromNdjson` reads with a hundred files open) and nothing
 * else, and each line decoded and `JSON.parse`d, nothing kept. The second is
 * what any reader that parses every line of a hundred logs at once peaks at
 * on this runtime: V8 grows its young generation to its largest (64 MiB) as
 * the scavenges' survivors add up, however few survive each.
 *
 * Two more floors say what is left to the dream itself, measured as a dream
 * pays for them: the lines floor with `mod.ts` imported first (what loading
 * the package adds to any reader), and the dream's own reader, nothing kept
 * (`fromNdjson` taken a read at a time, as the dream takes it: the readers-only
 * row drains it an await an entry, a path the dream never takes).
 *
 * The logs are the generated ones (`bench/_generate.ts`); the N dreams read
 * the same file, each through its own handle, buffers and state (the page
 * cache a file shares is not resident memory of the process). Item 5 of
 * issue 28 is the 100 × 100k figure; `--events=10000` gives the smaller one.
 *
 *   deno task bench:dreams [--runs=3] [--dreams=100] [--events=100000,10000]
 *   deno task bench:dreams --baseline=/tmp/before/mod.ts   # another checkout, same rounds
 *
 * @module
 */

import { reportGoal } from "./_goal.ts";
import { ensureLog } from "./_generate.ts";
import { median, peakRssKb } from "./_stats.ts";
import { parseEveryLine } from "./_parse_floor.ts";
import type * as Mod from "../mod.ts";
import process from "node:process";

/** The goal of item 5: peak RSS of 100 dreams of 100k events each, in MiB. */
const GOAL_MIB = 150;

/** The memory floors' rows: what no dream of these logs goes below, whatever its code. */
const BYTES_FLOOR = "bytes floor: each file read, nothing else, no module";
const LINES_FLOOR = "lines floor: each line decoded and parsed, nothing kept, no module";
/** The lines floor in a process that imported the package first, as a dream's does. */
const LINES_MODULE_FLOOR = "lines floor, mod.ts imported first";
/** The dream's own reading path with nothing kept: what is left above it is the dream's. */
const DREAM_READER_FLOOR = "the dream's reader: fromNdjson a read at a time, nothing kept";
/**
 * The dream's reader holding what a dream promises to hold, as the kit holds it, and nothing
 * else: the last 4,096 tool calls' ids (a `KeyTable`, as the dream's) and a text capped at
 * 24 KiB (a `CappedText`, fed a flat piece a read: its primary entries' types). No dream of
 * these logs can peak below it without a reader or a state smaller than the kit's.
 */
const PROMISED_FLOOR = "the dream's reader + its promised state (4,096 tool ids, 24 KiB text)";

/** What one child prints. */
interface Run {
  peakKb: number;
  /** V8's heap (`heapTotal`) and the memory outside it (`external`) when the sampled RSS was highest. */
  heapKb: number;
  externalKb: number;
  cpuMs: number;
  ms: number;
  texts: number;
}

/** How often a child samples its memory, in milliseconds. */
const SAMPLE_MS = 10;

/** V8's heap and the external memory when the sampled RSS was highest, in KiB. */
interface AtPeak {
  heapKb: number;
  externalKb: number;
}

/** Samples the memory until stopped: then {@linkcode AtPeak}. */
function sampler(): { stop(): AtPeak } {
  let top = { rss: 0, heapTotal: 0, external: 0 };
  const sample = (): void => {
    const now = Deno.memoryUsage();
    if (now.rss >= top.rss) top = now;
  };
  const timer = setInterval(sample, SAMPLE_MS);
  return {
    stop(): AtPeak {
      clearInterval(timer);
      sample();
      return { heapKb: top.heapTotal / 1024, externalKb: top.external / 1024 };
    },
  };
}

/**
 * What each of a child's N tasks does: a dream, a reader drained, the parse
 * floor, or one of the two memory floors (its file's bytes read and nothing
 * else; its lines split, decoded and parsed, and nothing kept).
 */
type Work =
  | "dream"
  | "readers"
  | "batches"
  | "promised"
  | "parse"
  | "bytes"
  | "lines"
  | "lines-module";

/** The memory floors' read size: what each `fromNdjson` reads at a time with a hundred files open. */
const FLOOR_CHUNK_BYTES = 32 * 1024;

/** The bytes floor: a file read to its end into one buffer, nothing else done. */
async function readBytes(path: string): Promise<number> {
  using file = await Deno.open(path, { read: true });
  let buffer = new Uint8Array(FLOOR_CHUNK_BYTES);
  let total = 0;
  const reader = file.readable.getReader({ mode: "byob" });
  while (true) {
    const { done, value } = await reader.read(buffer);
    if (done || value === undefined) break;
    total += value.length;
    buffer = new Uint8Array(value.buffer);
  }
  return total;
}

/**
 * The lines floor: a file read into one buffer, each line decoded on its
 * own and `JSON.parse`d, nothing kept (a line over two reads joined first).
 */
async function parseLines(path: string): Promise<number> {
  using file = await Deno.open(path, { read: true });
  const decoder = new TextDecoder();
  let buffer = new Uint8Array(FLOOR_CHUNK_BYTES);
  let carry: Uint8Array = new Uint8Array(0);
  let parsed = 0;
  const parse = (bytes: Uint8Array): void => {
    if (bytes.length === 0) return;
    JSON.parse(decoder.decode(bytes));
    parsed++;
  };
  const reader = file.readable.getReader({ mode: "byob" });
  while (true) {
    const { done, value } = await reader.read(buffer);
    if (done || value === undefined) break;
    let start = 0;
    for (let end = value.indexOf(0x0a); end !== -1; end = value.indexOf(0x0a, start)) {
      if (carry.length > 0) {
        parse(joined(carry, value.subarray(start, end)));
        carry = new Uint8Array(0);
      } else parse(value.subarray(start, end));
      start = end + 1;
    }
    carry = joined(carry, value.subarray(start));
    buffer = new Uint8Array(value.buffer);
  }
  parse(carry);
  return parsed;
}

/** `a` then `b`, in a new array. */
function joined(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/** `entryBatches` of the checkout a child runs (`events/entry_batches.ts` beside its `mod.ts`). */
let entryBatchesOf:
  | ((source: unknown) => AsyncIterable<Iterable<Mod.LogEntry>> | undefined)
  | undefined;

/** The `KeyTable` of the checkout a child runs (`kit/_key_table.ts` beside its `mod.ts`). */
let keyTableOf:
  | (new (limit: number) => { set(key: string, value: number): void; size: number })
  | undefined;

/** How many tool calls' ids a dream remembers, and its text's cap: its promised state. */
const PROMISED_TOOL_IDS = 4_096;
const PROMISED_TEXT_BYTES = 24 * 1024;

/** The dream's reader, holding the dream's promised state as the kit holds it (`PROMISED_FLOOR`). */
async function holdPromised(mod: typeof Mod, path: string): Promise<string> {
  const tools = new keyTableOf!(PROMISED_TOOL_IDS);
  const text = new mod.CappedText(PROMISED_TEXT_BYTES);
  for await (const batch of entryBatchesOf!(mod.fromNdjson(path))!) {
    // A piece a read, flat (joined, not a rope of its parts), about a dream's item's size.
    const types: string[] = [];
    for (const entry of batch) {
      const { type, id } = entry.event as { type: string; id?: unknown };
      if (typeof id === "string" && type.endsWith("tool_use")) tools.set(id, 1);
      if (entry.thread_id === null) types.push(type);
    }
    text.push(`${types.join("\n")}\n`);
  }
  return `${tools.size} ${text.text().length}`;
}

/** One task of {@linkcode Work}: what it made, as a text whose distinct values are counted. */
async function task(mod: typeof Mod, work: Work, path: string): Promise<string> {
  if (work === "dream") return (await mod.renderDream(mod.fromNdjson(path))).digest;
  if (work === "parse") return String(await parseEveryLine(path));
  if (work === "bytes") return String(await readBytes(path));
  if (work === "lines" || work === "lines-module") return String(await parseLines(path));
  if (work === "promised") return await holdPromised(mod, path);
  let entries = 0;
  if (work === "batches") {
    // As the dream's item loop takes a source of the package: a read's entries at a time.
    for await (const batch of entryBatchesOf!(mod.fromNdjson(path))!) {
      for (const _ of batch) entries++;
    }
    return String(entries);
  }
  for await (const _ of mod.fromNdjson(path)) entries++;
  return String(entries);
}

async function runChild(
  moduleUrl: string,
  path: string,
  dreams: number,
  work: Work,
): Promise<void> {
  // The floors load no module of the package.
  const floor = work === "parse" || work === "bytes" || work === "lines";
  const mod = floor ? undefined : await import(moduleUrl) as typeof Mod;
  if (work === "batches" || work === "promised") {
    const batched = await import(new URL("./events/entry_batches.ts", moduleUrl).href);
    entryBatchesOf = batched.entryBatches;
    keyTableOf = (await import(new URL("./kit/_key_table.ts", moduleUrl).href)).KeyTable;
  }
  const memory = sampler();
  const cpu = process.cpuUsage();
  const started = performance.now();
  const all = await Promise.all(Array.from({ length: dreams }, () => task(mod!, work, path)));
  const ms = performance.now() - started;
  const { user, system } = process.cpuUsage(cpu);
  const atPeak = memory.stop();
  const texts = new Set(all).size;
  const run: Run = { peakKb: peakRssKb(), ...atPeak, cpuMs: (user + system) / 1000, ms, texts };
  console.log(JSON.stringify(run));
}

async function child(
  moduleUrl: string,
  path: string,
  dreams: number,
  work: Work,
): Promise<Run> {
  const output = await new Deno.Command(Deno.execPath(), {
    // --allow-all: Deno grants /proc/self/status (the peak RSS) to nothing less.
    args: [
      "run",
      "--allow-all",
      import.meta.filename!,
      "--child",
      moduleUrl,
      path,
      String(dreams),
      work,
    ],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  if (!output.success) throw new Error(`dreams_concurrent: a child failed (exit ${output.code})`);
  return JSON.parse(new TextDecoder().decode(output.stdout)) as Run;
}

function arg(name: string, fallback: string): string {
  return Deno.args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
}

function mib(kb: number): string {
  return `${(kb / 1024).toFixed(1)} MiB`;
}

async function main(): Promise<void> {
  const runs = Number(arg("runs", "3"));
  const dreams = Number(arg("dreams", "100"));
  const sizes = arg("events", "100000,10000").split(",").map(Number);
  const baseline = arg("baseline", "");
  const here = new URL("../mod.ts", import.meta.url).href;
  const checkouts: [string, string, Work][] = [["this checkout", here, "dream"]];
  if (baseline !== "") {
    const cwd = Deno.env.get("INIT_CWD") ?? Deno.cwd();
    checkouts.push([`baseline ${baseline}`, new URL(baseline, `file://${cwd}/`).href, "dream"]);
  }
  checkouts.push(["readers only, no dream", here, "readers"]);
  checkouts.push(["parse floor, no module of this package", here, "parse"]);
  checkouts.push([BYTES_FLOOR, here, "bytes"]);
  checkouts.push([LINES_FLOOR, here, "lines"]);
  checkouts.push([LINES_MODULE_FLOOR, here, "lines-module"]);
  checkouts.push([DREAM_READER_FLOOR, here, "batches"]);
  checkouts.push([PROMISED_FLOOR, here, "promised"]);
  // `--rows=dream,baseline,batches,…`: only those rows (by their work, `baseline` for the other
  // checkout), for a quick comparison; every row by default.
  const rows = arg("rows", "");
  if (rows !== "") {
    const wanted = new Set(rows.split(","));
    const keep = checkouts.filter(([label, , work]) =>
      wanted.has(label.startsWith("baseline ") ? "baseline" : work)
    );
    checkouts.splice(0, checkouts.length, ...keep);
  }
  const results = new Map<string, Run[]>();
  for (const events of sizes) {
    const path = await ensureLog(events);
    for (let round = 0; round < runs; round++) {
      console.error(`${dreams} × ${events}: round ${round + 1} of ${runs}…`);
      for (const [label, url, work] of checkouts) {
        const key = `${label}\u0000${events}`;
        results.set(key, [...results.get(key) ?? [], await child(url, path, dreams, work)]);
      }
    }
  }
  console.log(
    `${dreams} concurrent dreams (or readers, or floors) in one process, no V8 flag; medians of ${runs} runs`,
  );
  console.log("");
  console.log(
    "| checkout | events each | peak RSS | V8 heap, external at the peak | CPU s | wall s | distinct results |",
  );
  console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
  for (const [label] of checkouts) {
    for (const events of sizes) {
      const samples = results.get(`${label}\u0000${events}`)!;
      const of = (pick: (run: Run) => number): number => median(samples.map(pick));
      console.log(
        `| ${label} | ${events.toLocaleString("en-US")} | ${mib(of((r) => r.peakKb))} | ${
          mib(of((r) => r.heapKb))
        }, ${mib(of((r) => r.externalKb))} | ${(of((r) => r.cpuMs) / 1000).toFixed(1)} | ${
          (of((r) => r.ms) / 1000).toFixed(1)
        } | ${of((r) => r.texts)} |`,
      );
    }
  }
  const hundredK = results.get(`this checkout\u0000100000`);
  if (dreams === 100 && hundredK !== undefined) {
    const peak = median(hundredK.map((r) => r.peakKb));
    const floorOf = (label: string): string => {
      const runs = results.get(`${label}\u0000100000`);
      return runs === undefined ? "not run" : mib(median(runs.map((r) => r.peakKb)));
    };
    reportGoal({
      item: "5",
      figure: "peak RSS of 100 concurrent dreams of 100k events, no V8 flag",
      measured: `${mib(peak)} (100 readers with no dream: ${floorOf("readers only, no dream")}; ` +
        `100 parse floors: ${floorOf("parse floor, no module of this package")}; ` +
        `memory floors, 100 files read: ${floorOf(BYTES_FLOOR)}, ` +
        `100 files' lines parsed and dropped: ${floorOf(LINES_FLOOR)}, ` +
        `the same with mod.ts imported: ${floorOf(LINES_MODULE_FLOOR)}; ` +
        `100 dreams' readers, nothing kept: ${floorOf(DREAM_READER_FLOOR)}; ` +
        `the same holding the promised state: ${floorOf(PROMISED_FLOOR)})`,
      goal: `< ${GOAL_MIB} MiB`,
      met: peak / 1024 < GOAL_MIB,
    });
  }
}

if (Deno.args[0] === "--child") {
  const [, moduleUrl, path, dreams, work] = Deno.args;
  await runChild(moduleUrl!, path!, Number(dreams), work as Work);
} else if (import.meta.main) {
  await main();
}
