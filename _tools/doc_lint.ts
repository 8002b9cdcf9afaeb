// Copyright 2026 the brigade authors. MIT license.

/**
 * The doc lint of every entry point `deno.json` exports, each in its own `deno doc --lint` call:
 * linted together, one entry point's export covers a name another uses without exporting it
 * (`LogEntry` in `./kit`), and a user reading that entry point's page on JSR finds it missing.
 *
 * ```sh
 * deno task check:doc
 * ```
 *
 * @module
 */

import denoJson from "../deno.json" with { type: "json" };

const ROOT = new URL("../", import.meta.url);

/** Lints one entry point alone; returns whether it passed, its output printed when it did not. */
async function lintAlone(name: string, path: string): Promise<boolean> {
  const { success, stdout, stderr } = await new Deno.Command("deno", {
    args: ["doc", "--lint", path],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!success) {
    const decoder = new TextDecoder();
    console.error(`${name} (${path}) fails deno doc --lint on its own:`);
    console.error(decoder.decode(stdout) + decoder.decode(stderr));
  }
  return success;
}

const failed: string[] = [];
for (const [name, path] of Object.entries(denoJson.exports)) {
  if (!await lintAlone(name, path)) failed.push(name);
}
if (failed.length > 0) {
  console.error(`deno doc --lint failed alone on: ${failed.join(", ")}`);
  Deno.exit(1);
}
console.log(
  `deno doc --lint passed on each of ${Object.keys(denoJson.exports).length} entry points alone`,
);
