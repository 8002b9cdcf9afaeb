// Copyright 2026 the brigade authors. MIT license.

/**
 * `deno task render`'s grader options for a model judge (`--ids`, `--thread`, `--each-thread`,
 * `--envelope`, `--outcome`, `--chunk-bytes`), as a user types them, from another folder.
 */

import assert from "node:assert/strict";
import { inTempDir, ROOT, task } from "./_cli.ts";
import { parseGrader } from "./_transcript_parse.ts";

const COORDINATOR = new URL("fixtures/coordinator_all_threads.ndjson", ROOT).pathname;

Deno.test("render --ids labels each grader item with its entry's seq, as --renderer json carries it", async () => {
  await inTempDir(async (dir) => {
    const run = await task("render", ["--ids", COORDINATOR], { cwd: dir });
    assert.equal(run.code, 0, run.stderr);
    const json = await task("render", ["--renderer", "json", COORDINATOR], { cwd: dir });
    const seqs = json.stdout.trimEnd().split("\n").map((line) => JSON.parse(line).seq);
    const labelled = parseGrader(run.stdout).items.map((item) =>
      Number(/^M(\d+) · /.exec(item.label)![1])
    );
    assert.deepEqual(labelled, seqs);
    const refused = await task("render", ["--renderer", "dream", "--ids", COORDINATOR], {
      cwd: dir,
    });
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /The dream renderer takes no --ids/);
  });
});

Deno.test("render --thread NAME and --each-thread scope the grader to threads", async () => {
  await inTempDir(async (dir) => {
    const one = await task("render", ["--thread", "Test runner", COORDINATOR], { cwd: dir });
    assert.equal(one.code, 0, one.stderr);
    assert.deepEqual(parseGrader(one.stdout).items.map((item) => item.label), [
      "agent → @Test runner",
      "@Test runner → tool bash",
      "tool bash → @Test runner",
      "@Test runner → agent",
    ]);
    const each = await task("render", ["--each-thread", COORDINATOR], { cwd: dir });
    assert.equal(each.code, 0, each.stderr);
    assert.deepEqual(each.stdout.match(/^\[thread .*\]$/gm), [
      "[thread agent]",
      "[thread @Changelog reader · sthr_01ChangelogKv3M]",
      "[thread @Test runner · sthr_01TestsKv3M]",
    ]);
    assert.ok(each.stdout.includes(one.stdout.trimEnd()));
  });
});

Deno.test("render --envelope wraps the transcript in its marker line, the same on a rerun", async () => {
  await inTempDir(async (dir) => {
    const run = await task("render", ["--envelope", COORDINATOR], { cwd: dir });
    assert.equal(run.code, 0, run.stderr);
    const marker = run.stdout.slice(0, run.stdout.indexOf("\n"));
    assert.match(marker, /^<<<transcript [0-9a-f]{16}>>>$/);
    assert.equal(run.stdout.split(marker).length, 3);
    const again = await task("render", ["--envelope", COORDINATOR], { cwd: dir });
    assert.equal(again.stdout, run.stdout);
    const follow = await task("render", ["--session", "sesn_x", "-f", "--envelope"], {
      cwd: dir,
      env: { ANTHROPIC_API_KEY: "sk-ant-api03-unused" },
    });
    assert.equal(follow.code, 2);
    assert.match(follow.stderr, /Cannot follow with --envelope/);
  });
});

Deno.test("render --outcome puts the session's outcome block first", async () => {
  await inTempDir(async (dir) => {
    const run = await task("render", ["--outcome", "--ids", COORDINATOR], { cwd: dir });
    assert.equal(run.code, 0, run.stderr);
    const [first, ...rest] = parseGrader(run.stdout).items;
    assert.equal(first!.label, "session outcome");
    assert.match(first!.body, /^status: /);
    assert.ok(rest.every((item) => item.label !== "session outcome"));
    const follow = await task("render", ["--session", "sesn_x", "-f", "--outcome"], {
      cwd: dir,
      env: { ANTHROPIC_API_KEY: "sk-ant-api03-unused" },
    });
    assert.equal(follow.code, 2);
    assert.match(follow.stderr, /Cannot follow with --outcome/);
  });
});

Deno.test("render --chunk-bytes N renders the whole session in chunks of at most N bytes", async () => {
  await inTempDir(async (dir) => {
    const log = `${dir}/long.ndjson`;
    const lines = Array.from({ length: 3_000 }, (_, i) =>
      JSON.stringify({
        seq: i + 1,
        session_id: "sesn_long",
        thread_id: null,
        event: {
          id: `sevt_${i}`,
          type: i % 2 ? "agent.message" : "user.message",
          content: `turn ${i + 1} ${"·".repeat(100)}`,
        },
      }));
    await Deno.writeTextFile(log, lines.join("\n") + "\n");
    const run = await task("render", ["--chunk-bytes", "8192", log], { cwd: dir });
    assert.equal(run.code, 0, run.stderr);
    const chunks = run.stdout.split(/^(?=\[chunk )/m);
    assert.ok(chunks.length > 40);
    for (const chunk of chunks) assert.ok(new TextEncoder().encode(chunk).length <= 8_192);
    assert.match(
      chunks.at(-1)!,
      new RegExp(`^\\[chunk ${chunks.length} of ${chunks.length} · items \\d+–3000\\]`),
    );
    assert.ok(run.stdout.includes("turn 3000 "), "the whole session, past any transcript budget");
    const refused = await task("render", ["--chunk-bytes", "100", log], { cwd: dir });
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /chunks\.bytes must be an integer of at least 4096: 100/);
  });
});
