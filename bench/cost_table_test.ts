// Copyright 2026 the brigade authors. MIT license.

import assert from "node:assert/strict";
import { allocatedBytes, roundRatio } from "./cost_table.ts";
import { ROOT, task } from "../tests/_command.ts";
import { ensureLog, ensureLogInfo, logPath } from "./_generate.ts";
import { fromNdjson, renderDream } from "../mod.ts";

Deno.test("deno task bench:cost prints the cost table of this checkout and of a baseline named from where it is typed", async () => {
  const { code, stdout, stderr } = await task(
    "bench:cost",
    ["--events=2000", "--runs=1", "--cases=fromNdjson,grader", "--baseline", "../mod.ts"],
    { cwd: `${ROOT}bench` },
  );
  assert.equal(code, 0, stderr);
  const header =
    "| case | entries read | × parse floor, CPU | wall | B allocated / event | peak RSS, old gen 16 MB |";
  const tables = stdout.split(header).slice(1);
  assert.equal(tables.length, 2, stdout);
  assert.match(stdout, new RegExp(`\\nbaseline file://${ROOT}mod\\.ts:\\n`));
  for (const table of tables) {
    const rows = table.trim().split("\n\n")[0]!.split("\n").slice(1).map((row) =>
      row.split("|").map((c) => c.trim())
    );
    assert.deepEqual(rows.map((row) => row[1]), [
      "`JSON.parse` floor",
      "`fromNdjson` drained",
      "`renderGrader`",
    ]);
    assert.deepEqual(rows.map((row) => row[2]), ["2,000", "2,000", rows[2]![2]]);
    assert.equal(rows[0]![3], "1.00×");
    for (const row of rows) {
      assert.match(row[3]!, /^\d+\.\d\d×$/);
      assert.match(row[5]!, /^\d[\d,]*$/);
      assert.match(row[6]!, /^\d[\d,]*\.\d MiB$/);
    }
  }
});

Deno.test("deno task bench:cost measures the dream on the secret-dense log too, and prints item 3's goals beside each figure", async () => {
  const goals = await Deno.makeTempFile({ suffix: ".ndjson" });
  try {
    const { code, stdout, stderr } = await task(
      "bench:cost",
      ["--events=2000", "--runs=1", "--cases=dream,dream-keys"],
      { cwd: `${ROOT}bench`, env: { BENCH_GOALS_FILE: goals } },
    );
    assert.equal(code, 0, stderr);
    const rows = stdout.split("\n").filter((line) => line.startsWith("| `"))
      .map((row) => row.split("|")[1]!.trim());
    assert.deepEqual(rows, [
      "`JSON.parse` floor",
      "`JSON.parse` floor, secret-dense log",
      "`renderDream`",
      "`renderDream`, secret-dense log",
    ]);
    const lines = stdout.split("\n").filter((line) => line.startsWith("goal · "));
    assert.equal(lines.length, 2, stdout);
    assert.match(
      lines[0]!,
      /^goal · 3 · dream CPU ÷ parse floor, 2k-event log: \d+\.\d\d× \(goal ≤ 2×\) (met|MISSED)$/,
    );
    assert.match(
      lines[1]!,
      /^goal · 3 · dream CPU ÷ parse floor, secret-dense 2k-event log: \d+\.\d\d× \(goal ≤ 2×\) (met|MISSED)$/,
    );
    const figures = (await Deno.readTextFile(goals)).trim().split("\n").map((line) =>
      JSON.parse(line) as { item: string; goal: string; met: boolean }
    );
    assert.deepEqual(figures.map((f) => [f.item, f.goal]), [["3", "≤ 2×"], ["3", "≤ 2×"]]);
  } finally {
    await Deno.remove(goals);
  }
});

