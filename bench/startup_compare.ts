// Copyright 2026 the brigade authors. MIT license.

/**
 * Start-up of the two commands against an empty `deno run` with the same permission flags:
 * the status line given `context_window` on stdin (exit; goal: within 5 ms of empty) and
 * `render` of the bundled example through the grader (first byte on stdout; goal: within
 * 30 ms of empty), with the flags its checkout's `deno task render` gives it (read from that
 * checkout's deno.json: a baseline keeps its own). Each process is timed by the parent from spawn; the cases are interleaved
 * run by run, in an order of each run's own (seeded: where a process comes in a round moves it
 * on a loaded machine, and a fixed order gave that to one side of every difference), so a shared
 * machine's noise falls on all alike; medians of each case and of the
 * per-run difference to the empty run of that round. The status line runs with the `facts` task's
 * flags, `--no-config` and `--unstable-lazy-dynamic-imports` among them; beside it, with no goal,
 * the same call without those two (`deno run cli/facts.ts` in a checkout: its `deno.json` and
 * `deno.lock` read, and the files of every literal `import()`). With
 * `--baseline DIR` (another checkout, e.g. main), its commands are run in the same rounds, with
 * the same flags, and their outputs compared. Last, the modules each timed call runs (Deno's debug
 * log names every module it evaluates), beside the static graph of `mod.ts`.
 *
 *   deno task bench:startup [--runs N] [--quick] [--baseline DIR]
 *
 * `--quick` (9 runs, for `bench/goals.ts`) prints the same table and goal lines in about a
 * minute on a shared machine.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { denoDir } from "../tests/_command.ts";
import { median, shuffler } from "./_stats.ts";
import { loadedModules } from "../tests/_module_graph.ts";
import { reportGoal } from "./_goal.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url));

/** The status-line JSON Claude Code sends, with its own context figures. */
const STATUS = JSON.stringify({
  model: { id: "claude-opus-5", display_name: "Opus" },
  transcript_path: "/nonexistent/session.jsonl",
  context_window: {
    context_window_size: 200_000,
    current_usage: {
      input_tokens: 1200,
      cache_creation_input_tokens: 300,
      cache_read_input_tokens: 28_679,
      output_tokens: 40,
    },
  },
  cost: { total_cost_usd: 0.42 },
});

interface Case {
  name: string;
  args: string[];
  stdin: string;
  /** Stop the clock at the first byte of stdout rather than at exit. */
  firstByte: boolean;
  /** Shown beside the others, with no goal of its own. */
  aside?: boolean;
}

/**
 * The `facts` task's own flags: `--no-config` as well, since the status line needs no
 * configuration (an installed command reads none of the checkout's either), and
 * `--unstable-lazy-dynamic-imports`, so that Deno reads the files of an `import()` only when it
 * runs.
 */
function factsFlags(cache: string): string[] {
  return [
    "--v8-flags=--no-lazy",
    "--no-config",
    "--unstable-lazy-dynamic-imports",
    "--allow-read",
    "--allow-env=TRANSCRIPT_CWD,TRANSCRIPT_INIT_CWD,TRANSCRIPT_OUTER,XDG_CACHE_HOME,HOME,LOCALAPPDATA",
    `--allow-write=${cache}/brigade-transcript`,
  ];
}

/**
 * The flags `deno task render` runs the command with in checkout `dir`, as its deno.json's task
 * gives them (those of the task are part of its start-up: `--unstable-lazy-dynamic-imports`).
 */
async function renderFlags(dir: string): Promise<string[]> {
  const config = JSON.parse(await Deno.readTextFile(`${dir}/deno.json`));
  const task = config.tasks.render;
  const command: string = typeof task === "string" ? task : task.command;
  const flags = /\bdeno run (.*?) cli\/render\.ts$/.exec(command)?.[1];
  if (flags === undefined) throw new Error(`${dir}/deno.json: no "deno run … cli/render.ts" task`);
  return flags.split(" ");
}

const RENDER_FLAGS = await renderFlags(ROOT);

/** What one run of a case took: wall milliseconds (to exit or first byte) and CPU milliseconds. */
interface Timing {
  wall: number;
  cpu: number;
  out: string;
}

/**
 * Runs one case under `bash`, whose `times` gives the child's user and system CPU to the
 * millisecond (`/usr/bin/time` gives hundredths); the shell's own cost falls on every case alike.
 */
