// Copyright 2026 the brigade authors. MIT license.

/**
 * The command-line conventions users bring from deno, ccusage and claude-code-log, on both
 * commands as a user runs them: `deno task …` from another folder. `-V`, help within 80 columns,
 * no escape codes where they would show, counts with their noun right, `--since`/`--until` as
 * YYYYMMDD, a transcript from a pipe or stdin, a flag typo named, reasons before the verdict, a
 * `.jsonl` called a transcript.
 */

import assert from "node:assert/strict";
import { bash, entryLine, inTempDir, ROOT, shellQuote, task, taskLine } from "./_cli.ts";

const EXAMPLE = new URL("fixtures/claude_code/example.jsonl", ROOT).pathname;
const POSIX = Deno.build.os !== "windows";

Deno.test("-V prints the version on both commands, as --version does", async () => {
  await inTempDir(async (dir) => {
    for (const command of ["render", "facts"]) {
      const short = await task(command, ["-V"], { cwd: dir });
      const long = await task(command, ["--version"], { cwd: dir });
      assert.equal(short.code, 0, short.stderr);
      assert.match(short.stdout, /^@brigade\/transcript \d+\.\d+\.\d+/);
      assert.equal(short.stdout, long.stdout, command);
    }
  });
});

Deno.test("--help fits in 80 columns on both commands, and names -V", async () => {
  await inTempDir(async (dir) => {
    for (const command of ["render", "facts"]) {
      const run = await task(command, ["--help"], { cwd: dir });
      assert.equal(run.code, 0, run.stderr);
      const long = run.stdout.split("\n").filter((line) => [...line].length > 80);
      assert.deepEqual(long, [], `${command} --help`);
      assert.match(run.stdout, /^ {2}-V, --version /m);
    }
  });
});

Deno.test("a mistyped flag is answered with the flag meant, exit 2", async () => {
  await inTempDir(async (dir) => {
    const cases: Array<[string, string[], string]> = [
      ["render", ["--rendrer", "dream"], 'Unknown option "--rendrer": did you mean --renderer?'],
      ["render", ["--sinse=20260901"], 'Unknown option "--sinse": did you mean --since?'],
      [
        "render",
        ["--skip-invalids"],
        'Unknown option "--skip-invalids": did you mean --skip-invalid?',
      ],
      ["facts", ["--jsno"], 'Unknown option "--jsno": did you mean --json?'],
      ["facts", ["--folow"], 'Unknown option "--folow": did you mean --follow?'],
      // Nothing near: no guess.
      ["render", ["--bogus"], 'Unknown option "--bogus"'],
    ];
    for (const [command, args, message] of cases) {
      const run = await task(command, args, { cwd: dir });
      assert.equal(run.code, 2, run.stderr);
      assert.equal(run.stderr, `${command}: ${message}\nRun with --help for usage.\n`);
    }
  });
});

/** A log of two sessions, one started on 1 September 2026 (UTC), the other on the 2nd. */
function twoDays(): string {
  return [
    entryLine(1, "sesn_first", "first day", "2026-09-01T23:30:00Z"),
    entryLine(2, "sesn_second", "second day", "2026-09-02T00:30:00Z"),
  ].join("\n") + "\n";
}

Deno.test("--since and --until take YYYYMMDD as ccusage does, a day in UTC", async () => {
  await inTempDir(async (dir) => {
    await Deno.writeTextFile(`${dir}/two.ndjson`, twoDays());
    const cases: Array<[string[], string]> = [
      [["--since", "20260902"], "sesn_second"],
      [["--until", "20260901"], "sesn_first"],
      [["--since", "20260902", "--until", "20260902"], "sesn_second"],
    ];
    for (const [range, kept] of cases) {
      const compact = await task("render", ["-r", "dream", "-o", "out/", ...range, "two.ndjson"], {
        cwd: dir,
      });
      assert.equal(compact.code, 0, compact.stderr);
      assert.equal(
        compact.stderr,
        "render: 1 rendered, 0 unchanged, 0 failed, 1 not started within --since/--until\n",
      );
      const pages = (await Array.fromAsync(Deno.readDir(`${dir}/out`)))
        .map((entry) => entry.name).filter((name) => name.startsWith("sesn_"));
      assert.deepEqual(pages, [`${kept}.md`], range.join(" "));
      await Deno.remove(`${dir}/out`, { recursive: true });
    }
    const bad = await task("render", ["--since", "2026091", "two.ndjson"], { cwd: dir });
    assert.equal(bad.code, 2);
    assert.equal(
      bad.stderr,
      'render: Option "--since" takes a day in UTC (2026-09-01 or 20260901) or a time with its zone (2026-09-01T10:00:00Z, 2026-09-01T12:00+02:00): "2026091"\nRun with --help for usage.\n',
    );
    const help = await task("render", ["--help"], { cwd: dir });
    assert.match(help.stdout, /--since DATE .*\n.*a day in UTC \(2026-09-01 or 20260901\)/);
  });
});

