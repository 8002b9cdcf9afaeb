// Copyright 2026 the brigade authors. MIT license.

/**
 * Current Claude Code's layouts through the commands, as a user runs them
 * from another folder: a session whose subagents live in
 * `<session>/subagents/agent-<id>.jsonl`, and a rewound session.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { inTempDir, task } from "./_cli.ts";
import { MANIFEST_NAME } from "../cli/_manifest.ts";

const PROJECT = new URL("../fixtures/claude_code/current/home-dev-app/", import.meta.url);
const PARENT = "7f3c2a10-5b8e-4d21-9c6a-2e4f8b1d0a93";
const REWOUND = "3e9b1c55-0d4a-4f7e-a2b8-6c1d9e0f4b27";

/** Copies the fixture project into `dir/projects/home-dev-app`. */
async function copyProject(dir: string): Promise<string> {
  const to = join(dir, "projects", "home-dev-app");
  const copy = async (from: URL, into: string): Promise<void> => {
    await Deno.mkdir(into, { recursive: true });
    for await (const entry of Deno.readDir(from)) {
      if (entry.isDirectory) await copy(new URL(`${entry.name}/`, from), join(into, entry.name));
      else await Deno.copyFile(new URL(entry.name, from), join(into, entry.name));
    }
  };
  await copy(PROJECT, to);
  return to;
}

Deno.test("render: a session's subagent files are read with it, and never listed as sessions", async (t) => {
  await inTempDir(async (dir) => {
    const project = await copyProject(dir);

    await t.step("the grader of the session shows each subagent's work on its thread", async () => {
      const run = await task("render", [join(project, `${PARENT}.jsonl`)], { cwd: dir });
      assert.equal(run.code, 0, run.stderr);
      assert.ok(run.stdout.includes("[@Explore (Find the config loader) → tool Grep]"));
      assert.ok(run.stdout.includes("[@general-purpose (Read the loader) → tool Read]"));
      assert.ok(run.stdout.includes("[tool Bash → @general-purpose (Check test coverage)]"));
    });

    await t.step("the site lists the two sessions only", async () => {
      const run = await task("render", ["-r", "html", "--out", "site/", "projects"], { cwd: dir });
      assert.equal(run.code, 0, run.stderr);
      const pages = (await Array.fromAsync(Deno.readDir(join(dir, "site"))))
        .map((e) => e.name).filter((name) => name !== MANIFEST_NAME).sort();
      assert.deepEqual(pages, [
        `home-dev-app%2F${REWOUND}.html`,
        `home-dev-app%2F${PARENT}.html`,
        "index.html",
      ]);
      const page = await Deno.readTextFile(join(dir, "site", `home-dev-app%2F${PARENT}.html`));
      assert.ok(
        page.includes("deno test tests/config_test.ts"),
        "a subagent's call is on the page",
      );
    });
  });
});
