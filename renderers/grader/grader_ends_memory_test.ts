// Copyright 2026 the brigade authors. MIT license.

import assert from "node:assert/strict";
import { GRADER_TRANSCRIPT_BUDGET } from "../../kit/budget.ts";

Deno.test('renderGrader({ keep: "ends" }) reads a long session in a 16 MB old generation', async () => {
  // 240,000 entries, about 158 MB of NDJSON (ten times the cap; the child fits in half of it):
  // long non-ASCII results, a child's own calls (never cross-posted: the grader's record of
  // them stays full) and thread messages both ways. The whole session is read; what is held is
  // its head, its tail and their bookkeeping.
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-read",
      "--v8-flags=--max-old-space-size=16",
      new URL("../../tests/_grader_ends_bounded_child.ts", import.meta.url).pathname,
      "20000",
    ],
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  assert.equal(code, 0, new TextDecoder().decode(stderr).slice(-2_000));
  const { bytes, first, last } = JSON.parse(new TextDecoder().decode(stdout));
  assert.ok(bytes <= GRADER_TRANSCRIPT_BUDGET, `${bytes} bytes`);
  assert.equal(first, "[user]");
  assert.equal(last, "  Done 19999.");
});
