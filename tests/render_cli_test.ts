// Copyright 2026 the brigade authors. MIT license.

import assert from "node:assert/strict";
import { fromNdjson, renderGrader } from "../mod.ts";
import { startFakeApi } from "./_managed_agents_server.ts";

const ROOT = new URL("../", import.meta.url);
const CLI = new URL("cli/render.ts", ROOT).pathname;
const CONFIG = new URL("deno.json", ROOT).pathname;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `deno task render`'s script with the task's permissions. */
async function render(
  args: string[],
  options: { cwd?: string; stdin?: string } = {},
): Promise<Run> {
  const command = new Deno.Command(Deno.execPath(), {
    args: ["run", "--config", CONFIG, "--allow-read", "--allow-write", CLI, ...args],
    cwd: options.cwd ?? ROOT.pathname,
    stdin: options.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  });
  const child = command.spawn();
  if (options.stdin !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(options.stdin));
    await writer.close();
  }
  const { code, stdout, stderr } = await child.output();
  const decode = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);
  return { code, stdout: decode(stdout), stderr: decode(stderr) };
}

function assertNoStack(run: Run): void {
  assert.doesNotMatch(run.stderr, /^\s+at /m, "no stack trace");
}

const line = (seq: number, session: string, text: string): string =>
  JSON.stringify({
    seq,
    session_id: session,
    thread_id: null,
    event: { id: `sevt_${seq}`, type: "user.message", content: text },
  });

Deno.test("render with no input prints the bundled example through the grader", async () => {
  const run = await render([]);
  assert.equal(run.code, 0, run.stderr);
  const example = new URL("fixtures/coordinator_all_threads.ndjson", ROOT);
  assert.equal(run.stdout, await renderGrader(fromNdjson(example)));
});

Deno.test("render --help lists the options and the renderers", async () => {
  const run = await render(["--help"]);
  assert.equal(run.code, 0);
  assert.match(run.stdout, /^Usage:/m);
  assert.match(run.stdout, /--renderer NAME/);
  assert.match(run.stdout, /^ {2}grader /m);
});

Deno.test("render exits 2 on usage errors, without a stack trace", async (t) => {
  const cases: Array<[string[], RegExp]> = [
    [["--bogus"], /^render: Unknown option "--bogus"\nRun with --help for usage\.\n$/],
    // `-f` is `--follow` (not `--force`), which reads a --session.
    [["-f"], /^render: Cannot follow without a session: --follow takes --session ID\n/],
    [["--session", "sesn_1", "--follow", "--out", "x.txt"], /^render: Cannot follow into --out/],
    [["--out"], /^render: Option "--out" needs a value\n/],
    [["--force=yes"], /^render: Option "--force" takes no value\n/],
    [
      ["--renderer", "nope"],
      /Unknown renderer "nope": known renderers are grader, dream, index, json/,
    ],
    [["--scope", "half"], /Unknown scope "half"/],
  ];
  for (const [args, pattern] of cases) {
    await t.step(args.join(" "), async () => {
      const run = await render(args);
      assert.equal(run.code, 2);
      assert.match(run.stderr, pattern);
      assertNoStack(run);
    });
  }
});

Deno.test("render asks for --out DIR when the input holds several sessions", async () => {
  const run = await render(["-"], {
    stdin: [line(1, "sesn_a", "a"), line(1, "sesn_b", "b")].join("\n"),
  });
  assert.equal(run.code, 2);
  assert.match(run.stderr, /more than one session \("sesn_a", "sesn_b"\): pass --out DIR/);
  assert.equal(run.stdout, "");
});

