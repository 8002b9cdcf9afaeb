// Copyright 2026 the brigade authors. MIT license.

/**
 * `deno task bench`: every figure of the performance goals (issue 28) beside its goal, from one
 * run. Each comparison script of {@linkcode SCRIPTS} runs in its quick mode, in a process of
 * its own and one after the other (so that none slows another), with `BENCH_GOALS_FILE` naming
 * a temporary file where `reportGoal()` of `_goal.ts` appends each figure. Then one Markdown
 * table on stdout (item, figure, measured, goal, met) in item order, with a row "not measured"
 * and why (the script failed, timed out or printed no figure) for an item that reported
 * nothing, so that a missing figure shows. Progress, and each script's own output, go to
 * stderr.
 *
 *   deno task bench [--runs=N] [--items=3,5] [--timeout=S] [--scripts=FILE.ts]
 *
 * `--runs=N` reaches each script in its own flag's form (without it each runs its quick
 * count); `--items` runs only the scripts of those items and prints only their rows;
 * `--timeout=S` replaces every script's time limit; `--scripts` takes the table from the
 * `SCRIPTS` export of another module. Exit code 0 when every script ran (a MISSED goal is a
 * finding, not an error), 1 when one failed, timed out or was not there, 2 for a wrong flag,
 * 130 when interrupted.
 *
 * @module
 */

import { parseArgs } from "node:util";
import type { GoalFigure } from "./_goal.ts";

/** A comparison script, the goals it reports and how to run it quickly. */
export interface GoalScript {
  /** The items of the goals it reports figures for, e.g. `["1", "2"]`. */
  items: readonly string[];
  /** Its path, from the repository's root (or absolute). */
  script: string;
  /**
   * The flags of `deno run` before it, e.g. `["--config=deno.dev.json", "--allow-all"]` for a
   * script that imports a development dependency.
   *
   * @default {["--allow-all"]}
   */
  deno?: readonly string[];
  /** Its arguments; `{runs}` in one stands for the number of runs. */
  args: readonly string[];
  /** The runs of its quick mode: what `{runs}` becomes without `--runs`. */
  runs: number;
  /** Seconds it may take before it is stopped (its whole process group). */
  timeoutS: number;
}

/**
 * The scripts `deno task bench` runs, in this order, one line each to adjust. The quick modes
 * add up to about 10 to 15 minutes on a two-core machine.
 */
// deno-fmt-ignore
export const SCRIPTS: readonly GoalScript[] = [
  { items: ["1", "2"], script: "bench/sse_compare.ts", deno: ["--config=deno.dev.json", "--allow-all"], args: ["--quick", "--runs={runs}"], runs: 3, timeoutS: 480 },
  { items: ["3", "4"], script: "bench/cost_table.ts", args: ["--runs={runs}", "--mem-runs=1", "--cases=dream,dream-keys,grader-ends"], runs: 3, timeoutS: 720 },
  { items: ["5"], script: "bench/dreams_concurrent.ts", args: ["--runs={runs}", "--events=100000"], runs: 1, timeoutS: 720 },
  { items: ["6", "9"], script: "bench/startup_compare.ts", args: ["--quick", "--runs={runs}"], runs: 9, timeoutS: 180 },
  { items: ["6"], script: "bench/reader_statusline.ts", args: ["--quick", "--runs={runs}"], runs: 9, timeoutS: 180 },
  { items: ["7"], script: "bench/reader_compare.ts", args: ["--runs={runs}", "--status-runs=3"], runs: 5, timeoutS: 360 },
  { items: ["8"], script: "bench/render_rerun_compare.ts", args: ["--quick", "--runs", "{runs}"], runs: 3, timeoutS: 300 },
];

/** Options for {@linkcode runGoals}. */
export interface GoalsOptions {
  /**
   * The scripts to run.
   *
   * @default {SCRIPTS}
   */
  scripts?: readonly GoalScript[];
  /**
   * The runs each script makes.
   *
   * @default {undefined} each script's own quick count
   */
  runs?: number;
  /**
   * The items to measure: only the scripts that report one of them run.
   *
   * @default {undefined} every item of the scripts
   */
  items?: readonly string[];
  /**
   * Seconds each script may take.
   *
   * @default {undefined} each script's own limit
   */
  timeoutS?: number;
  /**
   * The folder the scripts run in and their paths start from.
   *
   * @default {new URL("../", import.meta.url)} the repository's root
   */
  root?: URL;
  /**
   * Where the progress lines go, the scripts' own output among them.
   *
   * @default {undefined} standard error
   */
  progress?: (line: string) => void;
  /**
   * Stops the script running (its process group) and those after it.
   *
   * @default {undefined}
   */
  signal?: AbortSignal;
}