Deno.test({
  name: "a transcript from <(…) or stdin is read as a Claude Code transcript, as the file is",
  ignore: !POSIX,
  async fn(): Promise<void> {
    await inTempDir(async (dir) => {
      const file = await task("render", [EXAMPLE], { cwd: dir });
      assert.equal(file.code, 0, file.stderr);
      assert.match(file.stdout, /^\[user\]\n {2}Add a --json flag/);
      const piped = await bash(
        `${taskLine("render", ["PIPE"]).replace("'PIPE'", `<(cat ${shellQuote(EXAMPLE)})`)}`,
        dir,
      );
      assert.equal(piped.stderr, "");
      assert.equal(piped.stdout, file.stdout);
      const stdin = await task("render", ["-"], {
        cwd: dir,
        stdin: await Deno.readTextFile(EXAMPLE),
      });
      assert.equal(stdin.stderr, "");
      assert.equal(stdin.stdout, file.stdout);
      // A newer Claude Code's transcript may start with a record of a type the first ones lacked.
      const newer = JSON.stringify({ type: "permission-mode", permissionMode: "default" }) + "\n" +
        await Deno.readTextFile(EXAMPLE);
      await Deno.writeTextFile(`${dir}/newer.jsonl`, newer);
      const newerFile = await task("render", ["newer.jsonl"], { cwd: dir });
      const newerStdin = await task("render", ["-"], { cwd: dir, stdin: newer });
      assert.equal(newerStdin.stderr, "");
      assert.equal(newerStdin.stdout, newerFile.stdout);
      assert.equal(newerStdin.stdout, file.stdout);
    });
  },
});

