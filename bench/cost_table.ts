// Copyright 2026 the brigade authors. MIT license.

/**
 * `deno task bench:cost`: what each stage costs per event of the generated
 * 1,000,000-event log (`bench/_generate.ts`, written once to `bench/.data/`),
 * as the Markdown table docs/development.md quotes. Rows: the parse floor, the source
 * (`fromNdjson` drained), the kit as a team renderer uses it (`conversation()`
 * drained, in each view), and the built-in renderers (grader, dream, json,
 * html, each through `fromNdjson`, with their default budgets), and the dream
 * again on the secret-dense variant of the log (a key that `redact()` removes
 * in every fourth event), against that log's own parse floor. After the
 * tables, item 3's goals of issue 28 (the dream at most 2× the parse floor in
 * CPU, on each log, as the median of the rounds' ratios) are printed through
 * `reportGoal()` (`bench/_goal.ts`).
 *
 * Every run is a fresh subprocess (`bench/_cost_child.ts`, which loads only the module and the
 * parse floor), so no
 * run warms the next one's JIT or heap; the rounds interleave the cases (and
 * the two checkouts, with `--baseline`, each running first every other round), so a busy
 * machine slows all alike.
 * The columns:
 *
 * - **entries read**: entries the case pulled from `fromNdjson` (the grader,
 *   json and html stop at their transcript budgets), counted in one more run
 *   through a counting wrapper that is never timed.
 * - **× parse floor, CPU** and **wall**: the median of the rounds' ratios,
 *   each the time of the case ÷ the time of the floor over the same lines in
 *   the same round (see `roundRatio`), in CPU time (user and
 *   system, every thread of the child: what a busy machine disturbs least)
 *   and in wall-clock time. The floor reads the file as a stream, decodes it
 *   with a streaming `TextDecoder`, splits it on `\n` and `JSON.parse`s every
 *   line (`parseEveryLine` of `_parse_floor.ts`); for a case that stops
 *   early, the floor's time is scaled to the entries it read. Times are taken
 *   inside the child, from the call to the end of its output: runtime start
 *   and module loading are left out.
 * - **B allocated / event**: the bytes V8 allocated in the child's heap for
 *   the case, ÷ entries read. The child runs with `--v8-flags=--trace-gc-nvp`,
 *   which prints a `GC: {…}` record (on stdout) for each collection; each
 *   record's `"allocated"` is what was allocated since the collection before
 *   it (its `start_object_size` less the previous record's
 *   `end_object_size`; counted as 0 where that subtraction, unsigned in V8,
 *   wrapped to near 2^64). The sum of every `"allocated"`, plus the tail
 *   allocated after the last collection (the heap used at exit less that
 *   collection's `end_object_size`), is the child's total; less the total of
 *   a child that loads the same checkout's module and runs nothing (the
 *   runtime's and the module's own allocations), it is the case's.
 * - **peak RSS, old gen 16 MB**: the child's peak resident memory (VmHWM,
 *   runtime included) with V8's old generation capped at 16 MB
 *   (`--max-old-space-size=16`, in the same run as the allocation count). A
 *   case that does not fit the cap says so, and in how many of its runs.
 *
 * Each figure is the median of the runs. With `--baseline PATH/mod.ts` (the
 * `mod.ts` of another checkout, say `git archive <commit> | tar -x -C
 * /tmp/before`), the same cases run against it in the same rounds and a
 * second table follows, for a before/after from one command.
 *
 * Run: `deno task bench:cost [--runs=N] [--mem-runs=N] [--baseline PATH/mod.ts]`
 * (defaults: 3 timed runs and 1 memory run of each case; `--cases=a,b` runs
 * only those cases, `--events=N` takes another generated log, for a quick
 * look). The `deno bench`
 * suites are `deno task bench:suites`.
 *
 * @module
 */

import { ensureLogInfo, logPath } from "./_generate.ts";
import { sizeName } from "./grader_compare.ts";
import { type ChildResult, RESULT } from "./_cost_child.ts";
import { median } from "./_stats.ts";
import { reportGoal, times } from "./_goal.ts";

