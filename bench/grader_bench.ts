// Copyright 2026 the brigade authors. MIT license.

/**
 * The grader on a generated 100,000-event and 1,000,000-event Managed Agents
 * log read from NDJSON: `renderGrader(fromNdjson(path))` against `JSON.parse`
 * of every line of the same file (the baseline of each size's group) and a
 * full drain of `fromNdjson`; then the render of both sizes side by side. The
 * render should cost about the same at both sizes, since the grader's
 * transcript budget stops it reading, and far less than parsing the file.
 *
 * `deno bench` gives averages and percentiles, not medians; for medians,
 * events/s and ratios from one run, use `grader_compare.ts`.
 *
 * @module
 */

import { ensureLog } from "./_generate.ts";
import { drainNdjson, parseEveryLine, renderFile, sizeName, SIZES } from "./grader_compare.ts";

const paths = new Map<number, string>();
for (const size of SIZES) paths.set(size, await ensureLog(size));

for (const size of SIZES) {
  const path = paths.get(size)!;
  const group = `grader, ${sizeName(size)} events`;
  const fullRuns = size >= 1_000_000 ? 5 : 10;
  Deno.bench({
    name: `JSON.parse every line (${sizeName(size)})`,
    group,
    baseline: true,
    n: fullRuns,
    warmup: 1,
    async fn(): Promise<void> {
      await parseEveryLine(path);
    },
  });
  Deno.bench({
    name: `fromNdjson, every entry (${sizeName(size)})`,
    group,
    n: fullRuns,
    warmup: 1,
    async fn(): Promise<void> {
      await drainNdjson(path);
    },
  });
  Deno.bench({
    name: `renderGrader(fromNdjson) (${sizeName(size)})`,
    group,
    async fn(): Promise<void> {
      await renderFile(path);
    },
  });
}

for (const [i, size] of SIZES.entries()) {
  const path = paths.get(size)!;
  Deno.bench({
    name: `render ${sizeName(size)}`,
    group: "grader render across sizes",
    baseline: i === 0,
    async fn(): Promise<void> {
      await renderFile(path);
    },
  });
}
