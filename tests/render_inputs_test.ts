// Copyright 2026 the brigade authors. MIT license.

/** `deno task render` on empty, bad, hostile and unusual inputs: what it says, and how much it holds. */

import assert from "node:assert/strict";
import { bash, CONFIG, entryLine, inTempDir, ROOT, task, taskLine } from "./_cli.ts";

Deno.test("render: an empty input, or one without log entries, is said and exits 1", async () => {
  await inTempDir(async (dir) => {
    await Deno.writeTextFile(`${dir}/empty.ndjson`, "");
    await Deno.writeTextFile(`${dir}/blank.ndjson`, "\n\n");
    for (const name of ["empty.ndjson", "blank.ndjson"]) {
      const run = await task("render", [`${dir}/${name}`], { cwd: dir });
      assert.equal(run.code, 1);
      assert.equal(
        run.stderr,
        `render: no log entries in ${dir}/${name}\nrender: 0 rendered, 0 unchanged, 1 failed\n`,
      );
    }
    const stdin = await task("render", ["-"], { cwd: dir, stdin: "" });
    assert.equal(stdin.code, 1);
    assert.equal(
      stdin.stderr,
      "render: no log entries in stdin\nrender: 0 rendered, 0 unchanged, 1 failed\n",
    );
  });
});

Deno.test("render: the first 20 bad lines of an input with file and line, then a count", async () => {
  await inTempDir(async (dir) => {
    const lines = [entryLine(1, "sesn_a", "hi")];
    for (let i = 0; i < 50; i++) lines.push(`{bad ${i}`);
    await Deno.writeTextFile(`${dir}/a.ndjson`, lines.join("\n"));
    const run = await task("render", ["--skip-invalid", `${dir}/a.ndjson`], { cwd: dir });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, "[user]\n  hi\n");
    const said = run.stderr.trimEnd().split("\n");
    assert.equal(said.length, 21);
    assert.match(
      said[0]!,
      new RegExp(`^render: ${RegExp.escape(dir)}/a\\.ndjson:2: Cannot parse the line as JSON`),
    );
    assert.match(said[19]!, /a\.ndjson:21: /);
    assert.equal(said[20], `render: ${dir}/a.ndjson: 30 more bad lines not shown (50 in all)`);
  });
});

