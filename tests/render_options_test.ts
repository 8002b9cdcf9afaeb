// Copyright 2026 the brigade authors. MIT license.

/** `deno task render`'s renderer options from the command line, as a user types them. */

import assert from "node:assert/strict";
import { entryLine, inTempDir, task } from "./_cli.ts";
import { parseGrader } from "./_transcript_parse.ts";

/** A session of `n` alternating user and agent turns, the last saying how it ended. */
async function longLog(dir: string, n: number): Promise<string> {
  const lines = Array.from({ length: n }, (_, i) =>
    i === n - 1
      ? JSON.stringify({
        seq: n,
        session_id: "sesn_long",
        thread_id: null,
        event: { id: `sevt_${n}`, type: "agent.message", content: "All 42 tests pass." },
      })
      : entryLine(i + 1, "sesn_long", `turn ${i + 1} ${"·".repeat(40)}`));
  const path = `${dir}/long.ndjson`;
  await Deno.writeTextFile(path, lines.join("\n") + "\n");
  return path;
}

Deno.test("render --keep ends --transcript-budget reaches the grader: the ending is shown", async () => {
  await inTempDir(async (dir) => {
    const log = await longLog(dir, 400);
    const run = await task("render", ["--keep", "ends", "--transcript-budget", "2000", log], {
      cwd: dir,
    });
    assert.equal(run.code, 0, run.stderr);
    assert.ok(new TextEncoder().encode(run.stdout).length <= 2_000);
    const parsed = parseGrader(run.stdout);
    assert.equal(parsed.items.at(-1)!.body, "All 42 tests pass.");
    assert.match(parsed.notes[0]!, /^\[… \d+ bytes elided …\]$/);
    const head = await task("render", ["--transcript-budget", "2000", log], { cwd: dir });
    assert.equal(head.code, 0, head.stderr);
    assert.ok(!head.stdout.includes("All 42 tests pass."), "the default keeps the head");
  });
});

Deno.test("render --item-budget cuts each body, its indent counted", async () => {
  await inTempDir(async (dir) => {
    const log = await longLog(dir, 3);
    const run = await task("render", ["--item-budget", "12", log], { cwd: dir });
    assert.equal(run.code, 0, run.stderr);
    // "  turn 1 ·" is 11 bytes, one more "·" (2 bytes) would pass 12; 78 of the 87 bytes are cut.
    assert.match(run.stdout, /^\[user\]\n {2}turn 1 ·\n\[cut: 78 more bytes\]\n/);
  });
});

Deno.test("render refuses a renderer option it cannot use, with the library's words, exit 2", async () => {
  await inTempDir(async (dir) => {
    const log = await longLog(dir, 3);
    const cases: [string[], RegExp][] = [
      [["--keep", "tail"], /keep must be "head" or "ends": tail/],
      [["--transcript-budget", "0"], /transcriptBudget must be a positive integer: 0/],
      [["--item-budget", "1.5"], /itemBudget must be a positive integer: 1\.5/],
      [["--item-budget", "lots"], /Option "--item-budget" takes a number of bytes: "lots"/],
      [["--transcript-budget", "40"], /room for its cut note, at least \d+ bytes: 40/],
      [["--renderer", "dream", "--keep", "ends"], /The dream renderer takes no --keep/],
      [
        ["--renderer", "index", "--item-budget", "100"],
        /The index renderer takes no --item-budget/,
      ],
    ];
    for (const [args, message] of cases) {
      const run = await task("render", [...args, log], { cwd: dir });
      assert.equal(run.code, 2, `${args.join(" ")}: ${run.stderr}`);
      assert.match(run.stderr, message, args.join(" "));
      assert.equal(run.stdout, "", "nothing rendered");
    }
  });
});

Deno.test("render --help lists the renderer options", async () => {
  await inTempDir(async (dir) => {
    const run = await task("render", ["--help"], { cwd: dir });
    assert.equal(run.code, 0);
    for (const flag of ["--transcript-budget BYTES", "--item-budget BYTES", "--keep head|ends"]) {
      assert.ok(run.stdout.includes(flag), flag);
    }
  });
});
