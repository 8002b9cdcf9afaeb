// Copyright 2026 the brigade authors. MIT license.

// Following the README and the guides in a checkout must leave it clean: every output path
// their `deno task render` examples write is ignored by git and by `deno task check`.

import assert from "node:assert/strict";
import config from "../deno.json" with { type: "json" };
import { docFiles } from "./_docs.ts";

const ROOT = new URL("../", import.meta.url);

/** The relative `--out` paths of the `deno task render` lines of the README and the guides. */
async function renderOutputs(): Promise<string[]> {
  const outputs = new Set<string>();
  for (const file of await docFiles()) {
    for (const line of (await Deno.readTextFile(new URL(file, ROOT))).split("\n")) {
      if (!line.startsWith("deno task render")) continue;
      // A relative path, not a usage line's placeholder (`[--out PATH]`).
      const out = /--out ([a-z0-9_./-]+)(?:\s|$)/.exec(line)?.[1];
      if (out !== undefined && !out.startsWith("/")) outputs.add(out);
    }
  }
  return [...outputs];
}

Deno.test("the render outputs of the README and the guides are ignored by git and by deno task check", async () => {
  const outputs = await renderOutputs();
  for (const expected of ["site/", "dreams/", "session.html", "pages/"]) {
    assert.ok(outputs.includes(expected), `${expected} not among ${outputs}`);
  }
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
