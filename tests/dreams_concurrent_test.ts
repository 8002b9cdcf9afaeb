// Copyright 2026 the brigade authors. MIT license.

import assert from "node:assert/strict";

/** Runs `_dreams_concurrent_child.ts` with `dreams` dreams at once; its report. */
async function concurrentDreams(
  dreams: number,
): Promise<{ heldMiB: number; dreams: number; finished: number }> {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-read",
      "--allow-write",
      "--v8-flags=--expose-gc",
      new URL("./_dreams_concurrent_child.ts", import.meta.url).pathname,
      String(dreams),
    ],
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  assert.equal(code, 0, new TextDecoder().decode(stderr));
  return JSON.parse(new TextDecoder().decode(stdout));
}

Deno.test("a hundred dreams at once each hold the entry they read, not a 64 KiB read's worth of parsed entries", async () => {
  const run = await concurrentDreams(100);
  assert.equal(run.finished, 100, "every dream read its log to the end");
  // Each dream's read is 64 KiB of lines: parsed all at once, a hundred reads held about
  // 12 MiB of values between two entries; parsed as they are read, a dream holds one (and
  // its own state: its source's buffers' handles, the heading and the head of its text),
  // about 3 MiB for the hundred.
  assert.ok(run.heldMiB < 6, `the hundred dreams held ${run.heldMiB.toFixed(1)} MiB of heap`);
});
