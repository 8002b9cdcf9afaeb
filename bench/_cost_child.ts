// Copyright 2026 the brigade authors. MIT license.

/**
 * One run of a case of `bench/cost_table.ts`, in a process of its own: `deno
 * run --allow-all bench/_cost_child.ts CASE LOG MODULE_URL [--count]`. It
 * loads the module measured and the parse floor, and nothing of the tables'
 * script (the log's generator, the other benchmarks): their modules held
 * 1.8 MB of the heap, and 3.4 MB with a second checkout's module, which a
 * case run under a 16 MB old generation then had to fit beside. Its CPU time
 * is `getrusage()`'s, called through FFI: `node:process` (for `cpuUsage()`,
 * the same call) held 1.7 MB more of that heap, in every case's child alike.
 *
 * @module
 */

import { parseEveryLine } from "./_parse_floor.ts";
import { peakRssKb } from "./_stats.ts";
import type * as Mod from "../mod.ts";

/** What a child prints: its time, what it read, its heap at exit and its peak RSS. */
export interface ChildResult {
  ms: number;
  cpuMs: number;
  entries: number;
  heapUsed: number;
  peakKb: number;
}

/** What starts a child's result line. */
export const RESULT = "cost_table result: ";

/** Runs one case in this process and prints its {@linkcode ChildResult} as JSON, on stderr. */
export async function runChild(
  id: string,
  path: string,
  moduleUrl: string,
  count: boolean,
): Promise<void> {
  const mod = await import(moduleUrl) as typeof Mod;
  let entries = 0;
  const source = (): AsyncIterable<Mod.LogEntry> => {
    const read = mod.fromNdjson(path);
    return count ? counted(read) : read;
  };
  async function* counted(source: AsyncIterable<Mod.LogEntry>): AsyncGenerator<Mod.LogEntry> {
    for await (const entry of source) {
      entries++;
      yield entry;
    }
  }
  await openCpuClock();
  const cpu = cpuMs();
  const started = performance.now();
  if (id === "idle") entries = 0;
  else if (id === "parse" || id === "parse-keys") entries = await parseEveryLine(path);
  else if (id === "fromNdjson") {
    for await (const _ of source()) if (!count) entries++;
  } else if (id === "conversation" || id === "conversation-dream") {
    const options = id === "conversation" ? {} : { view: "dream" as const };
    for await (const _ of mod.conversation(source(), options)) {
      // Drained as a team renderer would read it, item by item.
    }
  } else if (id === "grader") await mod.renderGrader(source());
  else if (id === "grader-ends") await mod.renderGrader(source(), { keep: "ends" });
  else if (id === "dream") await mod.renderDream(source());
  else if (id === "json") await mod.renderJson(source());
  else if (id === "html") await mod.renderHtml(source());
  else if (id === "dream-keys") await mod.renderDream(source());
  else throw new Error(`cost_table: no case ${id}`);
  const ms = performance.now() - started;
  const result: ChildResult = {
    ms,
    cpuMs: cpuMs() - cpu,
    entries,
    heapUsed: Deno.memoryUsage().heapUsed,
    peakKb: peakRssKb(),
  };
  // On stderr: V8 prints its traces on stdout through a buffer of its own, which would split a
  // line printed on stdout here.
  console.error(RESULT + JSON.stringify(result));
}

/** `getrusage()`, from the C library: what `process.cpuUsage()` calls, without loading `node:process`. */
interface Libc {
  symbols: { getrusage: (who: number, usage: BigInt64Array) => number };
}
/** Opened by the first call only: a module importing this one's names needs no FFI permission. */
let libc: Libc | undefined;
/** A `struct rusage`: its user and system times first, each seconds then microseconds. */
const usage = new BigInt64Array(18);
const RUSAGE_SELF = 0;

/** The C library's file where this child finds `getrusage()`: glibc's, or macOS's. */
const LIBC = Deno.build.os === "darwin" ? "/usr/lib/libSystem.B.dylib" : "libc.so.6";
/** `process.cpuUsage()` where no `getrusage()` opens (Windows, a musl system), loaded first. */
let cpuUsage: (() => { user: number; system: number }) | undefined;

/** Opens what {@linkcode cpuMs} reads, before any case's clock starts. */
async function openCpuClock(): Promise<void> {
  try {
    libc ??= Deno.dlopen(LIBC, {
      getrusage: { parameters: ["i32", "buffer"], result: "i32" },
    }) as unknown as Libc;
  } catch {
    cpuUsage = (await import("node:process")).default.cpuUsage;
  }
}

/**
 * This process's CPU time (user and system, every thread) in milliseconds, to the microsecond:
 * what `process.cpuUsage()` gives, as `getrusage(RUSAGE_SELF)`.
 */
function cpuMs(): number {
  if (cpuUsage !== undefined) {
    const { user, system } = cpuUsage();
    return (user + system) / 1_000;
  }
  if (libc!.symbols.getrusage(RUSAGE_SELF, usage) !== 0) {
    throw new Error("cost_table: getrusage failed");
  }
  const [userS, userUs, systemS, systemUs] = usage;
  // A microseconds field is 32 bits and padding on macOS: its low half (little-endian) holds it.
  const micros = BigInt.asUintN(32, userUs!) + BigInt.asUintN(32, systemUs!);
  return Number(userS! + systemS!) * 1_000 + Number(micros) / 1_000;
}

if (import.meta.main) {
  const [id, path, moduleUrl, count] = Deno.args;
  await runChild(id!, path!, moduleUrl!, count === "--count");
}