Deno.test("the secret-dense generated log carries a key in every fourth event, and the dream shows none of them", async () => {
  const info = await ensureLogInfo(2_000, { keyEvery: 4 });
  assert.equal(info.keyEvery, 4);
  const path = logPath(2_000, { keyEvery: 4 });
  const lines = (await Deno.readTextFile(path)).trimEnd().split("\n");
  assert.equal(lines.length, 2_000);
  const plain = (await Deno.readTextFile(await ensureLog(2_000))).trimEnd().split("\n");
  const keys: string[] = [];
  for (const [i, line] of lines.entries()) {
    // The key's body: what follows a known prefix or `=`, `:` or `Bearer `.
    const key = /(?:sk-ant-api03-|password=|AKIA|Bearer |ghp_)[\w-]{12,}/.exec(line)?.[0];
    if ((i + 1) % 4 === 0) {
      assert.ok(key !== undefined, `no key in event ${i + 1}: ${line.slice(0, 200)}`);
      keys.push(key.slice(-12));
    } else {
      // Every other event is the plain log's, byte for byte.
      assert.equal(line, plain[i]);
    }
  }
  assert.equal(keys.length, 500);
  const { text } = await renderDream(fromNdjson(path), { cap: 10_000_000 });
  for (const key of keys) assert.ok(!text.includes(key), `a key survived in the dream: …${key}`);
  assert.ok(text.includes("[REDACTED_SECRET]"));
});

Deno.test("allocatedBytes() counts what a process allocated, collected or not, from V8's GC trace", async () => {
  // 200 arrays of 131,072 small integers (1 MiB each), each dropped at once: 200 MiB allocated,
  // little of it held.
  const script =
    "let kept = 0; for (let i = 0; i < 200; i++) kept += new Array(131072).fill(i).length; " +
    "console.error(kept, Deno.memoryUsage().heapUsed);";
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--v8-flags=--trace-gc-nvp", script],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.ok(output.success);
  const [kept, heapUsed] = new TextDecoder().decode(output.stderr).trim().split(" ").map(Number);
  assert.equal(kept, 200 * 131072);
  const trace = new TextDecoder().decode(output.stdout);
  assert.match(trace, /GC: \{.*"allocated":\d+/);
  const allocated = allocatedBytes(trace, heapUsed!);
  assert.ok(allocated > 200 * 2 ** 20, `${allocated} bytes counted, at least 200 MiB allocated`);
  assert.ok(allocated < 260 * 2 ** 20, `${allocated} bytes counted, far over what was allocated`);
});

Deno.test("allocatedBytes() adds what was allocated after the last collection", () => {
  const record = (allocated: number, end: number): string =>
    `[1:0x1:0]       34 ms: GC: {"pause":1,"gc":"s","allocated":${allocated},"end_object_size":${end}}`;
  const trace = [record(4_000, 1_000), "Memory pool: Removed pages: 0", record(6_000, 2_000)].join(
    "\n",
  );
  assert.equal(allocatedBytes(trace, 2_500), 10_500);
  assert.equal(allocatedBytes(trace, 1_500), 10_000); // a heap smaller at exit adds nothing
  assert.equal(allocatedBytes("", 3_000), 3_000); // no collection: the heap at exit is all
  // V8's unsigned subtraction wrapped (a start below the last end): nothing was allocated.
  const wrapped = [record(4_000, 1_000), record(18446744073709548000, 900)].join("\n");
  assert.equal(allocatedBytes(wrapped, 1_000), 4_100);
});

Deno.test("roundRatio() takes the median of each round's ratio, not the case's median over the floor's", () => {
  // Round 2 ran on a loaded machine: the floor and the case both took longer.
  const dream = [{ cpu: 21, wall: 1 }, { cpu: 36, wall: 1 }, { cpu: 19, wall: 1 }];
  const floor = [{ cpu: 10, wall: 1 }, { cpu: 18, wall: 1 }, { cpu: 10, wall: 1 }];
  // The rounds' ratios are 2.1, 2 and 1.9; the medians taken apart would give 21 ÷ 10 = 2.1.
  assert.equal(roundRatio(dream, floor, "cpu"), 2);
  // A run missing from the floor counts for nothing.
  assert.equal(
    roundRatio([{ cpu: 4, wall: 1 }, { cpu: 9, wall: 1 }], [{ cpu: 2, wall: 1 }], "cpu"),
    2,
  );
});
