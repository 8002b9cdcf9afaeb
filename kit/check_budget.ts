// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

/**
 * A renderer's budget option checked: a positive integer, else a
 * `RangeError` saying what could not be done (`what`, e.g. "render with the
 * grader"), which option and its value.
 */
export function positive(what: string, name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new RangeError(`Cannot ${what}: ${name} must be a positive integer: ${value}`);
  }
  return value;
}
