// Copyright 2026 the brigade authors. MIT license.

// A team's renderer, written like docs/renderers.md's example (a bare `import … from
// "@brigade/transcript"` and an import the team maps in its own deno.json), in every way the
// command runs: the checkout's task with --config, `deno run` of the entry point (local, and
// remote from the published files served over loopback HTTP as a stand-in for JSR), and the
// command installed from that remote entry point. Then what the team's code may not do.

import assert from "node:assert/strict";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { ROOT, run, taskFrom } from "./_command.ts";
import { startFakeApi } from "./_managed_agents_server.ts";
import config from "../deno.json" with { type: "json" };

/** The files `deno publish` would upload, relative to the repository. */
async function publishedFiles(): Promise<string[]> {
  const result = await run("deno", ["publish", "--dry-run", "--allow-dirty"], { cwd: ROOT });
  assert.equal(result.code, 0, result.stderr);
  const urls = `${result.stdout}\n${result.stderr}`.match(/^\s+file:\/\/\S+/gm) ?? [];
  return urls.map((url) => relative(ROOT, fileURLToPath(url.trim())));
}

/** As `deno publish` does, the package's mapped npm imports written out in full. */
function unfurl(text: string): string {
  return text.replace(/(from\s+|import\s*\(\s*)"([^"./][^"]*)"/g, (whole, lead, name) => {
    const value = (config.imports as Record<string, string>)[name];
    return value?.startsWith("npm:") ? `${lead}"${value}"` : whole;
  });
}

const TEAM_MODULE = `import type { Renderer } from "@brigade/transcript";
import { conversation, joinWithinBudget } from "@brigade/transcript/kit";
import { TITLE } from "@team/words";

export const renderers: Renderer[] = [{
  name: "team-md",
  description: "Markdown for the team wiki",
  extension: ".md",
  render(source) {
    async function* pieces(): AsyncGenerator<string> {
      yield \`# \${TITLE}\\n\`;
      for await (const item of conversation(source, { redact: true })) {
        yield \`\\n**\${item.label}**: \${item.text}\\n\`;
      }
    }
    return joinWithinBudget(pieces(), 100_000, () => "\\n_(cut)_\\n");
  },
}];
`;

const EXPECTED = "# Team wiki\n\n**user**: Hi, token=[REDACTED_SECRET]\n";

/** A team's folder: its deno.json maps `packageImports` and its own `@team/words`. */
async function teamFolder(dir: string, packageImports: Record<string, string>): Promise<void> {
  await Deno.mkdir(join(dir, "renderers"), { recursive: true });
  await Deno.writeTextFile(join(dir, "words.ts"), `export const TITLE = "Team wiki";\n`);
  await Deno.writeTextFile(join(dir, "renderers/team_md.ts"), TEAM_MODULE);
  await Deno.writeTextFile(
    join(dir, "log.ndjson"),
    '{"id":"sevt_1","type":"user.message","content":"Hi, token=Q7xv2LmN9pR4"}\n',
  );
  await Deno.writeTextFile(
    join(dir, "deno.json"),
    JSON.stringify({
      imports: { ...packageImports, "@team/words": "./words.ts" },
      transcript: { renderers: { "team-md": "./renderers/team_md.ts", spy: "./spy.ts" } },
    }),
  );
}

Deno.test("render: a team's renderer loads in every way the command runs", async (t) => {
  const temp = await Deno.makeTempDir({ prefix: "transcript_team_" });
  const files = new Set(await publishedFiles());
  // The files under a path of this run's own: Deno caches a remote module by its URL, and a port
  // an earlier run was given (with files as they were then) must not lend this run its cache.
  const prefix = `/${crypto.randomUUID()}/`;
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen(): void {} },
    async (request): Promise<Response> => {
      const url = decodeURIComponent(new URL(request.url).pathname);
      const path = url.startsWith(prefix) ? url.slice(prefix.length) : "";
      if (!files.has(path)) return new Response("not found", { status: 404 });
      const text = await Deno.readTextFile(join(ROOT, path));
      return new Response(path.endsWith(".ts") ? unfurl(text) : text, {
        headers: { "content-type": path.endsWith(".ts") ? "application/typescript" : "text/plain" },
      });
    },
  );
  const host = `127.0.0.1:${server.addr.port}`;
  const remote = `http://${host}${prefix}`;
  try {
    const local = join(temp, "local");
    const served = join(temp, "served");
    const unmapped = join(temp, "unmapped");
    await teamFolder(local, {
      "@brigade/transcript": join(ROOT, "mod.ts"),
      "@brigade/transcript/kit": join(ROOT, "kit/mod.ts"),
    });
    await teamFolder(served, {
      "@brigade/transcript": `${remote}mod.ts`,
      "@brigade/transcript/kit": `${remote}kit/mod.ts`,
    });
    // The package not mapped at all: the command's own copy serves it.
    await teamFolder(unmapped, {});
    const args = ["--renderer", "team-md", "log.ndjson"];
    const read = ["--allow-read", "--allow-write", `--allow-import=${host}`];

    await t.step("the package's types check the team's module", async () => {
      const result = await run("deno", ["check", "renderers/team_md.ts"], { cwd: local });
      assert.equal(result.code, 0, result.stderr);
    });
    const matrix: [string, () => Promise<{ code: number; stdout: string; stderr: string }>][] = [
      ["deno task --config <checkout> render", () => taskFrom("render", args, { cwd: local })],
      [
        "deno task --config <checkout> render, the package unmapped",
        () => taskFrom("render", args, { cwd: unmapped }),
      ],
      [
        "deno run <checkout>/cli/render.ts",
        () => run("deno", ["run", ...read, join(ROOT, "cli/render.ts"), ...args], { cwd: local }),
      ],
      [
        "deno run <checkout>/cli/render.ts, the package unmapped",
        () =>
          run("deno", ["run", ...read, join(ROOT, "cli/render.ts"), ...args], { cwd: unmapped }),
      ],
      [
        "deno run <remote>/cli/render.ts",
        () => run("deno", ["run", ...read, `${remote}cli/render.ts`, ...args], { cwd: served }),
      ],
      [
        "deno run <remote>/cli/render.ts, the package unmapped",
        () => run("deno", ["run", ...read, `${remote}cli/render.ts`, ...args], { cwd: unmapped }),
      ],
    ];
    for (const [name, command] of matrix) {
      await t.step(name, async () => {
        const result = await command();
        assert.equal(result.code, 0, result.stderr.replace(/^Download .*\n/gm, ""));
        assert.equal(result.stdout, EXPECTED);
      });
    }

    const root = join(temp, "root");
    const install = await run("deno", [
      "install",
      "--global",
      "--root",
      root,
      "--name",
      "transcript-render",
      ...read,
      "--allow-net=api.anthropic.com",
      "--allow-env=ANTHROPIC_API_KEY,ANTHROPIC_BASE_URL",
      `${remote}cli/render.ts`,
    ], { cwd: temp });
    assert.equal(install.code, 0, install.stderr);
    const installed = join(root, "bin", "transcript-render");
    for (
      const [name, cwd] of [["mapped to the served package", served], [
        "unmapped",
        unmapped,
      ]] as const
    ) {
      await t.step(`installed from the remote entry point, the package ${name}`, async () => {
        const result = await run(installed, args, { cwd });
        assert.equal(result.code, 0, result.stderr.replace(/^Download .*\n/gm, ""));
        assert.equal(result.stdout, EXPECTED);
      });
    }

    await t.step("an import the team does not map: the fix, not Deno's error", async () => {
      await Deno.writeTextFile(
        join(local, "words.ts"),
        `export { TITLE } from "@team/missing";\n`,
      );
      const result = await run(installed, args, { cwd: local });
      assert.equal(result.code, 2);
      assert.match(
        result.stderr,
        /^render: Cannot load renderer module .*team_md\.ts \(named in .*deno\.json\): it imports "@team\/missing", which .*deno\.json does not map: add it to its "imports"/,
      );
    });

    await t.step("a team's renderer may not read the API key nor write elsewhere", async () => {
      const outside = join(temp, "OUTSIDE");
      await Deno.writeTextFile(
        join(local, "spy.ts"),
        `const tries: string[] = [];
const attempt = async (what: string, act: () => unknown): Promise<void> => {
  try { await act(); tries.push(\`\${what} done\`); } catch { tries.push(\`\${what} refused\`); }
};
await attempt("env at import", () => Deno.env.get("ANTHROPIC_API_KEY"));
export const renderers = [{ name: "spy", description: "Tries", render: async () => {
  await attempt("env", () => Deno.env.get("ANTHROPIC_API_KEY"));
  await attempt("write", () => Deno.writeTextFile(${JSON.stringify(outside)}, "x"));
  await attempt("net", () => fetch("https://api.anthropic.com/"));
  return tries.join(", ") + "\\n";
} }];
`,
      );
      const env = { ANTHROPIC_API_KEY: "sk-ant-test" };
      const refused = "env at import refused, env refused, write refused, net refused\n";
      const task = await taskFrom("render", ["--renderer", "spy"], { cwd: local, env });
      assert.equal(task.code, 0, task.stderr);
      assert.equal(task.stdout, refused);
      // Into a folder, under the task (which grants write access everywhere): only there.
      const folder = join(temp, "folder");
      const into = await taskFrom("render", [
        "--renderer",
        "spy",
        "--out",
        `${folder}/`,
        "log.ndjson",
      ], {
        cwd: local,
        env,
      });
      assert.equal(into.code, 0, into.stderr);
      assert.equal(await Deno.readTextFile(join(folder, "log.txt")), refused);
      // Run with write access to a folder only: the same.
      const out = join(temp, "out");
      const bounded = await run("deno", [
        "run",
        "--allow-read",
        `--allow-write=${out}`,
        "--allow-env=ANTHROPIC_API_KEY",
        join(ROOT, "cli/render.ts"),
        "--renderer",
        "spy",
        "--out",
        `${out}/`,
        "log.ndjson",
      ], { cwd: local, env });
      assert.equal(bounded.code, 0, bounded.stderr);
      assert.equal(
        await Deno.readTextFile(join(out, "log.txt")).catch(() =>
          Deno.readTextFile(join(out, "log"))
        ),
        refused,
      );
      assert.equal(await Deno.stat(outside).then(() => true, () => false), false);

      // --session in the worker: the API's variables and host, and still no write access.
      const key = "sk-ant-api03-team-test-key-000000000000";
      const api = startFakeApi({
        apiKey: key,
        sessions: [{
          id: "sesn_live",
          events: [{
            id: "sevt_1",
            type: "user.message",
            content: [{ type: "text", text: "Up?" }],
          }],
        }],
      });
      try {
        const session = await run("deno", [
          "run",
          "--unstable-worker-options",
          "--allow-read",
          "--allow-write",
          "--allow-net=127.0.0.1",
          "--allow-env=ANTHROPIC_API_KEY,ANTHROPIC_BASE_URL,TRANSCRIPT_WORKER_OPTIONS",
          join(ROOT, "cli/render.ts"),
          "--renderer",
          "spy",
          "--session",
          "sesn_live",
        ], {
          cwd: local,
          env: {
            ANTHROPIC_API_KEY: key,
            ANTHROPIC_BASE_URL: api.baseUrl,
            TRANSCRIPT_WORKER_OPTIONS: "1",
          },
        });
        assert.equal(session.code, 0, session.stderr);
        assert.match(session.stdout, /^env at import done, env done, write refused, net /);
      } finally {
        await api.shutdown();
      }
    });
  } finally {
    await server.shutdown();
    await Deno.remove(temp, { recursive: true });
  }
});
