// Copyright 2026 the brigade authors. MIT license.

/**
 * One measurement of `reader_compare.ts`, in a process of its own so that its peak RSS is
 * its own: `deno run --allow-read --allow-write bench/_reader_child.ts MODE READER PATH`
 * prints one JSON line ({@linkcode Measure}). The process loads the reader it measures and
 * nothing else (no `node:` module, none of the parent's imports), so that the runtime row
 * and every mode start from the same baseline: a status line's process, not a harness.
 *
 * Modes: `runtime` (the reader loaded, no work), `floor` (a newline scan of the same bytes:
 * `Deno.open`, reads into one reused 1 MiB buffer, `indexOf(10)` over each chunk), `reader`
 * (the first refresh), `naive` (`Deno.readTextFile` + `split` + `JSON.parse` of every line)
 * and `append` (refreshes after 10 KB appends; the file's size is restored afterwards).
 *
 * @module
 */

import type { TranscriptReader as Reader } from "../reader/mod.ts";
import { appendedTurns } from "./reader_data.ts";
import { median, peakRssKb } from "./_stats.ts";

/** What one measurement found. */
export interface Measure {
  /** Milliseconds of the measured work (for `append`, the median refresh). */
  ms: number;
  /** Milliseconds of CPU, every thread, user and system (`NaN` where unknown). */
  cpuMs: number;
  /** Peak resident set, in MiB, runtime included. */
  peakMb: number;
  /** What the work found, to check the modes agree; or why it failed. */
  result: string;
  /** Whether the work succeeded. */
  ok: boolean;
}

const CHUNK = 1 << 20;
const APPEND_BYTES = 10_000;
const APPENDS = 25;

/** CPU milliseconds of this process so far, from `/proc/self/stat` (Linux); `NaN` elsewhere. */
function cpuNow(): number {
  try {
    const stat = Deno.readTextFileSync("/proc/self/stat");
    // The fields after the command name (in parentheses, which may hold spaces).
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // utime and stime, fields 14 and 15 of the whole line, in clock ticks of 10 ms.
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
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

function naive(path: string): Promise<string> {
  return Deno.readTextFile(path).then((text) => {
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
  });
}

async function firstRefresh(TranscriptReader: typeof Reader, path: string): Promise<string> {
  const { facts, error } = await new TranscriptReader(path).refresh();
  if (error) throw error;
  return `${facts.model} ${facts.contextUsedTokens}`;
}

/** Times refreshes after 10 KB appends; restores the file's size afterwards. */
async function append(TranscriptReader: typeof Reader, path: string): Promise<[number, string]> {
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

async function measure(mode: string, readerModule: string, path: string): Promise<Measure> {
  // Every mode loads the reader, so that the runtime row counts its modules too.
  const { TranscriptReader } = await import(new URL(`file://${readerModule}`).href) as {
    TranscriptReader: typeof Reader;
  };
  const start = performance.now();
  const cpu = cpuNow();
  let result = "nothing";
  let ms = Number.NaN;
  if (mode === "append") {
    [ms, result] = await append(TranscriptReader, path);
    return { ms, cpuMs: Number.NaN, peakMb: peakRssKb() / 1024, result, ok: true };
  }
  if (mode === "floor") result = await floor(path);
  else if (mode === "reader") result = await firstRefresh(TranscriptReader, path);
  else if (mode === "naive") result = await naive(path);
  else if (mode !== "runtime") throw new Error(`unknown mode ${mode}`);
  ms = performance.now() - start;
  return { ms, cpuMs: cpuNow() - cpu, peakMb: peakRssKb() / 1024, result, ok: true };
}

if (import.meta.main) {
  const [mode, readerModule, path] = Deno.args as [string, string, string];
  let out: Measure;
  try {
    out = await measure(mode, readerModule, path);
  } catch (error) {
    const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    out = {
      ms: Number.NaN,
      cpuMs: Number.NaN,
      peakMb: peakRssKb() / 1024,
      result: reason,
      ok: false,
    };
  }
  console.log(JSON.stringify(out));
}