/** What became of one script. */
export interface ScriptOutcome {
  /** The script. */
  script: GoalScript;
  /** Whether it ran to a zero exit code, and if not, why. */
  status: "ran" | "failed" | "timed out" | "missing" | "interrupted";
  /** Why it did not run to the end: its exit code and error line, or the limit it hit. */
  reason: string;
  /** The figures it reported for its items, in its order. */
  figures: GoalFigure[];
  /** The seconds it took. */
  seconds: number;
}

/** What {@linkcode runGoals} measured. */
export interface GoalsReport {
  /** The items measured, in order. */
  items: string[];
  /** Each script that ran, in order. */
  outcomes: ScriptOutcome[];
  /** The Markdown table of every figure, and of every item not measured. */
  table: string;
  /** 0 when every script ran, 1 when one failed, timed out or was not there, 130 if interrupted. */
  code: number;
}

/**
 * Runs the scripts of the items asked for, one after the other, and tabulates their figures.
 *
 * @param options The scripts, runs, items and limits.
 * @returns The figures, what became of each script, the table and the exit code.
 */
export async function runGoals(options: GoalsOptions = {}): Promise<GoalsReport> {
  const all = options.scripts ?? SCRIPTS;
  const items = sortItems(options.items ?? all.flatMap((s) => s.items));
  const scripts = all.filter((s) => s.items.some((item) => items.includes(item)));
  const progress = options.progress ?? ((line: string) => console.error(line));
  const started = performance.now();
  const outcomes: ScriptOutcome[] = [];
  for (const [index, script] of scripts.entries()) {
    if (options.signal?.aborted) {
      outcomes.push({ script, status: "interrupted", reason: "", figures: [], seconds: 0 });
      continue;
    }
    const runs = options.runs ?? script.runs;
    const timeoutS = options.timeoutS ?? script.timeoutS;
    progress(
      `bench: [${index + 1}/${scripts.length}] ${command(script, runs)} (item ${
        script.items.join(", ")
      }; limit ${timeoutS} s; ${minutes(performance.now() - started)} so far)`,
    );
    const outcome = await runScript(script, { ...options, runs, timeoutS, progress });
    progress(`bench: ${script.script} ${said(outcome)}`);
    outcomes.push(outcome);
  }
  const failed = outcomes.some((o) => o.status !== "ran");
  const code = options.signal?.aborted ? 130 : failed ? 1 : 0;
  return { items, outcomes, table: goalsTable(items, outcomes), code };
}

/**
 * The Markdown table of the figures of `items`, in item order, a row "not measured" (and why)
 * for each item no script reported.
 *
 * @param items The items, in order.
 * @param outcomes What became of each script.
 * @returns The table, a header and a row a line.
 *
 * @example Usage
 * ```ts
 * import assert from "node:assert/strict";
 * import { goalsTable } from "./goals.ts";
 *
 * const script = { items: ["1", "2"], script: "bench/sse.ts", args: [], runs: 1, timeoutS: 60 };
 * const figure = { item: "1", figure: "32 MiB event", measured: "1.2×", goal: "≤ 2×", met: true };
 * const table = goalsTable(["1", "2"], [
 *   { script, status: "ran", reason: "", figures: [figure], seconds: 1 },
 * ]);
 * assert.deepEqual(table.split("\n").slice(2), [
 *   "| 1 | 32 MiB event | 1.2× | ≤ 2× | met |",
 *   "| 2 | not measured: bench/sse.ts printed no figure for item 2 | – | – | – |",
 * ]);
 * ```
 */
