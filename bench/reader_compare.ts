// Copyright 2026 the brigade authors. MIT license.

/**
 * `deno task bench:reader`: the transcript reader's first refresh against, in the same run,
 * the floor of any line reader (`Deno.open` + reads into one reused 1 MiB buffer +
 * `indexOf(10)` over each chunk) and the naive way (`Deno.readTextFile` + `split` +
 * `JSON.parse` of every line), on a generated transcript of real shapes; and the cost of a
 * refresh after a 10 KB append at 1 MB and at the full size. Each measurement runs in its own
 * subprocess, so its peak RSS (`VmHWM`, runtime included) is its own. Prints a markdown table,
 * then the status-line process table of `reader_statusline.ts` (1, 20 and 200 MB, against an
 * empty `deno run`).
 *
 * Usage: deno task bench:reader [--size MB] [--runs N] [--status-runs N] [--baseline DIR]...
 *
 * `--baseline DIR` (repeatable) adds, in the same interleaved runs, the first refresh of the
 * reader of another checkout (e.g. `git worktree add /tmp/before <commit>`) and its status-line
 * process's first call, so a change is measured against its base in one run. Every measured
 * process loads the reader it measures and nothing else of the other checkout.
 *
 * The data is generated once under bench/.data/ (gitignored) and reused.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import type { TranscriptReader as Reader } from "../reader/mod.ts";
import { appendedTurns, ensureTranscript } from "./reader_data.ts";
import { statuslineBench } from "./reader_statusline.ts";
import { median, peakRssKb } from "./_stats.ts";

const DATA = fileURLToPath(new URL("./.data/", import.meta.url));
const SELF = fileURLToPath(import.meta.url);
const OWN_READER = fileURLToPath(new URL("../reader/mod.ts", import.meta.url));
const CHUNK = 1 << 20;
const APPEND_BYTES = 10_000;
const APPENDS = 25;

interface Measure {
  /** Milliseconds of the measured work. */
  ms: number;
  /** Peak resident set, in MB, runtime included. */
  peakMb: number;
  /** What the work found, to check the modes agree; or why it failed. */
  result: string;
  ok: boolean;
}

async function floor(path: string): Promise<string> {
  const file = await Deno.open(path);
  const buffer = new Uint8Array(CHUNK);
  let lines = 0;
  try {
    for (let read = await file.read(buffer); read !== null; read = await file.read(buffer)) {
      const view = read === CHUNK ? buffer : buffer.subarray(0, read);
      for (let at = view.indexOf(10); at !== -1; at = view.indexOf(10, at + 1)) lines++;
    }
  } finally {
    file.close();
  }
  return `${lines} lines`;
}

async function naive(path: string): Promise<string> {
  const text = await Deno.readTextFile(path);
  let model = "";
  let context = -1;
  let parsed = 0;
  for (const line of text.split("\n")) {
    let record;
    try {
      record = JSON.parse(line);
    } catch {
      continue;
    }
    parsed++;
    if (record?.type === "attachment" && record.attachment?.type === "model") {
      model = record.attachment.identity?.modelId ?? model;
    } else if (record?.type === "assistant" && record.message?.model !== "<synthetic>") {
      const usage = record.message?.usage;
      if (usage) {
        context = (usage.input_tokens ?? 0) + (usage.cache_creation_input_tokens ?? 0) +
          (usage.cache_read_input_tokens ?? 0);
      }
    }
  }
  return `${model} ${context} (${parsed} lines parsed)`;
}

/** The reader measured: this checkout's, or a baseline's (`--reader PATH`). */
let TranscriptReader: typeof Reader;

async function reader(path: string): Promise<string> {
  const { facts, error } = await new TranscriptReader(path).refresh();
  if (error) throw error;
  return `${facts.model} ${facts.contextUsedTokens}`;
}

/** Times refreshes after 10 KB appends; restores the file's size afterwards. */
async function append(path: string): Promise<[number, string]> {
  const original = (await Deno.stat(path)).size;
  const reader = new TranscriptReader(path);
  await reader.refresh();
  const chunk = appendedTurns(APPEND_BYTES);
  const times: number[] = [];
  let facts = "";
  try {
    for (let i = 0; i < APPENDS; i++) {
      await Deno.writeFile(path, chunk, { append: true });
      const start = performance.now();
      const result = await reader.refresh();
      times.push(performance.now() - start);
      facts = `${result.facts.model} ${result.facts.contextUsedTokens}`;
    }
  } finally {
    await Deno.truncate(path, original);
  }
  return [median(times), facts];
}

async function child(mode: string, path: string, readerModule: string): Promise<void> {
  let out: Measure;
  try {
    // Every mode loads the reader, so that the runtime row counts its modules too.
    ({ TranscriptReader } = await import(toFileUrl(readerModule)));
    if (mode === "append") {
      const [ms, result] = await append(path);
      out = { ms, peakMb: peakRssKb() / 1024, result, ok: true };
    } else {
      const work = mode === "floor"
        ? floor
        : mode === "naive"
        ? naive
        : mode === "reader"
        ? reader
        : null;
      const start = performance.now();
      const result = work === null ? "nothing" : await work(path);
      out = { ms: performance.now() - start, peakMb: peakRssKb() / 1024, result, ok: true };
    }
  } catch (error) {
    const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    out = { ms: Number.NaN, peakMb: peakRssKb() / 1024, result: reason, ok: false };
  }
  console.log(JSON.stringify(out));
}

function toFileUrl(path: string): string {
  return new URL(`file://${path}`).href;
}