/** The log benchmarked, in events (unless `--events` says otherwise). */
const EVENTS = 1_000_000;

/** A case of the table. */
interface Case {
  /** Its name on the command line of a child. */
  id: string;
  /** Its name in the table. */
  title: string;
  /** Whether it may stop before the end of the log (its entries are then counted). */
  stops: boolean;
  /** The log it reads: the generated one, or its secret-dense variant (`"keys"`). */
  log?: "keys";
}

const PARSE: Case = { id: "parse", title: "`JSON.parse` floor", stops: false };
/** The floor of the secret-dense log: a key in every fourth event (`bench/_generate.ts`). */
const PARSE_KEYS: Case = {
  id: "parse-keys",
  title: "`JSON.parse` floor, secret-dense log",
  stops: false,
  log: "keys",
};
/** Every how many events the secret-dense log plants a key. */
const KEY_EVERY = 4;
/** Loads the module and runs nothing: what every child allocates before its case. */
const IDLE: Case = { id: "idle", title: "nothing", stops: false };
const ALL_CASES: readonly Case[] = [
  { id: "fromNdjson", title: "`fromNdjson` drained", stops: false },
  { id: "conversation", title: "`conversation()` drained", stops: false },
  { id: "conversation-dream", title: '`conversation({ view: "dream" })` drained', stops: false },
  { id: "grader", title: "`renderGrader`", stops: true },
  { id: "grader-ends", title: '`renderGrader({ keep: "ends" })`', stops: false },
  { id: "dream", title: "`renderDream`", stops: false },
  { id: "json", title: "`renderJson`", stops: true },
  { id: "html", title: "`renderHtml`", stops: true },
  { id: "dream-keys", title: "`renderDream`, secret-dense log", stops: false, log: "keys" },
];

/** One memory run: bytes allocated and peak RSS, or why it failed. */
interface MemorySample {
  allocated: number;
  peakKb: number;
  failure?: string;
}

/**
 * The child's script: it loads what a case needs and nothing of this one (the log's generator,
 * the other benchmarks), whose modules held 1.8 MB of a 16 MB old generation's heap.
 */
const CHILD = new URL("./_cost_child.ts", import.meta.url).pathname;

