// Copyright 2026 the brigade authors. MIT license.

/**
 * A rerun of `render --renderer dream --out DIR` over 800 unchanged sessions (the real Claude
 * Code transcripts of the fixtures, 160 copies of each) against the first run into the empty
 * folder: the folder's record of its inputs (cli/_manifest.ts) ends with the folder's state, so
 * that the rerun tells from stats alone that nothing changed (cli/_quick_rerun.ts), reading no
 * input and no page back, building no INDEX.md and loading no renderer. Medians of N reruns; the folder (pages and INDEX.md) must be byte-identical after each,
 * and the rerun at least 5 times faster.
 *
 * With `--against CHECKOUT` (another checkout of the project, main's), the same sessions are
 * rendered by that checkout's command into a folder of its own, reruns of the two interleaved,
 * and the ratio of their medians printed (CPU, user and system, beside wall, from bash's
 * `times` to the millisecond, else `/usr/bin/time`); the two folders must be byte-identical. Where `strace` is installed, one
 * rerun of each is traced to count the folder's pages it opened and its file calls.
 *
 * Issue 28's item 8 (a rerun in at most a tenth of the former time, opening no page) is printed
 * through `reportGoal()` against `--against CHECKOUT`, else against `--before REV` (default
 * `6aff988`, the commit before the record kept the pages' heads), extracted with `git archive`.
 * `--quick` (3 reruns) takes about a minute.
 *
 * Each checkout's command runs with the flags of its own `deno task render` (as a user's rerun
 * does), from the folder of the sessions; neither pays `deno task`'s own start-up. The two take
 * turns going first in a round, and each round also times an empty module under the same
 * `deno run` flags: Deno's start-up, which no rerun goes below.
 *
 * A tenth of the former rerun's whole wall is below the command's own start-up (`render
 * --version` alone is about 0.11× of the former rerun), so no rerun can reach it that way. Beside
 * that figure, a second one measures what a rerun itself does: its own work, the rerun's wall
 * less the start-up floor of the same command in the same round (`render --version` of the same
 * checkout), divided by the former's own work measured the same way; its goal is the tenth.
 *
 * With `--baseline CHECKOUT` (this checkout's before, e.g. main's), that checkout reruns into a
 * folder of its own in the same rounds, the three taking turns going first: its two figures
 * against the former are printed beside this checkout's (with no goal), and this rerun's ratio
 * to it, so that a change is measured before and after in one run.
 *
 * With `--instructions`, where valgrind is installed, each checkout's rerun and `render --version`
 * are also counted once under cachegrind (user-space instructions, no goal): a figure a loaded
 * machine leaves within a few million, where the walls swing.
 *
 *   deno task bench:rerun [--runs N] [--quick] [--against /work/main | --before REV]
 *     [--baseline /tmp/before] [--instructions]
 *
 * @module
 */

import { median } from "./_stats.ts";
import { reportGoal, times } from "./_goal.ts";

const CLI = new URL("../cli/render.ts", import.meta.url).pathname;
const REAL = new URL("../fixtures/claude_code/real/", import.meta.url).pathname;
const COPIES = 160;
const TIME = "/usr/bin/time";
const VALGRIND = "/usr/bin/valgrind";
const BASH = "/bin/bash";

interface Run {
  ms: number;
  /** User and system CPU, when it can be read (see {@linkcode withCpu}); NaN otherwise. */
  cpuMs: number;
  /** The run's closing line. */
  stderr: string;
}