Deno.test("render: a binary file stops at once with one message that it does not look like a log", async () => {
  await inTempDir(async (dir) => {
    const run = await task("render", ["/bin/ls"], { cwd: dir });
    assert.equal(run.code, 1);
    const said = run.stderr.trimEnd().split("\n");
    assert.equal(said.length, 2, run.stderr);
    assert.equal(said[1], "render: 0 rendered, 0 unchanged, 1 failed");
    assert.match(
      said[0]!,
      /^render: \/bin\/ls does not look like a log: its first 5 records are not log entries \(/,
    );
  });
});

Deno.test("render: what a diagnostic quotes from the input is redacted, cut and shows control characters", async () => {
  await inTempDir(async (dir) => {
    const hostile = [
      entryLine(1, "sesn_a", "hi"),
      "password=hunter2abc",
      `{"x": "\u001b]0;owned\u0007 \u202e${"y".repeat(500)}`,
    ];
    await Deno.writeTextFile(`${dir}/a.ndjson`, hostile.join("\n"));
    const run = await task("render", [`${dir}/a.ndjson`], { cwd: dir });
    assert.equal(run.code, 1);
    assert.doesNotMatch(run.stderr, /hunter2abc/);
    for (const raw of ["\u001b", "\u0007", "\u202e"]) {
      assert.ok(!run.stderr.includes(raw), "no raw control");
    }
    assert.doesNotMatch(run.stderr, /y{200}/, "cut to an excerpt");
    // A session id is quoted the same way.
    await Deno.writeTextFile(
      `${dir}/b.ndjson`,
      [entryLine(1, "sesn_\u001b[2Jx", "a"), entryLine(1, "sesn_b", "b")].join("\n"),
    );
    const two = await task("render", [`${dir}/b.ndjson`], { cwd: dir });
    assert.equal(two.code, 2);
    assert.match(two.stderr, /more than one session \("sesn_\\x1b\[2Jx", "sesn_b"\)/);
  });
});

Deno.test("render: clear errors for a missing --out folder and a session seen twice", async () => {
  await inTempDir(async (dir) => {
    await Deno.writeTextFile(`${dir}/a.ndjson`, entryLine(1, "sesn_a", "hi"));
    const missing = await task("render", ["--out", `${dir}/a/missing/f.txt`, `${dir}/a.ndjson`], {
      cwd: dir,
    });
    assert.equal(missing.code, 1);
    assert.equal(
      missing.stderr,
      `render: Cannot write ${dir}/a/missing/f.txt: the folder ${dir}/a/missing does not exist\n` +
        "render: 0 rendered, 0 unchanged, 1 failed\n",
    );
    await Deno.writeTextFile(`${dir}/b.ndjson`, entryLine(1, "sesn_a", "again"));
    const twice = await task("render", [
      "--out",
      `${dir}/out/`,
      `${dir}/a.ndjson`,
      `${dir}/b.ndjson`,
    ], {
      cwd: dir,
    });
    assert.equal(twice.code, 1);
    assert.match(
      twice.stderr,
      new RegExp(
        `session "sesn_a" appears twice: its run in ${
          RegExp.escape(dir)
        }/b\\.ndjson was not written, ${RegExp.escape(dir)}/out/sesn_a\\.txt holds the one in ${
          RegExp.escape(dir)
        }/a\\.ndjson`,
      ),
    );
    assert.equal(await Deno.readTextFile(`${dir}/out/sesn_a.txt`), "[user]\n  hi\n");

    // A folder named where a file is, or under one.
    const onFile = await task("render", ["--out", "a.ndjson/", "a.ndjson"], { cwd: dir });
    assert.equal(onFile.code, 2);
    assert.equal(
      onFile.stderr,
      "render: Cannot write a file per session into a.ndjson/: it is a file, not a folder\n" +
        "Run with --help for usage.\n",
    );
    const under = await task("render", ["--out", "a.ndjson/sub/", "a.ndjson"], { cwd: dir });
    assert.equal(under.code, 1);
    assert.match(under.stderr, /^render: Cannot create the folder a\.ndjson\/sub\/: /);
  });
});

Deno.test({
  name: "render: a standard output that fails says so",
  ignore: Deno.build.os === "windows",
}, async () => {
  await inTempDir(async (dir) => {
    await Deno.writeTextFile(`${dir}/a.ndjson`, entryLine(1, "sesn_a", "hi"));
    const full = await bash(`${taskLine("render", ["a.ndjson"])} > /dev/full`, dir);
    assert.equal(full.code, 1);
    assert.match(full.stderr, /^render: Cannot write to standard output: No space left on device/);
  });
});

Deno.test("render: the next run into a folder removes stale temporary files; --out takes a 240-character name", async () => {
  await inTempDir(async (dir) => {
    await Deno.writeTextFile(`${dir}/a.ndjson`, entryLine(1, "sesn_a", "hi"));
    await Deno.mkdir(`${dir}/out`);
    // What a run killed with -9 leaves: a temporary file, here backdated past the stale age.
    const stale = `${dir}/out/.transcript-00112233aabbccdd.tmp`;
    await Deno.writeTextFile(stale, "half a dre");
    const old = new Date(Date.now() - 5 * 60_000);
    await Deno.utime(stale, old, old);
    const run = await task("render", ["--out", `${dir}/out`, `${dir}/a.ndjson`], { cwd: dir });
    assert.equal(run.code, 0, run.stderr);
    const left = (await Array.fromAsync(Deno.readDir(`${dir}/out`))).map((e) => e.name).sort();
    assert.deepEqual(left, [".transcript-manifest.json", "sesn_a.txt"]);
    const long = `${dir}/${"n".repeat(236)}.txt`;
    const named = await task("render", ["--out", long, `${dir}/a.ndjson`], { cwd: dir });
    assert.equal(named.code, 0, named.stderr);
    assert.equal(await Deno.readTextFile(long), "[user]\n  hi\n");
  });
});

Deno.test("render: 3 million bad lines are counted, not held (16 MB heap, 84 MB input)", async () => {
  await inTempDir(async (dir) => {
    const path = `${dir}/bad.ndjson`;
    const file = await Deno.open(path, { write: true, create: true });
    try {
      await file.write(new TextEncoder().encode(`${entryLine(1, "sesn_a", "hi")}\n`));
      // JSON, but not an object: a bad line that is cheap to parse.
      const chunk = new TextEncoder().encode("[0,1,2,3,4,5,6,7,8,9,10,11]\n".repeat(100_000));
      for (let i = 0; i < 30; i++) await file.write(chunk);
    } finally {
      file.close();
    }
    const cli = new URL("cli/render.ts", ROOT).pathname;
    const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--config",
        CONFIG,
        "--v8-flags=--max-old-space-size=16",
        "--allow-read",
        cli,
        "--skip-invalid",
        path,
      ],
      cwd: dir,
      stdout: "piped",
      stderr: "piped",
    }).output();
    const said = new TextDecoder().decode(stderr);
    assert.equal(code, 0, said);
    assert.equal(new TextDecoder().decode(stdout), "[user]\n  hi\n");
    assert.match(said, /bad\.ndjson: 2999980 more bad lines not shown \(3000000 in all\)\n$/);
  });
});

Deno.test("render: a Claude Code transcript on stdin renders, detected or with --format", async () => {
  await inTempDir(async (dir) => {
    const path = new URL("fixtures/claude_code/example.jsonl", ROOT).pathname;
    const transcript = await Deno.readTextFile(path);
    const fromFile = await task("render", [path], { cwd: dir });
    assert.equal(fromFile.code, 0, fromFile.stderr);
    assert.match(fromFile.stdout, /^\[user\]\n/);
    for (const args of [["-"], ["--format", "claude-code", "-"]]) {
      const run = await task("render", args, { cwd: dir, stdin: transcript });
      assert.equal(run.code, 0, run.stderr);
      assert.equal(run.stdout, fromFile.stdout, `render ${args.join(" ")}`);
    }
  });
});

