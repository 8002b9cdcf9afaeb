// Copyright 2026 the brigade authors. MIT license.

/**
 * What every comparison script reports: the median of its runs and the peak
 * resident memory of the process it runs in.
 *
 * @module
 */

/** The median of the finite values (the mean of the middle two for an even count); NaN if none. */
export function median(values: readonly number[]): number {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** This process's peak resident memory in KiB, runtime included (VmHWM on Linux, else the current RSS). */
export function peakRssKb(): number {
  try {
    const status = Deno.readTextFileSync("/proc/self/status");
    const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1]);
    if (Number.isFinite(kb)) return kb;
  } catch {
    // Not Linux: fall back to the current RSS.
  }
  return Deno.memoryUsage().rss / 1024;
}
