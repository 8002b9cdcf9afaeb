// Copyright 2026 the brigade authors. MIT license.

import assert from "node:assert/strict";
import { type GoalScript, runGoals } from "./goals.ts";
import { relative } from "node:path";
import { ROOT, task } from "../tests/_command.ts";

const GOAL = new URL("./_goal.ts", import.meta.url).href;

/** Stand-ins for the comparison scripts, each doing one thing a real one may do. */
const STAND_INS: Record<string, string> = {
  // Two figures of item 1 (one met, one missed) and one of item 2 that shows its arguments and
  // whether it may use the network.
  "reports.ts": `import { reportGoal } from "${GOAL}";
reportGoal({ item: "1", figure: "32 MiB event followed ÷ listed", measured: "1.40×", goal: "≤ 2×", met: true });
reportGoal({ item: "1", figure: "small events ÷ lines/", measured: "1.12×", goal: "≤ 1×", met: false });
const net = Deno.permissions.querySync({ name: "net" }).state;
reportGoal({ item: "2", figure: "arguments", measured: \`\${Deno.args.join(" ")} (net \${net})\`, goal: "any", met: true });
console.error("done");
`,
  // A figure of item 3, then an error before item 4's.
  "fails.ts": `import { reportGoal } from "${GOAL}";
reportGoal({ item: "3", figure: "dream CPU ÷ parse floor", measured: "2.31×", goal: "≤ 2×", met: false });
throw new Error("boom before item 4");
`,
  "silent.ts": `console.log("a table without goals");\n`,
  // A case in a subprocess of its own (its pid written down, its output elsewhere, so that
  // only stopping it ends it), then waiting for ever.
  "hangs.ts": `const child = new Deno.Command(Deno.execPath(), {
  args: ["eval", "await new Promise((resolve) => setTimeout(resolve, 120_000))"],
  stdout: "null",
  stderr: "null",
}).spawn();
Deno.writeTextFileSync(Deno.args[0], String(child.pid));
console.error("waiting");
await child.status;
`,
};

async function standIns(): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "goals_test_" });
  for (const [name, text] of Object.entries(STAND_INS)) {
    await Deno.writeTextFile(`${dir}/${name}`, text);
  }
  return dir;
}

function script(dir: string, name: string, fields: Partial<GoalScript>): GoalScript {
  return { items: [], script: `${dir}/${name}`, args: [], runs: 1, timeoutS: 60, ...fields };
}

/** The table's rows as cells, header and rule left out. */
function rows(table: string): string[][] {
  return table.trim().split("\n").slice(2).map((line) =>
    line.slice(2, -2).split(" | ").map((cell) => cell.trim())
  );
}

/** Whether the stand-in's case, whose pid it wrote to `file`, still runs; it is ended if so. */
async function caseRuns(file: string): Promise<boolean> {
  const pid = Number(await Deno.readTextFile(file));
  if (Deno.build.os === "windows" || !(await running(pid))) return false;
  Deno.kill(pid, "SIGKILL");
  return true;
}

/** Whether a process runs: it is there and not a zombie (as `ps` says). */
async function running(pid: number): Promise<boolean> {
  const { stdout } = await new Deno.Command("ps", { args: ["-o", "stat=", "-p", String(pid)] })
    .output();
  const state = new TextDecoder().decode(stdout).trim();
  return state !== "" && !state.startsWith("Z");
}

