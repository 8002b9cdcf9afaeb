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

Deno.test("inputsIn() passes over a FIFO, a socket and a device named *.jsonl with a note, never opening them", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const made = await new Deno.Command("mkfifo", { args: [join(dir, "pipe.jsonl")] }).output();
    assert.ok(made.success);
    // A socket file, left by a process that listened on it and exited.
    const socket = `Deno.listen({ transport: "unix", path: ${
      JSON.stringify(join(dir, "sock.jsonl"))
    } }); Deno.exit(0);`;
    const listened = await new Deno.Command(Deno.execPath(), { args: ["eval", socket] }).output();
    assert.ok(listened.success);
    await Deno.symlink("/dev/null", join(dir, "device.jsonl"));
    await Deno.writeTextFile(join(dir, "real.jsonl"), "");
    const notes: string[] = [];
    const found = await inputsIn(dir, { failed: () => {}, note: (m) => notes.push(m) });
    // Opening the FIFO would wait for a writer that never comes: the walk must not.
    assert.deepEqual(found.map((f) => f.path), [join(dir, "real.jsonl")]);
    const what = "passed over, not a regular file (a FIFO, a socket or a device)";
    assert.deepEqual(notes, [
      `${join(dir, "device.jsonl")}: ${what}`,
      `${join(dir, "pipe.jsonl")}: ${what}`,
      `${join(dir, "sock.jsonl")}: ${what}`,
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("inputsIn() follows a link out of the folder and says so, naming the link only", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const outside = join(dir, "elsewhere");
    await Deno.mkdir(join(outside, "proj"), { recursive: true });
    await Deno.writeTextFile(join(outside, "secret.jsonl"), "");
    await Deno.writeTextFile(join(outside, "proj", "s.jsonl"), "");
    const root = join(dir, "projects");
    await Deno.mkdir(join(root, "inside"), { recursive: true });
    await Deno.writeTextFile(join(root, "inside", "a.jsonl"), "");
    await Deno.symlink(join(outside, "secret.jsonl"), join(root, "inside", "b.jsonl"));
    await Deno.symlink(join(outside, "proj"), join(root, "linked"));
    // A link that stays inside the folder is no news.
    await Deno.symlink(join(root, "inside", "a.jsonl"), join(root, "inside", "c.jsonl"));
    const notes: string[] = [];
    const found = await inputsIn(root, { failed: () => {}, note: (m) => notes.push(m) });
    assert.deepEqual(found.map((f) => f.path), [
      join(root, "inside", "a.jsonl"),
      join(root, "inside", "b.jsonl"),
      join(root, "inside", "c.jsonl"),
      join(root, "linked", "s.jsonl"),
    ]);
    assert.deepEqual(notes, [
      `${join(root, "linked")}: a link out of the folder, followed`,
      `${join(root, "inside", "b.jsonl")}: a link out of the folder, followed`,
    ]);
    assert.ok(notes.every((note) => !note.includes("elsewhere")));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