async function time(c: Case, env: Record<string, string>): Promise<Timing> {
  const start = performance.now();
  const child = new Deno.Command("bash", {
    args: ["-c", '"$@"; rc=$?; times >&2; exit $rc', "bash", Deno.execPath(), ...c.args],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    env,
    cwd: ROOT,
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(c.stdin));
  await writer.close();
  const decoder = new TextDecoder();
  let out = "";
  let chunks = 0;
  let first = Number.NaN;
  for await (const chunk of child.stdout) {
    if (chunks++ === 0) first = performance.now() - start;
    out += decoder.decode(chunk, { stream: true });
  }
  const status = await child.status;
  const end = performance.now() - start;
  const stderr = await new Response(child.stderr).text();
  if (!status.success) throw new Error(`${c.name}: exit ${status.code}: ${stderr}`);
  out += decoder.decode();
  // `times`' second line: the children's user and system time, as `0m0.012s 0m0.004s`.
  const children = stderr.trimEnd().split("\n").at(-1) ?? "";
  const cpu = [...children.matchAll(/(\d+)m([\d.]+)s/g)]
    .reduce((sum, [, m, sec]) => sum + (Number(m) * 60 + Number(sec)) * 1000, 0);
  return { wall: c.firstByte ? first : end, cpu, out };
}

/** The modules an entry loads before it runs (`import()` loads on the call that needs it). */
export async function staticGraph(
  entry: string,
): Promise<{ count: number; bytes: number; node: string[] }> {
  const modules = await loadedModules(entry, false);
  const bytes = modules.reduce((sum, m) => sum + m.size, 0);
  const node = modules.map((m) => m.specifier).filter((s) => s.startsWith("node:")).sort();
  return { count: modules.length, bytes, node };
}

/**
 * The modules a case's call runs, as Deno's debug log names them (each module it evaluates is
 * looked up in, or added to, V8's code cache): how many, the bytes of the `file:` ones, and how
 * many are Deno's implementation of `node:` built-ins (`ext:deno_node/…`).
 */
async function modulesRun(
  c: Case,
  env: Record<string, string>,
): Promise<{ count: number; bytes: number; node: number }> {
  const child = new Deno.Command(Deno.execPath(), {
    args: c.args,
    stdin: "piped",
    stdout: "null",
    stderr: "piped",
    env: { ...env, DENO_LOG: "debug" },
    cwd: ROOT,
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(c.stdin));
  await writer.close();
  const { stderr } = await child.output();
  const log = new TextDecoder().decode(stderr);
  // A module whose code cache is written is named twice: once looked up, once added.
  const named = log.matchAll(/code cache (?:hit )?for ES module: (\S+),/g);
  const modules = [...new Set([...named].map(([, specifier]) => specifier!))];
  const files = modules.filter((m) => m.startsWith("file:"));
  const bytes = files.reduce((sum, m) => sum + Deno.statSync(new URL(m)).size, 0);
  const node = modules.filter((m) => m.startsWith("ext:deno_node/")).length;
  return { count: modules.length, bytes, node };
}

async function casesOf(dir: string, label: string, cache: string): Promise<Case[]> {
  return [
    {
      name: `statusline ${label}`,
      args: ["run", ...factsFlags(cache), `${dir}/cli/facts.ts`, "--statusline"],
      stdin: STATUS,
      firstByte: false,
    },
    {
      // `deno run cli/facts.ts` in a checkout, neither flag: Deno reads its deno.json and
      // deno.lock, and the files of every literal import() before the call.
      name: `statusline ${label}, plain deno run`,
      args: ["run", ...factsFlags(cache).slice(2), `${dir}/cli/facts.ts`, "--statusline"],
      stdin: STATUS,
      firstByte: false,
      aside: true,
    },
    {
      name: `render ${label}`,
      args: ["run", ...await renderFlags(dir), `${dir}/cli/render.ts`],
      stdin: "",
      firstByte: true,
    },
  ];
}

async function main(): Promise<void> {
  const flags = parseArgs({
    args: Deno.args,
    options: {
      runs: { type: "string" },
      quick: { type: "boolean", default: false },
      baseline: { type: "string" },
    },
  });
  const runs = Number(flags.values.runs ?? (flags.values.quick ? 9 : 31));
  const work = await Deno.makeTempDir({ prefix: "startup_bench_" });
  try {
    const empty = `${work}/empty.ts`;
    await Deno.writeTextFile(empty, "");
    const cache = `${work}/cache`;
    const env = {
      DENO_DIR: await denoDir(),
      XDG_CACHE_HOME: cache,
      HOME: work,
      NO_COLOR: "1",
      PATH: Deno.env.get("PATH") ?? "",
    };
    const cases: Case[] = [
      {
        name: "empty (facts flags)",
        args: ["run", ...factsFlags(cache), empty],
        stdin: STATUS,
        firstByte: false,
      },
      {
        name: "empty (render flags)",
        args: ["run", ...RENDER_FLAGS, empty],
        stdin: "",
        firstByte: false,
      },
      ...await casesOf(ROOT, "this checkout", cache),
    ];
    const baseline = flags.values.baseline;
    if (baseline !== undefined) {
      cases.push(...(await casesOf(baseline, "baseline", cache)).filter((c) => !c.aside));
    }
    const times = new Map<string, number[]>(cases.map((c) => [c.name, []]));
    const cpus = new Map<string, number[]>(cases.map((c) => [c.name, []]));
    const outputs = new Map<string, string>();
    for (const c of cases) await time(c, env); // warm-up: graphs compiled and cached
    const random = shuffler(0x5eed);
    for (let run = 0; run < runs; run++) {
      console.error(`start-up: run ${run + 1}/${runs}…`);
      for (const c of random(cases)) {
        const { wall, cpu, out } = await time(c, env);
        times.get(c.name)!.push(wall);
        cpus.get(c.name)!.push(cpu);
        outputs.set(c.name, out);
      }
    }
    const emptyOf = (name: string): string =>
      name.startsWith("statusline") ? "empty (facts flags)" : "empty (render flags)";
    const goalOf = (name: string): string =>
      name.startsWith("statusline")
        ? "wall ≤ +5 ms (to exit)"
        : name.startsWith("render")
        ? "wall ≤ +30 ms (to the first byte)"
        : "";
    console.log(`Start-up, ${runs} interleaved runs, medians (${new Date().toISOString()})\n`);
    console.log(
      "| case | wall | wall vs empty (median of per-run differences) | ratio | CPU | CPU vs empty | goal |",
    );
    console.log("|---|---:|---:|---:|---:|---:|---|");
    const goals: { name: string; wallDiff: number; cpuDiff: number }[] = [];
    const sign = (ms: number): string => `${ms < 0 ? "" : "+"}${ms.toFixed(1)} ms`;
    for (const c of cases) {
      const empty = emptyOf(c.name);
      const isEmpty = c.name === empty || c.name.startsWith("empty");
      const [wall, cpu] = [times, cpus].map((m) => m.get(c.name)!);
      const [wallBase, cpuBase] = [times, cpus].map((m) => m.get(empty)!);
      const wallDiff = median(wall!.map((ms, i) => ms - wallBase![i]!));
      const cpuDiff = median(cpu!.map((ms, i) => ms - cpuBase![i]!));
      const ratio = median(wall!.map((ms, i) => ms / wallBase![i]!));
      const cells = [
        c.name,
        `${median(wall!).toFixed(1)} ms`,
        isEmpty ? "" : sign(wallDiff),
        isEmpty ? "" : `${ratio.toFixed(2)}×`,
        `${median(cpu!).toFixed(0)} ms`,
        isEmpty ? "" : sign(cpuDiff),
        c.aside ? "none (the checkout's configuration, every import() read)" : goalOf(c.name),
      ];
      console.log(`| ${cells.join(" | ")} |`);
      if (!isEmpty && !c.aside) goals.push({ name: c.name, wallDiff, cpuDiff });
    }
    console.log("");
    for (const { name, wallDiff, cpuDiff } of goals) {
      if (name.endsWith("baseline")) continue;
      const statusline = name.startsWith("statusline");
      const limit = statusline ? 5 : 30;
      reportGoal({
        item: statusline ? "6" : "9",
        figure: statusline
          ? "status line given context_window, wall to exit − empty deno run"
          : "render (grader, bundled example), wall to first byte − empty deno run",
        measured: `${sign(wallDiff)} (CPU ${sign(cpuDiff)}, ${runs} runs)`,
        goal: `≤ +${limit} ms`,
        met: wallDiff <= limit,
      });
    }
    console.log("\n| call | modules it runs | bytes of this package's | Deno's node: modules |");
    console.log("|---|---:|---:|---:|");
    for (const c of cases.filter((c) => !c.name.startsWith("empty") && !c.aside)) {
      const ran = await modulesRun(c, env);
      console.log(
        `| ${c.name} | ${ran.count} | ${(ran.bytes / 1024).toFixed(0)} KiB | ${ran.node} |`,
      );
    }
    const dirs: [string, string][] = [[ROOT, "this checkout"]];
    if (baseline !== undefined) dirs.push([baseline, "baseline"]);
    for (const [dir, label] of dirs) {
      const graph = await staticGraph(`${dir}/mod.ts`);
      console.log(
        `| import("mod.ts") (${label}): its static graph | ${graph.count} | ${
          (graph.bytes / 1024).toFixed(0)
        } KiB | ${graph.node.length} |`,
      );
    }
    if (baseline !== undefined) {
      for (const kind of ["statusline", "render"]) {
        const same = outputs.get(`${kind} this checkout`) === outputs.get(`${kind} baseline`);
        console.log(
          `\n${kind}: output ${same ? "byte-identical to" : "DIFFERS from"} the baseline's`,
        );
      }
    }
  } finally {
    await Deno.remove(work, { recursive: true });
  }
}

if (import.meta.main) await main();
