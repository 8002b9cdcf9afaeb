// Copyright 2026 the brigade authors. MIT license.

/**
 * `deno task render --previous FILE`: a memory run's nightly folder of dreams, each night's
 * INDEX.md marked against the night before's; and the dream's front matter from a folder of
 * Claude Code transcripts (its project and cwd).
 */

import assert from "node:assert/strict";
import { parse } from "yaml";
import { entryLine, inTempDir, task } from "./_cli.ts";
import { splitFrontMatter } from "./_transcript_parse.ts";

/** A log of one session started on a day of September: a question a line, a minute apart. */
function log(session: string, day: number, ...questions: string[]): string {
  return questions.map((question, i) =>
    `${entryLine(i + 1, session, question, `2026-09-${10 + day}T10:0${i}:00Z`)}\n`
  ).join("");
}

/** Each row's session id and change, and the removed list's session ids. */
function marks(index: string): { rows: [string, string][]; removed: string[] } {
  const [main = "", gone = ""] = index.split("\n## Removed\n");
  const rows = (text: string): string[][] =>
    text.split("\n").filter((line) => line.startsWith("- ")).map((line) =>
      line.slice(2).split(" · ")
    );
  return {
    rows: rows(main).map(([, change = "", id = ""]) => [id, change]),
    removed: rows(gone).map(([id = ""]) => id),
  };
}

Deno.test("render --previous: a folder's second run marks each row added, changed or retained and lists the removed", async () => {
  await inTempDir(async (dir) => {
    await Deno.writeTextFile(`${dir}/a.ndjson`, log("sesn_a", 1, "Fix CI"));
    await Deno.writeTextFile(`${dir}/b.ndjson`, log("sesn_b", 2, "Ship it"));
    await Deno.writeTextFile(`${dir}/c.ndjson`, log("sesn_c", 3, "Plan"));
    const args = ["--renderer", "dream", "--out", "dreams/"];
    const first = await task("render", [...args, "a.ndjson", "b.ndjson", "c.ndjson"], { cwd: dir });
    assert.equal(first.code, 0, first.stderr);
    const before = await Deno.readTextFile(`${dir}/dreams/INDEX.md`);
    assert.ok(!before.includes("change"), "a run without --previous marks nothing");

    // The night after: b went on, d is new, c's dream was pruned from the folder.
    await Deno.writeTextFile(`${dir}/b.ndjson`, log("sesn_b", 2, "Ship it", "And tag it"));
    await Deno.writeTextFile(`${dir}/d.ndjson`, log("sesn_d", 4, "Review"));
    await Deno.remove(`${dir}/dreams/sesn_c.md`);
    const second = await task(
      "render",
      [...args, "--previous", "dreams/INDEX.md", "a.ndjson", "b.ndjson", "d.ndjson"],
      { cwd: dir },
    );
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stderr, /2 rendered, 1 unchanged, 0 failed/, "a is not rendered again");
    const after = await Deno.readTextFile(`${dir}/dreams/INDEX.md`);
    assert.deepEqual(marks(after), {
      rows: [["sesn_a", "retained"], ["sesn_b", "changed"], ["sesn_d", "added"]],
      removed: ["sesn_c"],
    });
    assert.match(
      after,
      /\nSince the previous index: 1 added · 1 changed · 1 retained · 1 removed\n/,
    );

    // The index renderer takes the same file: the sessions given, against the folder's index.
    const index = await task(
      "render",
      ["--renderer", "index", "--previous", "dreams/INDEX.md", "a.ndjson", "d.ndjson"],
      { cwd: dir },
    );
    assert.equal(index.code, 0, index.stderr);
    assert.deepEqual(marks(index.stdout), {
      rows: [["sesn_a", "retained"], ["sesn_d", "retained"]],
      removed: ["sesn_b"],
    });
  });
});

Deno.test("render --previous: an unreadable or malformed previous index is a usage error naming it, before anything renders", async () => {
  await inTempDir(async (dir) => {
    await Deno.writeTextFile(`${dir}/a.ndjson`, log("sesn_a", 1, "Fix CI"));
    const columns =
      "Columns: seq · session_id · created_at · turns · bytes · digest · first user message";
    await Deno.writeTextFile(`${dir}/bad.md`, `# Index\n\n${columns}\n\n- 1 · sesn_a · broken\n`);
    const malformed = await task(
      "render",
      ["--renderer", "dream", "--out", "dreams/", "--previous", "bad.md", "a.ndjson"],
      { cwd: dir },
    );
    assert.equal(malformed.code, 2, malformed.stderr);
    assert.match(
      malformed.stderr,
      /Cannot read the previous index "bad\.md": line 5 is not a row of the columns named on line 3/,
    );
    assert.equal(
      await Deno.stat(`${dir}/dreams`).catch(() => undefined),
      undefined,
      "nothing written",
    );

    const missing = await task("render", ["-r", "index", "--previous", "gone.md", "a.ndjson"], {
      cwd: dir,
    });
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /Cannot read the previous index "gone\.md": no such file/);
    assert.equal(missing.stdout, "");

    const folder = await task("render", ["-r", "index", "--previous", ".", "a.ndjson"], {
      cwd: dir,
    });
    assert.equal(folder.code, 2);
    assert.match(folder.stderr, /Cannot read the previous index "\.": it is not a file/);

    const grader = await task("render", ["--previous", "bad.md", "a.ndjson"], { cwd: dir });
    assert.equal(grader.code, 2);
    assert.match(grader.stderr, /The grader renderer takes no --previous/);

    // A dream on standard output has no index to mark.
    await Deno.writeTextFile(`${dir}/empty.md`, `# Index\n\n${columns}\n\n`);
    const stdout = await task("render", ["-r", "dream", "--previous", "empty.md", "a.ndjson"], {
      cwd: dir,
    });
    assert.equal(stdout.code, 2);
    assert.match(stdout.stderr, /Cannot mark one dream output against --previous/);
  });
});

Deno.test("render --out DIR over a folder of Claude Code transcripts: each dream's front matter names its project and cwd", async () => {
  await inTempDir(async (dir) => {
    const fixture = new URL("../fixtures/claude_code/example.jsonl", import.meta.url);
    await Deno.mkdir(`${dir}/projects/-home-dev-project`, { recursive: true });
    await Deno.copyFile(fixture, `${dir}/projects/-home-dev-project/session.jsonl`);
    const run = await task("render", ["--renderer", "dream", "--out", "dreams/", "projects"], {
      cwd: dir,
    });
    assert.equal(run.code, 0, run.stderr);
    const pages = (await Array.fromAsync(Deno.readDir(`${dir}/dreams`))).map((e) => e.name).filter((
      name,
    ) => name.endsWith(".md") && name !== "INDEX.md");
    assert.equal(pages.length, 1);
    const text = await Deno.readTextFile(`${dir}/dreams/${pages[0]}`);
    const facts = parse(splitFrontMatter(text).frontMatter) as Record<string, unknown>;
    assert.equal(facts.project, "-home-dev-project");
    assert.equal(facts.cwd, "/home/dev/project");
    assert.match(String(facts.digest), /^sha256:[0-9a-f]{64}$/);
    const index = await Deno.readTextFile(`${dir}/dreams/INDEX.md`);
    assert.ok(index.includes(` · ${facts.digest} · `), "the row carries the page's digest");
  });
});
