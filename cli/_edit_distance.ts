// Copyright 2026 the brigade authors. MIT license.

/**
 * The optimal string alignment distance of `a` and `b` (insertions, deletions, substitutions and
 * swaps of two neighbours, each one edit), or `limit + 1` at once when their lengths alone are
 * further apart: the flag suggestions and the renderer-name typo check both ask it.
 *
 * @param a One string.
 * @param b The other.
 * @param limit Past this, the exact distance does not matter.
 */
export function editDistance(a: string, b: string, limit = Infinity): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, before[j - 2]! + 1);
      }
      row.push(value);
    }
    before = previous;
    previous = row;
  }
  return previous[b.length]!;
}
