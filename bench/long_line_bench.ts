// Copyright 2026 the brigade authors. MIT license.

/**
 * One 50 MB NDJSON line through `fromNdjson` against `JSON.parse` of the same
 * line read whole (the group's baseline). `fromNdjson` splits lines at the
 * byte level, so its time is linear in the line's length: it should stay
 * within a small factor of the parse.
 *
 * `deno bench` gives averages and percentiles, not medians, and no memory;
 * for medians, ratios and peak RSS at 5, 20 and 50 MB, use
 * `long_line_compare.ts` (`deno task bench:long-line`).
 *
 * @module
 */

import { drainNdjson, ensureLongLine, parseWhole } from "./long_line_compare.ts";

const path = await ensureLongLine(50);

Deno.bench({
  name: "JSON.parse of the line read whole (50 MB)",
  group: "one 50 MB line",
  baseline: true,
  n: 5,
  warmup: 1,
  async fn(): Promise<void> {
    await parseWhole(path);
  },
});

Deno.bench({
  name: "fromNdjson, the line (50 MB)",
  group: "one 50 MB line",
  n: 5,
  warmup: 1,
  async fn(): Promise<void> {
    await drainNdjson(path);
  },
});
