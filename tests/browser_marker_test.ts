// Copyright 2026 the brigade authors. MIT license.

// The browser check bites: `_tools/check_browser.ts`, run as `deno task check:browser` does, fails
// on a module marked "// This module is browser compatible." that reaches `Deno` (itself or
// through an import) and passes a clean one that imports the package through its import map.

import assert from "node:assert/strict";
import { join } from "node:path";
import { ROOT, type Run, run } from "./_command.ts";
import config from "../deno.json" with { type: "json" };

const MARKED = "// Copyright 2026 the brigade authors. MIT license.\n" +
  "// This module is browser compatible.\n\n";

/** The check script on `paths`, with the permissions of the task plus reading `dir`. */
function checkBrowser(dir: string, paths: string[]): Promise<Run> {
  return run("deno", [
    "run",
    `--allow-read=${ROOT},${dir}`,
    `--allow-write=${join(ROOT, ".tmp")}`,
    "--allow-run=deno",
    join(ROOT, "_tools/check_browser.ts"),
    ...paths,
  ], { cwd: dir });
}

async function withModules(
  files: Record<string, string>,
  body: (dir: string) => Promise<void>,
): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "transcript_browser_" });
  try {
    for (const [name, text] of Object.entries(files)) {
      await Deno.writeTextFile(join(dir, name), text);
    }
    await body(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("browser check: a marked module that reads a file through Deno fails it", async () => {
  await withModules({
    "reads_file.ts": MARKED +
      "export async function settings(): Promise<string> {\n" +
      '  return await Deno.readTextFile("settings.json");\n' +
      "}\n",
  }, async (dir) => {
    const { code, stdout, stderr } = await checkBrowser(dir, ["reads_file.ts"]);
    assert.equal(code, 1, stdout + stderr);
    assert.match(stdout, /Browser check: 1 module\(s\) marked/);
    assert.match(stderr, /Cannot find name 'Deno'/);
    assert.match(stderr, /reads_file\.ts/);
    assert.match(stderr, /Browser check failed: a module marked/);
  });
});

Deno.test("browser check: a marked module importing a Deno-only module fails it", async () => {
  await withModules({
    "uses_helper.ts": MARKED +
      'import { home } from "./deno_only.ts";\n\n' +
      "export const where: string | undefined = home();\n",
    // Not marked itself, so not checked on its own: only through the marked module.
    "deno_only.ts": "export function home(): string | undefined {\n" +
      '  return Deno.env.get("HOME");\n' +
      "}\n",
  }, async (dir) => {
    const { code, stdout, stderr } = await checkBrowser(dir, [dir]);
    assert.equal(code, 1, stdout + stderr);
    assert.match(stdout, /Browser check: 1 module\(s\) marked/);
    assert.match(stdout, /uses_helper\.ts/);
    assert.doesNotMatch(stdout, /deno_only\.ts/);
    assert.match(stderr, /deno_only\.ts/);
    assert.match(stderr, /Browser check failed/);
  });
});

Deno.test("browser check: a marked module referencing Deno's types fails it", async () => {
  await withModules({
    "reference.ts": '/// <reference lib="deno.ns" />\n' + MARKED +
      "export const args: string[] = Deno.args;\n",
  }, async (dir) => {
    const { code, stdout, stderr } = await checkBrowser(dir, [dir]);
    assert.equal(code, 1, stdout + stderr);
    assert.match(stderr, /reference\.ts is marked .* but references Deno's types/);
  });
});

Deno.test("browser check: clean marked modules pass, the package through its import map", async () => {
  await withModules({
    "clean.ts": MARKED +
      'import { fromEntries, renderGrader } from "@brigade/transcript";\n' +
      'import { redact } from "@brigade/transcript/redact";\n\n' +
      "export function shown(text: string): string {\n" +
      "  return redact(text);\n" +
      "}\n\n" +
      "export const render: typeof renderGrader = renderGrader;\n" +
      "export const entries: typeof fromEntries = fromEntries;\n",
    "also_clean.ts": MARKED +
      "export const page: string | undefined = globalThis.document?.title;\n",
    // Tests are left out of the check, marked or not.
    "clean_test.ts": MARKED + 'Deno.test("left out", () => {});\n',
  }, async (dir) => {
    const { code, stdout, stderr } = await checkBrowser(dir, [dir]);
    assert.equal(code, 0, stdout + stderr);
    assert.match(stdout, /Browser check: 2 module\(s\) marked/);
    assert.match(stdout, /also_clean\.ts/);
    assert.doesNotMatch(stdout, /clean_test\.ts/);
    assert.match(stdout, /Browser check passed: 2 module\(s\)\./);
  });
});

Deno.test("browser check: a folder without a marked module fails it", async () => {
  await withModules({ "plain.ts": "export const one = 1;\n" }, async (dir) => {
    const { code, stderr } = await checkBrowser(dir, [dir]);
    assert.equal(code, 1);
    assert.match(stderr, /Browser check failed: no module in .* holds the line/);
  });
});

Deno.test("browser check: deno task check runs it", () => {
  assert.match(config.tasks.check.command, /&& deno task check:browser &&/);
  assert.match(config.tasks["check:browser"].command, /_tools\/check_browser\.ts$/);
});
