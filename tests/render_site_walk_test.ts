// Copyright 2026 the brigade authors. MIT license.

/**
 * `deno task render --renderer html --out site/ PROJECTS` over a projects
 * folder that is not what it seems: two projects whose pages the former
 * naming merged, a FIFO named as a transcript, a link out of the folder.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { entryLine, inTempDir, task } from "./_cli.ts";
import { MANIFEST_NAME } from "../cli/_manifest.ts";

/** A one-prompt Claude Code transcript of a session. */
function transcript(sessionId: string, prompt: string): string {
  const common = { isSidechain: false, userType: "external", sessionId, version: "2.1.50" };
  return [
    {
      ...common,
      type: "user",
      uuid: `${sessionId}-u`,
      timestamp: "2026-09-01T09:00:00.000Z",
      message: { role: "user", content: prompt },
    },
  ].map((record) => JSON.stringify(record)).join("\n") + "\n";
}

async function write(path: string, text: string): Promise<void> {
  await Deno.mkdir(join(path, ".."), { recursive: true });
  await Deno.writeTextFile(path, text);
}

Deno.test("render --out site/ PROJECTS: project a with session b/s1 and project a/b with session s1 get a page each", async () => {
  await inTempDir(async (dir) => {
    // Logs name their sessions: a session id may hold a `/` as a project's path does.
    await write(join(dir, "projects", "a", "one.ndjson"), entryLine(1, "b/s1", "FIRST PROMPT"));
    await write(join(dir, "projects", "a", "b", "two.ndjson"), entryLine(1, "s1", "SECOND PROMPT"));
    for (const run of [1, 2]) {
      const rendered = await task("render", ["-r", "html", "--out", "site/", "projects"], {
        cwd: dir,
      });
      assert.equal(rendered.code, 0, `run ${run}: ${rendered.stderr}`);
      assert.doesNotMatch(rendered.stderr, /appears twice/);
    }
    const names = (await Array.fromAsync(Deno.readDir(join(dir, "site"))))
      .map((e) => e.name).filter((name) => name !== MANIFEST_NAME).sort();
    assert.deepEqual(names, ["a%2Fb%2Fs1.html", "a%2Fb%u002Fs1.html", "index.html"]);
    const first = await Deno.readTextFile(join(dir, "site", "a%2Fb%u002Fs1.html"));
    assert.match(first, /FIRST PROMPT/);
    const second = await Deno.readTextFile(join(dir, "site", "a%2Fb%2Fs1.html"));
    assert.match(second, /SECOND PROMPT/);
  });
});

Deno.test("render --out site/ PROJECTS: a FIFO named *.jsonl is passed over with a note, a link out of the folder is said", async () => {
  await inTempDir(async (dir) => {
    await write(join(dir, "projects", "p", "s1.jsonl"), transcript("s1", "HELLO"));
    const made = await new Deno.Command("mkfifo", {
      args: [join(dir, "projects", "p", "pipe.jsonl")],
    }).output();
    assert.ok(made.success);
    await write(join(dir, "elsewhere", "s2.jsonl"), transcript("s2", "OUTSIDE WORDS"));
    await Deno.symlink(join(dir, "elsewhere", "s2.jsonl"), join(dir, "projects", "p", "s2.jsonl"));
    // The former walk opened the FIFO and waited for a writer forever, on every run.
    const rendered = await task("render", ["-r", "html", "--out", "site/", "projects"], {
      cwd: dir,
    });
    assert.equal(rendered.code, 0, rendered.stderr);
    const lines = rendered.stderr.split("\n");
    assert.ok(
      lines.includes(
        "render: projects/p/pipe.jsonl: passed over, not a regular file (a FIFO, a socket or a device)",
      ),
      rendered.stderr,
    );
    assert.ok(
      lines.includes("render: projects/p/s2.jsonl: a link out of the folder, followed"),
      rendered.stderr,
    );
    assert.doesNotMatch(rendered.stderr, /OUTSIDE WORDS|elsewhere/);
    const names = (await Array.fromAsync(Deno.readDir(join(dir, "site")))).map((e) => e.name);
    assert.ok(names.includes("p%2Fs1.html") && names.includes("p%2Fs2.html"), names.join());
  });
});
