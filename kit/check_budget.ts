// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

/**
 * A renderer's budget option checked: a positive integer, else a
 * `RangeError` saying what could not be done (`what`, e.g. "render with the
 * grader"), which option and its value, as the built-ins word it.
 *
 * @param what What the bad option stops, after "Cannot" ("render with the grader").
 * @param name The option's name.
 * @param value The option's value.
 * @returns The value, when it is a positive safe integer.
 * @throws {RangeError} When it is not.
 *
 * @example Usage
 * ```ts
 * import { checkBudget } from "@brigade/transcript/kit";
 * import assert from "node:assert/strict";
 *
 * assert.equal(checkBudget("render my page", "budget", 500), 500);
 * assert.throws(() => checkBudget("render my page", "budget", 0), {
 *   name: "RangeError",
 *   message: "Cannot render my page: budget must be a positive integer: 0",
 * });
 * ```
 */
export function checkBudget(what: string, name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new RangeError(`Cannot ${what}: ${name} must be a positive integer: ${value}`);
  }
  return value;
}
