// Copyright 2026 the brigade authors. MIT license.

// The README's quick start, run as written, in a shell, from a folder of the checkout: the site
// of a `~/.claude/projects`, the grader's text of one session, and the status line the README
// quotes. `~` is a temporary home holding two of the fixtures' transcripts.

import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { fromClaudeCode, renderGrader } from "../mod.ts";
import { ROOT, run } from "./_command.ts";
import { splitMarkdown } from "./_docs.ts";

/** The quick start's three commands, and the status line the README says the third prints. */
async function quickStart(): Promise<
  { site: string; grader: string; status: string; line: string }
> {
  const readme = await Deno.readTextFile(join(ROOT, "README.md"));
  const section = readme.slice(readme.indexOf("## Quick start"));
  const block = splitMarkdown(section).blocks.find((block) => block.info === "sh");
  assert.ok(block !== undefined, "the quick start has a sh block");
  const [site, grader, status, ...rest] = block.lines;
  assert.deepEqual(rest, [], "three commands");
  const line = /bundled transcript,\s*`([^`]+)`/.exec(section)?.[1];
  assert.ok(line !== undefined, "the README quotes the status line");
  return { site: site!, grader: grader!, status: status!, line };
}

Deno.test("the README's quick start runs as written", async (t) => {
  const commands = await quickStart();
  await Deno.mkdir(join(ROOT, ".tmp"), { recursive: true });
  const temp = await Deno.makeTempDir({ dir: join(ROOT, ".tmp"), prefix: "quick_start_" });
  const home = join(temp, "home");
  const project = join(home, ".claude", "projects", "-home-me-app");
  const cwd = join(temp, "work");
  await Deno.mkdir(project, { recursive: true });
  await Deno.mkdir(cwd);
  for (const name of ["example", "edits"]) {
    await Deno.copyFile(
      join(ROOT, `fixtures/claude_code/${name}.jsonl`),
      join(project, `${name}.jsonl`),
    );
  }
  // `~` is the temporary home; the shell's own `deno` is this one.
  const shell = (command: string, where: string) =>
    run("sh", ["-c", command.replaceAll("~/", `${home}/`)], {
      cwd: where,
      env: {
        PATH: `${dirname(Deno.execPath())}:${Deno.env.get("PATH") ?? ""}`,
        XDG_CACHE_HOME: join(temp, "cache"),
      },
    });
  try {
    await t.step("the site of ~/.claude/projects", async () => {
      const result = await shell(commands.site, cwd);
      assert.equal(result.code, 0, result.stderr);
      const index = await Deno.readTextFile(join(cwd, "site", "index.html"));
      for (const name of ["example", "edits"]) {
        const page = `-home-me-app%2F${name}.html`;
        assert.ok((await Deno.stat(join(cwd, "site", page))).isFile, page);
        assert.ok(index.includes(`href="${page.replace("%", "%25")}"`), `index links ${page}`);
      }
    });
    await t.step("the grader's text of one session", async () => {
      const command = commands.grader.replace("<project>", "-home-me-app").replace(
        "<session>",
        "example",
      );
      const result = await shell(command, cwd);
      assert.equal(result.code, 0, result.stderr);
      assert.equal(
        result.stdout,
        await renderGrader(fromClaudeCode(join(project, "example.jsonl"))),
      );
    });
    await t.step("the status line, as the README quotes it", async () => {
      const result = await shell(commands.status, ROOT);
      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.stdout, `${commands.line}\n`);
    });
  } finally {
    await Deno.remove(temp, { recursive: true });
  }
});
