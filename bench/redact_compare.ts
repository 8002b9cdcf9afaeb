// Copyright 2026 the brigade authors. MIT license.

/**
 * redact() on hostile inputs as medians: each input of
 * {@linkcode ADVERSARIAL} is built at 64 KB and at 1 MB, and after a warmup
 * the cases run round-robin, N times each. It prints a markdown table of the
 * medians, the throughput and the ratio of the 1 MB median to the 64 KB one:
 * a linear pass gives about 16, a quadratic one about 256.
 *
 * Run: `deno run bench/redact_compare.ts [--runs=N]` (or `deno task bench:redact`)
 *
 * The inputs are exported for `redact_bench.ts`.
 *
 * @module
 */

import { redact } from "@brigade/transcript/redact";
import { median } from "./_stats.ts";

const KB = 1024;
const MB = KB * KB;

/** Repeats `unit` to exactly `length` characters. */
export function fill(unit: string, length: number): string {
  return unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
}

const PROJECT_KEY = "sk-proj-4fJx9_Qe-L2mZpR8tWc3YvHs_kN7bD1eG5aT0uIo";
const BASE64 = "QUJDRGVmZ2gxMjM0";
const PROSE = "The reader keeps one page of entries in memory and yields each event as " +
  "soon as its line is parsed, so the peak stays flat however long the log is.\n";

// Each one aims at a pattern: many names whose values overlap, quoted values
// that start inside quoted values at every escape level, long runs after a
// prefix, long whitespace and backslash runs, escapes and colour sequences
// before keys, `&` inside values, typed declarations, and plain prose. Each is
// built at 64 KB and at 1 MB: a linear pass takes about 16 times as long on
// the second.
export const ADVERSARIAL: Record<string, (size: number) => string> = {
  "token=token=…": (size) => fill("token=", size),
  "token:token:… (one long plain-word value)": (size) => fill("token:", size),
  'token: "… (quoted values back to back)': (size) => fill('token: "', size),
  "nested quotes at escape levels 0 to 7": (size) =>
    fill("secret='x token=\\\"y secret=\\\\\\'z api_key: \\\\\\\\\\\\\\\"w ", size),
  "sk- then a run of key characters": (size) => "sk-" + fill("a", size),
  "Bearer then a run of token characters": (size) => "Bearer " + fill("a", size),
  "bearer bearerbearer…": (size) => fill("bearer bearerbearerbearer ", size),
  "token then a run of spaces": (size) => "token" + fill(" ", size),
  "token then a run of backslashes": (size) => "token" + fill("\\", size),
  "escaped tabs after a separator": (size) => "token:" + fill("\\t", size),
  "\\u003c before sk- keys, back to back": (size) => fill("\\u003csk-", size),
  "\\u003c escapes, then one key": (size) => fill("\\u003c", size) + PROJECT_KEY,
  "ANSI sequences before sk- and Bearer, raw and escaped": (size) =>
    fill("\x1b[31msk-\\u001b[1;31mBearer ", size),
  "ANSI sequence with a run of parameters": (size) => "token=\x1b[" + fill("1;", size),
  "token=a1&a1&… (one value through every &)": (size) => "token=" + fill("a1&", size),
  "token=a1&x=&x=… (a pair after every &)": (size) => "token=" + fill("a1&x=", size),
  "token=x&a&a&… (names after every &)": (size) => fill("token=x&a&", size),
  "& then a long pair name": (size) => "token=abc123&" + fill("a", size),
  "typed declarations back to back": (size) => fill("token: Optional[str] = ", size),
  "typed union then a run of spaces": (size) => "token: A |" + fill(" ", size),
  "backtick values back to back": (size) => fill("token: `", size),
  "backticks at every escape level": (size) => fill("secret=`x token=\\`y api_key: \\\\`z ", size),
  "sk- then a run of base64": (size) => "sk-" + fill(BASE64, size),
  "Bearer then a run of base64": (size) => "Bearer " + fill(BASE64, size),
  "token: then a run of spaces": (size) => "token: " + fill(" ", size),
  "token then a run of tabs": (size) => "token" + fill("\t", size),
  'password=" then a run': (size) => 'password="' + fill("a", size),
  "Bearer then a run of escaped tabs": (size) => "Bearer" + fill("\\t", size),
  "ghp_ then a run of letters and digits": (size) => "ghp_" + fill("aB1", size),
  "AIza then a run of key characters": (size) => "AIza" + fill("aB1-", size),
  "glpat- chains after dots": (size) => fill("glpat-Ab1Cd2Ef3Gh4Ij5Kl6Mn.", size),
  "eyJ segments back to back": (size) => fill("eyJhbGciOiJ.e30.", size),
  "Authorization: token then a run": (size) => "Authorization: token " + fill("aB1", size),
  ":// then a long authority": (size) => "https://" + fill("a:", size),
  ":// back to back": (size) => fill("a://b:c@", size),
  "jq -C colour sequences before a separator": (size) => "token" + fill("\x1b[1;39m", size),
  "prose without a trigger": (size) => fill(PROSE, size),
};

function runsOption(args: string[]): number {
  const flag = args.find((arg) => arg.startsWith("--runs="));
  const runs = flag === undefined ? 15 : Number(flag.slice("--runs=".length));
  if (!Number.isSafeInteger(runs) || runs < 1) {
    throw new RangeError(`--runs must be an integer >= 1: current value is ${flag}`);
  }
  return runs;
}

function main(): void {
  const runs = runsOption(Deno.args);
  const cases = Object.entries(ADVERSARIAL).flatMap(([name, build]) => [
    { name, size: 64 * KB, text: build(64 * KB), times: [] as number[] },
    { name, size: MB, text: build(MB), times: [] as number[] },
  ]);
  let sink = 0;
  for (const item of cases) sink += redact(item.text).length; // warmup
  for (let run = 0; run < runs; run++) {
    for (const item of cases) {
      const start = performance.now();
      sink += redact(item.text).length;
      item.times.push(performance.now() - start);
    }
  }
  console.log(`redact() on hostile inputs, ${runs} runs each, medians\n`);
  console.log("| input | 64 KB | 1 MB | 1 MB / 64 KB | MB/s at 1 MB |");
  console.log("| --- | ---: | ---: | ---: | ---: |");
  for (let i = 0; i < cases.length; i += 2) {
    const small = median(cases[i]!.times);
    const large = median(cases[i + 1]!.times);
    const row = [
      cases[i]!.name.replaceAll("|", "\\|"),
      `${small.toFixed(3)} ms`,
      `${large.toFixed(2)} ms`,
      (large / small).toFixed(1),
      (1000 / large).toFixed(0),
    ];
    console.log(`| ${row.join(" | ")} |`);
  }
  if (sink < 0) throw new Error("Cannot happen: the sink only grows");
}

if (import.meta.main) main();