function exists(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

/**
 * The flags `deno task render` runs the command with in the checkout of `cli`, as its deno.json's
 * task gives them: a user's rerun starts with them (`--unstable-lazy-dynamic-imports` among
 * them, in this checkout: an `import()` loads its graph only when reached).
 */
function taskFlags(cli: string): string[] {
  const config = JSON.parse(Deno.readTextFileSync(new URL("../deno.json", `file://${cli}`)));
  const task = config.tasks.render;
  const command: string = typeof task === "string" ? task : task.command;
  const flags = /\bdeno run (.*?) cli\/render\.ts$/.exec(command)?.[1];
  if (flags === undefined) throw new Error(`${cli}: no "deno run … cli/render.ts" task beside it`);
  // The task runs in the checkout: a lock file it names is the checkout's, wherever this runs.
  const root = new URL("../", `file://${cli}`).pathname;
  return flags.split(" ").map((flag) =>
    /^--lock=[^/]/.test(flag) ? `--lock=${root}${flag.slice("--lock=".length)}` : flag
  );
}

/**
 * How a run's CPU (user and system, of the command and its threads) is read: bash's `times`, to
 * the millisecond, where bash is there; else `/usr/bin/time`, to the hundredth of a second (a
 * rerun's 40 ms of CPU then comes in steps of a quarter of it); else not at all.
 */
const CPU_BY: "bash" | "time" | undefined = exists(BASH)
  ? "bash"
  : exists(TIME)
  ? "time"
  : undefined;

/** The command line that runs `command` (a program and its arguments) with its CPU read. */
function withCpu(command: string[]): [string, string[]] {
  if (CPU_BY === "bash") {
    // `times` says the shell's own CPU, then its children's: `0m0.041s 0m0.012s`.
    return [BASH, ["-c", '"$@" >/dev/null; code=$?; times >&2; exit $code', "bash", ...command]];
  }
  if (CPU_BY === "time") return [TIME, ["-f", "cpu %U %S", ...command]];
  return [command[0]!, command.slice(1)];
}

/** The CPU `withCpu()` said on the run's last line (taken off `said`), in ms; NaN without it. */
function cpuSaid(said: string[]): number {
  if (CPU_BY === undefined) return Number.NaN;
  const line = said.pop() ?? "";
  // The shell's own, the line before its children's.
  if (CPU_BY === "bash") said.pop();
  const cpu = CPU_BY === "bash"
    ? /^(\d+)m([\d.]+)s (\d+)m([\d.]+)s$/.exec(line)
    : /^cpu ([\d.]+) ([\d.]+)$/.exec(line);
  if (cpu === null) return Number.NaN;
  const [, a, b, c, d] = cpu.map(Number);
  return CPU_BY === "bash" ? ((a! + c!) * 60 + b! + d!) * 1000 : (a! + b!) * 1000;
}

/** `cli` run in `dir` with `args`, timed, its CPU beside its wall (see {@linkcode withCpu}). */
async function timedRun(
  dir: string,
  cli: string,
  args: string[],
  flags = taskFlags(cli),
): Promise<Run> {
  const [program, programArgs] = withCpu([Deno.execPath(), "run", ...flags, cli, ...args]);
  const started = performance.now();
  const { code, stderr } = await new Deno.Command(program, {
    args: programArgs,
    cwd: dir,
    stdout: "null",
    stderr: "piped",
  }).output();
  const ms = performance.now() - started;
  const said = new TextDecoder().decode(stderr).trim().split("\n");
  const cpuMs = cpuSaid(said);
  if (code !== 0) throw new Error(`${args.join(" ")} failed: ${said.join("\n")}`);
  return { ms, cpuMs, stderr: said.at(-1) ?? "" };
}

/** A render of the files into `out`, with the command of `cli`, timed. */
function render(dir: string, files: string[], cli = CLI, out = "out/"): Promise<Run> {
  return timedRun(dir, cli, ["-r", "dream", "--out", out, ...files]);
}

/**
 * An empty module run with this checkout's `deno run` flags: Deno's own start-up, under any
 * command's.
 */
async function emptyRun(dir: string): Promise<Run> {
  await Deno.writeTextFile(`${dir}/empty.ts`, "");
  return await timedRun(dir, `${dir}/empty.ts`, [], taskFlags(CLI));
}

/** `render --version`: the command's start-up, the floor under any rerun. */
function startUp(dir: string, cli = CLI): Promise<Run> {
  return timedRun(dir, cli, ["--version"]);
}

/**
 * One rerun under `strace -f`: the pages of `out` it opened (the folder's record and index
 * aside) and its file calls (opens, stats, reads), or undefined without strace.
 */
async function traced(
  dir: string,
  files: string[],
  cli: string,
  out: string,
): Promise<{ pages: number; calls: number } | undefined> {
  if (!exists("/usr/bin/strace")) return undefined;
  const log = `${dir}/strace.log`;
  const calls = "openat,open,statx,newfstatat,fstat,lstat,stat,read,pread64";
  const { code } = await new Deno.Command("/usr/bin/strace", {
    args: [
      "-f",
      "-e",
      `trace=${calls}`,
      "-o",
      log,
      Deno.execPath(),
      "run",
      ...taskFlags(cli),
      cli,
      "-r",
      "dream",
      "--out",
      out,
      ...files,
    ],
    cwd: dir,
    stdout: "null",
    stderr: "null",
  }).output();
  if (code !== 0) return undefined;
  const lines = (await Deno.readTextFile(log)).split("\n");
  await Deno.remove(log);
  const page = new RegExp(`open(?:at)?\\(.*[/"]${out.replace(/\/$/, "")}/[^."/][^"/]*\\.md"`);
  return {
    pages: lines.filter((line) => page.test(line) && !line.includes("/INDEX.md")).length,
    calls: lines.filter((line) => /^\d+\s+\w+\(/.test(line)).length,
  };
}

/**
 * The user-space instructions (cachegrind's `I refs`, of every thread) of one run of `cli` with
 * `args` in `dir`, or undefined without valgrind: a count a loaded machine does not move (within
 * a few million, what background compilation and collection vary), where a wall does.
 */
async function instructions(dir: string, cli: string, args: string[]): Promise<number | undefined> {
  if (!exists(VALGRIND)) return undefined;
  const { code, stderr } = await new Deno.Command(VALGRIND, {
    args: [
      "--tool=cachegrind",
      "--cache-sim=no",
      "--cachegrind-out-file=/dev/null",
      Deno.execPath(),
      "run",
      ...taskFlags(cli),
      cli,
      ...args,
    ],
    cwd: dir,
    stdout: "null",
    stderr: "piped",
  }).output();
  const refs = /I\s+refs:\s+([\d,]+)/.exec(new TextDecoder().decode(stderr))?.[1];
  return code === 0 && refs !== undefined ? Number(refs.replaceAll(",", "")) : undefined;
}

/** A count of instructions in millions. */
function millions(count: number): string {
  return `${(count / 1e6).toFixed(1)}M`;
}

/** Every file of the folder but the record, with its bytes. */
async function folder(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for await (const { name } of Deno.readDir(dir)) {
    if (!name.startsWith(".")) files.set(name, await Deno.readTextFile(`${dir}/${name}`));
  }
  return files;
}

/** A flag's value, `--name VALUE` or `--name=VALUE`; undefined when not given. */
function flag(name: string): string | undefined {
  const at = Deno.args.findIndex((arg) => arg === `--${name}` || arg.startsWith(`--${name}=`));
  if (at === -1) return undefined;
  const arg = Deno.args[at]!;
  return arg.includes("=") ? arg.slice(arg.indexOf("=") + 1) : Deno.args[at + 1];
}

/** A former commit's files, extracted from this repository's history into a temporary folder. */
async function checkoutOf(rev: string): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: `rerun_before_${rev}_` });
  const root = new URL("../", import.meta.url).pathname;
  const git = new Deno.Command("git", {
    args: ["-C", root, "archive", rev],
    stdout: "piped",
  }).spawn();
  const tar = new Deno.Command("tar", { args: ["-x", "-C", dir], stdin: "piped" }).spawn();
  await git.stdout.pipeTo(tar.stdin);
  if (!(await git.status).success || !(await tar.status).success) {
    throw new Error(`cannot extract ${rev} with git archive`);
  }
  return dir;
}