export function goalsTable(items: readonly string[], outcomes: readonly ScriptOutcome[]): string {
  const rows = ["| item | figure | measured | goal | met |", "| --- | --- | ---: | --- | --- |"];
  for (const item of items) {
    const figures = outcomes.flatMap((o) => o.figures.filter((f) => f.item === item));
    for (const f of figures) {
      rows.push(row([item, f.figure, f.measured, f.goal, f.met ? "met" : "**MISSED**"]));
    }
    if (figures.length > 0) continue;
    const why = outcomes.filter((o) => o.script.items.includes(item))
      .map((o) => `${o.script.script} ${notMeasured(o, item)}`).join("; ");
    rows.push(row([item, `not measured: ${why || "no script reports it"}`, "–", "–", "–"]));
  }
  return rows.join("\n");
}

/** Why `outcome` gave no figure for `item`. */
function notMeasured(outcome: ScriptOutcome, item: string): string {
  switch (outcome.status) {
    case "ran":
      return outcome.figures.length > 0
        ? `printed no figure for item ${item}`
        : "printed no figure";
    case "failed":
      return `failed (${outcome.reason})`;
    case "timed out":
      return `timed out (${outcome.reason})`;
    case "missing":
      return "does not exist";
    case "interrupted":
      return "was interrupted";
  }
}

/** A table row, each cell's pipes escaped and its line ends flattened. */
function row(cells: readonly string[]): string {
  return `| ${cells.map((c) => c.replaceAll("|", "\\|").replace(/\s*\n\s*/g, " ")).join(" | ")} |`;
}

/** Items in the order of their numbers (`"10"` after `"9"`), each once. */
function sortItems(items: readonly string[]): string[] {
  return [...new Set(items)].sort((a, b) =>
    (parseInt(a) || 0) - (parseInt(b) || 0) || a.localeCompare(b)
  );
}

/** The script's arguments with `{runs}` given. */
function argsOf(script: GoalScript, runs: number): string[] {
  return script.args.map((arg) => arg.replaceAll("{runs}", String(runs)));
}

/** The script's command line, as the progress shows it. */
function command(script: GoalScript, runs: number): string {
  return [script.script, ...argsOf(script, runs)].join(" ");
}

function minutes(ms: number): string {
  return ms < 60_000 ? `${Math.round(ms / 1000)} s` : `${(ms / 60_000).toFixed(1)} min`;
}

/** The closing progress line of a script. */
function said(o: ScriptOutcome): string {
  const took = minutes(o.seconds * 1000);
  const figures = `${o.figures.length} figure${o.figures.length === 1 ? "" : "s"}`;
  switch (o.status) {
    case "ran":
      return `ran in ${took}: ${figures}`;
    case "failed":
      return `failed in ${took} (${o.reason}): ${figures}`;
    case "timed out":
      return `timed out after ${took} (${o.reason}): ${figures}`;
    case "missing":
      return "does not exist";
    case "interrupted":
      return `was interrupted after ${took}`;
  }
}

interface RunOptions {
  runs: number;
  timeoutS: number;
  root?: URL;
  progress: (line: string) => void;
  signal?: AbortSignal;
}