Deno.test("render: a Claude Code transcript read as a log fails, saying so, and writes nothing", async () => {
  await inTempDir(async (dir) => {
    const transcript = await Deno.readTextFile(
      new URL("fixtures/claude_code/example.jsonl", ROOT).pathname,
    );
    const short = transcript.split("\n").slice(0, 2).join("\n") + "\n";
    await Deno.writeTextFile(`${dir}/renamed.ndjson`, transcript);
    await Deno.writeTextFile(`${dir}/short.ndjson`, short);
    const said = (name: string): string =>
      `render: ${name} does not look like a log: its first records are a Claude Code transcript's (pass --format claude-code)\n`;
    const renamed = await task("render", ["--out", "out/", "renamed.ndjson", "short.ndjson"], {
      cwd: dir,
    });
    assert.equal(renamed.code, 1);
    assert.equal(
      renamed.stderr,
      said("renamed.ndjson") + said("short.ndjson") + "render: 0 rendered, 0 unchanged, 2 failed\n",
    );
    assert.deepEqual(await Array.fromAsync(Deno.readDir(`${dir}/out`)), []);
    const forced = await task("render", ["--format", "log", "-"], { cwd: dir, stdin: transcript });
    assert.equal(forced.code, 1);
    assert.equal(forced.stdout, "");
    assert.match(forced.stderr, /^render: stdin does not look like a log: .*--format claude-code/);
  });
});

Deno.test({
  name: "render: a Claude Code transcript from stdin or a pipe is named by its records' sessionId",
  ignore: Deno.build.os === "windows",
}, async () => {
  await inTempDir(async (dir) => {
    const example = new URL("fixtures/claude_code/example.jsonl", ROOT).pathname;
    const real = new URL(
      "fixtures/claude_code/real/entireio-cli_73_7e6e3ea2ad_0_full.jsonl",
      ROOT,
    ).pathname;
    const stdin = await task("render", ["-r", "dream", "--out", "out/", "-"], {
      cwd: dir,
      stdin: await Deno.readTextFile(example),
    });
    assert.equal(stdin.code, 0, stdin.stderr);
    // Two pipes (`<(…)`, /dev/fd/63 and 62) into one folder: two sessions, not one name twice.
    const pipes = await bash(
      `${
        taskLine("render", ["-r", "dream", "--format", "claude-code", "--out", "out/"])
      } <(cat ${example}) <(cat ${real})`,
      dir,
    );
    assert.equal(pipes.code, 0, pipes.stderr);
    assert.equal(pipes.stderr, "render: 1 rendered, 1 unchanged, 0 failed\n");
    const names = (await Array.fromAsync(Deno.readDir(`${dir}/out`))).map((e) => e.name).sort();
    // Streams are not recorded for a rerun (see cli/_manifest.ts): the folder has no record.
    assert.deepEqual(names, [
      "0cf3db51-1c73-43bb-8d05-dc02739514a5.md",
      "9c1f3a52-6a0e-4c4b-9d3e-2f8e0b7a1c44.md",
      "INDEX.md",
    ]);
    assert.match(
      await Deno.readTextFile(`${dir}/out/9c1f3a52-6a0e-4c4b-9d3e-2f8e0b7a1c44.md`),
      /^---\nrenderer: "dream"\nsession_id: "9c1f3a52-6a0e-4c4b-9d3e-2f8e0b7a1c44"\n/,
    );

    // --session-id names any single input's session: a file, stdin, a log's bare events.
    const named = await task("render", ["-r", "dream", "--session-id", "mine", example], {
      cwd: dir,
    });
    assert.equal(named.code, 0, named.stderr);
    assert.match(
      named.stdout,
      /^---\nrenderer: "dream"\nsession_id: "mine"\n[^]*?\n---\n# Session mine\n/,
    );
    await Deno.writeTextFile(
      `${dir}/bare.ndjson`,
      '{"id":"sevt_1","type":"user.message","content":"Hi"}\n',
    );
    const bare = await task("render", ["-r", "dream", "--session-id", "mine", "bare.ndjson"], {
      cwd: dir,
    });
    assert.match(
      bare.stdout,
      /^---\nrenderer: "dream"\nsession_id: "mine"\n[^]*?\n---\n# Session mine\n/,
    );

    for (
      const [args, said] of [
        [["--session-id", "", "-"], /^render: Option "--session-id" needs a name/],
        [["--session-id", "x", "a", "b"], /^render: Cannot name the session of 2 inputs/],
        [["--session-id", "x"], /^render: Cannot name the session of 0 inputs/],
      ] as const
    ) {
      const run = await task("render", [...args], { cwd: dir });
      assert.equal(run.code, 2, run.stderr);
      assert.match(run.stderr, said);
    }
  });
});
