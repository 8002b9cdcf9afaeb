// Copyright 2026 the brigade authors. MIT license.

// A team's renderer set up as a team does it: `deno add jsr:@brigade/transcript` writes a `jsr:`
// mapping, the team maps a `jsr:` package of its own, an `npm:` package and a module by URL, and
// imports a file beside it. Against a JSR stand-in on 127.0.0.1 (`JSR_URL`) serving this
// package's published files, with a cache of its own (nothing real cached), the renderer loads in
// each of the four ways the command runs, and the team's own `deno check` passes on the same file.

import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { ROOT, type Run, run } from "./_command.ts";
import { publishedFiles, startJsrStandIn, textPackage, thisPackage } from "./_jsr_stand_in.ts";
import config from "../deno.json" with { type: "json" };

const TEAM_MODULE = `import type { Renderer } from "@brigade/transcript";
import { conversation, joinWithinBudget } from "@brigade/transcript/kit";
import { TITLE } from "@team/words";
import { REMOTE } from "@team/remote";
import { parse } from "jsonc-parser";
import { LOCAL } from "./local.ts";

const npm = parse("[1,]", [], { allowTrailingComma: true }).length;

export const renderers: Renderer[] = [{
  name: "team-md",
  description: "Markdown for the team wiki",
  extension: ".md",
  render(source) {
    async function* pieces(): AsyncGenerator<string> {
      yield \`# \${TITLE} (\${LOCAL}, \${REMOTE}, npm \${npm})\\n\`;
      for await (const item of conversation(source, { redact: true })) {
        yield \`\\n**\${item.label}**: \${item.text}\\n\`;
      }
    }
    return joinWithinBudget(pieces(), 100_000, () => "\\n_(cut)_\\n");
  },
}];
`;

const EXPECTED = "# Team wiki (local, remote, npm 1)\n\n**user**: Hi, token=[REDACTED_SECRET]\n";

/** Deno's progress lines, which a fresh cache prints on stderr. */
function quiet(stderr: string): string {
  return stderr.replace(/^(Download|Initialize|Installed|Reused) .*\n/gm, "");
}

/**
 * A copy of the checkout (its published files and lockfile) in `dir`: Deno writes what a task's
 * run fetched into the lockfile of the configuration the task is from, the copy's, not this one's.
 */
async function copyOfCheckout(dir: string): Promise<string> {
  const checkout = join(dir, "checkout");
  for (const path of [...await publishedFiles(), "deno.lock"]) {
    await Deno.mkdir(dirname(join(checkout, path)), { recursive: true });
    await Deno.copyFile(join(ROOT, path), join(checkout, path));
  }
  return checkout;
}

Deno.test("render: a team's renderer with jsr: imports loads in the four ways the command runs", async (t) => {
  const temp = await Deno.makeTempDir({ prefix: "transcript_team_jsr_" });
  const words = textPackage("@team/words", "1.0.0", { ".": "./mod.ts" }, {
    "mod.ts": `export const TITLE = "Team wiki";\n`,
    "deno.json": JSON.stringify({ name: "@team/words", version: "1.0.0", exports: "./mod.ts" }),
  });
  const standIn = startJsrStandIn([await thisPackage(), words], {
    "/remote.ts": `export const REMOTE = "remote";\n`,
  });
  try {
    const team = join(temp, "team");
    await Deno.mkdir(join(team, "renderers"), { recursive: true });
    await Deno.writeTextFile(join(team, "renderers/team_md.ts"), TEAM_MODULE);
    await Deno.writeTextFile(join(team, "renderers/local.ts"), `export const LOCAL = "local";\n`);
    await Deno.writeTextFile(
      join(team, "log.ndjson"),
      '{"id":"sevt_1","type":"user.message","content":"Hi, token=Q7xv2LmN9pR4"}\n',
    );
    await Deno.writeTextFile(
      join(team, "deno.json"),
      JSON.stringify({
        // As `deno add jsr:@brigade/transcript jsr:@team/words npm:jsonc-parser` writes them.
        imports: {
          "@brigade/transcript": `jsr:${config.name}@^${config.version}`,
          "@team/words": "jsr:@team/words@^1.0.0",
          "jsonc-parser": "npm:jsonc-parser@^3.3.1",
          "@team/remote": `${standIn.url}remote.ts`,
        },
        transcript: { renderers: { "team-md": "./renderers/team_md.ts" } },
      }),
    );
    const env = { JSR_URL: standIn.url, DENO_DIR: join(temp, "deno_dir") };
    const checkout = await copyOfCheckout(temp);
    const lock = await Deno.readTextFile(join(ROOT, "deno.lock"));
    const allow = ["--allow-read", "--allow-write", `--allow-import=${standIn.host}`];
    const args = ["--renderer", "team-md", "log.ndjson"];

    await t.step("the team's own deno check", async () => {
      const check = await run("deno", ["check", ...allow.slice(2), "renderers/team_md.ts"], {
        cwd: team,
        env,
      });
      assert.equal(check.code, 0, check.stderr);
    });

    const root = join(temp, "root");
    const install = async (name: string, from: string[]): Promise<string> => {
      const result = await run("deno", [
        "install",
        "--global",
        "--root",
        root,
        "--name",
        name,
        ...allow,
        ...from,
      ], { cwd: temp, env });
      assert.equal(result.code, 0, result.stderr);
      return join(root, "bin", name);
    };
    const ways: [string, () => Promise<Run>][] = [
      [
        "deno task --config <checkout>/deno.json render",
        () =>
          run("deno", ["task", "-q", "--config", join(checkout, "deno.json"), "render", ...args], {
            cwd: team,
            env,
          }),
      ],
      [
        `deno run … jsr:${config.name}/render`,
        () =>
          run("deno", ["run", ...allow, `jsr:${config.name}/render`, ...args], { cwd: team, env }),
      ],
      [
        `deno install -g … jsr:${config.name}/render`,
        async () =>
          run(await install("transcript-render", [`jsr:${config.name}/render`]), args, {
            cwd: team,
            env,
          }),
      ],
      [
        "deno install -g --config <checkout>/deno.json … <checkout>/cli/render.ts",
        async () =>
          run(
            await install("transcript-render-checkout", [
              "--config",
              join(ROOT, "deno.json"),
              join(ROOT, "cli/render.ts"),
            ]),
            args,
            { cwd: team, env },
          ),
      ],
    ];
    for (const [name, command] of ways) {
      await t.step(name, async () => {
        const result = await command();
        assert.equal(result.code, 0, quiet(result.stderr));
        assert.equal(result.stdout, EXPECTED);
      });
    }
    // The stand-in served them: the package's files, the team's package, the module by URL.
    for (
      const path of [
        `/${config.name}/${config.version}_meta.json`,
        "/@team/words/1.0.0/mod.ts",
        "/remote.ts",
      ]
    ) {
      assert.ok(standIn.requests.includes(path), path);
    }
    assert.equal(await Deno.readTextFile(join(ROOT, "deno.lock")), lock, "the checkout's lockfile");
  } finally {
    await standIn.shutdown();
    await Deno.remove(temp, { recursive: true });
  }
});

