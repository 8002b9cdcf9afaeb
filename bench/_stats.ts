// Copyright 2026 the brigade authors. MIT license.

/**
 * What every comparison script reports: the median of its runs and the peak
 * resident memory of the process it runs in; and the order a round runs its
 * measurements in.
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

/**
 * A function that returns its argument's items in a random order, the same orders run after
 * run for one `seed` (a small linear congruential generator, then Fisher-Yates).
 */
export function shuffler(seed: number): <T>(items: T[]) => T[] {
  let state = seed >>> 0;
  const next = (): number => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
  return <T>(items: T[]): T[] => {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(next() * (i + 1));
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
  };
}

/** This process's peak resident memory in KiB, runtime included (VmHWM on Linux, else the current RSS). */
export function peakRssKb(): number {
  try {
    const status = Deno.readTextFileSync("/proc/self/status");
    const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1]);
    if (Number.isFinite(kb)) return kb;
  } catch (error) {
    // Deno reads /proc/self/status only with every permission: a child without them would
    // report its RSS at the end as its peak, so it is told to, never quietly.
    if (error instanceof Deno.errors.NotCapable) {
      throw new Error("peakRssKb() needs --allow-all: Deno reads /proc/self/status only with it");
    }
    // Not Linux: fall back to the current RSS.
  }
  return Deno.memoryUsage().rss / 1024;
}

/**
 * Runs one case of a comparison script in a process of its own (so each peak
 * RSS is the case's alone): the script again, with `--child KIND PATH`, and
 * whatever JSON line it prints.
 *
 * @param script The script's path (`import.meta.filename`).
 * @param kind The case.
 * @param path The input.
 * @param v8Flags V8 flags for the child, e.g. `--expose-gc`.
 */
export async function caseInChild<T>(
  script: string,
  kind: string,
  path: string,
  v8Flags: string[] = [],
): Promise<T> {
  const flags = v8Flags.length > 0 ? [`--v8-flags=${v8Flags.join(",")}`] : [];
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", ...flags, script, "--child", kind, path],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  return JSON.parse(new TextDecoder().decode(output.stdout)) as T;
}