Deno.test("a .jsonl that is not a transcript is said not to be a transcript, not a log", async () => {
  await inTempDir(async (dir) => {
    await Deno.writeTextFile(`${dir}/noise.jsonl`, "a\nb\nc\nd\ne\nf\n");
    await Deno.writeTextFile(`${dir}/empty.jsonl`, "");
    const noise = await task("render", ["noise.jsonl"], { cwd: dir });
    assert.equal(noise.code, 1);
    assert.match(
      noise.stderr,
      /^render: noise\.jsonl does not look like a Claude Code transcript: its first 5 records are not transcript records \(noise\.jsonl:5: /,
    );
    const empty = await task("render", ["empty.jsonl"], { cwd: dir });
    assert.equal(
      empty.stderr,
      "render: no Claude Code transcript records in empty.jsonl\nrender: 0 rendered, 0 unchanged, 1 failed\n",
    );
    for (const run of [noise, empty]) assert.doesNotMatch(run.stderr, /\blogs?\b/);
  });
});

Deno.test("an input's reasons are said before its verdict and the summary line", async () => {
  await inTempDir(async (dir) => {
    await Deno.writeTextFile(`${dir}/bad.ndjson`, "not json\n[]\n");
    await Deno.writeTextFile(`${dir}/bad.jsonl`, '{"no":"type"}\n');
    const run = await task("render", ["-r", "dream", "-o", "out/", "bad.ndjson", "bad.jsonl"], {
      cwd: dir,
    });
    assert.equal(run.code, 1);
    const lines = run.stderr.trimEnd().split("\n");
    const expected = [
      /^render: bad\.ndjson:1: Cannot parse the line as JSON/,
      /^render: bad\.ndjson:2: /,
      /^render: no log entries in bad\.ndjson$/,
      /^render: bad\.jsonl:1: the record has no string member "type"$/,
      /^render: no Claude Code transcript records in bad\.jsonl$/,
      /^render: 0 rendered, 0 unchanged, 2 failed$/,
    ];
    assert.equal(lines.length, expected.length, run.stderr);
    for (const [i, pattern] of expected.entries()) assert.match(lines[i]!, pattern);
  });
});

Deno.test("every count is printed with its noun right: 1 token, 1 more bad line", async () => {
  await inTempDir(async (dir) => {
    const turn = (tokens: number): string =>
      JSON.stringify({
        type: "assistant",
        message: { model: "claude-opus-5", usage: { input_tokens: tokens } },
      }) + "\n";
    await Deno.writeTextFile(`${dir}/one.jsonl`, turn(1));
    await Deno.writeTextFile(`${dir}/two.jsonl`, turn(2));
    assert.equal(
      (await task("facts", ["one.jsonl"], { cwd: dir })).stdout,
      "claude-opus-5 · 1 context token\n",
    );
    assert.equal(
      (await task("facts", ["two.jsonl"], { cwd: dir })).stdout,
      "claude-opus-5 · 2 context tokens\n",
    );
    const status = await task("facts", ["--statusline"], {
      cwd: dir,
      stdin: JSON.stringify({ transcript_path: `${dir}/one.jsonl` }),
      env: { XDG_CACHE_HOME: `${dir}/cache` },
    });
    assert.equal(status.stdout, "claude-opus-5 · 1 token (0% of 200k)\n");
    // 21 bad lines after an entry: 20 shown, then the one more.
    const log = [entryLine(1, "sesn_a", "hi"), ...Array.from({ length: 21 }, () => "bad")];
    await Deno.writeTextFile(`${dir}/bad.ndjson`, log.join("\n") + "\n");
    const run = await task("render", ["--skip-invalid", "bad.ndjson"], { cwd: dir });
    assert.match(run.stderr, /^render: bad\.ndjson: 1 more bad line not shown \(21 in all\)$/m);
  });
});

const HAS_SCRIPT = await new Deno.Command("script", {
  args: ["--version"],
  stdout: "null",
  stderr: "null",
})
  .output().then((o) => o.success, () => false);
if (!HAS_SCRIPT && POSIX) {
  assert.notEqual(Deno.env.get("CI"), "true", "script (util-linux) is required under CI=true");
  console.log("skipped: no `script` on PATH for a terminal (set CI=true to make this a failure)");
}

/** `deno task render ARGS…` run on a terminal (`script`'s pty) with `TERM`: what it wrote there. */
async function onTerminal(args: string[], dir: string, term: string): Promise<string> {
  const { code, stdout, stderr } = await new Deno.Command("script", {
    args: ["-qec", taskLine("render", args), "/dev/null"],
    cwd: dir,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    env: {
      TERM: term,
      NO_COLOR: "1",
      INIT_CWD: dir,
      "?": "",
      npm_lifecycle_event: "",
      npm_config_user_agent: "",
    },
  }).output();
  assert.equal(code, 0, new TextDecoder().decode(stderr));
  return new TextDecoder().decode(stdout);
}

Deno.test({
  name: "no escape codes under TERM=dumb or when stderr is not a terminal; the progress line else",
  ignore: !HAS_SCRIPT || !POSIX,
  async fn(): Promise<void> {
    await inTempDir(async (dir) => {
      await Deno.copyFile(EXAMPLE, `${dir}/session.jsonl`);
      const args = ["-r", "dream", "-o", "out/", "--force", "session.jsonl"];
      // A terminal that takes them: the progress line, redrawn in place, then cleared.
      const drawn = await onTerminal(args, dir, "xterm-256color");
      assert.ok(drawn.includes("\x1b[2K"), JSON.stringify(drawn));
      assert.match(drawn, /inputs 1\/1 · 1 session rendered · /);
      await Deno.remove(`${dir}/out`, { recursive: true });
      const dumb = await onTerminal(args, dir, "dumb");
      assert.ok(!dumb.includes("\x1b"), JSON.stringify(dumb));
      assert.match(dumb, /render: 1 rendered, 0 unchanged, 0 failed/);
      await Deno.remove(`${dir}/out`, { recursive: true });
      const piped = await task("render", args, { cwd: dir, env: { TERM: "xterm-256color" } });
      assert.equal(piped.stderr, "render: 1 rendered, 0 unchanged, 0 failed\n");
    });
  },
});
