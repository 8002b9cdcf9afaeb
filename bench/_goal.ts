// Copyright 2026 the brigade authors. MIT license.

/**
 * How a comparison script reports a figure that has a goal (issue 28's
 * table): a line `goal · <item> · <figure>: <measured> (goal <goal>) <met|MISSED>`
 * on stdout, and, when `BENCH_GOALS_FILE` names a file, the same as one JSON
 * line appended to it, for `bench/goals.ts` to gather into one table.
 *
 * @module
 */

/** One measured figure beside its goal. */
export interface GoalFigure {
  /** The item of the performance goals it answers, e.g. `"3"`. */
  item: string;
  /** What was measured, e.g. `"dream CPU ÷ parse floor, 1M events"`. */
  figure: string;
  /** The measured value as written, e.g. `"1.84×"` or `"141.2 MiB"`. */
  measured: string;
  /** The goal as written, e.g. `"≤ 2×"`. */
  goal: string;
  /** Whether the measured value meets the goal. */
  met: boolean;
}

/** Prints `figure` beside its goal, and appends it to `BENCH_GOALS_FILE` when set. */
export function reportGoal(figure: GoalFigure): void {
  const verdict = figure.met ? "met" : "MISSED";
  console.log(
    `goal · ${figure.item} · ${figure.figure}: ${figure.measured} (goal ${figure.goal}) ${verdict}`,
  );
  const env = Deno.permissions.querySync({ name: "env", variable: "BENCH_GOALS_FILE" });
  const file = env.state === "granted" ? Deno.env.get("BENCH_GOALS_FILE") : undefined;
  if (file) Deno.writeTextFileSync(file, JSON.stringify(figure) + "\n", { append: true });
}

/** A ratio as the tables write it: two decimals and `×`. */
export function times(ratio: number): string {
  return `${ratio.toFixed(2)}×`;
}
