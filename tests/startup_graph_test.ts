// Copyright 2026 the brigade authors. MIT license.

// What the two commands load before their common call runs: the status line given Claude Code's
// own context figures, and `render` of the bundled example through the grader. Module graphs,
// not times: the times are bench/startup_compare.ts's (`deno task bench:startup`).

import assert from "node:assert/strict";
import { ROOT, run } from "./_command.ts";
import { loadedModules } from "./_module_graph.ts";
import { exampleEntries } from "../cli/_example.ts";
import { fromNdjson } from "../mod.ts";

/** The specifiers `deno run` loads from `entry` (see {@linkcode loadedModules}), the checkout's relative. */
async function loaded(entry: string, dynamic: boolean): Promise<string[]> {
  const seen = (await loadedModules(`${ROOT}${entry}`, dynamic)).map((m) => m.specifier);
  const root = new URL(ROOT, "file:").href;
  return seen.map((s) => s.startsWith(root) ? s.slice(root.length) : s).sort();
}

/**
 * What `render` loads before it imports a renderer: `cli/render.ts`'s graph, and that of the
 * command it imports on every call but a rerun that finds nothing changed.
 */
async function commandModules(): Promise<string[]> {
  const entry = await loaded("cli/render.ts", false);
  const command = await loaded("cli/_render_command.ts", false);
  return [...new Set([...entry, ...command])].sort();
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
  const modules = await commandModules();
  const unused = [
    "renderers/builtin.ts",
    "renderers/dream/",
    "renderers/html/",
    "renderers/json/",
    "renderers/grader/",
    "cli/_config.ts",
    "cli/_team_imports.ts",
    // What bounds a team's renderer: only render.ts's look at whether this run is its worker.
    "cli/_team_access.ts",
    "cli/_net_access.ts",
    "cli/_unrendered.ts",
    "cli/_watch.ts",
    "deps/",
  ];
  assert.deepEqual(modules.filter((m) => unused.some((u) => m.startsWith(u))), []);
  const ever = await loaded("cli/render.ts", true);
  assert.ok(ever.includes("renderers/grader/grader.ts"));
  assert.ok(ever.includes("cli/_watch.ts"));
  assert.ok(ever.includes("cli/_team_access.ts"));
});

