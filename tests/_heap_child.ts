// Copyright 2026 the brigade authors. MIT license.

import assert from "node:assert/strict";

/**
 * Runs a measuring child (`deno run --v8-flags=--expose-gc`, so that it can collect before it
 * measures its heap) with the permissions and arguments given; its one JSON line of report.
 */
export async function heapChild<T>(
  script: URL,
  args: string[],
  permissions: string[] = [],
): Promise<T> {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", ...permissions, "--v8-flags=--expose-gc", script.pathname, ...args],
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  assert.equal(code, 0, new TextDecoder().decode(stderr));
  return JSON.parse(new TextDecoder().decode(stdout)) as T;
}
