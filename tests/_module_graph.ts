// Copyright 2026 the brigade authors. MIT license.

// The modules `deno run` loads from an entry, read from `deno info --json`: shared by the start-up
// graph tests and the start-up bench, which must count the same modules.

/** One module of `deno info --json`'s graph, as far as the walk needs it. */
interface InfoModule {
  specifier: string;
  size?: number;
  dependencies?: { code?: { specifier: string }; isDynamic?: boolean }[];
}

/** A module `deno run` loads, and its size in bytes when it is a file (0 for `node:` built-ins). */
export interface LoadedModule {
  specifier: string;
  size: number;
}

/**
 * The modules `deno run` loads from `entry` along the imports that are not type-only: before it
 * runs (`dynamic: false`: `import()` loads on the call that needs it), or ever, a literal
 * `import()` included (`dynamic: true`: what Deno resolves, and for npm packages installs, ahead
 * of time).
 */
export async function loadedModules(entry: string, dynamic: boolean): Promise<LoadedModule[]> {
  const { stdout, success } = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", entry],
    stdout: "piped",
    stderr: "null",
  }).output();
  if (!success) throw new Error(`deno info ${entry} failed`);
  const info = JSON.parse(new TextDecoder().decode(stdout)) as {
    roots: string[];
    modules: InfoModule[];
  };
  const bySpecifier = new Map(info.modules.map((m) => [m.specifier, m]));
  const seen = new Set<string>();
  const queue = [...info.roots];
  while (queue.length > 0) {
    const specifier = queue.pop()!;
    if (seen.has(specifier)) continue;
    seen.add(specifier);
    for (const dep of bySpecifier.get(specifier)?.dependencies ?? []) {
      if (dep.code !== undefined && (dynamic || !dep.isDynamic)) queue.push(dep.code.specifier);
    }
  }
  return [...seen].map((specifier) => ({
    specifier,
    size: bySpecifier.get(specifier)?.size ?? 0,
  }));
}
