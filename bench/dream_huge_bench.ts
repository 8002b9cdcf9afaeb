// Copyright 2026 the brigade authors. MIT license.

/**
 * One 60 MiB user message (a key at both ends) through `dream` and `grader`,
 * against the same file read and parsed alone (the group's baseline), all read
 * through `fromNdjson`. Peak memory is not something `deno
 * bench` measures: `deno task bench:huge` gives peak RSS, in a process per case.
 *
 * @module
 */

import { fromNdjson as lines, renderDream, renderGrader } from "../mod.ts";
import { ensureHugeLog } from "./dream_huge_compare.ts";

const path = await ensureHugeLog();
const group = "one 60 MiB user message";

Deno.bench({
  name: "fromNdjson alone: every line parsed (60 MiB message)",
  group,
  baseline: true,
  n: 5,
  warmup: 1,
  async fn(): Promise<void> {
    for await (const _ of lines(path)) { /* parsed */ }
  },
});
Deno.bench({
  name: "renderDream (60 MiB message)",
  group,
  n: 5,
  warmup: 1,
  async fn(): Promise<void> {
    await renderDream(lines(path));
  },
});
Deno.bench({
  name: "renderGrader (60 MiB message)",
  group,
  n: 5,
  warmup: 1,
  async fn(): Promise<void> {
    await renderGrader(lines(path));
  },
});