Deno.test("render --out DIR writes one file per session, reports a bad log and renders the rest", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(
      `${dir}/good.ndjson`,
      [line(1, "sesn_a", "alpha"), line(1, "../evil/x", "beta")].join("\n"),
    );
    await Deno.writeTextFile(`${dir}/bad.ndjson`, `${line(1, "sesn_c", "c")}\n{broken\n`);
    const out = `${dir}/out/`;
    const run = await render(["--out", out, `${dir}/bad.ndjson`, `${dir}/good.ndjson`]);
    assert.equal(run.code, 1);
    assert.match(
      run.stderr,
      new RegExp(`${RegExp.escape(dir)}/bad\\.ndjson:2: Cannot parse the line as JSON`),
    );
    assert.match(
      run.stderr,
      /session "sesn_c" of .*bad\.ndjson was not written: 1 bad line in or after it \(pass --skip-invalid/,
    );
    assert.doesNotMatch(run.stderr, /"sesn_a"|"\.\.\/evil\/x"/, "nothing said of sessions written");
    assertNoStack(run);
    const names = (await Array.fromAsync(Deno.readDir(out))).map((e) => e.name).sort();
    assert.deepEqual(names, [
      "%2E%2E%u002Fevil%u002Fx.txt",
      ".transcript-manifest.json",
      "sesn_a.txt",
    ]);
    assert.equal(await Deno.readTextFile(`${out}sesn_a.txt`), "[user]\n  alpha\n");

    await Deno.writeTextFile(`${out}sesn_a.txt`, "edited\n");
    const again = await render(["--out", out, `${dir}/good.ndjson`]);
    assert.equal(again.code, 1);
    assert.match(
      again.stderr,
      /sesn_a\.txt: a different file exists \(pass --force to overwrite it\)\nrender: 0 rendered, 1 unchanged, 1 failed\n$/,
    );
    const forced = await render(["--force", "--out", out, `${dir}/good.ndjson`]);
    assert.equal(forced.code, 0, forced.stderr);
    assert.equal(forced.stderr, "render: 1 rendered, 1 unchanged, 0 failed\n");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("render registers the renderer modules named in the nearest deno.jsonc", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${dir}/nested/deeper`, { recursive: true });
    await Deno.writeTextFile(
      `${dir}/deno.jsonc`,
      `{
  // a team's project: its own renderer, no change to this package
  "transcript": { "renderers": ["./renderers/shout.ts",], },
}`,
    );
    await Deno.mkdir(`${dir}/renderers`);
    await Deno.writeTextFile(
      `${dir}/renderers/shout.ts`,
      `export const renderers = [{
  name: "shout",
  description: "Every user message in capitals",
  async render(source) {
    const out = [];
    for await (const { event } of source) {
      if (event.type === "user.message") out.push(String(event.content).toUpperCase());
    }
    return out.join("\\n") + "\\n";
  },
}];`,
    );
    const run = await render(["--renderer", "shout", "-"], {
      cwd: `${dir}/nested/deeper`,
      stdin: line(1, "sesn_a", "quiet please"),
    });
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, "QUIET PLEASE\n");
    // --help lists the configured module without importing it.
    const help = await render(["--help"], { cwd: dir });
    assert.equal(help.code, 0, help.stderr);
    assert.match(
      help.stdout,
      new RegExp(
        `\\nConfigured in ${dir}/deno\\.jsonc \\(imported only when named; --no-config skips\\):\\n  \\(module\\) {3}${dir}/renderers/shout\\.ts\\n`,
      ),
    );
    const skipped = await render(["--no-config", "--renderer", "shout", "-"], {
      cwd: `${dir}/nested/deeper`,
      stdin: line(1, "sesn_a", "quiet please"),
    });
    assert.equal(skipped.code, 2);
    assert.match(skipped.stderr, /^render: Unknown renderer "shout": known renderers are grader, /);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("render reports a broken renderer module when it is named, and never for a built-in", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/broken.ts`, "export const renderers = [;\n");
    for (
      const renderers of [
        `["./none.ts", "./broken.ts"]`,
        `{ "team": "./broken.ts", "gone": "./none.ts" }`,
      ]
    ) {
      await Deno.writeTextFile(
        `${dir}/deno.json`,
        `{ "transcript": { "renderers": ${renderers} } }`,
      );
      const builtin = await render([], { cwd: dir });
      assert.equal(builtin.code, 0, builtin.stderr);
      assert.match(builtin.stdout, /^\[user\]\n/);
      const help = await render(["--help"], { cwd: dir });
      assert.equal(help.code, 0, help.stderr);
      const team = await render(["--renderer", "team"], { cwd: dir });
      assert.equal(team.code, 2);
      assert.match(
        team.stderr,
        new RegExp(
          `^render: Cannot load renderer module ${dir}/(none|broken)\\.ts \\(named in ${dir}/deno\\.json\\): .+\\nRun with --help for usage\\.\\n$`,
        ),
      );
      assertNoStack(team);
    }
    const gone = await render(["--renderer", "gone"], { cwd: dir });
    assert.equal(gone.code, 2);
    assert.match(
      gone.stderr,
      new RegExp(`Cannot load renderer module ${dir}/none\\.ts .*: Module not found`),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("render reads a *.jsonl file as a Claude Code transcript", async () => {
  const transcript = new URL(
    "fixtures/claude_code/real/entireio-cli_73_7e6e3ea2ad_0_full.jsonl",
    ROOT,
  );
  const run = await render(["--renderer", "dream", transcript.pathname]);
  assert.equal(run.code, 0, run.stderr);
  assert.match(
    run.stdout,
    /^---\nrenderer: "dream"\nsession_id: "entireio-cli_73_7e6e3ea2ad_0_full"\n[^]*?\n---\n# Session entireio-cli_73_7e6e3ea2ad_0_full\n/,
  );
  assert.match(run.stdout, /### user\n\n {4}another PR comment\n/);
  // As a log, its records would be events of unknown types, rendered as nothing: refused.
  const forced = await render(["--format", "log", transcript.pathname]);
  assert.equal(forced.code, 1, forced.stderr);
  assert.equal(forced.stdout, "");
  assert.match(forced.stderr, /does not look like a log: .*\(pass --format claude-code\)/);
});

Deno.test("render --renderer dream --out DIR writes a markdown file per session and INDEX.md", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(
      `${dir}/a.ndjson`,
      [line(1, "sesn_a", "first · question"), line(1, "sesn_b", "second")].join("\n"),
    );
    await Deno.writeTextFile(`${dir}/c.ndjson`, line(1, "sesn_c", "third"));
    const run = await render([
      "--renderer",
      "dream",
      "--out",
      `${dir}/out`,
      `${dir}/a.ndjson`,
      `${dir}/c.ndjson`,
    ], {});
    assert.equal(run.code, 2, "an --out that does not exist and has no trailing / is a file");
    const ok = await render([
      "--renderer",
      "dream",
      "--out",
      `${dir}/out/`,
      `${dir}/a.ndjson`,
      `${dir}/c.ndjson`,
    ]);
    assert.equal(ok.code, 0, ok.stderr);
    const names = (await Array.fromAsync(Deno.readDir(`${dir}/out`))).map((e) => e.name).sort();
    assert.deepEqual(names, [
      ".transcript-manifest.json",
      "INDEX.md",
      "sesn_a.md",
      "sesn_b.md",
      "sesn_c.md",
    ]);
    const index = await Deno.readTextFile(`${dir}/out/INDEX.md`);
    const rows = index.split("\n").filter((row) => row.startsWith("- "));
    assert.deepEqual(rows.map((row) => row.split(" · ").slice(0, 2).join(" · ")), [
      "- 1 · sesn_a",
      "- 2 · sesn_b",
      "- 3 · sesn_c",
    ]);
    assert.ok(rows[0]!.endsWith(" · first · question"));
    assert.match(
      await Deno.readTextFile(`${dir}/out/sesn_a.md`),
      /^---\n[^]*\n---\n# Session sesn_a\n\n### user\n\n {4}first/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("render --renderer index reads every input as one batch", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/a.ndjson`, line(1, "sesn_a", "alpha"));
    await Deno.writeTextFile(`${dir}/b.ndjson`, line(1, "sesn_b", "beta"));
    const run = await render(["--renderer", "index", `${dir}/a.ndjson`, `${dir}/b.ndjson`]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^# Index\n/);
    assert.match(run.stdout, /^- 1 · sesn_a · .* · alpha$/m);
    assert.match(run.stdout, /^- 2 · sesn_b · .* · beta$/m);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("render --session renders a session straight from the Managed Agents API", async () => {
  const key = "sk-ant-api03-cli-test-key-000000000000";
  const event = (id: string, type: string, text: string): Record<string, unknown> => ({
    id,
    type,
    processed_at: `2026-09-14T10:00:0${id.at(-1)}Z`,
    content: [{ type: "text", text }],
  });
  const api = startFakeApi({
    apiKey: key,
    sessions: [{
      id: "sesn_live",
      events: [
        event("sevt_1", "user.message", "Is it up?"),
        event("sevt_2", "agent.message", "Yes."),
      ],
    }],
  });
  try {
    const command = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--config",
        CONFIG,
        "--allow-read",
        "--allow-net=127.0.0.1",
        "--allow-env",
        CLI,
        "--session",
        "sesn_live",
      ],
      env: { ANTHROPIC_API_KEY: key, ANTHROPIC_BASE_URL: api.baseUrl, NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    });
    const { code, stdout, stderr } = await command.output();
    assert.equal(code, 0, new TextDecoder().decode(stderr));
    assert.equal(new TextDecoder().decode(stdout), "[user]\n  Is it up?\n\n[agent]\n  Yes.\n");
    assert.ok(api.requests.every((request) => request.headers.get("x-api-key") === key));
  } finally {
    await api.shutdown();
  }
});

/** The tests' environment without an API key, colours off. */
function withoutKey(): Record<string, string> {
  const env = Deno.env.toObject();
  delete env.ANTHROPIC_API_KEY;
  return { ...env, NO_COLOR: "1" };
}

Deno.test("render: an option given twice, an empty --session and a missing API key are usage errors", async () => {
  for (
    const [args, said] of [
      [["--out", "a", "--out", "b"], /^render: Option "--out" was given twice: give it once\n/],
      [["-o", "a", "--out=b"], /^render: Option "--out" was given twice/],
      [["-r", "dream", "--renderer", "grader"], /^render: Option "--renderer" was given twice/],
      [["--session", ""], /^render: Option "--session" needs a session id\n/],
      [
        ["--session", "sesn_1"],
        /^render: Cannot read a session .* without a key: set ANTHROPIC_API_KEY\n/,
      ],
    ] as const
  ) {
    const command = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--config",
        CONFIG,
        "--allow-read",
        "--allow-write",
        "--allow-env=ANTHROPIC_API_KEY,ANTHROPIC_BASE_URL",
        "--allow-net=api.anthropic.com",
        CLI,
        ...args,
      ],
      cwd: ROOT.pathname,
      stdout: "piped",
      stderr: "piped",
      clearEnv: true,
      env: withoutKey(),
    });
    const { code, stderr } = await command.output();
    const text = new TextDecoder().decode(stderr);
    assert.equal(code, 2, `${args.join(" ")}: ${text}`);
    assert.match(text, said);
  }
});
