// Copyright 2026 the brigade authors. MIT license.

// Both line sources bundled with `deno bundle --platform=node` and run by the machine's `node`
// (v20 has no type stripping) and by `bun`: a stream, and a path read as under Deno. Skipped,
// with the reason printed, when the runtime is missing, except under CI=true, where a missing
// runtime fails (`.ci/run` installs Bun from npm).

import assert from "node:assert/strict";
import { fromClaudeCode, fromNdjson, renderGrader } from "../mod.ts";

/** Copies a folder, its subfolders too. */
async function copyFolder(from: URL, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const entry of Deno.readDir(from)) {
    if (entry.isDirectory) await copyFolder(new URL(`${entry.name}/`, from), `${to}/${entry.name}`);
    else await Deno.copyFile(new URL(entry.name, from), `${to}/${entry.name}`);
  }
}

/** A runtime other than Deno that the sources must work on. */
type Runtime = "node" | "bun";

async function hasRuntime(runtime: Runtime): Promise<boolean> {
  return await new Deno.Command(runtime, { args: ["--version"], stdout: "null", stderr: "null" })
    .output().then((o) => o.success, () => false);
}

const TRANSCRIPT = [
  { type: "user", sessionId: "inner", message: { content: "Hi from a path" } },
  { type: "assistant", message: { content: [{ type: "text", text: "Read it" }] } },
].map((record) => JSON.stringify(record) + "\n").join("");
const LOG = '{"id":"e1","type":"agent.message","content":"Logged"}\n';

for (const [runtime, name] of [["node", "Node"], ["bun", "Bun"]] as const) {
  const present = await hasRuntime(runtime);
  if (!present) {
    assert.notEqual(Deno.env.get("CI"), "true", `${runtime} is required under CI=true`);
    console.log(`skipped: no \`${runtime}\` on PATH (set CI=true to make this a failure)`);
  }
  Deno.test({
    name:
      `fromClaudeCode() and fromNdjson() read a byte stream, and a path as under Deno, on ${name}`,
    ignore: !present,
    async fn(): Promise<void> {
      const dir = await Deno.makeTempDir();
      try {
        await Deno.writeTextFile(`${dir}/sesn_path.jsonl`, TRANSCRIPT);
        await Deno.writeTextFile(`${dir}/log.ndjson`, LOG);
        await copyFolder(
          new URL("../fixtures/claude_code/current/home-dev-app/", import.meta.url),
          `${dir}/project`,
        );
        const bundle = `${dir}/sources.mjs`;
        const built = await new Deno.Command(Deno.execPath(), {
          args: [
            "bundle",
            "--platform=node",
            "-o",
            bundle,
            new URL("./_node_sources.ts", import.meta.url).pathname,
          ],
          stdout: "null",
          stderr: "piped",
        }).output();
        assert.ok(built.success, new TextDecoder().decode(built.stderr));
        const run = await new Deno.Command(runtime, {
          args: [bundle, dir],
          stdout: "piped",
          stderr: "piped",
        }).output();
        assert.ok(run.success, new TextDecoder().decode(run.stderr));
        // What Deno reads from the same paths.
        const entries = (await Array.fromAsync(fromClaudeCode(`${dir}/sesn_path.jsonl`)))
          .map((entry) => `${entry.session_id} ${entry.event.type}`);
        assert.deepEqual(JSON.parse(new TextDecoder().decode(run.stdout)), {
          claude: "[user]\n  Hi from Node\n",
          ndjson: "[agent]\n  Hello\n",
          invalid: ["claude 2", "ndjson 1"],
          entries,
          claudePath: await renderGrader(fromClaudeCode(`${dir}/sesn_path.jsonl`)),
          ndjsonPath: await renderGrader(fromNdjson(`${dir}/log.ndjson`)),
          subagents: await renderGrader(
            fromClaudeCode(`${dir}/project/7f3c2a10-5b8e-4d21-9c6a-2e4f8b1d0a93.jsonl`),
          ),
          missing: `unreadable: ${dir}/missing.jsonl: Cannot open the Claude Code transcript: ` +
            "no such file",
          directory: `unreadable: ${dir}: Cannot open the file: it is a directory`,
          deno: false,
        });
        assert.deepEqual(entries, ["sesn_path user.message", "sesn_path agent.message"]);
        assert.ok(JSON.parse(new TextDecoder().decode(run.stdout)).subagents.includes("[@Explore"));
      } finally {
        await Deno.remove(dir, { recursive: true });
      }
    },
  });
}
