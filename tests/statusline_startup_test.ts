// Copyright 2026 the brigade authors. MIT license.

// What the status line's process loads, and what it leaves in Deno's cache for the next one: the
// modules named by Deno's debug log, not times (bench/startup_compare.ts times the calls).

import assert from "node:assert/strict";
import { ROOT, run, taskFrom } from "./_command.ts";
import { writeTranscript } from "../bench/reader_data.ts";

/** Claude Code's status-line JSON with its own context figures: no transcript to read. */
const GIVEN = JSON.stringify({
  model: { id: "claude-opus-5", display_name: "Opus" },
  transcript_path: "/nonexistent/session.jsonl",
  context_window: {
    context_window_size: 200_000,
    current_usage: { input_tokens: 1200, cache_read_input_tokens: 28_679 },
  },
});

/** The same without them: the transcript is read. */
const READ = JSON.stringify({
  model: { id: "claude-opus-5" },
  transcript_path: `${ROOT}fixtures/claude_code/example.jsonl`,
});

/**
 * The file modules a call evaluated, relative to the checkout, from Deno's debug log: each one
 * run is either found in V8's code cache (`hit`) or compiled and added to it (`added`).
 */
function evaluated(stderr: string): { hit: string[]; added: string[] } {
  const root = new URL(ROOT, "file:").href;
  const named = (pattern: RegExp): string[] =>
    [...stderr.matchAll(pattern)]
      .map(([, specifier]) => specifier!)
      .filter((specifier) => specifier.startsWith(root))
      .map((specifier) => specifier.slice(root.length));
  return {
    hit: named(/V8 code cache hit for ES module: (\S+),/g),
    added: named(/Updating V8 code cache for ES module: (\S+),/g),
  };
}

/** The checkout's files a call read, from Deno's debug log (its file fetcher names each). */
function read(stderr: string): string[] {
  const root = new URL(ROOT, "file:").href;
  return [...stderr.matchAll(/FileFetcher::fetch_no_follow - specifier: (\S+)/g)]
    .map(([, specifier]) => specifier!)
    .filter((specifier) => specifier.startsWith(root))
    .map((specifier) => specifier.slice(root.length));
}