/** The arguments of a child, and the V8 flags it runs with. */
async function child(
  id: string,
  path: string,
  moduleUrl: string,
  options: { count?: boolean; v8Flags?: string[] } = {},
): Promise<{ result?: ChildResult; trace: string; code: number }> {
  const flags = options.v8Flags?.length ? [`--v8-flags=${options.v8Flags.join(",")}`] : [];
  const output = await new Deno.Command(Deno.execPath(), {
    // --allow-all: Deno grants /proc/self/status (the peak RSS) to nothing less.
    args: [
      "run",
      "--allow-all",
      ...flags,
      CHILD,
      id,
      path,
      moduleUrl,
      ...(options.count ? ["--count"] : []),
    ],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stderr = new TextDecoder().decode(output.stderr);
  const trace = new TextDecoder().decode(output.stdout) + stderr;
  const last = stderr.split("\n").findLast((line) => line.startsWith(RESULT));
  const result = output.success && last !== undefined
    ? JSON.parse(last.slice(RESULT.length)) as ChildResult
    : undefined;
  return result === undefined ? { trace, code: output.code } : { result, trace, code: output.code };
}

/**
 * Bytes V8 allocated in a child run with `--trace-gc-nvp` (`trace`: its output): the sum of the
 * `"allocated"` of every `GC: {…}` record, plus what was allocated after the
 * last collection (the heap used at exit less its `end_object_size`).
 */
export function allocatedBytes(trace: string, heapUsedAtExit: number): number {
  let total = 0;
  let lastEnd = 0;
  for (const match of trace.matchAll(/GC: (\{.*\})\s*$/gm)) {
    const record = JSON.parse(match[1]!) as { allocated?: number; end_object_size?: number };
    // V8 subtracts unsigned: a start below the last end (memory freed by sweeping in between)
    // wraps to near 2^64, where nothing was allocated.
    const allocated = record.allocated ?? 0;
    if (allocated <= Number.MAX_SAFE_INTEGER) total += allocated;
    lastEnd = record.end_object_size ?? lastEnd;
  }
  return total + Math.max(0, heapUsedAtExit - lastEnd);
}

async function timed(c: Case, path: string, moduleUrl: string): Promise<Time> {
  const run = await child(c.id, path, moduleUrl);
  if (run.result === undefined) {
    throw new Error(`cost_table: ${c.id} failed (exit ${run.code}):\n${run.trace.slice(-2000)}`);
  }
  return { cpu: run.result.cpuMs, wall: run.result.ms };
}

/** One timed run, in milliseconds. */
export interface Time {
  cpu: number;
  wall: number;
}

async function memory(c: Case, path: string, moduleUrl: string): Promise<MemorySample> {
  const run = await child(c.id, path, moduleUrl, {
    v8Flags: ["--max-old-space-size=16", "--trace-gc-nvp"],
  });
  if (run.result === undefined) {
    const oom = /out of memory|heap limit/i.test(run.trace);
    return {
      allocated: Number.NaN,
      peakKb: Number.NaN,
      failure: oom ? "out of memory" : `exit ${run.code}`,
    };
  }
  return { allocated: allocatedBytes(run.trace, run.result.heapUsed), peakKb: run.result.peakKb };
}

/** A checkout's figures for each case. */
interface Figures {
  label: string;
  moduleUrl: string;
  times: Map<string, Time[]>;
  memory: Map<string, MemorySample[]>;
  entries: Map<string, number>;
}

function figures(label: string, moduleUrl: string): Figures {
  return { label, moduleUrl, times: new Map(), memory: new Map(), entries: new Map() };
}

function push<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}

function number(value: number, digits = 0): string {
  return Number.isFinite(value)
    ? value.toLocaleString("en-US", {
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    })
    : "–";
}

/** The table of one checkout, against the floor measured in the same rounds. */
function table(cases: readonly Case[], floor: Figures, of: Figures, lines: number): string[] {
  const floors = cases.some((c) => c.log === "keys") ? [PARSE, PARSE_KEYS] : [PARSE];
  const out = [
    "| case | entries read | × parse floor, CPU | wall | B allocated / event | peak RSS, old gen 16 MB |",
    "| --- | ---: | ---: | ---: | ---: | ---: |",
  ];
  for (const c of [...floors, ...cases]) {
    const source = floors.includes(c) ? floor : of;
    const entries = floors.includes(c) ? lines : source.entries.get(c.id) ?? lines;
    const times = source.times.get(c.id)!;
    const floorTimes = floor.times.get(floorOf(c).id)!;
    const ratio = (kind: keyof Time): string =>
      (roundRatio(times, floorTimes, kind) * lines / entries).toFixed(2) + "×";
    const samples = source.memory.get(c.id)!;
    // The medians are of the runs that fitted the cap (median() skips a failed run's NaN).
    const idle = median(source.memory.get(IDLE.id)!.map((s) => s.allocated));
    const allocated = (median(samples.map((s) => s.allocated)) - idle) / entries;
    const failures = samples.flatMap((s) => s.failure === undefined ? [] : [s.failure]);
    const peaks = samples.map((s) => s.peakKb);
    const peak = failures.length === samples.length
      ? failures[0]!
      : `${number(median(peaks) / 1024, 1)} MiB` +
        (failures.length > 0 ? ` (${failures[0]} in ${failures.length} of ${samples.length})` : "");
    out.push(
      `| ${c.title} | ${number(entries)} | ${ratio("cpu")} | ${ratio("wall")} | ${
        number(allocated)
      } | ${peak} |`,
    );
  }
  return out;
}

/**
 * The median of the per-round ratios of `times` to `floor` (run `i` of each in the same round):
 * a round that a busy machine slows, slows its floor alike, so the ratio moves less than either
 * time does, and one slow round moves the median of the ratios less than it moves a median of
 * the times taken apart (the case's median from one round over the floor's from another).
 *
 * @example Usage
 * ```ts
 * import { roundRatio } from "./cost_table.ts";
 * import assert from "node:assert/strict";
 *
 * // The second round ran on a busy machine: both times doubled, their ratio did not.
 * const dream = [{ cpu: 20, wall: 21 }, { cpu: 40, wall: 44 }, { cpu: 19, wall: 20 }];
 * const floor = [{ cpu: 10, wall: 10 }, { cpu: 20, wall: 20 }, { cpu: 10, wall: 10 }];
 * assert.equal(roundRatio(dream, floor, "cpu"), 2);
 * ```
 */
export function roundRatio(
  times: readonly Time[],
  floor: readonly Time[],
  kind: keyof Time,
): number {
  return median(times.map((t, i) => t[kind] / (floor[i]?.[kind] ?? Number.NaN)));
}

/** The floor a case is measured against: the parse floor of the log it reads. */
function floorOf(c: Case): Case {
  return c.log === "keys" ? PARSE_KEYS : PARSE;
}

/** Item 3's goal: the dream at most 2× the parse floor in CPU, on each log. */
function reportDreamGoals(cases: readonly Case[], floor: Figures, events: number): void {
  const runs = (id: string): Time[] => floor.times.get(id)!;
  for (const c of cases.filter((c) => c.id === "dream" || c.id === "dream-keys")) {
    const ratio = roundRatio(runs(c.id), runs(floorOf(c).id), "cpu");
    const log = c.log === "keys"
      ? `secret-dense ${sizeName(events)}-event log`
      : `${sizeName(events)}-event log`;
    reportGoal({
      item: "3",
      figure: `dream CPU ÷ parse floor, ${log}`,
      measured: times(ratio),
      goal: "≤ 2×",
      met: ratio <= 2,
    });
  }
}

function intArg(args: string[], name: string, fallback: number): number {
  const arg = args.find((a) => a.startsWith(`--${name}=`));
  const value = arg === undefined ? fallback : Number(arg.slice(name.length + 3));
  if (!Number.isSafeInteger(value) || value < 1) {
    console.error(`cost_table: --${name} must be a positive integer: ${arg}`);
    Deno.exit(2);
  }
  return value;
}

/**
 * Item 4 of issue 28: the grader with `keep: "ends"` reads the whole session
 * at most 2× the parse floor in CPU, within a 16 MB old generation on the
 * 1M-event log (every memory run fitted).
 */
function reportEndsGoals(of: Figures, lines: number, full: boolean): void {
  const runs = of.times.get("grader-ends");
  const samples = of.memory.get("grader-ends");
  if (runs === undefined || samples === undefined) return;
  // As the table's row and item 3's figures: the median of the rounds' own ratios.
  const ratio = roundRatio(runs, of.times.get(PARSE.id)!, "cpu");
  const size = full ? "1M events" : `${lines.toLocaleString("en-US")} events`;
  reportGoal({
    item: "4",
    figure: `renderGrader keep "ends" CPU ÷ parse floor, ${size}`,
    measured: times(ratio),
    goal: "≤ 2×",
    met: ratio <= 2,
  });
  const fitted = samples.filter((s) => s.failure === undefined).length;
  reportGoal({
    item: "4",
    figure: `renderGrader keep "ends" within a 16 MB old generation, ${size}`,
    measured: `${fitted} of ${samples.length} runs fitted`,
    goal: "every run",
    met: fitted === samples.length,
  });
}

function baselineArg(args: string[]): string | undefined {
  const at = args.findIndex((a) => a === "--baseline" || a.startsWith("--baseline="));
  if (at === -1) return undefined;
  const value = args[at] === "--baseline" ? args[at + 1] : args[at]!.slice("--baseline=".length);
  if (value === undefined || value === "") {
    console.error("cost_table: --baseline needs the path of a checkout's mod.ts");
    Deno.exit(2);
  }
  // Relative to where the user typed it: `deno task` runs this in the repository's root.
  const cwd = Deno.env.get("INIT_CWD") ?? Deno.cwd();
  return new URL(value, `file://${cwd.endsWith("/") ? cwd : `${cwd}/`}`).href;
}

/** The cases `--cases=a,b` names (every case without it). */
function casesArg(args: string[]): readonly Case[] {
  const arg = args.find((a) => a.startsWith("--cases="));
  if (arg === undefined) return ALL_CASES;
  const ids = arg.slice("--cases=".length).split(",");
  const unknown = ids.filter((id) => !ALL_CASES.some((c) => c.id === id));
  if (unknown.length > 0) {
    console.error(
      `cost_table: no case ${unknown.join(", ")}; the cases: ${
        ALL_CASES.map((c) => c.id).join(", ")
      }`,
    );
    Deno.exit(2);
  }
  return ALL_CASES.filter((c) => ids.includes(c.id));
}

async function main(args: string[]): Promise<void> {
  const cases = casesArg(args);
  const runs = intArg(args, "runs", 3);
  const memRuns = intArg(args, "mem-runs", 1);
  const baselineUrl = baselineArg(args);
  const events = intArg(args, "events", EVENTS);
  const info = await ensureLogInfo(events);
  const keys = { keyEvery: KEY_EVERY };
  const withKeys = cases.some((c) => c.log === "keys");
  if (withKeys) await ensureLogInfo(events, keys);
  const pathOf = (c: Case): string => c.log === "keys" ? logPath(events, keys) : logPath(events);
  const floors = withKeys ? [PARSE, PARSE_KEYS] : [PARSE];
  const checkouts = [figures("this checkout", new URL("../mod.ts", import.meta.url).href)];
  if (baselineUrl !== undefined) checkouts.push(figures(`baseline ${baselineUrl}`, baselineUrl));
  const floor = checkouts[0]!;
  const started = performance.now();
  for (let round = 0; round < runs; round++) {
    console.error(`round ${round + 1} of ${runs} (timed)…`);
    for (const f of floors) push(floor.times, f.id, await timed(f, pathOf(f), floor.moduleUrl));
    // The checkouts take turns at running first: the run right after the floor's came out the
    // cheaper (the same module on both sides gave this checkout's dream 0.03× to 0.21× less),
    // which a fixed order gave this checkout every round.
    const order = round % 2 === 0 ? checkouts : [...checkouts].reverse();
    for (const c of cases) {
      for (const of of order) push(of.times, c.id, await timed(c, pathOf(c), of.moduleUrl));
    }
  }
  for (let round = 0; round < memRuns; round++) {
    console.error(`round ${round + 1} of ${memRuns} (memory)…`);
    for (const f of floors) push(floor.memory, f.id, await memory(f, pathOf(f), floor.moduleUrl));
    for (const of of checkouts) {
      push(of.memory, IDLE.id, await memory(IDLE, pathOf(PARSE), of.moduleUrl));
    }
    for (const c of cases) {
      for (const of of checkouts) push(of.memory, c.id, await memory(c, pathOf(c), of.moduleUrl));
    }
  }
  for (const c of cases.filter((c) => c.stops)) {
    for (const of of checkouts) {
      const run = await child(c.id, pathOf(c), of.moduleUrl, { count: true });
      if (run.result !== undefined) of.entries.set(c.id, run.result.entries);
    }
  }
  const seconds = (performance.now() - started) / 1000;
  const head = `${sizeName(events)}-event generated log (${number(info.bytes / 2 ** 20)} MiB); ` +
    `Deno ${Deno.version.deno}, V8 ${Deno.version.v8}, ${Deno.build.os}/${Deno.build.arch}; ` +
    `medians of ${runs} timed and ${memRuns} memory runs, each case in a fresh process, ` +
    `cases interleaved; ${number(seconds)} s in all.`;
  const dense = withKeys
    ? ` and its secret-dense variant (${
      number((await ensureLogInfo(events, keys)).bytes / 2 ** 20)
    } MiB)`
    : "";
  const out = [head.replace("; Deno", `${dense}; Deno`)];
  for (const of of checkouts) {
    out.push(
      "",
      `${of === floor ? "This checkout" : of.label}:`,
      "",
      ...table(cases, floor, of, info.events),
    );
  }
  console.log(out.join("\n"));
  reportEndsGoals(floor, info.events, events === EVENTS);
  reportDreamGoals(cases, floor, events);
}

if (import.meta.main) await main(Deno.args);
