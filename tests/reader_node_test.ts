// Copyright 2026 the brigade authors. MIT license.

// The reader guide's Node example (docs/reader.md), bundled with `deno bundle --platform=node` and run
// by the machine's `node` (v20 has no type stripping) and by `bun`: the reader must read files
// where `Deno` does not exist. Skipped, with the reason printed, when the runtime is missing,
// except under CI=true, where a missing runtime fails (`.ci/run` installs Bun from npm).

import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";

const GUIDE = fileURLToPath(new URL("../docs/reader.md", import.meta.url));
const CONFIG = fileURLToPath(new URL("../deno.json", import.meta.url));
const HEADING = "On Node and Bun the reader is the same";

/** The first TypeScript block after the paragraph that starts with {@linkcode HEADING}. */
async function nodeExample(): Promise<string> {
  const guide = await Deno.readTextFile(GUIDE);
  const at = guide.indexOf(HEADING);
  assert.notEqual(at, -1, "the reader guide has the Node example");
  const match = /```ts\n([\s\S]*?)```/.exec(guide.slice(at));
  assert.ok(match !== null, "a ts block follows");
  return match[1]!;
}

/** A runtime other than Deno that the reader must work on. */
type Runtime = "node" | "bun";

async function runtimeVersion(runtime: Runtime): Promise<string | undefined> {
  try {
    const { success, stdout } = await new Deno.Command(runtime, {
      args: ["--version"],
      stdout: "piped",
      stderr: "null",
    }).output();
    return success ? new TextDecoder().decode(stdout).trim() : undefined;
  } catch {
    return undefined;
  }
}

/** Bundles `source` for Node and runs it on `runtime` with `args`; returns its exit code and output. */
async function onRuntime(
  runtime: Runtime,
  dir: string,
  source: string,
  args: string[] = [],
): Promise<{ code: number; stdout: string; stderr: string }> {
  const name = `${dir}/script_${crypto.randomUUID().slice(0, 8)}`;
  await Deno.writeTextFile(`${name}.ts`, source);
  const bundle = await new Deno.Command(Deno.execPath(), {
    args: ["bundle", "--platform=node", "--config", CONFIG, "-o", `${name}.mjs`, `${name}.ts`],
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  assert.ok(bundle.success, new TextDecoder().decode(bundle.stderr));
  const child = new Deno.Command(runtime, {
    args: [`${name}.mjs`, ...args],
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  // A blocked open would hang the script: it gets 30 s, then it is killed and fails.
  const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
  const run = await child.output();
  clearTimeout(timer);
  const decoder = new TextDecoder();
  return { code: run.code, stdout: decoder.decode(run.stdout), stderr: decoder.decode(run.stderr) };
}

/** The runtime's version, or `undefined` (the test is then skipped, except under CI=true). */
async function versionOrSkip(runtime: Runtime): Promise<string | undefined> {
  const version = await runtimeVersion(runtime);
  if (version === undefined) {
    assert.notEqual(Deno.env.get("CI"), "true", `${runtime} is required under CI=true`);
    console.log(`skipped: no \`${runtime}\` on PATH (set CI=true to make this a failure)`);
  }
  return version;
}

for (const [runtime, name] of [["node", "Node"], ["bun", "Bun"]] as const) {
  Deno.test(`the reader guide's Node example runs on ${name}`, async () => {
    const version = await versionOrSkip(runtime);
    if (version === undefined) return;
    const dir = await Deno.makeTempDir({ prefix: `reader_${runtime}_` });
    try {
      const run = await onRuntime(runtime, dir, await nodeExample());
      assert.equal(run.code, 0, `${runtime} ${version} failed: ${run.stderr}`);
      assert.equal(run.stderr, "");
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
}

for (const [runtime, name] of [["node", "Node"], ["bun", "Bun"]] as const) {
  Deno.test({
    name: `on ${name}, a FIFO is refused without blocking and a missing file is missing`,
    ignore: Deno.build.os === "windows",
  }, async () => {
    const version = await versionOrSkip(runtime);
    if (version === undefined) return;
    const dir = await Deno.makeTempDir({ prefix: `reader_${runtime}_` });
    try {
      const fifo = `${dir}/fifo.jsonl`;
      assert.ok((await new Deno.Command("mkfifo", { args: [fifo] }).output()).success);
      const source = `import { TranscriptReader } from "@brigade/transcript/reader";
const codes = [];
for (const path of process.argv.slice(2)) {
  codes.push((await new TranscriptReader(path).refresh()).error?.code ?? "none");
}
console.log(codes.join(" "));
`;
      const run = await onRuntime(runtime, dir, source, [fifo, `${dir}/missing.jsonl`, dir]);
      assert.equal(run.code, 0, `${runtime} ${version} failed: ${run.stderr}`);
      assert.equal(run.stdout, "not_regular missing not_regular\n");
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
}