Deno.test("deno task facts --statusline given context_window reads and runs facts.ts and the two modules it imports, nothing else", async () => {
  const cwd = await Deno.makeTempDir({ prefix: "statusline_startup_" });
  try {
    for (const args of [["--statusline"], ["--statusline", "--json"]]) {
      const result = await taskFrom("facts", args, {
        cwd,
        env: { DENO_LOG: "debug" },
        stdin: GIVEN,
      });
      assert.equal(result.code, 0, result.stderr.slice(-2000));
      assert.match(result.stdout, /^(Opus · 29\.9k tokens \(15% of 200k\)|\{.*\})\n$/);
      const { hit, added } = evaluated(result.stderr);
      const four = [
        "cli/_facts_format.ts",
        "cli/_plural.ts",
        "cli/_statusline_io.ts",
        "cli/facts.ts",
      ];
      // Each once: a module `deno task render` ran last was compiled there under its own V8
      // flags (--no-lazy), so V8 refuses the cache and it is compiled again (hit, then added).
      assert.deepEqual([...new Set([...hit, ...added])].sort(), four);
      // Nor does Deno read the files of the command's other calls (its literal import()s).
      assert.deepEqual(read(result.stderr).sort(), four);
    }
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
});

Deno.test("deno task facts --statusline that reads the transcript runs the reader and the cache, not the rest of the command", async () => {
  const cwd = await Deno.makeTempDir({ prefix: "statusline_read_startup_" });
  try {
    const result = await taskFrom("facts", ["--statusline"], {
      cwd,
      env: { DENO_LOG: "debug", XDG_CACHE_HOME: `${cwd}/cache` },
      stdin: READ,
    });
    assert.equal(result.code, 0, result.stderr.slice(-2000));
    assert.equal(result.stdout, "claude-opus-5[1m] · 30.2k tokens (3% of 1M)\n");
    const { hit, added } = evaluated(result.stderr);
    const lean = [
      "cli/_absolute.ts",
      "cli/_cwd.ts",
      "cli/_facts_format.ts",
      "cli/_plural.ts",
      "cli/_statusline_cache.ts",
      "cli/_statusline_io.ts",
      "cli/_statusline_read.ts",
      "cli/_usage_error.ts",
      "cli/facts.ts",
      "reader/_decode.ts",
      "reader/_error.ts",
      "reader/_facts.ts",
      "reader/_fingerprint.ts",
      "reader/_open.ts",
      "reader/_pair_search.ts",
      "reader/_prefilter.ts",
      "reader/_scanner.ts",
      "reader/mod.ts",
    ];
    // No argument parser (its edit distance, its option tables), no bundled example, no sleep.
    assert.deepEqual([...new Set([...hit, ...added])].sort(), lean);
    assert.deepEqual(read(result.stderr).sort(), lean);
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
});

Deno.test("a status-line call leaves V8's code cache written, so the next call compiles none of its modules", async () => {
  // A fresh Deno cache: nothing compiled by any other process (the doc tests import facts.ts).
  const denoDir = await Deno.makeTempDir({ prefix: "statusline_code_cache_" });
  try {
    // The `facts` task's own `deno run` (an installed command runs the same).
    const flags = [
      "--v8-flags=--no-lazy",
      "--no-config",
      "--unstable-lazy-dynamic-imports",
      "--allow-read",
      "--allow-env",
    ];
    const call = async (stdin: string): Promise<{ hit: string[]; added: string[] }> => {
      const result = await run("deno", ["run", ...flags, "cli/facts.ts", "--statusline"], {
        cwd: ROOT,
        env: { DENO_DIR: denoDir, DENO_LOG: "debug", XDG_CACHE_HOME: `${denoDir}/none` },
        stdin,
      });
      assert.equal(result.code, 0, result.stderr.slice(-2000));
      return evaluated(result.stderr);
    };
    for (const stdin of [GIVEN, READ]) {
      const first = await call(stdin);
      // What this kind of call runs for the first time is compiled, and added to the cache.
      assert.notDeepEqual(first.added, [], JSON.stringify(first));
      const second = await call(stdin);
      assert.deepEqual(second.added, []);
      assert.deepEqual(second.hit.sort(), [...first.hit, ...first.added].sort());
    }
    // The call that read the transcript ran the reader, from the cache too.
    assert.ok((await call(READ)).hit.includes("reader/mod.ts"));
  } finally {
    await Deno.remove(denoDir, { recursive: true });
  }
});

Deno.test("a status line's first read of a transcript under 8 MiB does not load node:buffer; of a larger one, it does for its Latin-1 scan", async () => {
  const dir = await Deno.makeTempDir({ prefix: "statusline_latin1_" });
  try {
    const loadsBuffer = async (bytes: number): Promise<boolean> => {
      const path = `${dir}/session_${bytes}.jsonl`;
      const facts = await writeTranscript(path, bytes);
      const result = await taskFrom("facts", ["--statusline", "--json"], {
        cwd: dir,
        env: { DENO_LOG: "debug", XDG_CACHE_HOME: `${dir}/cache` },
        stdin: JSON.stringify({ transcript_path: path }),
      });
      assert.equal(result.code, 0, result.stderr.slice(-2000));
      // Both ways of scanning find the same facts.
      assert.equal(JSON.parse(result.stdout).contextUsedTokens, facts.contextUsedTokens);
      // Only node:buffer: a slow open (a loaded machine) arms the open's watchdog, and a first
      // timer loads node:timers, by design.
      return /ES module: node:buffer\b/.test(result.stderr);
    };
    // 1.5 MB: what a status line reads first in most sessions (it loaded node:buffer from 1 MiB).
    assert.equal(await loadsBuffer(1_500_000), false);
    assert.equal(await loadsBuffer(9 * 2 ** 20), true);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("an installed status line names no caller folder: it reads the transcript without loading the caller-folder modules, and with TRANSCRIPT_CWD from there", async () => {
  const cwd = await Deno.makeTempDir({ prefix: "statusline_no_cwd_" });
  try {
    const flags = [
      "--v8-flags=--no-lazy",
      "--no-config",
      "--unstable-lazy-dynamic-imports",
      "--allow-read",
      "--allow-env=TRANSCRIPT_CWD,TRANSCRIPT_INIT_CWD,TRANSCRIPT_OUTER,XDG_CACHE_HOME,HOME",
      `--allow-write=${cwd}/cache/brigade-transcript`,
    ];
    const call = (stdin: string, env: Record<string, string> = {}) =>
      run("deno", ["run", ...flags, `${ROOT}cli/facts.ts`, "--statusline"], {
        cwd,
        env: { DENO_LOG: "debug", XDG_CACHE_HOME: `${cwd}/cache`, ...env },
        stdin,
      });
    const plain = await call(READ);
    assert.equal(plain.code, 0, plain.stderr.slice(-2000));
    assert.equal(plain.stdout, "claude-opus-5[1m] · 30.2k tokens (3% of 1M)\n");
    const { hit, added } = evaluated(plain.stderr);
    const ran = new Set([...hit, ...added]);
    assert.ok(ran.has("reader/mod.ts"));
    for (const module of ["cli/_cwd.ts", "cli/_absolute.ts", "cli/_usage_error.ts"]) {
      assert.ok(!ran.has(module), module);
    }
    // Named, the folder is entered: a relative transcript_path is read from there.
    await Deno.mkdir(`${cwd}/project`);
    await Deno.copyFile(`${ROOT}fixtures/claude_code/example.jsonl`, `${cwd}/project/s.jsonl`);
    const relative = JSON.stringify({ model: { id: "m" }, transcript_path: "s.jsonl" });
    const named = await call(relative, { TRANSCRIPT_CWD: `${cwd}/project` });
    assert.equal(named.code, 0, named.stderr.slice(-2000));
    assert.equal(named.stdout, "claude-opus-5[1m] · 30.2k tokens (3% of 1M)\n");
    assert.ok(
      new Set(evaluated(named.stderr).hit.concat(evaluated(named.stderr).added)).has("cli/_cwd.ts"),
    );
    const missing = await call(relative, { TRANSCRIPT_CWD: `${cwd}/nowhere` });
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /facts: Cannot run in .*nowhere/);
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
});

Deno.test("the status line's caller-folder variables are the ones _cwd.ts reads", async () => {
  const { CALLER_DIRECTORY_VARIABLES } = await import("../cli/_statusline_read.ts");
  const { CALLER_CWD_VARIABLE, TASK_CWD_VARIABLE } = await import("../cli/_cwd.ts");
  assert.deepEqual(CALLER_DIRECTORY_VARIABLES, [CALLER_CWD_VARIABLE, TASK_CWD_VARIABLE]);
});