Deno.test("runGoals() tabulates each figure in item order, and says why an item was not measured", async () => {
  const dir = await standIns();
  try {
    const scripts = [
      script(dir, "silent.ts", { items: ["5"] }),
      script(dir, "fails.ts", { items: ["3", "4"] }),
      // A line naming item 3 only: the figures it reports (items 1 and 2) are left out.
      script(dir, "reports.ts", { items: ["3"] }),
      script(dir, "reports.ts", { items: ["1", "2"], args: ["--runs={runs}", "--mib=8"], runs: 3 }),
      script(dir, "absent.ts", { items: ["9"] }),
    ];
    const progress: string[] = [];
    const report = await runGoals({ scripts, progress: (line) => progress.push(line) });
    assert.deepEqual(rows(report.table), [
      ["1", "32 MiB event followed ÷ listed", "1.40×", "≤ 2×", "met"],
      ["1", "small events ÷ lines/", "1.12×", "≤ 1×", "**MISSED**"],
      ["2", "arguments", "--runs=3 --mib=8 (net granted)", "any", "met"],
      ["3", "dream CPU ÷ parse floor", "2.31×", "≤ 2×", "**MISSED**"],
      ["4", rows(report.table)[4]![1]!, "–", "–", "–"],
      ["5", `not measured: ${dir}/silent.ts printed no figure`, "–", "–", "–"],
      ["9", `not measured: ${dir}/absent.ts does not exist`, "–", "–", "–"],
    ]);
    assert.match(
      rows(report.table)[4]![1]!,
      new RegExp(
        `^not measured: ${dir}/fails\\.ts failed \\(exit code 1: error: Uncaught .*boom before item 4\\)$`,
      ),
    );
    assert.deepEqual(report.outcomes.map((o) => o.status), [
      "ran",
      "failed",
      "ran",
      "ran",
      "missing",
    ]);
    assert.ok(progress.includes(
      `bench: item 1 is not on ${dir}/reports.ts's line, left out: small events ÷ lines/`,
    ));
    assert.equal(report.code, 1, "a script failed");
    // Progress names each script as it starts, relays its output and says how it ended.
    assert.ok(
      progress.some((l) => l.startsWith(`bench: [4/5] ${dir}/reports.ts --runs=3 --mib=8`)),
    );
    assert.ok(progress.some((l) => /^ {2}reports \d+ s │ done$/.test(l)), progress.join("\n"));
    const ended = new RegExp(`^bench: ${dir}/reports\\.ts ran in \\d+ s: 3 figures$`);
    assert.ok(progress.some((l) => ended.test(l)), progress.join("\n"));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("runGoals() stops a script at its limit, its subprocesses with it, and goes on", async () => {
  const dir = await standIns();
  try {
    const scripts = [
      script(dir, "hangs.ts", { items: ["6"], args: [`${dir}/pid`], timeoutS: 2 }),
      script(dir, "reports.ts", { items: ["1", "2"], args: ["--runs={runs}"] }),
    ];
    const report = await runGoals({ scripts, items: ["6", "1"], progress: () => {} });
    assert.deepEqual(rows(report.table), [
      ["1", "32 MiB event followed ÷ listed", "1.40×", "≤ 2×", "met"],
      ["1", "small events ÷ lines/", "1.12×", "≤ 1×", "**MISSED**"],
      [
        "6",
        `not measured: ${dir}/hangs.ts timed out (stopped at its limit of 2 s)`,
        "–",
        "–",
        "–",
      ],
    ]);
    assert.equal(report.code, 1, "a script timed out");
    assert.equal(await caseRuns(`${dir}/pid`), false, "its case still runs");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("runGoals() stopped by its signal stops the script running and runs no other", async () => {
  const dir = await standIns();
  try {
    const abort = new AbortController();
    const scripts = [
      script(dir, "hangs.ts", { items: ["6"], args: [`${dir}/pid`], timeoutS: 60 }),
      script(dir, "reports.ts", { items: ["1"] }),
    ];
    const progress = (line: string): void => {
      if (line.endsWith("│ waiting")) abort.abort();
    };
    const report = await runGoals({ scripts, progress, signal: abort.signal });
    assert.deepEqual(report.outcomes.map((o) => o.status), ["interrupted", "interrupted"]);
    assert.deepEqual(rows(report.table).map((row) => row[1]), [
      `not measured: ${dir}/reports.ts was interrupted`,
      `not measured: ${dir}/hangs.ts was interrupted`,
    ]);
    assert.equal(report.code, 130);
    assert.equal(await caseRuns(`${dir}/pid`), false, "its case still runs");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("deno task bench prints the table on stdout and exits 0 when every script ran, goals missed or not", async () => {
  const dir = await standIns();
  try {
    await Deno.writeTextFile(
      `${dir}/table.ts`,
      `export const SCRIPTS = ${
        JSON.stringify([
          script(dir, "reports.ts", {
            items: ["1", "2"],
            deno: ["--allow-env=BENCH_GOALS_FILE", "--allow-write"],
            args: ["--runs={runs}"],
          }),
          script(dir, "silent.ts", { items: ["5"] }),
          script(dir, "fails.ts", { items: ["3"] }),
        ])
      };\n`,
    );
    // --items=5,2 leaves the failing script out; the table file is named from where it is typed.
    const table = relative(`${ROOT}bench`, `${dir}/table.ts`);
    const { code, stdout, stderr } = await task(
      "bench",
      [`--scripts=${table}`, "--items=5,2", "--runs=7"],
      { cwd: `${ROOT}bench` },
    );
    assert.equal(code, 0, stderr);
    const [printed, note] = stdout.trim().split("\n\n");
    assert.deepEqual(rows(printed!), [
      ["2", "arguments", "--runs=7 (net prompt)", "any", "met"],
      ["5", `not measured: ${dir}/silent.ts printed no figure`, "–", "–", "–"],
    ]);
    assert.match(
      note!,
      new RegExp(
        "^1 figure: 1 met, 0 MISSED; 1 of 2 items not measured; 0 of 2 scripts did not run " +
          `to the end\\. \`deno task bench --scripts=${table} --items=5,2 --runs=7\``,
      ),
    );
    // The scripts' own output and the progress go to stderr, not into the table.
    assert.match(stderr, /bench: \[1\/2\] .*reports\.ts --runs=7 \(item 1, 2; limit 60 s/);
    assert.match(stderr, /silent \d+ s │ a table without goals/);
    assert.doesNotMatch(stdout, /a table without goals|goal · /);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("deno task bench refuses an item no script reports, and a wrong --runs, with exit code 2", async () => {
  const items = await task("bench", ["--items=3,12"], { cwd: ROOT });
  assert.equal(items.code, 2);
  assert.match(items.stderr, /--items: no item 12; the items: 1, 2, 3, 4, 5, 6, 7, 8, 9\n/);
  const runs = await task("bench", ["--runs=0"], { cwd: ROOT });
  assert.equal(runs.code, 2);
  assert.match(runs.stderr, /--runs must be a positive integer: 0\n/);
  assert.equal(items.stdout + runs.stdout, "");
});