/** Runs one script to its end, its limit or the signal, and reads the figures it reported. */
async function runScript(script: GoalScript, options: RunOptions): Promise<ScriptOutcome> {
  const root = options.root ?? new URL("../", import.meta.url);
  const url = new URL(script.script, root);
  if (!(await isFile(url))) {
    return { script, status: "missing", reason: "", figures: [], seconds: 0 };
  }
  const file = await Deno.makeTempFile({ prefix: "bench_goals_", suffix: ".jsonl" });
  try {
    const started = performance.now();
    const args = [...(script.deno ?? ["--allow-all"]), url.href, ...argsOf(script, options.runs)];
    const { code, stopped, tail } = await spawn(args, file, {
      ...options,
      label: script.script.replace(/^.*\//, "").replace(/\.ts$/, ""),
    });
    const seconds = (performance.now() - started) / 1000;
    // A figure of an item its line does not name is another script's to give (reader_compare
    // runs the status line's bench too): said, and left out of the table.
    const reported = await readFigures(file, options.progress);
    const figures = reported.filter((f) => script.items.includes(f.item));
    for (const f of reported.filter((f) => !figures.includes(f))) {
      options.progress(
        `bench: item ${f.item} is not on ${script.script}'s line, left out: ${f.figure}`,
      );
    }
    const status = stopped ?? (code === 0 ? "ran" : "failed");
    const reason = status === "failed"
      ? `exit code ${code}${errorLine(tail)}`
      : status === "timed out"
      ? `stopped at its limit of ${options.timeoutS} s`
      : "";
    return { script, status, reason, figures, seconds };
  } finally {
    await Deno.remove(file);
  }
}

async function isFile(url: URL): Promise<boolean> {
  try {
    return (await Deno.stat(url)).isFile;
  } catch {
    return false;
  }
}

interface Spawned {
  code: number;
  /** Why it was stopped, if it was. */
  stopped?: "timed out" | "interrupted";
  /** Its last lines of standard error. */
  tail: string[];
}

/**
 * `deno run ARGS` in a process group of its own, its output relayed a line at
 * a time; at its limit (or the signal) the whole group is stopped, since a comparison script
 * runs its cases in subprocesses that would go on loading the machine.
 */
async function spawn(
  args: string[],
  goalsFile: string,
  options: RunOptions & { label: string },
): Promise<Spawned> {
  const windows = Deno.build.os === "windows";
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", ...args],
    cwd: options.root ?? new URL("../", import.meta.url),
    env: { BENCH_GOALS_FILE: goalsFile },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    detached: !windows,
  }).spawn();
  const started = performance.now();
  const tail: string[] = [];
  const relay = (line: string, keep: boolean): void => {
    if (keep) tail.splice(0, Math.max(0, tail.push(line) - 50));
    const at = Math.round((performance.now() - started) / 1000);
    options.progress(`  ${options.label} ${at} s │ ${line}`);
  };
  let stopped: Spawned["stopped"];
  let killer: ReturnType<typeof setTimeout> | undefined;
  const stop = (why: "timed out" | "interrupted"): void => {
    stopped ??= why;
    signal(child, windows, "SIGTERM");
    // A process that ignores SIGTERM gets SIGKILL a few seconds on.
    killer ??= setTimeout(() => signal(child, windows, "SIGKILL"), 3000);
  };
  const timer = setTimeout(() => stop("timed out"), options.timeoutS * 1000);
  const onAbort = (): void => stop("interrupted");
  options.signal?.addEventListener("abort", onAbort);
  if (options.signal?.aborted) onAbort();
  try {
    const [status] = await Promise.all([
      child.status,
      lines(child.stdout, (line) => relay(line, false)),
      lines(child.stderr, (line) => relay(line, true)),
    ]);
    return { code: status.code, ...(stopped ? { stopped } : {}), tail };
  } finally {
    clearTimeout(timer);
    clearTimeout(killer);
    options.signal?.removeEventListener("abort", onAbort);
  }
}

/** Sends `signo` to the child's process group (to the child alone on Windows). */
function signal(child: Deno.ChildProcess, windows: boolean, signo: Deno.Signal): void {
  try {
    if (windows) child.kill(signo);
    else Deno.kill(-child.pid, signo);
  } catch {
    // It has already exited.
  }
}

/** Calls `each` with every line of `stream`, its last one included. */
async function lines(
  stream: ReadableStream<Uint8Array>,
  each: (line: string) => void,
): Promise<void> {
  let rest = "";
  for await (const text of stream.pipeThrough(new TextDecoderStream())) {
    const parts = (rest + text).split(/\r?\n|\r/);
    rest = parts.pop()!;
    for (const part of parts) each(part);
  }
  if (rest !== "") each(rest);
}