// `deno task render` runs with the checkout's configuration in scope: only then does Deno give a
// `jsr:` range the running package satisfies the running package's own files. Without it (Deno's
// `--no-config` on the task) the team's renderer fetched a second copy of the package from JSR.
Deno.test("render: under deno task render a team's jsr: mapping of this package is the running checkout, nothing fetched", async () => {
  const temp = await Deno.makeTempDir({ prefix: "transcript_team_self_" });
  const standIn = startJsrStandIn([]);
  try {
    await Deno.writeTextFile(
      join(temp, "deno.json"),
      JSON.stringify({
        imports: { "@brigade/transcript": `jsr:${config.name}@^${config.version}` },
        transcript: { renderers: { self: "./self.ts" } },
      }),
    );
    await Deno.writeTextFile(
      join(temp, "self.ts"),
      `import { redact } from "@brigade/transcript";
export const renderers = [{
  name: "self",
  description: "The running package's redact()",
  render: () => Promise.resolve(redact("token=Q7xv2LmN9pR4") + "\\n"),
}];
`,
    );
    const lock = await Deno.readTextFile(join(ROOT, "deno.lock"));
    const result = await run(
      "deno",
      ["task", "-q", "--config", join(ROOT, "deno.json"), "render", "--renderer", "self"],
      { cwd: temp, env: { JSR_URL: standIn.url } },
    );
    assert.equal(result.code, 0, quiet(result.stderr));
    assert.equal(result.stdout, "token=[REDACTED_SECRET]\n");
    assert.deepEqual(standIn.requests, [], "requests to JSR");
    assert.equal(await Deno.readTextFile(join(ROOT, "deno.lock")), lock, "the checkout's lockfile");
  } finally {
    await standIn.shutdown();
    await Deno.remove(temp, { recursive: true });
  }
});

// A package a team maps in its own deno.json (`deno add npm:ms`) that the checkout's lockfile does
// not hold: Deno had not installed it when the resolve hook handed it over, and the renderer
// failed with "Could not find constraint 'ms@2' in the list of packages".
Deno.test("render: a team's renderer loads an npm: package its deno.json maps and the checkout's lockfile lacks", async () => {
  const temp = await Deno.makeTempDir({ prefix: "transcript_team_npm_" });
  try {
    const checkout = await copyOfCheckout(temp);
    assert.ok(!(await Deno.readTextFile(join(checkout, "deno.lock"))).includes('"npm:ms@'));
    const team = join(temp, "team");
    await Deno.mkdir(team);
    await Deno.writeTextFile(
      join(team, "deno.json"),
      JSON.stringify({
        imports: { "@brigade/transcript": `jsr:${config.name}@^${config.version}`, ms: "npm:ms@2" },
        transcript: { renderers: { took: "./took.ts" } },
      }),
    );
    await Deno.writeTextFile(
      join(team, "took.ts"),
      `import ms from "ms";
import { redact } from "@brigade/transcript";
export const renderers = [{
  name: "took",
  description: "How long, as ms() says it",
  render: () => Promise.resolve(\`\${ms(90_000)} \${redact("token=Q7xv2LmN9pR4")}\\n\`),
}];
`,
    );
    const result = await run(
      "deno",
      ["task", "-q", "--config", join(checkout, "deno.json"), "render", "--renderer", "took"],
      { cwd: team },
    );
    assert.equal(result.code, 0, quiet(result.stderr));
    assert.equal(result.stdout, "2m token=[REDACTED_SECRET]\n");
  } finally {
    await Deno.remove(temp, { recursive: true });
  }
});
