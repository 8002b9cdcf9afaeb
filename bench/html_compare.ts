// Copyright 2026 the brigade authors. MIT license.

/**
 * The html renderer's benchmark as medians: `renderHtml(fromNdjson(path))`
 * on a generated 1,000,000-event Managed Agents log with the default budgets
 * (it stops reading at the transcript budget), and on a 10,000-event log with
 * a budget that holds the whole session (every item rendered: the
 * renderer's cost per byte of log), against `JSON.parse` of every line read
 * the same way. After a warmup, the cases run round-robin, N times each; it
 * prints a markdown table of medians, the log bytes read and the page size.
 * With `--baseline=PATH`, the `mod.ts` of another checkout (say, the commit
 * before a change, from `git archive`) runs the same render cases in the same
 * rounds, so a busy machine slows both alike. Last, not timed, the page of a
 * 200 MB Claude Code transcript at the default budgets (the one
 * `bench:render` uses): its items and their bytes, which must stay within
 * the transcript budget.
 *
 * Run: `deno task bench:html [--runs=N] [--baseline=/tmp/before/mod.ts]`
 *
 * @module
 */

import {
  fromClaudeCode,
  fromNdjson,
  HTML_TRANSCRIPT_BUDGET,
  type LogEntry,
  renderHtml,
} from "../mod.ts";
import { ensureLogInfo, logPath } from "./_generate.ts";
import { writeTranscript } from "./reader_data.ts";
import { parseEveryLine, sizeName } from "./grader_compare.ts";
import { median } from "./_stats.ts";

/** A budget that holds every item of the 10k log. */
const WHOLE = 1_000_000_000;

interface Case {
  size: number;
  name: string;
  run: (path: string) => Promise<unknown>;
  times: number[];
}

/** The 200 MB transcript `bench:render` reads (written on first use). */
const TRANSCRIPT = new URL(".data/transcript_200mb.jsonl", import.meta.url).pathname;

/** Entries pulled, the page's size, its items and their bytes, for one render (not timed). */
async function reach(
  path: string,
  transcriptBudget?: number,
): Promise<{ entries: number; pageBytes: number; items: number; itemBytes: number }> {
  let entries = 0;
  async function* counting(source: AsyncIterable<LogEntry>): AsyncGenerator<LogEntry> {
    for await (const entry of source) {
      entries++;
      yield entry;
    }
  }
  const source = path.endsWith(".jsonl") ? fromClaudeCode(path) : fromNdjson(path);
  const page = await renderHtml(
    counting(source),
    transcriptBudget === undefined ? {} : { transcriptBudget },
  );
  const main = page.slice(page.indexOf("<main>\n") + 7, page.indexOf("</main>"));
  const cut = main.indexOf('<p class="note transcript-cut"');
  const encoder = new TextEncoder();
  return {
    entries,
    pageBytes: encoder.encode(page).byteLength,
    items: main.match(/<(?:article|details) class="item /g)?.length ?? 0,
    itemBytes: encoder.encode(cut === -1 ? main : main.slice(0, cut)).byteLength,
  };
}

async function main(args: string[]): Promise<void> {
  const runsArg = args.find((arg) => arg.startsWith("--runs="));
  const runs = runsArg === undefined ? 11 : Number(runsArg.slice("--runs=".length));
  if (!Number.isSafeInteger(runs) || runs < 1) {
    console.error(`html_compare: --runs must be a positive integer: ${runsArg}`);
    Deno.exit(2);
  }
  const baselineArg = args.find((arg) => arg.startsWith("--baseline="));
  const baseline = baselineArg === undefined ? undefined : (await import(
    new URL(baselineArg.slice("--baseline=".length), `file://${Deno.cwd()}/`).href
  )) as {
    renderHtml: typeof renderHtml;
    fromNdjson: typeof fromNdjson;
  };
  const small = 10_000;
  const large = 1_000_000;
  for (const size of [small, large]) await ensureLogInfo(size);
  const cases: Case[] = [
    { size: small, name: "JSON.parse every line", run: parseEveryLine, times: [] },
    {
      size: small,
      name: "renderHtml, whole session",
      run: (path) => renderHtml(fromNdjson(path), { transcriptBudget: WHOLE }),
      times: [],
    },
    {
      size: large,
      name: "renderHtml, default budgets",
      run: (path) => renderHtml(fromNdjson(path)),
      times: [],
    },
  ];
  if (baseline !== undefined) {
    cases.push(
      {
        size: small,
        name: "baseline renderHtml, whole session",
        run: (path) => baseline.renderHtml(baseline.fromNdjson(path), { transcriptBudget: WHOLE }),
        times: [],
      },
      {
        size: large,
        name: "baseline renderHtml, default budgets",
        run: (path) => baseline.renderHtml(baseline.fromNdjson(path)),
        times: [],
      },
    );
  }
  console.error(`warmup, then ${runs} runs of each case…`);
  for (const c of cases) await c.run(logPath(c.size));
  for (let round = 0; round < runs; round++) {
    for (const c of cases) {
      const started = performance.now();
      await c.run(logPath(c.size));
      c.times.push(performance.now() - started);
    }
  }
  if (!await Deno.stat(TRANSCRIPT).then(() => true, () => false)) {
    await writeTranscript(TRANSCRIPT, 200 * 1024 * 1024);
  }
  const reaches = [
    await reach(logPath(small), WHOLE),
    await reach(logPath(large)),
    await reach(TRANSCRIPT),
  ];
  if (reaches[2]!.itemBytes > HTML_TRANSCRIPT_BUDGET) {
    throw new Error(`the 200 MB transcript's page holds ${reaches[2]!.itemBytes} bytes of items`);
  }
  const out = [
    `Deno ${Deno.version.deno}, V8 ${Deno.version.v8}, ${Deno.build.os}/${Deno.build.arch}; ` +
    `median of ${runs} runs after one warmup, cases round-robin.`,
    "",
    "| log | case | median | min … max |",
    "|---|---|---:|---:|",
  ];
  for (const c of cases) {
    out.push(
      `| ${sizeName(c.size)} | ${c.name} | ${median(c.times).toFixed(1)} ms | ` +
        `${Math.min(...c.times).toFixed(1)} … ${Math.max(...c.times).toFixed(1)} ms |`,
    );
  }
  out.push(
    "",
    "| render | entries pulled | items | items' bytes | page bytes |",
    "|---|---:|---:|---:|---:|",
  );
  const names = [
    `${sizeName(small)}, whole`,
    `${sizeName(large)}, default`,
    "200 MB Claude Code transcript, default",
  ];
  for (const [i, r] of reaches.entries()) {
    out.push(`| ${names[i]} | ${r.entries} | ${r.items} | ${r.itemBytes} | ${r.pageBytes} |`);
  }
  console.log(out.join("\n"));
}

if (import.meta.main) await main(Deno.args);
