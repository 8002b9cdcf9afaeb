// Copyright 2026 the brigade authors. MIT license.

/**
 * A rerun of `render --renderer dream --out DIR` over 800 unchanged sessions (the real Claude
 * Code transcripts of the fixtures, 160 copies of each) against the first run into the empty
 * folder: the folder's record of its inputs (cli/_manifest.ts) lets the rerun skip every input
 * without reading it. Medians of N reruns; the folder (pages and INDEX.md) must be byte-identical
 * after each, and the rerun at least 5 times faster.
 *
 *   deno task bench:rerun [--runs N]
 *
 * @module
 */

import { median } from "./_stats.ts";

const CLI = new URL("../cli/render.ts", import.meta.url).pathname;
const REAL = new URL("../fixtures/claude_code/real/", import.meta.url).pathname;
const COPIES = 160;

async function render(dir: string, files: string[]): Promise<{ ms: number; stderr: string }> {
  const started = performance.now();
  const { code, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-read", "--allow-write", CLI, "-r", "dream", "--out", "out/", ...files],
    cwd: dir,
    stdout: "null",
    stderr: "piped",
  }).output();
  const ms = performance.now() - started;
  const said = new TextDecoder().decode(stderr);
  if (code !== 0) throw new Error(`render failed: ${said}`);
  return { ms, stderr: said.trim() };
}

/** Every file of the folder but the record, with its bytes. */
async function folder(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for await (const { name } of Deno.readDir(dir)) {
    if (!name.startsWith(".")) files.set(name, await Deno.readTextFile(`${dir}/${name}`));
  }
  return files;
}

const runsFlag = Deno.args.indexOf("--runs");
const runs = runsFlag === -1 ? 5 : Number(Deno.args[runsFlag + 1]);
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
  const first = await render(dir, files);
  const written = await folder(`${dir}/out`);
  const reruns: number[] = [];
  let said = "";
  for (let run = 0; run < runs; run++) {
    const rerun = await render(dir, files);
    reruns.push(rerun.ms);
    said = rerun.stderr;
    const now = await folder(`${dir}/out`);
    if (now.size !== written.size || [...now].some(([name, text]) => written.get(name) !== text)) {
      throw new Error("the folder changed on a rerun");
    }
  }
  const rerun = median(reruns);
  console.log(`${files.length} sessions (${sources.length} transcripts × ${COPIES})`);
  console.log(`first run: ${(first.ms / 1000).toFixed(2)} s  (${first.stderr})`);
  console.log(`rerun:     ${(rerun / 1000).toFixed(2)} s  median of ${runs} (${said})`);
  console.log(`ratio:     ${(first.ms / rerun).toFixed(1)}×; pages and INDEX.md byte-identical`);
  if (first.ms / rerun < 5) throw new Error("the rerun is not 5 times faster than the first run");
} finally {
  await Deno.remove(dir, { recursive: true });
}
