// Copyright 2026 the brigade authors. MIT license.

/**
 * The status-line process (`cli/facts.ts --statusline`, as Claude Code runs it: a new
 * process per call, the status JSON on stdin, with the `facts` task's `--no-config` and
 * `--unstable-lazy-dynamic-imports`; each
 * baseline with the same flags) side by side with an empty `deno run`, on
 * generated transcripts of 1, 20 and 200 MB: the first call (no cache: the whole file is
 * read) and a call after a 10 KB append with the cache (only the append is read). Every
 * process is timed from spawn to exit by the parent; the modes are interleaved run by run,
 * so the noise of a shared machine falls on all of them alike. Prints a markdown table of
 * medians; with baselines (other checkouts), a second table of the first call of each
 * checkout's status line, interleaved with the others. Within a round the measurements run in
 * an order of that round's own (the call after an append right after this checkout's first
 * call, whose cache it reads). With ccusage's native binary (`--ccusage
 * PATH`, else found beside the `ccusage` on `PATH`: `npm install -g ccusage`), its `statusline`'s
 * first call (its cache cleared) on the same 1 MB transcript, in the same rounds, against this
 * one's (issue 28, item 6: no slower). Part of `deno task bench:reader`; alone:
 *
 *   deno run --allow-read --allow-write --allow-env --allow-run bench/reader_statusline.ts \
 *     [--runs N] [--quick] [--ccusage PATH] [--baseline DIR]...
 *
 * `--quick` (1 MB only, 9 runs, for `bench/goals.ts`) takes about a minute.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { denoDir } from "../tests/_command.ts";
import { appendedTurns, ensureTranscript } from "./reader_data.ts";
import { median, shuffler } from "./_stats.ts";
import { reportGoal, times as ratioText } from "./_goal.ts";

const DATA = fileURLToPath(new URL("./.data/", import.meta.url));
const FACTS = fileURLToPath(new URL("../cli/facts.ts", import.meta.url));
const ALL_SIZES_MB = [1, 20, 200];
const APPEND_BYTES = 10_000;

interface Setup {
  empty: string;
  cacheHome: string;
  env: Record<string, string>;
}

/**
 * Writes `text` to the child's stdin and closes it. A child that ends without reading it (the
 * empty `deno run`) breaks the pipe, now and then before the write: that is no failure.
 */
async function feed(child: Deno.ChildProcess, text: string): Promise<void> {
  const writer = child.stdin.getWriter();
  try {
    await writer.write(new TextEncoder().encode(text));
    await writer.close();
  } catch (error) {
    if (!(error instanceof Deno.errors.BrokenPipe)) throw error;
  }
}

/** Runs one process to its end; returns the wall milliseconds and its output. */
async function time(args: string[], setup: Setup, stdin: string): Promise<[number, string]> {
  const start = performance.now();
  const child = new Deno.Command(Deno.execPath(), {
    args,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    env: setup.env,
  }).spawn();
  await feed(child, stdin);
  const { stdout, stderr, code } = await child.output();
  const ms = performance.now() - start;
  if (code !== 0) throw new Error(`exit ${code}: ${new TextDecoder().decode(stderr)}`);
  return [ms, new TextDecoder().decode(stdout).trim()];
}

/** The status line's command line, with the `facts` task's flags. */
function statusArgs(setup: Setup, facts = FACTS): string[] {
  return [
    "run",
    "--v8-flags=--no-lazy",
    "--no-config",
    "--unstable-lazy-dynamic-imports",
    "--allow-read",
    "--allow-env=XDG_CACHE_HOME,HOME",
    `--allow-write=${setup.cacheHome}/brigade-transcript`,
    facts,
    "--statusline",
  ];
}

async function clearCache(setup: Setup): Promise<void> {
  await Deno.remove(`${setup.cacheHome}/brigade-transcript`, { recursive: true }).catch(() => {});
}

const APPENDED = appendedTurns(APPEND_BYTES);

/**
 * ccusage's native binary: `path` when given, else the one its npm package installs beside the
 * `ccusage` on `PATH` (whose `cli.js` starts Node only to spawn it); undefined when there is none.
 */