Deno.test("render to standard output loads no source it does not read, no folder machinery and no node: built-in", async () => {
  const modules = await commandModules();
  const unused = [
    // --session's Managed Agents source, and a Claude Code transcript's (the example is a log).
    "sources/managed_agents/",
    "sources/claude_code/",
    "cli/_api_session.ts",
    "cli/_follow_file.ts",
    "cli/_write_as_it_goes.ts",
    // --since/--until's dates.
    "cli/_dates.ts",
    // A file's or a stream's reading: the bundled example reads none.
    "cli/_input_file.ts",
    "cli/_format.ts",
    "sources/from_ndjson.ts",
    "lines/byte_lines.ts",
    // --out DIR: the folder's lock, record, pages, index and walk.
    "cli/_folder_lock.ts",
    "cli/_folder_writer.ts",
    "cli/_folder_inputs.ts",
    "cli/_folder_index.ts",
    "cli/_manifest.ts",
    "cli/_manifest_file.ts",
    "cli/_output.ts",
    "cli/_walk.ts",
    "node:",
  ];
  assert.deepEqual(modules.filter((m) => unused.some((u) => m.startsWith(u))), []);
  // Each is still in the graph, for the call that needs it (and for deno compile, publish).
  const ever = await loaded("cli/render.ts", true);
  for (const module of ["cli/_manifest.ts", "sources/claude_code/from_claude_code.ts"]) {
    assert.ok(ever.includes(module), module);
  }
  assert.ok(ever.includes("sources/managed_agents/from_managed_agents.ts"));
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

/**
 * The modules a call evaluates, as Deno's debug log names them (each module it runs is
 * looked up in, or added to, V8's code cache): file modules relative to the checkout, and
 * Deno's own (`ext:…`, where `node:` built-ins are implemented).
 */
async function evaluated(args: string[], stdin?: string): Promise<string[]> {
  const cwd = await Deno.makeTempDir({ prefix: "startup_modules_" });
  try {
    const result = await run(
      "deno",
      ["task", "--quiet", "--config", `${ROOT}deno.json`, ...args],
      { cwd, env: { DENO_LOG: "debug" }, ...(stdin === undefined ? {} : { stdin }) },
    );
    assert.equal(result.code, 0, result.stderr.slice(-2000));
    const root = new URL(ROOT, "file:").href;
    const modules = [...result.stderr.matchAll(/code cache (?:hit )?for ES module: (\S+),/g)]
      .map(([, specifier]) =>
        specifier!.startsWith(root) ? specifier!.slice(root.length) : specifier!
      );
    // The log still names modules this way: the command's own entry is among them.
    assert.ok(modules.some((m) => m.startsWith("cli/")), result.stderr.slice(0, 2000));
    return modules;
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
}

Deno.test("render of a log through the grader, with flags or without, runs no node: built-in", async () => {
  const log = `${ROOT}fixtures/single_agent.ndjson`;
  for (const args of [["render", log], ["render", "-r", "grader", "--ids", "--keep=ends", log]]) {
    const modules = await evaluated(args);
    assert.deepEqual(modules.filter((m) => m.startsWith("ext:deno_node/")), [], args.join(" "));
    assert.ok(modules.includes("renderers/grader/grader.ts"));
    const sources = ["sources/managed_agents/", "sources/claude_code/"];
    assert.deepEqual(modules.filter((m) => sources.some((s) => m.startsWith(s))), []);
  }
});

Deno.test("render of the bundled example loads none of Deno's own modules lazily: no streams, no node:", async () => {
  const modules = await evaluated(["render"]);
  assert.ok(modules.includes("renderers/grader/grader.ts"));
  assert.deepEqual(modules.filter((m) => m.startsWith("ext:")), []);
  // It reads no file: neither the line splitter, the file source (whose session naming it
  // shares), the NDJSON source nor the format's peek.
  const reading = [
    "lines/byte_lines.ts",
    "lines/file_source.ts",
    "sources/from_ndjson.ts",
    "cli/_format.ts",
    "cli/_input_file.ts",
  ];
  assert.deepEqual(modules.filter((m) => reading.some((r) => m.startsWith(r))), []);
});

Deno.test("render of the bundled example runs only the kit modules the grader uses, not the kit's face", async () => {
  const modules = await evaluated(["render"]);
  assert.ok(modules.includes("kit/conversation.ts"));
  // kit/mod.ts would run every kit module (the session title, the content helpers' face).
  const unused = ["kit/mod.ts", "kit/session_title.ts", "renderers/registry.ts", "mod.ts"];
  assert.deepEqual(modules.filter((m) => unused.includes(m)), []);
});

Deno.test("deno task render compiles eagerly, and prints what a lazily compiled render prints", async () => {
  // V8 then puts every function's bytecode in the code cache on a first run, so that later
  // runs compile none of what they call (the example's first render was mostly compiling).
  const task = (await import("../deno.json", { with: { type: "json" } })).default.tasks.render;
  assert.match(task.command, / deno run --v8-flags=--no-lazy /);
  const cwd = await Deno.makeTempDir({ prefix: "startup_eager_" });
  try {
    const eager = await run("deno", ["task", "--quiet", "--config", `${ROOT}deno.json`, "render"], {
      cwd,
    });
    const flags = ["--allow-read", "--allow-env", "--allow-net=api.anthropic.com"];
    const lazy = await run("deno", ["run", ...flags, `${ROOT}cli/render.ts`], { cwd });
    assert.equal(eager.code, 0, eager.stderr);
    assert.equal(lazy.code, 0, lazy.stderr);
    assert.match(eager.stdout, /^\[user\]\n/);
    assert.equal(eager.stdout, lazy.stdout);
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
});

Deno.test("the example's entries, parsed without a stream, are fromNdjson's of its fixture", async () => {
  const fixture = `${ROOT}fixtures/coordinator_all_threads.ndjson`;
  assert.deepEqual(await exampleEntries(), await Array.fromAsync(fromNdjson(fixture)));
});

/**
 * The modules of this checkout Deno reads (its file fetcher's debug lines) and those it runs (its
 * code cache's) for `deno task ARGS` run from `cwd`, relative to the checkout.
 */
async function readAndRun(args: string[], cwd: string): Promise<{ read: string[]; ran: string[] }> {
  const result = await run(
    "deno",
    ["task", "--quiet", "--config", `${ROOT}deno.json`, ...args],
    { cwd, env: { DENO_LOG: "debug" } },
  );
  assert.equal(result.code, 0, result.stderr.slice(-2000));
  const root = new URL(ROOT, "file:").href;
  const ours = (pattern: RegExp): string[] =>
    [...new Set([...result.stderr.matchAll(pattern)].map(([, s]) => s!))]
      .filter((s) => s.startsWith(root) && s.endsWith(".ts")).map((s) => s.slice(root.length))
      .sort();
  const ran = [...result.stderr.matchAll(/code cache (?:hit )?for ES module: (\S+),/g)]
    .map(([, s]) => s!.startsWith(root) ? s!.slice(root.length) : s!);
  return { read: ours(/FileFetcher::fetch_no_follow - specifier: (\S+)/g), ran };
}

Deno.test("deno task render reads only the modules the grader's call runs, not every literal import()'s graph", async () => {
  const cwd = await Deno.makeTempDir({ prefix: "startup_read_" });
  try {
    const { read, ran } = await readAndRun(["render"], cwd);
    // Each module read is one it runs: --watch, the API's source, the html renderer are not read.
    assert.deepEqual(read.filter((m) => !ran.includes(m)), []);
    assert.ok(read.includes("renderers/grader/grader.ts"));
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
});

Deno.test("render's rerun into a folder runs none of Deno's Node modules: no node:path, no timers", async () => {
  const cwd = await Deno.makeTempDir({ prefix: "startup_rerun_" });
  try {
    await Deno.copyFile(`${ROOT}fixtures/single_agent.ndjson`, `${cwd}/a.ndjson`);
    await Deno.copyFile(`${ROOT}fixtures/coordinator_all_threads.ndjson`, `${cwd}/b.ndjson`);
    const args = ["render", "-r", "dream", "--out", `${cwd}/out/`, `${cwd}/a.ndjson`];
    await readAndRun(args, cwd);
    // Another input: the rerun goes the whole way, the folder's record and index included.
    const { ran } = await readAndRun([...args, `${cwd}/b.ndjson`], cwd);
    assert.ok(ran.includes("cli/_manifest.ts"));
    assert.deepEqual(
      ran.filter((m) => m.startsWith("ext:deno_node/") || m.startsWith("node:")),
      [],
    );
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
});

Deno.test("render's rerun into a folder that finds nothing changed reads no renderer, no redactor, no source", async () => {
  const cwd = await Deno.makeTempDir({ prefix: "startup_rerun_" });
  try {
    await Deno.copyFile(`${ROOT}fixtures/single_agent.ndjson`, `${cwd}/a.ndjson`);
    await Deno.copyFile(`${ROOT}fixtures/coordinator_all_threads.ndjson`, `${cwd}/b.ndjson`);
    const args = ["render", "-r", "dream", "--out", "out/", "a.ndjson", "b.ndjson"];
    await readAndRun(args, cwd);
    const index = await Deno.readTextFile(`${cwd}/out/INDEX.md`);
    const { read } = await readAndRun(args, cwd);
    assert.ok(read.includes("cli/_quick_rerun.ts"));
    const unused = [
      "renderers/",
      "kit/",
      "redact/",
      "sources/",
      "events/",
      "lines/",
      "cli/_batch.ts",
      // The record's reading and writing: only its last line, the folder's state, is read.
      "cli/_manifest.ts",
      "cli/_manifest_file.ts",
      // What the whole way tells a run's user: the rerun says its counts alone.
      "cli/_run_tally.ts",
    ];
    assert.deepEqual(read.filter((m) => unused.some((u) => m.startsWith(u))), []);
    assert.equal(await Deno.readTextFile(`${cwd}/out/INDEX.md`), index);
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
});

Deno.test("render --version reads only what parses its arguments, none of the command's machinery", async () => {
  const cwd = await Deno.makeTempDir({ prefix: "startup_version_" });
  try {
    const { read, ran } = await readAndRun(["render", "--version"], cwd);
    assert.ok(ran.includes("cli/_version.ts"));
    const unused = [
      // A parse's error wording, for a command line that does not parse.
      "cli/_args_problem.ts",
      "cli/_edit_distance.ts",
      "cli/_render_command.ts",
      "cli/_batch.ts",
      "cli/_terminal.ts",
      "cli/_quick_rerun.ts",
      "renderers/",
      "kit/",
      "redact/",
      "sources/",
      "events/",
      "lines/",
    ];
    assert.deepEqual(read.filter((m) => unused.some((u) => m.startsWith(u))), []);
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
});
