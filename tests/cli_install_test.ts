// Copyright 2026 the brigade authors. MIT license.

// The commands as JSR users get them: exactly the files `deno publish` would upload, installed
// with `deno install -g`, run from an unrelated folder. JSR is not reachable here, so the
// published file list, copied, stands in for the package.

import assert from "node:assert/strict";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { fromNdjson, renderGrader } from "../mod.ts";
import { TranscriptReader } from "../reader/mod.ts";
import { exampleFacts } from "../cli/_example.ts";
import { EXAMPLE_LOG, EXAMPLE_TRANSCRIPT } from "../cli/_example_data.ts";
import { ROOT, run } from "./_command.ts";
import { EMBEDDED } from "./_embed_example.ts";
import config from "../deno.json" with { type: "json" };
import devConfig from "../deno.dev.json" with { type: "json" };

const REGENERATE = "run: deno run --allow-read --allow-write --allow-run tests/_embed_example.ts";

Deno.test("the commands' embedded examples are the fixtures, byte for byte", async () => {
  const embedded: Record<string, string> = { EXAMPLE_LOG, EXAMPLE_TRANSCRIPT };
  for (const [name, url] of Object.entries(EMBEDDED)) {
    assert.equal(embedded[name], await Deno.readTextFile(url), `${name} is stale: ${REGENERATE}`);
  }
  const { facts } = await new TranscriptReader(fileURLToPath(EMBEDDED.EXAMPLE_TRANSCRIPT!))
    .refresh();
  assert.deepEqual(await exampleFacts(), facts);
});

Deno.test("deno.dev.json is deno.json plus the test-only packages", () => {
  const {
    "fast-check": fastCheck,
    "axe-core": axeCore,
    yaml,
    micromark,
    "@anthropic-ai/sdk": sdk,
    ...imports
  } = devConfig.imports;
  assert.equal(sdk, "npm:@anthropic-ai/sdk@1.10.0");
  assert.ok(fastCheck?.startsWith("npm:fast-check@"));
  assert.ok(micromark?.startsWith("npm:micromark@"));
  assert.ok(axeCore?.startsWith("npm:axe-core@"));
  assert.ok(yaml?.startsWith("npm:yaml@"));
  assert.deepEqual(imports, config.imports);
  assert.deepEqual(devConfig.compilerOptions, config.compilerOptions);
  assert.deepEqual(devConfig.exclude, config.exclude);
  const packages = Object.values(config.imports);
  assert.ok(
    !packages.some((s) => /fast-check|axe-core|npm:yaml@|npm:micromark@|anthropic-ai/.test(s)),
  );
});

/** The files `deno publish` would upload, relative to the repository. */
async function publishedFiles(): Promise<string[]> {
  const result = await run("deno", ["publish", "--dry-run", "--allow-dirty"], { cwd: ROOT });
  assert.equal(result.code, 0, result.stderr);
  const urls = `${result.stdout}\n${result.stderr}`.match(/^\s+file:\/\/\S+/gm) ?? [];
  return urls.map((url) => relative(ROOT, fileURLToPath(url.trim()))).sort();
}

Deno.test("the published files install as two commands that run from any folder", async (t) => {
  const temp = await Deno.makeTempDir({ prefix: "transcript_install_" });
  const pkg = join(temp, "package");
  const bin = join(temp, "root", "bin");
  const elsewhere = join(temp, "elsewhere");
  try {
    const files = await publishedFiles();
    await t.step("the package holds the commands and no tests, fixtures, benches or CI", () => {
      for (const file of ["deno.json", "cli/render.ts", "cli/facts.ts", "cli/_example_data.ts"]) {
        assert.ok(files.includes(file), `${file} is published`);
      }
      const extra = files.filter((f) =>
        /^(tests|fixtures|bench|\.github|\.ci)\/|_test\.ts$|\.lock$/.test(f)
      );
      assert.deepEqual(extra, []);
    });
    for (const file of files) {
      await Deno.mkdir(dirname(join(pkg, file)), { recursive: true });
      await Deno.copyFile(join(ROOT, file), join(pkg, file));
    }
    await Deno.mkdir(elsewhere);
    const install = async (name: string, permissions: string[], script: string): Promise<void> => {
      const result = await run("deno", [
        "install",
        "--global",
        "--root",
        join(temp, "root"),
        "--config",
        join(pkg, "deno.json"),
        "--name",
        name,
        ...permissions,
        join(pkg, script),
      ], { cwd: elsewhere });
      assert.equal(result.code, 0, result.stderr);
    };
    await install("transcript-render", [
      "--allow-read",
      "--allow-write",
      "--allow-net=api.anthropic.com",
      "--allow-env=ANTHROPIC_API_KEY,ANTHROPIC_BASE_URL",
    ], "cli/render.ts");
    await install("transcript-facts", ["--allow-read"], "cli/facts.ts");

    const example = join(ROOT, "fixtures/coordinator_all_threads.ndjson");
    await t.step("render with no input: the embedded example", async () => {
      const result = await run(join(bin, "transcript-render"), [], { cwd: elsewhere });
      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.stdout, await renderGrader(fromNdjson(example)));
    });
    await t.step("render: a path relative to the folder it runs in, and --version", async () => {
      await Deno.copyFile(join(ROOT, "fixtures/single_agent.ndjson"), join(elsewhere, "l.ndjson"));
      const result = await run(join(bin, "transcript-render"), ["l.ndjson"], { cwd: elsewhere });
      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.stdout, await renderGrader(fromNdjson(join(elsewhere, "l.ndjson"))));
      const version = await run(join(bin, "transcript-render"), ["--version"], { cwd: elsewhere });
      assert.equal(version.stdout, `@brigade/transcript ${config.version}\n`);
    });
    await t.step("facts with no path, with a relative path, and --version", async () => {
      const line = "claude-opus-5[1m] · 30,179 context tokens\n";
      const example = await run(join(bin, "transcript-facts"), [], { cwd: elsewhere });
      assert.equal(example.code, 0, example.stderr);
      assert.equal(example.stdout, line);
      await Deno.copyFile(
        join(ROOT, "fixtures/claude_code/example.jsonl"),
        join(elsewhere, "t.jsonl"),
      );
      const path = await run(join(bin, "transcript-facts"), ["t.jsonl"], { cwd: elsewhere });
      assert.equal(path.stdout, line);
      const version = await run(join(bin, "transcript-facts"), ["--version"], { cwd: elsewhere });
      assert.equal(version.stdout, `@brigade/transcript ${config.version}\n`);
    });
    await t.step("facts --statusline, as Claude Code runs the installed command", async () => {
      const status = JSON.stringify({
        transcript_path: join(elsewhere, "t.jsonl"),
        model: { id: "claude-opus-5[1m]" },
      });
      const result = await run(join(bin, "transcript-facts"), ["--statusline"], {
        cwd: elsewhere,
        stdin: status,
      });
      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.stdout, "claude-opus-5[1m] · 30.2k tokens (3% of 1M)\n");
    });
  } finally {
    await Deno.remove(temp, { recursive: true });
  }
});