const quick = Deno.args.includes("--quick");
const runs = Number(flag("runs") ?? (quick ? 3 : 5));
const before = flag("before") ?? "6aff988";
const againstDir = flag("against") ?? await checkoutOf(before);
const againstName = flag("against") ?? `${before} (git archive)`;
const against: string | undefined = `${againstDir}/cli/render.ts`;
const baselineDir = flag("baseline");

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(2)} s`;
}

function same(a: Map<string, string>, b: Map<string, string>): boolean {
  return a.size === b.size && [...a].every(([name, text]) => b.get(name) === text);
}

/** A checkout whose command reruns into its own folder, and what its rounds measured. */
interface Contender {
  name: string;
  cli: string;
  out: string;
  reruns: Run[];
  /** Its `render --version` in the same round. */
  floors: Run[];
}

function contender(name: string, cli: string, out: string): Contender {
  return { name, cli, out, reruns: [], floors: [] };
}

/** The medians of a contender's per-round ratios to the former's: wall, CPU, own work, own CPU. */
function ratiosTo(of: Contender, former: Contender): {
  wall: number;
  cpu: number;
  ownWall: number;
  ownCpu: number;
  ownMs: number;
  ownCpuMs: number;
} {
  const own = (c: Contender, by: (r: Run) => number): number[] =>
    c.reruns.map((r, i) => by(r) - by(c.floors[i]!));
  const ratio = (a: number[], b: number[]): number => median(a.map((x, i) => x / b[i]!));
  const wall = (r: Run): number => r.ms;
  const cpu = (r: Run): number => r.cpuMs;
  return {
    wall: ratio(of.reruns.map(wall), former.reruns.map(wall)),
    cpu: ratio(of.reruns.map(cpu), former.reruns.map(cpu)),
    ownWall: ratio(own(of, wall), own(former, wall)),
    ownCpu: ratio(own(of, cpu), own(former, cpu)),
    ownMs: median(own(of, wall)),
    ownCpuMs: median(own(of, cpu)),
  };
}

const dir = await Deno.makeTempDir({ prefix: "rerun_bench_" });
try {
  const sources = [...Deno.readDirSync(REAL)].map((e) => e.name).filter((n) =>
    n.endsWith(".jsonl")
  );
  const files: string[] = [];
  await Deno.mkdir(`${dir}/in`);
  for (let copy = 0; copy < COPIES; copy++) {
    for (const source of sources) {
      const file = `in/${copy}_${source}`;
      await Deno.copyFile(`${REAL}${source}`, `${dir}/${file}`);
      files.push(file);
    }
  }
  const ours = contender("this checkout", CLI, "out/");
  const former = contender(againstName, against, "peer/");
  const baseline = baselineDir === undefined
    ? undefined
    : contender(baselineDir, `${baselineDir}/cli/render.ts`, "base/");
  const first = await render(dir, files);
  const written = await folder(`${dir}/out`);
  for (const other of [former, baseline]) {
    if (other === undefined) continue;
    await render(dir, files, other.cli, other.out);
    if (!same(await folder(`${dir}/${other.out}`), written)) {
      throw new Error(`${other.cli} wrote another folder`);
    }
  }
  let said = "";
  const empties: Run[] = [];
  const round = async (c: Contender): Promise<void> => {
    const rerun = await render(dir, files, c.cli, c.out);
    c.reruns.push(rerun);
    if (c === ours) said = rerun.stderr;
    if (!same(await folder(`${dir}/${c.out}`), written)) {
      throw new Error(`${c.name}'s folder changed on a rerun`);
    }
    c.floors.push(await startUp(dir, c.cli));
  };
  const contenders = [ours, former, ...(baseline === undefined ? [] : [baseline])];
  for (let run = 0; run < runs; run++) {
    // The checkouts take turns going first in a round: whatever the first run of a round pays (a
    // cache the other one warmed, a core another process just left) falls on each alike.
    const shift = run % contenders.length;
    for (const c of [...contenders.slice(shift), ...contenders.slice(0, shift)]) await round(c);
    empties.push(await emptyRun(dir));
  }
  const { reruns, floors } = ours;
  const rerun = median(reruns.map((r) => r.ms));
  const cpu = median(reruns.map((r) => r.cpuMs));
  console.log(`${files.length} sessions (${sources.length} transcripts × ${COPIES})`);
  console.log(`first run: ${seconds(first.ms)}  (${first.stderr})`);
  console.log(
    `rerun:     ${seconds(rerun)} wall, ${seconds(cpu)} CPU, median of ${runs} (${said})`,
  );
  console.log(`ratio:     ${(first.ms / rerun).toFixed(1)}×; pages and INDEX.md byte-identical`);
  const floor = median(floors.map((r) => r.ms));
  const floorCpu = median(floors.map((r) => r.cpuMs));
  console.log(
    `start-up:  render --version ${seconds(floor)} wall, ${
      seconds(floorCpu)
    } CPU: the rerun's own work ${seconds(rerun - floor)} wall, ${seconds(cpu - floorCpu)} CPU`,
  );
  const trace = await traced(dir, files, CLI, "out/");
  if (trace !== undefined) {
    console.log(`traced:    a rerun opened ${trace.pages} pages, ${trace.calls} file calls`);
  }
  const peers = former.reruns;
  const peer = median(peers.map((r) => r.ms));
  const peerCpu = median(peers.map((r) => r.cpuMs));
  // The medians of the per-round ratios: each round's reruns ran side by side.
  const mine = ratiosTo(ours, former);
  console.log(
    `${againstName}: rerun ${seconds(peer)} wall, ${seconds(peerCpu)} CPU; this rerun ${
      times(mine.wall)
    } its wall, ${times(mine.cpu)} its CPU (medians of per-round ratios, interleaved)`,
  );
  const floorShare = median(floors.map((f, i) => f.ms / peers[i]!.ms));
  const emptyShare = median(empties.map((f, i) => f.ms / peers[i]!.ms));
  const emptyCpuShare = median(empties.map((f, i) => f.cpuMs / peers[i]!.cpuMs));
  console.log(
    `floor:     render --version alone is ${times(floorShare)} of its rerun's wall; an empty ` +
      `deno run (${seconds(median(empties.map((r) => r.ms)))}) ${times(emptyShare)} of its ` +
      `wall, ${times(emptyCpuShare)} of its CPU`,
  );
  reportGoal({
    item: "8",
    figure: `rerun of ${files.length} unchanged sessions ÷ ${againstName}'s, wall`,
    measured: `${times(mine.wall)} (CPU ${times(mine.cpu)}; ${seconds(rerun)} vs ${
      seconds(peer)
    }, start-up alone ${times(floorShare)}; ${runs} runs)`,
    goal: "≤ 0.10×",
    met: mine.wall <= 0.1,
  });
  // Each rerun's own work, less its command's start-up in the same round, against the former's.
  const formerOwn = ratiosTo(former, former);
  console.log(
    `own work:  this rerun ${seconds(mine.ownMs)} wall, ${
      seconds(mine.ownCpuMs)
    } CPU; ${againstName}'s ${seconds(formerOwn.ownMs)} wall, ${
      seconds(formerOwn.ownCpuMs)
    } CPU (each less its render --version)`,
  );
  reportGoal({
    item: "8",
    figure: `the rerun's own work (rerun − its render --version) ÷ ${againstName}'s own work, wall`,
    measured: `${times(mine.ownWall)} (CPU ${times(mine.ownCpu)}; ${seconds(mine.ownMs)} vs ${
      seconds(formerOwn.ownMs)
    }; ${runs} runs)`,
    goal: "≤ 0.10×, its CPU too",
    // A difference of two walls: on a loaded machine a round's `render --version` can take longer
    // than its rerun, and the wall alone then passes with no work measured: a median own work of
    // no time is no measure, and the CPU must be within the goal as well.
    met: mine.ownMs > 0 && mine.ownWall <= 0.1 && mine.ownCpu <= 0.1,
  });
  if (baseline !== undefined) {
    // The same two figures for another checkout measured in the same rounds (no goal: a before).
    const theirs = ratiosTo(baseline, former);
    const direct = ratiosTo(ours, baseline);
    console.log(
      `baseline:  ${baseline.name}: rerun ${
        seconds(median(baseline.reruns.map((r) => r.ms)))
      } wall, ${seconds(median(baseline.reruns.map((r) => r.cpuMs)))} CPU; ÷ ${againstName}'s: ${
        times(theirs.wall)
      } wall (CPU ${times(theirs.cpu)}), own work ${times(theirs.ownWall)} (CPU ${
        times(theirs.ownCpu)
      }; ${seconds(theirs.ownMs)})`,
    );
    console.log(
      `           this rerun ÷ the baseline's: ${times(direct.wall)} wall, ${
        times(direct.cpu)
      } CPU; own work ${times(direct.ownWall)} wall, ${times(direct.ownCpu)} CPU`,
    );
  }
  if (Deno.args.includes("--instructions")) {
    // Each checkout's rerun and its `render --version`, counted once under cachegrind.
    const counted: string[] = [];
    const counts = new Map<Contender, { rerun: number; start: number }>();
    for (const c of contenders) {
      const rerun = await instructions(dir, c.cli, ["-r", "dream", "--out", c.out, ...files]);
      const start = await instructions(dir, c.cli, ["--version"]);
      if (rerun === undefined || start === undefined) continue;
      counts.set(c, { rerun, start });
      counted.push(`${c.name} ${millions(rerun)} (--version ${millions(start)})`);
    }
    const of = counts.get(former);
    if (of !== undefined) {
      console.log(`instructions: ${counted.join("; ")}`);
      for (const [c, n] of counts) {
        if (c === former) continue;
        console.log(
          `              ${c.name} ÷ the former: ${times(n.rerun / of.rerun)}, own work ${
            times((n.rerun - n.start) / (of.rerun - of.start))
          }`,
        );
      }
    }
  }
  const peerTrace = await traced(dir, files, against, "peer/");
  if (peerTrace !== undefined) {
    console.log(
      `traced:    its rerun opened ${peerTrace.pages} pages, ${peerTrace.calls} file calls`,
    );
  }
  if (trace !== undefined) {
    reportGoal({
      item: "8",
      figure: "pages a rerun with nothing changed reads back (traced)",
      measured: `${trace.pages} (${trace.calls} file calls)`,
      goal: "0",
      met: trace.pages === 0,
    });
  }
  if (first.ms / rerun < 5) throw new Error("the rerun is not 5 times faster than the first run");
} finally {
  await Deno.remove(dir, { recursive: true });
  if (flag("against") === undefined) await Deno.remove(againstDir, { recursive: true });
}
