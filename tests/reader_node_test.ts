// Copyright 2026 the brigade authors. MIT license.

// The README's Node example of the reader, bundled with `deno bundle --platform=node` and run
// by the machine's `node` (v20 has no type stripping): the reader must read files where
// `Deno` does not exist. Skipped, with the reason printed, when `node` is missing, except
// under CI=true, where a missing `node` fails.

import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";

const README = fileURLToPath(new URL("../README.md", import.meta.url));
const CONFIG = fileURLToPath(new URL("../deno.json", import.meta.url));
const HEADING = "On Node and Bun the reader is the same";

/** The first TypeScript block after the paragraph that starts with {@linkcode HEADING}. */
async function nodeExample(): Promise<string> {
  const readme = await Deno.readTextFile(README);
  const at = readme.indexOf(HEADING);
  assert.notEqual(at, -1, "the README has the Node example");
  const match = /```ts\n([\s\S]*?)```/.exec(readme.slice(at));
  assert.ok(match !== null, "a ts block follows");
  return match[1]!;
}

async function nodeVersion(): Promise<string | undefined> {
  try {
    const { success, stdout } = await new Deno.Command("node", {
      args: ["--version"],
      stdout: "piped",
      stderr: "null",
    }).output();
    return success ? new TextDecoder().decode(stdout).trim() : undefined;
  } catch {
    return undefined;
  }
}

Deno.test("the README's reader example runs on Node", async () => {
  const version = await nodeVersion();
  if (version === undefined) {
    assert.notEqual(Deno.env.get("CI"), "true", "node is required under CI=true");
    console.log("skipped: no `node` on PATH (set CI=true to make this a failure)");
    return;
  }
  const dir = await Deno.makeTempDir({ prefix: "reader_node_" });
  try {
    await Deno.writeTextFile(`${dir}/example.ts`, await nodeExample());
    const bundle = await new Deno.Command(Deno.execPath(), {
      args: [
        "bundle",
        "--platform=node",
        "--config",
        CONFIG,
        "-o",
        `${dir}/example.mjs`,
        `${dir}/example.ts`,
      ],
      stdout: "piped",
      stderr: "piped",
      env: { NO_COLOR: "1" },
    }).output();
    assert.ok(bundle.success, new TextDecoder().decode(bundle.stderr));
    const run = await new Deno.Command("node", {
      args: [`${dir}/example.mjs`],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(run.stderr);
    assert.equal(run.code, 0, `node ${version} failed: ${stderr}`);
    assert.equal(stderr, "");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
