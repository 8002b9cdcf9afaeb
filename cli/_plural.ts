// Copyright 2026 the brigade authors. MIT license.

/**
 * A count with its noun, singular for one: `1 session`, `2 sessions`, `0 sessions`. Every count
 * the commands print goes through it, so none reads "1 sessions".
 *
 * @module
 */

/**
 * `count` and `noun`, the noun's plural (`plural`, else the noun with an `s`) unless the count
 * is one.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { counted } from "./_plural.ts";
 *
 * assert.equal(counted(1, "session"), "1 session");
 * assert.equal(counted("30,179", "context token"), "30,179 context tokens");
 * assert.equal(counted(2, "more bad line", "more bad lines"), "2 more bad lines");
 * ```
 *
 * @param count The number, as printed (`30,179`, `30.2k`) or as a number.
 * @param noun The singular noun, with any words after the count: `context token`.
 * @param plural The plural when it is not the noun with an `s`.
 */
export function counted(count: number | string, noun: string, plural = `${noun}s`): string {
  const one = typeof count === "number" ? count === 1 : count === "1";
  return `${count} ${one ? noun : plural}`;
}