export async function nativeCcusage(path?: string): Promise<string | undefined> {
  if (path !== undefined) return await Deno.realPath(path);
  for (const dir of (Deno.env.get("PATH") ?? "").split(":")) {
    const script = await Deno.realPath(`${dir}/ccusage`).catch(() => undefined);
    if (script === undefined) continue;
    // …/node_modules/ccusage/src/cli.js → …/node_modules/@ccusage/ccusage-<os>-<arch>/bin/ccusage
    const modules = script.replace(/\/ccusage\/src\/cli\.js$/, "");
    if (modules === script) return script; // a binary of its own
    const os = Deno.build.os === "windows" ? "win32" : Deno.build.os;
    const arch = Deno.build.arch === "x86_64" ? "x64" : "arm64";
    for (const root of [modules, `${modules}/ccusage/node_modules`]) {
      const binary = `${root}/@ccusage/ccusage-${os}-${arch}/bin/ccusage`;
      if (await Deno.stat(binary).then((info) => info.isFile, () => false)) return binary;
    }
  }
  return undefined;
}

/** What ccusage's status line reads: a Claude folder holding the one transcript. */
interface CcusageSetup {
  binary: string;
  /** `CLAUDE_CONFIG_DIR`: `projects/bench/<session>.jsonl`, the transcript. */
  claude: string;
  /** `TMPDIR`, where ccusage keeps its status-line cache: emptied before each call. */
  tmp: string;
  stdin: string;
}

async function ccusageSetup(
  binary: string,
  work: string,
  transcript: string,
): Promise<CcusageSetup> {
  const claude = `${work}/claude`;
  const session = "78368290-ee0b-474f-8052-bb65a9a581d6";
  await Deno.mkdir(`${claude}/projects/bench`, { recursive: true });
  const path = `${claude}/projects/bench/${session}.jsonl`;
  await Deno.symlink(transcript, path);
  const stdin = JSON.stringify({
    session_id: session,
    transcript_path: path,
    cwd: work,
    model: { id: "claude-opus-5", display_name: "Opus" },
    workspace: { current_dir: work, project_dir: work },
  });
  return { binary, claude, tmp: `${work}/ccusage_tmp`, stdin };
}

/** One first call of ccusage's status line (its cache cleared), wall ms from spawn to exit. */
async function timeCcusage(c: CcusageSetup, setup: Setup): Promise<[number, string]> {
  await Deno.remove(c.tmp, { recursive: true }).catch(() => {});
  await Deno.mkdir(c.tmp);
  const start = performance.now();
  const child = new Deno.Command(c.binary, {
    args: ["statusline", "--offline"],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    env: { ...setup.env, CLAUDE_CONFIG_DIR: c.claude, TMPDIR: c.tmp, HOME: c.tmp },
    clearEnv: true,
  }).spawn();
  await feed(child, c.stdin);
  const { stdout, stderr, code } = await child.output();
  const ms = performance.now() - start;
  if (code !== 0) throw new Error(`ccusage: exit ${code}: ${new TextDecoder().decode(stderr)}`);
  return [ms, new TextDecoder().decode(stdout).trim()];
}

/** What {@linkcode statuslineBench} measures besides this checkout's status line. */
export interface StatuslineBenchOptions {
  /** The transcript sizes, in MB. */
  sizes?: number[];
  /** ccusage's native binary, measured at 1 MB. */
  ccusage?: string | undefined;
}

/**
 * The table of medians, in markdown; with `baselines` (folders of other checkouts), a second
 * table of their status line's first call against this one's.
 */
