// Copyright 2026 the brigade authors. MIT license.

/**
 * One huge user message (60 MiB of text, a key at both ends) through `dream`
 * and through `grader`, against the same file read and parsed alone: medians
 * of several runs, ratios from the same run, and each case's peak RSS (VmHWM,
 * runtime included), every case in its own process, with an empty run's for
 * the runtime's own. Every case reads the file through `fromNdjson`, as a user
 * does, so the baseline is what any reading of the file costs (its bytes, the
 * decoded line, the parsed value) and the ratios isolate the renderers.
 *
 *   deno task bench:huge [--runs=3]
 *
 * @module
 */

import { caseInChild, median, peakRssKb } from "./_stats.ts";

const MESSAGE_MIB = 60;
const runs = Number(Deno.args.find((a) => a.startsWith("--runs="))?.slice(7) ?? 3);
const DATA = new URL("./.data/", import.meta.url);
const KEY = "sk-proj-Q7xv2LmN9pR4sT8wZ1bC5dF3gH6jK0aY";

interface Sample {
  ms: number;
  peakKb: number;
  note: string;
}

/** Writes the log once (`bench/.data/huge_60mib.ndjson`): the huge message, then a short reply. */
export async function ensureHugeLog(): Promise<string> {
  const path = new URL(`huge_${MESSAGE_MIB}mib.ndjson`, DATA).pathname;
  try {
    if ((await Deno.stat(path)).size > MESSAGE_MIB * 2 ** 20) return path;
  } catch { /* not written yet */ }
  await Deno.mkdir(DATA, { recursive: true });
  const encoder = new TextEncoder();
  const words = "the build log says nothing new here; ".repeat(2 ** 20 / 37);
  const body = encoder.encode(words.repeat(Math.ceil(MESSAGE_MIB * 2 ** 20 / words.length)));
  using file = await Deno.open(path, { write: true, create: true, truncate: true });
  const write = async (bytes: Uint8Array): Promise<void> => {
    for (let at = 0; at < bytes.length;) at += await file.write(bytes.subarray(at));
  };
  const entry = (seq: number, event: Record<string, unknown>): string =>
    JSON.stringify({ seq, session_id: "sesn_huge", thread_id: null, event });
  const [open, close] = entry(1, {
    id: "sevt_1",
    type: "user.message",
    content: `${KEY} \u0000 ${KEY}`,
  }).split("\\u0000");
  await write(encoder.encode(open!));
  await write(body.subarray(0, MESSAGE_MIB * 2 ** 20));
  await write(encoder.encode(`${close}\n`));
  await write(
    encoder.encode(`${entry(2, { id: "sevt_2", type: "agent.message", content: "Done." })}\n`),
  );
  return path;
}

async function runChild(kind: string, path: string): Promise<void> {
  const { fromNdjson, renderDream, renderGrader } = await import("../mod.ts");
  const started = performance.now();
  let note = "";
  if (kind === "parse") {
    let count = 0;
    for await (const _ of fromNdjson(path)) count++;
    note = `${count} lines`;
  } else if (kind === "dream") {
    const dream = await renderDream(fromNdjson(path));
    note = `${dream.text.length} chars, firstUser ${dream.firstUser.length} chars, ${
      dream.text.includes("sk-proj") ? "LEAKED" : "redacted"
    }`;
  } else if (kind === "runtime") {
    note = "an empty run";
  } else {
    const text = await renderGrader(fromNdjson(path));
    note = `${text.length} chars`;
  }
  const ms = performance.now() - started;
  console.log(JSON.stringify({ ms, peakKb: peakRssKb(), note }));
}

async function main(): Promise<void> {
  const path = await ensureHugeLog();
  const kinds = ["runtime", "parse", "dream", "grader"];
  const samples: Record<string, Sample[]> = Object.fromEntries(kinds.map((k) => [k, []]));
  for (let i = 0; i < runs; i++) {
    for (const kind of kinds) {
      samples[kind]!.push(await caseInChild<Sample>(import.meta.filename!, kind, path));
    }
  }
  const ms = (kind: string): number => median(samples[kind]!.map((s) => s.ms));
  const peak = (kind: string): number => median(samples[kind]!.map((s) => s.peakKb)) / 1024;
  console.log(`one ${MESSAGE_MIB} MiB user message; runs: ${runs} (medians)\n`);
  console.log("| case | median | vs parse | peak RSS | (peak − runtime) / message | |");
  console.log("| --- | ---: | ---: | ---: | ---: | --- |");
  for (const kind of kinds.slice(1)) {
    console.log(
      `| ${kind} | ${ms(kind).toFixed(0)} ms | ${(ms(kind) / ms("parse")).toFixed(2)}× | ${
        peak(kind).toFixed(0)
      } MB | ${((peak(kind) - peak("runtime")) / MESSAGE_MIB).toFixed(2)}× | ${
        samples[kind]![0]!.note
      } |`,
    );
  }
  console.log(`\nruntime alone: ${peak("runtime").toFixed(0)} MB peak RSS`);
}

if (import.meta.main) {
  if (Deno.args[0] === "--child") await runChild(Deno.args[1]!, Deno.args[2]!);
  else await main();
}
