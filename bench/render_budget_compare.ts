// Copyright 2026 the brigade authors. MIT license.

/**
 * A 200 MB Claude Code transcript through `render` (the grader, to stdout)
 * against its first 6 MB (the least of this generator's transcript that fills the budget): a transcript is one session, so the command stops
 * reading when the grader's budget is full, and both runs take about the same
 * time and print the same bytes. Medians of N runs of each, from the same run.
 *
 *   deno task bench:render [--runs N]
 *
 * @module
 */

import { writeTranscript } from "./reader_data.ts";
import { median } from "./_stats.ts";

const DATA = new URL(".data/", import.meta.url).pathname;
const BIG = `${DATA}transcript_200mb.jsonl`;
const HEAD = `${DATA}transcript_200mb_head6mb.jsonl`;
const CLI = new URL("../cli/render.ts", import.meta.url).pathname;

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

/** The first `bytes` of a file, cut after its last whole line. */
async function head(from: string, to: string, bytes: number): Promise<void> {
  const file = await Deno.open(from);
  try {
    const buffer = new Uint8Array(bytes);
    let read = 0;
    while (read < bytes) {
      const n = await file.read(buffer.subarray(read));
      if (n === null) break;
      read += n;
    }
    const end = buffer.subarray(0, read).lastIndexOf(0x0a) + 1;
    await Deno.writeFile(to, buffer.subarray(0, end));
  } finally {
    file.close();
  }
}

async function render(path: string): Promise<{ ms: number; stdout: Uint8Array }> {
  const started = performance.now();
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-read", "--allow-write", "--allow-env", CLI, path],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const ms = performance.now() - started;
  if (code !== 0) throw new Error(`render ${path} failed: ${new TextDecoder().decode(stderr)}`);
  return { ms, stdout };
}

const runsFlag = Deno.args.indexOf("--runs");
const runs = runsFlag === -1 ? 7 : Number(Deno.args[runsFlag + 1]);
await Deno.mkdir(DATA, { recursive: true });
if (!await exists(BIG)) await writeTranscript(BIG, 200 * 1024 * 1024);
await head(BIG, HEAD, 6 * 1024 * 1024);

const big: number[] = [];
const small: number[] = [];
let outputs: [Uint8Array, Uint8Array] | undefined;
for (let i = 0; i < runs; i++) {
  // Alternate, so both feel the same noise of the shared cores.
  const a = await render(BIG);
  const b = await render(HEAD);
  big.push(a.ms);
  small.push(b.ms);
  outputs ??= [a.stdout, b.stdout];
}
const same = outputs !== undefined && outputs[0].length === outputs[1].length &&
  outputs[0].every((byte, i) => byte === outputs![1][i]);
const size = (await Deno.stat(BIG)).size;
console.log(`render (grader, stdout), ${runs} runs each, medians:`);
console.log(`  ${(size / 1e6).toFixed(0)} MB transcript: ${median(big).toFixed(0)} ms`);
console.log(`  its first 6 MB:       ${median(small).toFixed(0)} ms`);
console.log(
  `  ratio: ${(median(big) / median(small)).toFixed(2)}x; output byte-identical: ${same}`,
);
