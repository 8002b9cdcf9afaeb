// Copyright 2026 the brigade authors. MIT license.

import assert from "node:assert/strict";

const hasNode = await new Deno.Command("node", {
  args: ["--version"],
  stdout: "null",
  stderr: "null",
})
  .output().then((o) => o.success, () => false);

Deno.test({
  name: "fromClaudeCode() and fromNdjson() read a byte stream under Node",
  ignore: !hasNode,
  async fn(): Promise<void> {
    const dir = await Deno.makeTempDir();
    try {
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
      const run = await new Deno.Command("node", {
        args: [bundle],
        stdout: "piped",
        stderr: "piped",
      })
        .output();
      assert.ok(run.success, new TextDecoder().decode(run.stderr));
      assert.deepEqual(JSON.parse(new TextDecoder().decode(run.stdout)), {
        claude: "[user]\n  Hi from Node\n",
        ndjson: "[agent]\n  Hello\n",
        invalid: ["claude 2", "ndjson 1"],
        pathError: "/some/session.jsonl: Cannot open the Claude Code transcript outside Deno: " +
          "pass a ReadableStream",
        pathCode: "unreadable",
        deno: false,
      });
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
