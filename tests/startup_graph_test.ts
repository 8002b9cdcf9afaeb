// Copyright 2026 the brigade authors. MIT license.

// What the two commands load before their common call runs: the status line given Claude Code's
// own context figures, and `render` of the bundled example through the grader. Module graphs,
// not times: the times are bench/startup_compare.ts's (`deno task bench:startup`).

import assert from "node:assert/strict";
import { ROOT, run } from "./_command.ts";

interface InfoModule {
  specifier: string;
  dependencies?: { code?: { specifier: string }; isDynamic?: boolean }[];
}

/**
 * The specifiers `deno run` loads from `entry`, read from `deno info --json` along the imports
 * that are not type-only: before it runs (`dynamic: false`), or ever, a literal `import()`
 * included (`dynamic: true`: what Deno resolves, and for npm packages installs, ahead of time).
 */
async function loaded(entry: string, dynamic: boolean): Promise<string[]> {
  const { stdout, success } = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", `${ROOT}${entry}`],
    stdout: "piped",
    stderr: "null",
  }).output();
  assert.ok(success, `deno info ${entry}`);
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
  const root = new URL(ROOT, "file:").href;
  return [...seen].map((s) => s.startsWith(root) ? s.slice(root.length) : s).sort();
}

Deno.test("the status line loads neither the reader nor a node: built-in before it runs", async () => {
  const modules = await loaded("cli/facts.ts", false);
  assert.deepEqual(modules.filter((m) => m.startsWith("node:") || m.startsWith("npm:")), []);
  assert.deepEqual(
    modules.filter((m) => m.startsWith("reader/") && m !== "reader/_fingerprint.ts"),
    [],
  );
  // Reading a transcript still loads the reader, on the call that reads one.
  assert.ok((await loaded("cli/facts.ts", true)).includes("reader/mod.ts"));
});

Deno.test("render loads only the renderer named, and no team or folder-watch machinery", async () => {
  const modules = await loaded("cli/render.ts", false);
  const unused = [
    "renderers/builtin.ts",
    "renderers/dream/",
    "renderers/html/",
    "renderers/json/",
    "renderers/grader/",
    "cli/_config.ts",
    "cli/_team_imports.ts",
    "cli/_net_access.ts",
    "cli/_unrendered.ts",
    "cli/_watch.ts",
    "deps/",
  ];
  assert.deepEqual(modules.filter((m) => unused.some((u) => m.startsWith(u))), []);
  const ever = await loaded("cli/render.ts", true);
  assert.ok(ever.includes("renderers/grader/grader.ts"));
  assert.ok(ever.includes("cli/_watch.ts"));
});

Deno.test("render's graph holds no npm package, so Deno installs none of the lockfile's", async () => {
  const ever = await loaded("cli/render.ts", true);
  assert.deepEqual(ever.filter((m) => m.startsWith("npm:")), []);
});

Deno.test("deno run of render, the lockfile in scope, in a fresh cache downloads no npm package", async () => {
  const denoDir = await Deno.makeTempDir({ prefix: "startup_graph_" });
  try {
    // A registry that answers nothing: a download attempt fails the run.
    const env = { DENO_DIR: denoDir, NPM_CONFIG_REGISTRY: "http://127.0.0.1:9/" };
    // As an installed command runs it: deno run, with deno.json and deno.lock in scope (`deno
    // task` itself caches the lockfile's packages before it runs a task, whatever the task).
    const flags = ["--allow-read", "--allow-write", "--allow-env", "--allow-net=api.anthropic.com"];
    const example = await run("deno", ["run", ...flags, "cli/render.ts"], { cwd: ROOT, env });
    assert.equal(example.code, 0, example.stderr);
    assert.match(example.stdout, /^\[user\]\n/);
    const installed = await Array.fromAsync(Deno.readDir(`${denoDir}/npm`)).catch(() => []);
    assert.deepEqual(installed.map((entry) => entry.name), []);
  } finally {
    await Deno.remove(denoDir, { recursive: true });
  }
});
