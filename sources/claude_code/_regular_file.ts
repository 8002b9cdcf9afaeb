// Copyright 2026 the brigade authors. MIT license.

/** Whether a path names a regular file (symlinks followed); a path that cannot be stat'ed does not. */
export async function isRegularFile(path: string | URL): Promise<boolean> {
  const deno = (globalThis as {
    Deno?: { stat(path: string | URL): Promise<{ isFile: boolean }> };
  }).Deno;
  try {
    if (deno !== undefined) return (await deno.stat(path)).isFile;
    const fs = await import("node:fs/promises");
    return (await fs.stat(path)).isFile();
  } catch {
    return false;
  }
}