export async function statuslineBench(
  runs: number,
  baselines: string[] = [],
  options: StatuslineBenchOptions = {},
): Promise<string> {
  const { sizes: SIZES_MB = ALL_SIZES_MB } = options;
  const work = await Deno.makeTempDir({ prefix: "statusline_bench_" });
  try {
    const setup: Setup = {
      empty: `${work}/empty.ts`,
      cacheHome: `${work}/cache`,
      env: { DENO_DIR: await denoDir(), XDG_CACHE_HOME: `${work}/cache`, NO_COLOR: "1" },
    };
    await Deno.writeTextFile(setup.empty, "");
    const files: Record<number, string> = {};
    for (const size of SIZES_MB) {
      files[size] = `${DATA}transcript_${size}mb.jsonl`;
      await ensureTranscript(files[size]!, size * 1e6);
    }
    const ccusage = options.ccusage === undefined || !SIZES_MB.includes(1)
      ? undefined
      : await ccusageSetup(options.ccusage, work, files[1]!);
    const times: Record<string, number[]> = {};
    const add = (key: string, ms: number): number => (times[key] ??= []).push(ms);
    const outputs: Record<string, string> = {};
    // A warm-up of each, so that the module graph is compiled and cached.
    await time(["run", setup.empty], setup, "");
    const warmUp = JSON.stringify({ transcript_path: files[1], model: { id: "m" } });
    for (const dir of baselines) {
      await clearCache(setup);
      await time(statusArgs(setup, `${dir}/cli/facts.ts`), setup, warmUp);
    }
    if (ccusage !== undefined) await timeCcusage(ccusage, setup);
    const random = shuffler(0x5eed);
    for (let run = 0; run < runs; run++) {
      console.error(`status line: run ${run + 1}/${runs}…`);
      for (const size of SIZES_MB) {
        const path = files[size]!;
        const stdin = JSON.stringify({ transcript_path: path, model: { id: "claude-opus-5" } });
        const original = (await Deno.stat(path)).size;
        // Each measurement of the round, in an order of the round's own: a process runs
        // faster or slower by where it comes in a round (the one before it still exiting, the
        // page cache, the clock of a core), by up to a quarter on a loaded machine, and a
        // fixed order gave that to one side of every ratio.
        const steps: (() => Promise<void>)[] = baselines.map((dir) => async () => {
          await clearCache(setup);
          const [ms, line] = await time(statusArgs(setup, `${dir}/cli/facts.ts`), setup, stdin);
          add(`first ${size} ${dir}`, ms);
          outputs[`${size} ${dir}`] = line;
        });
        steps.push(async () => {
          add(`empty ${size}`, (await time(["run", setup.empty], setup, stdin))[0]);
        });
        steps.push(async () => {
          await clearCache(setup);
          const [first, line] = await time(statusArgs(setup), setup, stdin);
          add(`first ${size}`, first);
          outputs[size] = line;
          // The call after an append reads the cache the first call wrote: it follows it.
          try {
            await Deno.writeFile(path, APPENDED, { append: true });
            add(`append ${size}`, (await time(statusArgs(setup), setup, stdin))[0]);
          } finally {
            await Deno.truncate(path, original);
          }
        });
        if (size === 1 && ccusage !== undefined) {
          steps.push(async () => {
            const [ms, line] = await timeCcusage(ccusage, setup);
            add("ccusage 1", ms);
            outputs["ccusage 1"] = line;
          });
        }
        for (const step of random(steps)) await step();
      }
    }
    const lines = [
      `Status-line process (cli/facts.ts --statusline) vs an empty \`deno run\`; ${runs} runs` +
      ` interleaved (each round in an order of its own), medians of wall time from spawn to` +
      ` exit, in ms.`,
      "",
      "| transcript | empty deno run | first call (no cache) | Δ vs empty | call after a 10 KB append (cache) | Δ vs empty |",
      "|---|---:|---:|---:|---:|---:|",
    ];
    for (const size of SIZES_MB) {
      const empty = median(times[`empty ${size}`]!);
      const first = median(times[`first ${size}`]!);
      const append = median(times[`append ${size}`]!);
      lines.push(
        `| ${size} MB | ${empty.toFixed(1)} | ${first.toFixed(1)} | +${
          (first - empty).toFixed(1)
        } | ${append.toFixed(1)} | +${(append - empty).toFixed(1)} |`,
      );
    }
    const largest = SIZES_MB.at(-1)!;
    lines.push("", `Output at ${largest} MB: \`${outputs[largest]}\`.`);
    if (ccusage !== undefined) lines.push("", ...ccusageLines(times, outputs, options.ccusage!));
    if (baselines.length > 0) lines.push("", ...baselineTable(times, outputs, baselines, SIZES_MB));
    return lines.join("\n");
  } finally {
    await Deno.remove(work, { recursive: true });
  }
}

