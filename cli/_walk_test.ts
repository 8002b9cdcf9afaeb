// Copyright 2026 the brigade authors. MIT license.

import assert from "node:assert/strict";
import { join } from "node:path";
import { inputsIn } from "./_walk.ts";

Deno.test("inputsIn() finds the transcripts of a projects folder, each with its project; subagents are their session's", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const files = [
      "projects/-home-me-app/s1.jsonl",
      "projects/-home-me-app/s1/subagents/agent-a.jsonl",
      "projects/-home-me-app/s1/tool-results/r.jsonl",
      "projects/-home-me-app/agent-old.jsonl",
      "projects/-home-me-app/.hidden.jsonl",
      "projects/-home-me-app/notes.txt",
      "projects/-home-me-lib/s2.jsonl",
      "projects/-home-me-lib/nested/subagents/x.jsonl",
      "projects/-home-me-lib/nested/log.ndjson",
      "projects/top.jsonl",
    ];
    for (const file of files) {
      await Deno.mkdir(join(dir, file, ".."), { recursive: true });
      await Deno.writeTextFile(join(dir, file), "");
    }
    await Deno.symlink("..", join(dir, "projects/-home-me-lib/loop"));
    const notes: string[] = [];
    const failures: string[] = [];
    const root = join(dir, "projects");
    const found = await inputsIn(root, {
      failed: (m) => failures.push(m),
      note: (m) => notes.push(m),
    });
    assert.deepEqual(found, [
      { path: join(root, "top.jsonl"), project: "projects" },
      { path: join(root, "-home-me-app/s1.jsonl"), project: "-home-me-app" },
      { path: join(root, "-home-me-lib/s2.jsonl"), project: "-home-me-lib" },
      { path: join(root, "-home-me-lib/nested/log.ndjson"), project: "-home-me-lib/nested" },
    ]);
    assert.deepEqual(notes, [
      `${join(root, "-home-me-lib/loop")}: passed over, a link to a folder already read`,
    ]);
    assert.deepEqual(failures, []);
    // A project's own folder: its files keep their project's name.
    const one = await inputsIn(join(root, "-home-me-app"), { failed: () => {}, note: () => {} });
    assert.deepEqual(one, [{ path: join(root, "-home-me-app/s1.jsonl"), project: "-home-me-app" }]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("inputsIn() reports a folder it cannot read and goes on", async () => {
  const failures: string[] = [];
  const found = await inputsIn("/no/such/folder", {
    failed: (m) => failures.push(m),
    note: () => {},
  });
  assert.deepEqual(found, []);
  assert.deepEqual(failures, ["/no/such/folder: Cannot read the folder: no such folder"]);
});
