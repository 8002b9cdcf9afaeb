// Copyright 2026 the brigade authors. MIT license.

// Following a session whose stream outruns its consumer keeps memory flat: 128 MiB of events
// through fromManagedAgents({ follow: true }) and streamJson() in a process with a 32 MiB heap.

import assert from "node:assert/strict";

Deno.test("a followed stream four times the heap, read by a slower consumer, fits in the heap", async () => {
  const script = new URL("./_follow_bounded_child.ts", import.meta.url);
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-net=127.0.0.1",
      "--v8-flags=--max-old-space-size=32",
      script.pathname,
      "128",
    ],
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  const said = new TextDecoder().decode(stderr).slice(-2_000);
  assert.equal(code, 0, said);
  const report = JSON.parse(new TextDecoder().decode(stdout));
  assert.ok(report.lines > 60_000, JSON.stringify(report));
  assert.ok(report.streamedMiB >= 120, JSON.stringify(report));
});