/** ccusage's first call at 1 MB against this checkout's, and the goal line (item 6). */
function ccusageLines(
  times: Record<string, number[]>,
  outputs: Record<string, string>,
  binary: string,
): string[] {
  const own = times["first 1"]!;
  const theirs = times["ccusage 1"]!;
  // The median of the per-round ratios: each round's two calls ran side by side.
  const ratio = median(own.map((ms, i) => ms / theirs[i]!));
  reportGoal({
    item: "6",
    figure: "status line's first call at 1 MB ÷ ccusage's native binary (statusline, no cache)",
    measured: `${ratioText(ratio)} (${median(own).toFixed(1)} ms vs ${
      median(theirs).toFixed(1)
    } ms, ${own.length} runs)`,
    goal: "≤ 1.00×",
    met: ratio <= 1,
  });
  return [
    `First call at 1 MB (no cache): this checkout ${median(own).toFixed(1)} ms, ccusage's ` +
    `native binary (\`${binary}\` statusline --offline, its cache cleared) ` +
    `${median(theirs).toFixed(1)} ms; median of per-round ratios ${ratioText(ratio)}.`,
    "",
    `ccusage's line: \`${outputs["ccusage 1"]}\`; this checkout's: \`${outputs[1]}\`.`,
  ];
}

/** The first call of each baseline's status line against this checkout's, in markdown. */
function baselineTable(
  times: Record<string, number[]>,
  outputs: Record<string, string>,
  baselines: string[],
  SIZES_MB: number[],
): string[] {
  const lines = [
    "First call (no cache), this checkout against each baseline checkout, medians in ms " +
    "(ratio: this ÷ the baseline):",
    "",
    `| transcript | this checkout | ${baselines.map((dir) => `${dir} | ratio`).join(" | ")} |`,
    `|---|---:|${baselines.map(() => "---:|---:").join("|")}|`,
  ];
  for (const size of SIZES_MB) {
    const own = median(times[`first ${size}`]!);
    const cells = baselines.map((dir) => {
      const other = median(times[`first ${size} ${dir}`]!);
      return `${other.toFixed(1)} | ${(own / other).toFixed(2)}×`;
    });
    lines.push(`| ${size} MB | ${own.toFixed(1)} | ${cells.join(" | ")} |`);
  }
  const largest = SIZES_MB.at(-1)!;
  for (const dir of baselines) {
    const same = outputs[`${largest} ${dir}`] === outputs[largest];
    lines.push(
      "",
      `Output of ${dir} at ${largest} MB: \`${outputs[`${largest} ${dir}`]}\`${
        same ? " (the same)" : ""
      }.`,
    );
  }
  return lines;
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      runs: { type: "string" },
      quick: { type: "boolean", default: false },
      ccusage: { type: "string" },
      baseline: { type: "string", multiple: true, default: [] },
    },
  });
  const baselines = values.baseline.map((dir) => Deno.realPathSync(dir));
  const ccusage = await nativeCcusage(values.ccusage);
  if (ccusage === undefined) {
    // Said in the table too: a goal not measured is not met.
    reportGoal({
      item: "6",
      figure: "status line's first call at 1 MB ÷ ccusage's native binary (statusline, no cache)",
      measured: "not measured: ccusage not found (npm install -g ccusage, or --ccusage PATH)",
      goal: "≤ 1.00×",
      met: false,
    });
  }
  const runs = Number(values.runs ?? (values.quick ? 9 : 15));
  const sizes = values.quick ? [1] : ALL_SIZES_MB;
  console.log(await statuslineBench(runs, baselines, { sizes, ccusage }));
}
