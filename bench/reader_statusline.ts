// Copyright 2026 the brigade authors. MIT license.

/**
 * The status-line process (`cli/facts.ts --statusline`, as Claude Code runs it: a new
 * process per call, the status JSON on stdin) side by side with an empty `deno run`, on
 * generated transcripts of 1, 20 and 200 MB: the first call (no cache: the whole file is
 * read) and a call after a 10 KB append with the cache (only the append is read). Every
 * process is timed from spawn to exit by the parent; the modes are interleaved run by run,
 * so the noise of a shared machine falls on all of them alike. Prints a markdown table of
 * medians. Part of `deno task bench:reader`; alone:
 *
 *   deno run --allow-read --allow-write --allow-env --allow-run bench/reader_statusline.ts [--runs N]
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

function statusArgs(setup: Setup): string[] {
  return [
    "run",
    "--allow-read",
    "--allow-env=XDG_CACHE_HOME,HOME",
    `--allow-write=${setup.cacheHome}/brigade-transcript`,
    FACTS,
    "--statusline",
  ];
}

const APPENDED = appendedTurns(APPEND_BYTES);

/** The table of medians, in markdown. */
export async function statuslineBench(runs: number): Promise<string> {
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
    const outputs: Record<number, string> = {};
    // A warm-up of each, so that the module graph is compiled and cached.
    await time(["run", setup.empty], setup, "");
    for (let run = 0; run < runs; run++) {
      console.error(`status line: run ${run + 1}/${runs}…`);
      for (const size of SIZES_MB) {
        const path = files[size]!;
        const stdin = JSON.stringify({ transcript_path: path, model: { id: "claude-opus-5" } });
        const original = (await Deno.stat(path)).size;
        await Deno.remove(`${setup.cacheHome}/brigade-transcript`, { recursive: true })
          .catch(() => {});
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
    return lines.join("\n");
  } finally {
    await Deno.remove(work, { recursive: true });
  }
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: { runs: { type: "string", default: "15" } },
  });
  console.log(await statuslineBench(Number(values.runs)));
}
