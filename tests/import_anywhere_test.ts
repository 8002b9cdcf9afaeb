// Copyright 2026 the brigade authors. MIT license.

// The package as users reach it before it is on JSR, with no import map of theirs naming ours: a
// project with its own deno.json and one with none import the checkout's mod.ts by path, a script
// imports it over http from a raw-file server, and Node and Bun run `.`, `./redact`, `./reader`
// and `./kit`. Each renders what the checkout renders for itself, byte for byte. And `.` costs
// what it uses: imported for the grader and redact, its module graph holds no npm package.

import assert from "node:assert/strict";
import { extname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { fromNdjson, registry, renderHtml } from "../mod.ts";
import { renderHtml as renderHtmlWithLibraries } from "../renderers/html/mod.ts";
import { ROOT, run } from "./_command.ts";
import { startJsrStandIn, thisPackage } from "./_jsr_stand_in.ts";
import config from "../deno.json" with { type: "json" };

const LOG = join(ROOT, "fixtures/single_agent.ndjson");
const RENDERERS = ["grader", "dream", "index", "json", "html"] as const;

/** What the scratch script prints, and what the checkout gives for the same log. */
interface Renderings {
  registry: Record<string, string>;
  renderHtml: string;
  htmlSubpath: string;
}

/** The checkout's own renderings of {@linkcode LOG}. */
async function expected(): Promise<Renderings> {
  const rendered: Record<string, string> = {};
  for (const name of RENDERERS) rendered[name] = await registry.render(name, fromNdjson(LOG));
  return {
    registry: rendered,
    renderHtml: await renderHtml(fromNdjson(LOG)),
    htmlSubpath: await renderHtmlWithLibraries(fromNdjson(LOG)),
  };
}

/**
 * A user's script importing the package from `base` (a folder's file or http URL, with a slash),
 * or, given `html`, from `base` (`@brigade/transcript`) and `html` (its `./html`).
 */
function userScript(base: string, html = `${base}renderers/html/mod.ts`): string {
  const dot = html === `${base}renderers/html/mod.ts` ? `${base}mod.ts` : base;
  return `import { fromNdjson, registry, renderHtml } from "${dot}";
import { renderHtml as htmlSubpath } from "${html}";

const log = Deno.args[0]!;
const rendered: Record<string, string> = {};
for (const name of ${JSON.stringify(RENDERERS)} as const) {
  rendered[name] = await registry.render(name, fromNdjson(log));
}
console.log(JSON.stringify({
  registry: rendered,
  renderHtml: await renderHtml(fromNdjson(log)),
  htmlSubpath: await htmlSubpath(fromNdjson(log)),
}));
`;
}

/**
 * Runs the user's script in `dir` with `flags`, and returns what it printed. By path, `.`'s html
 * renderer reads the modules of `./html` when its first page is rendered (a dynamic import of a
 * local file asks for read access), so the script may read the checkout.
 */
async function renderFrom(dir: string, flags: string[], read = [LOG]): Promise<Renderings> {
  const result = await run("deno", ["run", ...flags, `--allow-read=${read}`, "main.ts", LOG], {
    cwd: dir,
  });
  assert.equal(result.code, 0, result.stderr);
  return JSON.parse(result.stdout);
}

async function withScratch(body: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "transcript_scratch_" });
  try {
    await body(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const ROOT_URL = pathToFileURL(ROOT).href;

Deno.test("a project with its own deno.json imports mod.ts by path: every built-in renders, and deno check passes", async () => {
  await withScratch(async (dir) => {
    // The project's configuration maps nothing of ours, as a user's does not.
    await Deno.writeTextFile(
      join(dir, "deno.json"),
      JSON.stringify({ tasks: { start: "deno run main.ts" }, compilerOptions: { strict: true } }),
    );
    await Deno.writeTextFile(join(dir, "main.ts"), userScript(ROOT));
    assert.deepEqual(await renderFrom(dir, [], [LOG, ROOT]), await expected());
    const checked = await run("deno", ["check", "main.ts"], { cwd: dir });
    assert.equal(checked.code, 0, checked.stderr);
  });
});

Deno.test("a script with no deno.json imports mod.ts by file URL: every built-in renders", async () => {
  await withScratch(async (dir) => {
    await Deno.writeTextFile(join(dir, "main.ts"), userScript(ROOT_URL));
    assert.deepEqual(await renderFrom(dir, ["--no-lock"], [LOG, ROOT]), await expected());
  });
});

/** Serves the checkout's files as they are, as a raw-file host does, on a free loopback port. */
function rawFileServer(): Deno.HttpServer<Deno.NetAddr> {
  const types: Record<string, string> = {
    ".ts": "application/typescript",
    ".json": "application/json",
  };
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (request) => {
    const path = decodeURIComponent(new URL(request.url).pathname);
    if (path.includes("..")) return new Response("no", { status: 400 });
    try {
      const body = await Deno.readFile(join(ROOT, path));
      return new Response(body, {
        headers: { "content-type": types[extname(path)] ?? "text/plain" },
      });
    } catch {
      return new Response("not found", { status: 404 });
    }
  });
}

Deno.test("a script imports mod.ts over http from a raw-file server: every built-in renders", async () => {
  const server = rawFileServer();
  const host = `127.0.0.1:${server.addr.port}`;
  try {
    await withScratch(async (dir) => {
      await Deno.writeTextFile(join(dir, "main.ts"), userScript(`http://${host}/`));
      const flags = ["--no-lock", `--allow-import=${host}`, `--reload=http://${host}/`];
      assert.deepEqual(await renderFrom(dir, flags), await expected());
    });
  } finally {
    await server.shutdown();
  }
});

Deno.test("a project that maps the package as deno add does imports it from JSR: every built-in renders", async () => {
  // A stand-in for JSR on 127.0.0.1 (JSR_URL), serving the files deno publish would upload.
  const standIn = startJsrStandIn([await thisPackage()]);
  try {
    await withScratch(async (dir) => {
      await Deno.writeTextFile(
        join(dir, "deno.json"),
        JSON.stringify({ imports: { [config.name]: `jsr:${config.name}@^${config.version}` } }),
      );
      await Deno.writeTextFile(
        join(dir, "main.ts"),
        userScript(config.name, `${config.name}/html`),
      );
      const result = await run("deno", [
        "run",
        `--allow-import=${standIn.host}`,
        // A port an earlier run used may come back: what Deno cached from it is not this package.
        `--reload=${standIn.url}`,
        `--allow-read=${LOG}`,
        "main.ts",
        LOG,
      ], { cwd: dir, env: { JSR_URL: standIn.url } });
      assert.equal(result.code, 0, result.stderr);
      assert.deepEqual(JSON.parse(result.stdout), await expected());
    });
  } finally {
    await standIn.shutdown();
  }
});

/** The npm packages in the module graph of `source`, as `deno info` reads it from a bare folder. */
async function npmPackagesOf(source: string): Promise<string[]> {
  let packages: string[] = [];
  await withScratch(async (dir) => {
    await Deno.writeTextFile(join(dir, "user.ts"), source);
    const result = await run("deno", ["info", "--json", "user.ts"], { cwd: dir });
    assert.equal(result.code, 0, result.stderr);
    const info = JSON.parse(result.stdout) as {
      modules: { kind?: string; npmPackage?: string; dependencies?: Record<string, unknown>[] }[];
      npmPackages: Record<string, unknown>;
    };
    const unresolved = info.modules.flatMap((module) =>
      (module.dependencies ?? []).flatMap((dependency) =>
        [dependency.code, dependency.type].flatMap((side) => {
          const error = (side as { error?: string } | undefined)?.error;
          return error === undefined ? [] : [`${dependency.specifier}: ${error}`];
        })
      )
    );
    assert.deepEqual(unresolved, [], "every import resolves");
    const roots = info.modules.filter((module) => module.kind === "npm");
    packages = [
      ...new Set([...roots.map((module) => module.npmPackage!), ...Object.keys(info.npmPackages)]),
    ]
      .sort();
  });
  return packages;
}

Deno.test("deno info of a module importing redact and renderGrader from . lists no npm package", async () => {
  const dot = await npmPackagesOf(
    `import { redact, renderGrader } from "${ROOT_URL}mod.ts";\nconsole.log(redact, renderGrader);\n`,
  );
  assert.deepEqual(dot, []);
  // The same measure sees the html renderer's libraries where they belong: in ./html.
  const html = await npmPackagesOf(
    `import { renderHtml } from "${ROOT_URL}renderers/html/mod.ts";\nconsole.log(renderHtml);\n`,
  );
  assert.ok(html.some((name) => name.startsWith("markdown-it@")), html.join(", "));
  assert.ok(html.some((name) => name.startsWith("diff@")), html.join(", "));
});

// ---------------------------------------------------------------- Node and Bun

/** A script of `.`, `./redact`, `./reader` and `./kit`, imported by path; it prints what it got. */
const RUNTIME_SCRIPT =
  `import { fromEntries, registry, renderDream, renderGrader } from "${ROOT_URL}mod.ts";
import { redact } from "${ROOT_URL}redact/mod.ts";
import { conversation, cutBody, utf8Length } from "${ROOT_URL}kit/mod.ts";
import { TranscriptReader } from "${ROOT_URL}reader/mod.ts";
import { writeFileSync } from "node:fs";

const entries = [
  { seq: 1, session_id: "s", thread_id: null, event: { id: "e1", type: "user.message", content: "Key sk-proj-Q7xv2LmN9pR4sT8wZ1bC5dF3" } },
  { seq: 2, session_id: "s", thread_id: null, event: { id: "e2", type: "agent.message", content: "Noted" } },
];
const items = [];
for await (const item of conversation(entries, { view: "dream" })) items.push(cutBody(item.text, 8));
const transcript = process.argv[2];
writeFileSync(transcript, JSON.stringify({
  type: "assistant",
  message: { model: "claude-x", usage: { input_tokens: 5, cache_read_input_tokens: 2 } },
}) + "\\n");
const { facts } = await new TranscriptReader(transcript).refresh();
console.log(JSON.stringify({
  grader: await renderGrader(fromEntries(entries)),
  dream: (await renderDream(entries)).text,
  json: await registry.render("json", entries),
  redact: redact("token=abc123def456"),
  kit: [items, utf8Length("é")],
  reader: [facts.model, facts.contextUsedTokens],
}));
`;

for (const [runtime, name] of [["node", "Node"], ["bun", "Bun"]] as const) {
  Deno.test(`., ./redact, ./reader and ./kit import and work on ${name}`, async () => {
    const version = await run(runtime, ["--version"], { cwd: ROOT }).catch(() => undefined);
    if (version === undefined || version.code !== 0) {
      assert.notEqual(Deno.env.get("CI"), "true", `${runtime} is required under CI=true`);
      console.log(`skipped: no \`${runtime}\` on PATH (set CI=true to make this a failure)`);
      return;
    }
    await withScratch(async (dir) => {
      await Deno.writeTextFile(join(dir, "main.ts"), RUNTIME_SCRIPT);
      // Node 20 strips no types: the script is bundled for Node, from a folder with no deno.json.
      const bundled = await run(
        "deno",
        ["bundle", "--platform=node", "-o", "main.mjs", "main.ts"],
        {
          cwd: dir,
        },
      );
      assert.equal(bundled.code, 0, bundled.stderr);
      const result = await run(runtime, ["main.mjs", join(dir, "t.jsonl")], { cwd: dir });
      assert.equal(result.code, 0, result.stderr);
      const got = JSON.parse(result.stdout);
      const entries = [
        {
          seq: 1,
          session_id: "s",
          thread_id: null,
          event: {
            id: "e1",
            type: "user.message",
            content: "Key sk-proj-Q7xv2LmN9pR4sT8wZ1bC5dF3",
          },
        },
        {
          seq: 2,
          session_id: "s",
          thread_id: null,
          event: { id: "e2", type: "agent.message", content: "Noted" },
        },
      ];
      assert.deepEqual(got, {
        grader: await registry.render("grader", entries),
        dream: await registry.render("dream", entries),
        json: await registry.render("json", entries),
        redact: "token=[REDACTED_SECRET]",
        kit: [["Key [RED\n[cut: 13 more bytes]", "Noted"], 2],
        reader: ["claude-x", 7],
      });
    });
  });
}
