// Copyright 2026 the brigade authors. MIT license.

/**
 * The kit's per-event cost on a generated log, split from the source's: the
 * dream and `conversation()` over `fromNdjson` and over entries already
 * parsed (the floor's own loop, yielding what `JSON.parse` gives), against
 * the floor (a stream read, `TextDecoder`, line split and `JSON.parse` of
 * every line). Each case runs in its own process with `--trace-gc-nvp`; the
 * bytes V8 allocated (the sum of the GC records' `allocated`) are divided by
 * the events. The `16mb` cases cap V8's old generation at 16 MB and report
 * peak RSS. `--root=DIR` runs the same cases against another checkout (a
 * `git worktree` of an older commit), interleaved in the same run, so that
 * before and after are ratios of one run.
 *
 *   deno run --allow-all bench/kit_profile.ts [--events=1000000] [--runs=3] [--root=/tmp/kitbase]
 *
 * @module
 */

import { ensureLog } from "./_generate.ts";
import { median, peakRssKb } from "./_stats.ts";
import { parseEveryLine } from "./grader_compare.ts";

const arg = (name: string): string | undefined =>
  Deno.args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);

interface Sample {
  ms: number;
  cpuMs: number;
  peakKb: number;
  allocated: number;
  events: number;
}

/** The floor's loop, yielding each parsed line: a source with no cost of its own beyond parsing. */
async function* parsedLines(path: string): AsyncGenerator<unknown> {
  const decoder = new TextDecoder();
  let rest = "";
  using file = await Deno.open(path);
  for await (const chunk of file.readable) {
    const text = rest + decoder.decode(chunk, { stream: true });
    let start = 0;
    for (let end = text.indexOf("\n"); end !== -1; end = text.indexOf("\n", start)) {
      yield JSON.parse(text.slice(start, end));
      start = end + 1;
    }
    rest = text.slice(start);
  }
  if (rest.trim() !== "") yield JSON.parse(rest);
}

/**
 * This process's CPU time (user and system, every thread) in ms: steadier than the wall clock
 * on a shared machine, where a case may wait for a core.
 */
function cpuMs(): number {
  try {
    const stat = Deno.readTextFileSync("/proc/self/stat");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10; // utime, stime in 1/100 s
  } catch {
    return Number.NaN;
  }
}

async function runChild(kind: string, root: string, path: string): Promise<void> {
  // deno-lint-ignore no-explicit-any
  const kit: any = await import(`${root}/mod.ts`);
  const started = performance.now();
  const cpuStarted = cpuMs();
  let events = 0;
  const source = (name: string): AsyncIterable<unknown> =>
    name.endsWith("parsed") ? parsedLines(path) : kit.fromNdjson(path);
  switch (kind.replace(/_16mb$/, "")) {
    case "parse":
      events = await parseEveryLine(path);
      break;
    case "source":
      for await (const _ of kit.fromNdjson(path)) events++;
      break;
    case "dream":
    case "dream_parsed":
      await kit.renderDream(source(kind));
      events = -1;
      break;
    case "internal":
    case "internal_parsed": {
      // The built-ins' own path to the same items, drained: what conversation() is measured against.
      // Public since the kit moved to kit/ (forEachItem); a former checkout has it private.
      const options = {
        view: "dream",
        itemBudget: 2_000,
        transcriptBudget: Infinity,
        redact: true,
      };
      if (kit.forEachItem !== undefined) {
        await kit.forEachItem(source(kind), () => {}, { view: "dream" });
      } else {
        const internal = await import(`${root}/renderers/_conversation.ts`);
        if (internal.forEachItem !== undefined) {
          await internal.forEachItem(source(kind), "dream", undefined, options, () => {}, () => {});
        } else {
          const { oneSession } = await import(`${root}/renderers/_session.ts`);
          const items = internal.conversationItems(oneSession(source(kind), "dream"), options);
          for await (const _ of items) { /* drain */ }
        }
      }
      events = -1;
      break;
    }
    case "conversation":
    case "conversation_parsed": {
      // Counted from the meta file: a counting layer would add its own cost.
      for await (const _ of kit.conversation(source(kind), { view: "dream" })) { /* drain */ }
      events = -1;
      break;
    }
    default:
      throw new Error(`unknown case ${kind}`);
  }
  const ms = performance.now() - started;
  const cpu = cpuMs() - cpuStarted;
  // A last collection, so that the GC records count what was allocated after the one before.
  (globalThis as { gc?: () => void }).gc?.();
  console.error(`RESULT ${JSON.stringify({ ms, cpuMs: cpu, peakKb: peakRssKb(), events })}`);
}

