// Copyright 2026 the brigade authors. MIT license.

/**
 * `deno task render --out DIR/` rerun over a current Claude Code session whose subagent wrote to
 * its own file (`<session>/subagents/agent-<id>.jsonl`) since the last run, the session's own
 * file as it was: its page is rendered again with the subagent's new words, by the quick rerun
 * (file inputs) and by the whole way (a folder input) alike.
 */

import assert from "node:assert/strict";
import { inTempDir, ROOT, task } from "./_cli.ts";

const PROJECT = new URL("fixtures/claude_code/current/home-dev-app/", ROOT).pathname;
const SESSION = "7f3c2a10-5b8e-4d21-9c6a-2e4f8b1d0a93";
const SUBAGENT = `${SESSION}/subagents/agent-a11f00dcafe0001.jsonl`;

/** The fixture's session, its subagents' folder with it, copied into `dir/project/`. */
async function copySession(dir: string): Promise<void> {
  await Deno.mkdir(`${dir}/project/${SESSION}/subagents`, { recursive: true });
  await Deno.copyFile(`${PROJECT}${SESSION}.jsonl`, `${dir}/project/${SESSION}.jsonl`);
  for await (const entry of Deno.readDir(`${PROJECT}${SESSION}/subagents`)) {
    const name = `${SESSION}/subagents/${entry.name}`;
    await Deno.copyFile(`${PROJECT}${name}`, `${dir}/project/${name}`);
  }
}

/** The subagent's last reply, said otherwise: its file changes, the session's own does not. */
async function subagentSays(dir: string, word: string): Promise<void> {
  const path = `${dir}/project/${SUBAGENT}`;
  const text = await Deno.readTextFile(path);
  assert.ok(text.includes("and parses it."));
  await Deno.writeTextFile(path, text.replaceAll("and parses it.", `and parses it, ${word}.`));
}

const INPUTS: [string, string][] = [["file", `project/${SESSION}.jsonl`], ["folder", "project/"]];

for (const [how, input] of INPUTS) {
  Deno.test(`render: a subagent's file written since the last run renders its session's page again (${how} input)`, async () => {
    await inTempDir(async (dir) => {
      await copySession(dir);
      const render = () => task("render", ["-r", "html", "--out", "out/", input], { cwd: dir });
      const page = `${dir}/out/${how === "file" ? "" : "project%2F"}${SESSION}.html`;
      const first = await render();
      assert.equal(first.code, 0, first.stderr);
      assert.doesNotMatch(await Deno.readTextFile(page), /quokka/);
      const rerun = await render();
      assert.match(rerun.stderr, /render: 0 rendered, 1 unchanged, 0 failed\n$/);

      await subagentSays(dir, "quokka");
      const changed = await render();
      assert.equal(changed.code, 0, changed.stderr);
      assert.match(changed.stderr, /render: 1 rendered, 0 unchanged, 0 failed\n$/);
      assert.match(await Deno.readTextFile(page), /and parses it, quokka\./);

      const again = await render();
      assert.match(again.stderr, /render: 0 rendered, 1 unchanged, 0 failed\n$/);
    });
  });
}
