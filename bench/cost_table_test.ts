// Copyright 2026 the brigade authors. MIT license.

import assert from "node:assert/strict";
import { allocatedBytes } from "./cost_table.ts";
import { ROOT, task } from "../tests/_command.ts";

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