async function spawn(mode: string, path: string, readerModule = OWN_READER): Promise<Measure> {
  const { stdout, stderr, code } = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-read",
      "--allow-write",
      SELF,
      "--child",
      mode,
      "--reader",
      readerModule,
      path,
    ],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(stdout).trim();
  if (text === "") {
    const reason = new TextDecoder().decode(stderr).trim().split("\n")[0] ?? `exit ${code}`;
    return { ms: Number.NaN, peakMb: Number.NaN, result: `crashed: ${reason}`, ok: false };
  }
  return JSON.parse(text) as Measure;
}

function fmt(value: number, digits = 1): string {
  return Number.isFinite(value) ? value.toFixed(digits) : "–";
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      size: { type: "string", default: "200" },
      runs: { type: "string", default: "5" },
      child: { type: "string" },
      "status-runs": { type: "string", default: "15" },
      reader: { type: "string", default: OWN_READER },
      baseline: { type: "string", multiple: true, default: [] },
    },
    allowPositionals: true,
  });
  if (values.child !== undefined) {
    const path = Deno.args[Deno.args.length - 1]!;
    return await child(values.child, path, values.reader);
  }
  const baselines = values.baseline.map((dir) => Deno.realPathSync(dir));
  const sizeMb = Number(values.size);
  const runs = Number(values.runs);
  const big = `${DATA}transcript_${sizeMb}mb.jsonl`;
  const small = `${DATA}transcript_1mb.jsonl`;
  await ensureTranscript(big, sizeMb * 1e6);
  await ensureTranscript(small, 1e6);
  const actual = (await Deno.stat(big)).size;

  const modes = ["runtime", "floor", "reader", "naive"] as const;
  const results: Record<string, Measure[]> = {};
  for (const mode of [...modes, "append 1 MB", "append big", ...baselines]) results[mode] = [];
  for (let run = 0; run < runs; run++) {
    console.error(`run ${run + 1}/${runs}…`);
    for (const mode of modes) {
      results[mode]!.push(await spawn(mode, big));
      // Each baseline's reader right after this one's, so that both meet the same machine.
      if (mode !== "reader") continue;
      for (const dir of baselines) {
        results[dir]!.push(await spawn("reader", big, `${dir}/reader/mod.ts`));
      }
    }
    results["append 1 MB"]!.push(await spawn("append", small));
    results["append big"]!.push(await spawn("append", big));
  }

  const ms = (mode: string): number => median(results[mode]!.map((m) => m.ms));
  const peak = (mode: string): number => median(results[mode]!.map((m) => m.peakMb));
  const floorMs = ms("floor");
  const readerMs = ms("reader");
  const naiveMs = ms("naive");
  const failures = (mode: string): string => {
    const failed = results[mode]!.filter((m) => !m.ok);
    return failed.length
      ? `${failed.length}/${runs} failed: ${failed[0]!.result}`
      : results[mode]![0]!.result;
  };
  const smallSize = (await Deno.stat(small)).size;
  const mb = (bytes: number): string => `${(bytes / 1e6).toFixed(1)} MB`;
  const naiveFailed = results.naive!.every((m) => !m.ok);
  const speedup = naiveFailed ? "the naive way failed" : `${fmt(naiveMs / readerMs, 1)}×`;
  const lines = [
    `Transcript: ${mb(actual)} generated (${DATA}), hot page cache; ${runs} runs, medians.`,
    `Deno ${Deno.version.deno}, V8 ${Deno.version.v8}, ${navigator.hardwareConcurrency} cores.`,
    "",
    "| measurement | median ms | vs floor | peak RSS MB | result |",
    "|---|---:|---:|---:|---|",
    `| runtime only (a subprocess that loads the modules) | – | – | ${fmt(peak("runtime"))} | |`,
    `| floor: Deno.open + 1 MiB reads + indexOf(10) | ${fmt(floorMs)} | 1.00× | ${
      fmt(peak("floor"))
    } | ${failures("floor")} |`,
    `| **reader: first refresh** | ${fmt(readerMs)} | ${fmt(readerMs / floorMs, 2)}× | ${
      fmt(peak("reader"))
    } | ${failures("reader")} |`,
    ...baselines.map((dir) =>
      `| reader of ${dir}: first refresh | ${fmt(ms(dir))} | ${fmt(ms(dir) / floorMs, 2)}× | ${
        fmt(peak(dir))
      } | ${failures(dir)} |`
    ),
    `| naive: readTextFile + split + JSON.parse | ${fmt(naiveMs)} | ${
      fmt(naiveMs / floorMs, 2)
    }× | ${fmt(peak("naive"))} | ${failures("naive")} |`,
    `| refresh after a 10 KB append, ${mb(smallSize)} file | ${fmt(ms("append 1 MB"), 3)} | – | ${
      fmt(peak("append 1 MB"))
    } | median of ${APPENDS} appends a run |`,
    `| refresh after a 10 KB append, ${mb(actual)} file | ${fmt(ms("append big"), 3)} | – | ${
      fmt(peak("append big"))
    } | median of ${APPENDS} appends a run |`,
    "",
    `Goals: first refresh within 2× the floor: ${fmt(readerMs / floorMs, 2)}× ${
      readerMs <= 2 * floorMs ? "✓" : "✗"
    }; ≥ 5× faster than naive: ${speedup} ${naiveFailed || naiveMs >= 5 * readerMs ? "✓" : "✗"}; ` +
    `peak RSS < 100 MB: ${fmt(peak("reader"))} MB ${peak("reader") < 100 ? "✓" : "✗"}; ` +
    `append refresh flat: ${fmt(ms("append big") / ms("append 1 MB"), 2)}× at ${mb(actual)} vs ${
      mb(smallSize)
    }.`,
  ];
  console.log(lines.join("\n"));
  console.log("\n" + await statuslineBench(Number(values["status-runs"]), baselines));
}

if (import.meta.main) await main();