async function inChild(kind: string, root: string, path: string): Promise<Sample> {
  const flags = ["--trace-gc-nvp", "--expose-gc"];
  if (kind.endsWith("_16mb")) flags.push("--max-old-space-size=16");
  const output = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-all",
      `--v8-flags=${flags.join(",")}`,
      import.meta.filename!,
      "--child",
      kind,
      root,
      path,
    ],
    stdout: "piped",
    stderr: "piped",
  }).output();
  // V8 writes its GC records on stdout; the child its result on stderr.
  const text = new TextDecoder().decode(output.stdout);
  const errors = new TextDecoder().decode(output.stderr);
  const result = /RESULT (\{.*\})/.exec(errors);
  if (!output.success || result === null) throw new Error(`${kind} ${root} failed:\n${errors}`);
  let allocated = 0;
  for (const match of text.matchAll(/"allocated":(\d+)/g)) {
    // A record now and then reads an unsigned underflow: not a real allocation.
    if (match[1]!.length < 15) allocated += Number(match[1]);
  }
  return { ...JSON.parse(result[1]!), allocated };
}

async function main(): Promise<void> {
  const size = Number(arg("events") ?? 1_000_000);
  const runs = Number(arg("runs") ?? 3);
  const here = new URL("..", import.meta.url).pathname.replace(/\/$/, "");
  const roots = [here, ...(arg("root") ? [arg("root")!] : [])];
  const path = await ensureLog(size);
  const kinds = (arg("cases") ??
    "parse,source,dream,dream_parsed,conversation,conversation_parsed,dream_16mb")
    .split(",");
  const samples = new Map<string, Sample[]>();
  for (let i = 0; i < runs; i++) {
    for (const kind of kinds) {
      for (const root of kind === "parse" || kind === "source" ? [here] : roots) {
        const key = `${kind}@${root}`;
        const sample = await inChild(kind, root, path);
        if (sample.events < 0) sample.events = size;
        samples.set(key, [...(samples.get(key) ?? []), sample]);
        console.error(`${key}: ${sample.ms.toFixed(0)} ms`);
      }
    }
  }
  const floor = median(samples.get(`parse@${here}`)!.map((s) => s.ms));
  const cpuFloor = median(samples.get(`parse@${here}`)!.map((s) => s.cpuMs));
  console.log(
    `${size} events, ${runs} runs (medians); floor ${floor.toFixed(0)} ms wall, ${
      cpuFloor.toFixed(0)
    } ms CPU\n`,
  );
  console.log(
    "| case | root | ÷ floor (wall) | ÷ floor (CPU) | bytes allocated / event | peak RSS |",
  );
  console.log("| --- | --- | ---: | ---: | ---: | ---: |");
  for (const [key, list] of samples) {
    const [kind, root] = key.split("@");
    const ms = median(list.map((s) => s.ms));
    const cpu = median(list.map((s) => s.cpuMs));
    const perEvent = median(list.map((s) => s.allocated / s.events));
    const peak = median(list.map((s) => s.peakKb)) / 1024;
    console.log(
      `| ${kind} | ${root === here ? "this" : root} | ${(ms / floor).toFixed(2)}× | ${
        (cpu / cpuFloor).toFixed(2)
      }× | ${perEvent.toFixed(0)} | ${peak.toFixed(1)} MB |`,
    );
  }
}

if (Deno.args[0] === "--child") await runChild(Deno.args[1]!, Deno.args[2]!, Deno.args[3]!);
else await main();
