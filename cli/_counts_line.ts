// Copyright 2026 the brigade authors. MIT license.

/**
 * A run's closing line's counts: its own module, so that a rerun that finds nothing changed
 * (`_quick_rerun.ts`) says them as the whole way does (`_run_tally.ts`, which re-exports them)
 * without loading the rest of what a run tells.
 *
 * @module
 */

/** How many sessions ended which way. */
export interface Counts {
  rendered: number;
  unchanged: number;
  failed: number;
  /** Sessions left out by `--since` and `--until`. */
  outside: number;
}

/**
 * The summary's counts, as a run's last line says them (after the command's name).
 *
 * @example Usage
 * ```ts
 * import { countsLine } from "./_counts_line.ts";
 * import assert from "node:assert/strict";
 *
 * const counts = { rendered: 0, unchanged: 3, failed: 0, outside: 0 };
 * assert.equal(countsLine(counts, false), "0 rendered, 3 unchanged, 0 failed");
 * ```
 *
 * @param counts How many sessions ended which way.
 * @param ranged Whether `--since`/`--until` were given: the sessions they left out are counted.
 * @returns The counts' words.
 */
export function countsLine(counts: Counts, ranged: boolean): string {
  const { rendered, unchanged, failed, outside } = counts;
  const range = ranged ? `, ${outside} not started within --since/--until` : "";
  return `${rendered} rendered, ${unchanged} unchanged, ${failed} failed${range}`;
}
