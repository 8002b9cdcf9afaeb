// Copyright 2026 the brigade authors. MIT license.

// Following the README in a checkout must leave it clean: every output path its
// `deno task render` examples write is ignored by git and by `deno task check`.

import assert from "node:assert/strict";
import config from "../deno.json" with { type: "json" };

const ROOT = new URL("../", import.meta.url);

/** The relative `--out` paths of the README's `deno task render` lines. */
async function readmeOutputs(): Promise<string[]> {
  const readme = await Deno.readTextFile(new URL("README.md", ROOT));
  const outputs = new Set<string>();
  for (const line of readme.split("\n")) {
    if (!line.startsWith("deno task render")) continue;
    // A relative path, not a usage line's placeholder (`[--out PATH]`).
    const out = /--out ([a-z0-9_./-]+)(?:\s|$)/.exec(line)?.[1];
    if (out !== undefined && !out.startsWith("/")) outputs.add(out);
  }
  return [...outputs];
}

Deno.test("the README's render outputs are ignored by git and by deno task check", async () => {
  const outputs = await readmeOutputs();
  assert.ok(outputs.includes("dreams/") && outputs.includes("session.html"), String(outputs));
  for (const out of outputs) {
    assert.ok(config.exclude.includes(out), `deno.json "exclude" lacks ${out}`);
    const { code } = await new Deno.Command("git", {
      args: ["check-ignore", "--quiet", "--no-index", out],
      cwd: ROOT,
      stdout: "null",
      stderr: "null",
    }).output();
    assert.equal(code, 0, `.gitignore lacks ${out}`);
  }
});
