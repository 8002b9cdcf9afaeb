// Copyright 2026 the brigade authors. MIT license.

/**
 * The status-line process (`cli/facts.ts --statusline`, as Claude Code runs it: a new
 * process per call, the status JSON on stdin) side by side with an empty `deno run`, on
 * generated transcripts of 1, 20 and 200 MB: the first call (no cache: the whole file is
 * read) and a call after a 10 KB append with the cache (only the append is read). Every
 * process is timed from spawn to exit by the parent; the modes are interleaved run by run,
 * so the noise of a shared machine falls on all of them alike. Prints a markdown table of
 * medians; with baselines (other checkouts), a second table of the first call of each
 * checkout's status line, interleaved with the others. Part of `deno task bench:reader`; alone:
 *
 *   deno run --allow-read --allow-write --allow-env --allow-run bench/reader_statusline.ts \
 *     [--runs N] [--baseline DIR]...
 *
 * @module
 */

import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { denoDir } from "../tests/_command.ts";
import { appendedTurns, ensureTranscript } from "./reader_data.ts";
import { median } from "./_stats.ts";

const DATA = fileURLToPath(new URL("./.data/", import.meta.url));
const FACTS = fileURLToPath(new URL("../cli/facts.ts", import.meta.url));
const SIZES_MB = [1, 20, 200];
const APPEND_BYTES = 10_000;

interface Setup {
  empty: string;
  cacheHome: string;
  env: Record<string, string>;
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
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(stdin));
  await writer.close();
  const { stdout, stderr, code } = await child.output();
  const ms = performance.now() - start;
  if (code !== 0) throw new Error(`exit ${code}: ${new TextDecoder().decode(stderr)}`);
  return [ms, new TextDecoder().decode(stdout).trim()];
}

function statusArgs(setup: Setup, facts = FACTS): string[] {
  return [
    "run",
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
 * The table of medians, in markdown; with `baselines` (folders of other checkouts), a second
 * table of their status line's first call against this one's.
 */
export async function statuslineBench(runs: number, baselines: string[] = []): Promise<string> {
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
    for (let run = 0; run < runs; run++) {
      console.error(`status line: run ${run + 1}/${runs}…`);
      for (const size of SIZES_MB) {
        const path = files[size]!;
        const stdin = JSON.stringify({ transcript_path: path, model: { id: "claude-opus-5" } });
        const original = (await Deno.stat(path)).size;
        for (const dir of baselines) {
          await clearCache(setup);
          const [ms, line] = await time(statusArgs(setup, `${dir}/cli/facts.ts`), setup, stdin);
          add(`first ${size} ${dir}`, ms);
          outputs[`${size} ${dir}`] = line;
        }
        await clearCache(setup);
        add(`empty ${size}`, (await time(["run", setup.empty], setup, stdin))[0]);
        const [first, line] = await time(statusArgs(setup), setup, stdin);
        add(`first ${size}`, first);
        outputs[size] = line;
        try {
          await Deno.writeFile(path, APPENDED, { append: true });
          add(`append ${size}`, (await time(statusArgs(setup), setup, stdin))[0]);
        } finally {
          await Deno.truncate(path, original);
        }
      }
    }
    const lines = [
      `Status-line process (cli/facts.ts --statusline) vs an empty \`deno run\`; ${runs} runs` +
      ` interleaved, medians of wall time from spawn to exit, in ms.`,
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
    lines.push("", `Output at 200 MB: \`${outputs[200]}\`.`);
    if (baselines.length > 0) lines.push("", ...baselineTable(times, outputs, baselines));
    return lines.join("\n");
  } finally {
    await Deno.remove(work, { recursive: true });
  }
}

/** The first call of each baseline's status line against this checkout's, in markdown. */
function baselineTable(
  times: Record<string, number[]>,
  outputs: Record<string, string>,
  baselines: string[],
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
  for (const dir of baselines) {
    const same = outputs[`200 ${dir}`] === outputs[200];
    lines.push(
      "",
      `Output of ${dir} at 200 MB: \`${outputs[`200 ${dir}`]}\`${same ? " (the same)" : ""}.`,
    );
  }
  return lines;
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      runs: { type: "string", default: "15" },
      baseline: { type: "string", multiple: true, default: [] },
    },
  });
  const baselines = values.baseline.map((dir) => Deno.realPathSync(dir));
  console.log(await statuslineBench(Number(values.runs), baselines));
}