/** Deno's error line of a failed script (`error: Uncaught …`), else its last line, as `: …`. */
function errorLine(tail: readonly string[]): string {
  // deno colours its errors even into a pipe.
  // deno-lint-ignore no-control-regex
  const said = tail.map((line) => line.replace(/\x1b\[[0-9;]*m/g, "")).filter((l) => l.trim());
  const line = said.find((l) => l.startsWith("error: ")) ?? said.at(-1);
  if (line === undefined) return "";
  const text = line.trim();
  return `: ${text.length > 160 ? `${text.slice(0, 159)}…` : text}`;
}

/** The figures a script appended to `file`, a line each; a line that is not one is said and skipped. */
async function readFigures(file: string, progress: (line: string) => void): Promise<GoalFigure[]> {
  const figures: GoalFigure[] = [];
  for (const line of (await Deno.readTextFile(file)).split("\n")) {
    if (line.trim() === "") continue;
    const figure = parseFigure(line);
    if (figure === undefined) progress(`bench: not a figure, skipped: ${line.slice(0, 200)}`);
    else figures.push(figure);
  }
  return figures;
}

function parseFigure(line: string): GoalFigure | undefined {
  try {
    const value = JSON.parse(line);
    const strings = ["item", "figure", "measured", "goal"] as const;
    if (
      strings.every((key) => typeof value?.[key] === "string") && typeof value.met === "boolean"
    ) {
      const { item, figure, measured, goal, met } = value;
      return { item, figure, measured, goal, met };
    }
  } catch {
    // Not JSON: said by the caller.
  }
  return undefined;
}

const USAGE = "usage: deno task bench [--runs=N] [--items=3,5] [--timeout=S] [--scripts=FILE.ts]";

/** The flags, checked; a string says what is wrong with them. */
async function flags(args: string[]): Promise<GoalsOptions | string> {
  let values;
  try {
    ({ values } = parseArgs({
      args,
      options: {
        runs: { type: "string" },
        items: { type: "string" },
        timeout: { type: "string" },
        scripts: { type: "string" },
      },
    }));
  } catch (error) {
    return (error as Error).message;
  }
  const options: GoalsOptions = {};
  if (values.scripts !== undefined) {
    // Relative to where the user typed it: `deno task` runs this in the repository's root.
    const cwd = Deno.env.get("INIT_CWD") ?? Deno.cwd();
    const url = new URL(values.scripts, `file://${cwd.endsWith("/") ? cwd : `${cwd}/`}`);
    const scripts = (await import(url.href)).SCRIPTS;
    if (!Array.isArray(scripts)) return `--scripts: ${values.scripts} exports no SCRIPTS array`;
    options.scripts = scripts;
  }
  if (values.runs !== undefined) {
    const runs = Number(values.runs);
    if (!Number.isSafeInteger(runs) || runs < 1) {
      return `--runs must be a positive integer: ${values.runs}`;
    }
    options.runs = runs;
  }
  if (values.timeout !== undefined) {
    const timeoutS = Number(values.timeout);
    if (!(timeoutS > 0)) return `--timeout must be a positive number of seconds: ${values.timeout}`;
    options.timeoutS = timeoutS;
  }
  if (values.items !== undefined) {
    const known = sortItems((options.scripts ?? SCRIPTS).flatMap((s) => s.items));
    const items = values.items.split(",").map((item) => item.trim());
    const unknown = items.filter((item) => !known.includes(item));
    if (unknown.length > 0) {
      return `--items: no item ${unknown.join(", ")}; the items: ${known.join(", ")}`;
    }
    options.items = items;
  }
  return options;
}

/**
 * `deno task bench ARGS`: runs the scripts, prints the table and a closing note on stdout.
 *
 * @param args The command line's flags.
 * @returns The exit code.
 */
export async function main(args: string[]): Promise<number> {
  const options = await flags(args);
  if (typeof options === "string") {
    console.error(`bench: ${options}\n${USAGE}`);
    return 2;
  }
  const abort = new AbortController();
  const interrupt = (): void => abort.abort();
  Deno.addSignalListener("SIGINT", interrupt);
  const started = performance.now();
  try {
    const report = await runGoals({ ...options, signal: abort.signal });
    console.log(`${report.table}\n\n${note(report, args, performance.now() - started)}`);
    return report.code;
  } finally {
    Deno.removeSignalListener("SIGINT", interrupt);
  }
}

/** What the table's figures add up to, and the command, machine and time that made them. */
function note(report: GoalsReport, args: readonly string[], ms: number): string {
  const rows = report.items.map((item) =>
    report.outcomes.flatMap((o) => o.figures.filter((f) => f.item === item))
  );
  const figures = rows.flat();
  const met = figures.filter((f) => f.met).length;
  const unmeasured = rows.filter((r) => r.length === 0).length;
  const failed = report.outcomes.filter((o) => o.status !== "ran").length;
  return `${figures.length} figure${figures.length === 1 ? "" : "s"}: ${met} met, ${
    figures.length - met
  } MISSED; ` +
    `${unmeasured} of ${report.items.length} items not measured; ` +
    `${failed} of ${report.outcomes.length} scripts did not run to the end. ` +
    `\`${["deno task bench", ...args].join(" ")}\`, ${new Date().toISOString()}, ` +
    `Deno ${Deno.version.deno}, ${navigator.hardwareConcurrency} cores, ${minutes(ms)}.`;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
