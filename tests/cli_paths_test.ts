// Copyright 2026 the brigade authors. MIT license.

// `deno task render` and `deno task facts` run where the user is: paths, --out and the renderer
// configuration are the caller's; --version; inputs that are neither files nor streams refused;
// a gateway through the command the permission error prints; nothing fetched that is not used.

import assert from "node:assert/strict";
import { constants } from "node:fs";
import { type FileHandle, open } from "node:fs/promises";
import { join } from "node:path";
import { fromNdjson, renderGrader } from "../mod.ts";
import { ROOT, run, task, taskFrom } from "./_command.ts";
import { startFakeApi } from "./_managed_agents_server.ts";
import { rerunCommand, shellQuote } from "../cli/_net_access.ts";
import config from "../deno.json" with { type: "json" };

const SINGLE = join(ROOT, "fixtures/single_agent.ndjson");
const EXAMPLE_LOG = join(ROOT, "fixtures/coordinator_all_threads.ndjson");
const FACTS_LINE = "claude-opus-5[1m] · 30,179 context tokens\n";
const POSIX = Deno.build.os !== "windows";

async function grader(path: string): Promise<string> {
  return await renderGrader(fromNdjson(path));
}

/** Makes a named pipe at `path`; returns the path. */
async function makeFifo(path: string): Promise<string> {
  assert.ok((await new Deno.Command("mkfifo", { args: [path] }).output()).success);
  return path;
}

/**
 * Opens a FIFO for writing once the command has opened it to read: a
 * non-blocking open fails until then, so it is retried, until the command
 * ends (then undefined: a broken command cannot hang the test).
 */
async function openForWriting(
  fifo: string,
  command: Promise<unknown>,
): Promise<FileHandle | undefined> {
  let ended = false;
  command.finally(() => ended = true).catch(() => {});
  while (!ended) {
    const pipe = await open(fifo, constants.O_WRONLY | constants.O_NONBLOCK).catch(() => undefined);
    if (pipe !== undefined) return pipe;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return undefined;
}

async function withTempDir(body: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "transcript_cli_" });
  try {
    await body(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("deno task resolves paths against the directory the user ran it in", async (t) => {
  await t.step("render: a relative path, run from a folder inside the repository", async () => {
    const result = await task("render", ["single_agent.ndjson"], { cwd: join(ROOT, "fixtures") });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, await grader(SINGLE));
  });

  await t.step("facts: a relative path, run from a folder inside the repository", async () => {
    const result = await task("facts", ["claude_code/example.jsonl"], {
      cwd: join(ROOT, "fixtures"),
    });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout, FACTS_LINE);
  });

  await t.step(
    "render: input, --out and the renderer configuration of a folder outside it",
    async () => {
      await withTempDir(async (dir) => {
        await Deno.copyFile(SINGLE, join(dir, "log.ndjson"));
        await Deno.writeTextFile(
          join(dir, "tool_calls.ts"),
          `export const renderers = [{
  name: "tool-calls",
  description: "One line per tool call",
  async render(source) {
    const names = [];
    for await (const { event } of source) if (event.type === "agent.tool_use") names.push(event.name);
    return names.join("\\n") + "\\n";
  },
}];\n`,
        );
        await Deno.writeTextFile(
          join(dir, "deno.jsonc"),
          '{ // the caller\'s project\n  "transcript": { "renderers": ["./tool_calls.ts"] }\n}\n',
        );
        await Deno.mkdir(join(dir, "out"));
        const again = await taskFrom(
          "render",
          ["--renderer", "tool-calls", "--out", "out/calls.txt", "log.ndjson"],
          { cwd: dir },
        );
        assert.equal(again.code, 0, again.stderr);
        assert.equal(again.stdout, "");
        assert.match(await Deno.readTextFile(join(dir, "out/calls.txt")), /^web_search\n/);
        await assert.rejects(Deno.stat(join(ROOT, "out")), Deno.errors.NotFound);
      });
    },
  );

  await t.step(
    "deno run uses the working directory, whatever INIT_CWD and TRANSCRIPT_CWD say",
    async () => {
      // Only the task may hand a directory over; an installed command or deno run is where it is,
      // and never prompts for the variable it may not read.
      const result = await run("deno", [
        "run",
        "--config",
        join(ROOT, "deno.json"),
        "--allow-read",
        join(ROOT, "cli/render.ts"),
        "single_agent.ndjson",
      ], { cwd: join(ROOT, "fixtures"), env: { INIT_CWD: ROOT, TRANSCRIPT_CWD: ROOT } });
      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.stdout, await grader(SINGLE));
    },
  );
});

Deno.test("--version prints the package version from deno.json", async (t) => {
  for (const name of ["render", "facts"]) {
    await t.step(name, async () => {
      const result = await task(name, ["--version"], { cwd: ROOT });
      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.stdout, `@brigade/transcript ${config.version}\n`);
      assert.equal(result.stderr, "");
    });
  }
});

Deno.test({
  name: "render reads files and streams and refuses anything else before reading",
  ignore: !POSIX,
  fn: async (t) => {
    for (
      const [input, kind] of [
        ["/dev/zero", "a device"],
        ["fixtures", "a directory: with --out DIR, the transcripts in it are rendered"],
      ]
    ) {
      await t.step(`${input}: ${kind}, exit 1, and the other inputs still render`, async () => {
        const result = await task("render", [input!, "fixtures/single_agent.ndjson"], {
          cwd: ROOT,
        });
        assert.equal(result.code, 1);
        assert.equal(
          result.stderr,
          `render: ${input}: Cannot read the input: it is not a regular file (${kind})\n` +
            "render: 1 rendered, 0 unchanged, 1 failed\n",
        );
        assert.equal(result.stdout, await grader(SINGLE));
      });
    }

    await t.step("facts refuses a device too, in the reader's words", async () => {
      const result = await task("facts", ["/dev/zero"], { cwd: ROOT });
      assert.equal(result.code, 1);
      assert.equal(
        result.stderr,
        "facts: /dev/zero: Cannot read transcript: it is not a regular file\n",
      );
    });

    await t.step("a process substitution, <(cat log), is read as a stream", async () => {
      const result = await run("bash", [
        "-c",
        `deno task --quiet render <(cat ${shellQuote(SINGLE)})`,
      ], { cwd: ROOT });
      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.stdout, await grader(SINGLE));
    });

    await t.step("a named pipe is read as a stream, written after the command starts", async () => {
      await withTempDir(async (dir) => {
        const fifo = await makeFifo(join(dir, "log.pipe"));
        const rendering = run("deno", [
          "run",
          "--config",
          join(ROOT, "deno.json"),
          "--allow-read",
          join(ROOT, "cli/render.ts"),
          "log.pipe",
        ], { cwd: dir });
        const pipe = await openForWriting(fifo, rendering);
        if (pipe !== undefined) {
          await pipe.write(await Deno.readFile(SINGLE)); // 6.7 KB: within a pipe's buffer
          await pipe.close();
        }
        const result = await rendering;
        assert.equal(result.code, 0, result.stderr);
        assert.equal(result.stdout, await grader(SINGLE));
      });
    });

    await t.step("Ctrl-C stops a named pipe whose writer is silent, at once", async () => {
      await withTempDir(async (dir) => {
        const fifo = await makeFifo(join(dir, "log.pipe"));
        const child = new Deno.Command(Deno.execPath(), {
          args: ["run", "--config", join(ROOT, "deno.json"), "--allow-read", "--allow-write"]
            .concat([join(ROOT, "cli/render.ts"), "--out", "out/", "log.pipe"]),
          cwd: dir,
          stdin: "null",
          stdout: "piped",
          stderr: "piped",
          env: { NO_COLOR: "1" },
        }).spawn();
        const output = child.output();
        // The writer opens the pipe, writes one line and then says nothing more.
        const pipe = await openForWriting(fifo, output);
        assert.ok(pipe !== undefined, "the command ended before it opened the pipe");
        try {
          await pipe.write(new TextEncoder().encode('{"id":"sevt_1","type":"user.message"}\n'));
          await new Promise((resolve) => setTimeout(resolve, 500)); // the command waits to read
          child.kill("SIGINT");
          let timer: ReturnType<typeof setTimeout> | undefined;
          const late = new Promise<"late">((resolve) =>
            timer = setTimeout(resolve, 20_000, "late")
          );
          const first = await Promise.race([output, late]);
          clearTimeout(timer);
          if (first === "late") child.kill("SIGKILL");
          assert.notEqual(first, "late", "one Ctrl-C did not stop a read waiting on the pipe");
        } finally {
          await pipe.close();
        }
        const { code, stderr } = await output;
        assert.equal(code, 130);
        assert.equal(
          new TextDecoder().decode(stderr),
          "render: interrupted by SIGINT: 0 rendered, 0 unchanged, 0 failed; run the same command again to render the rest\n",
        );
      });
    });

    await t.step("Ctrl-C stops a named pipe that has no writer at all, at once", async () => {
      await withTempDir(async (dir) => {
        await makeFifo(join(dir, "log.pipe"));
        const child = new Deno.Command(Deno.execPath(), {
          args: ["run", "--config", join(ROOT, "deno.json"), "--allow-read", "--allow-write"]
            .concat([join(ROOT, "cli/render.ts"), "--out", "out/", "log.pipe"]),
          cwd: dir,
          stdin: "null",
          stdout: "piped",
          stderr: "piped",
          env: { NO_COLOR: "1" },
        }).spawn();
        const output = child.output();
        await new Promise((resolve) => setTimeout(resolve, 1_000)); // the open waits for a writer
        child.kill("SIGINT");
        let timer: ReturnType<typeof setTimeout> | undefined;
        const late = new Promise<"late">((resolve) => timer = setTimeout(resolve, 20_000, "late"));
        const first = await Promise.race([output, late]);
        clearTimeout(timer);
        if (first === "late") child.kill("SIGKILL");
        assert.notEqual(first, "late", "one Ctrl-C did not stop the wait for a writer");
        const { code, stderr } = await output;
        assert.equal(code, 130);
        assert.equal(
          new TextDecoder().decode(stderr),
          "render: interrupted by SIGINT: 0 rendered, 0 unchanged, 0 failed; run the same command again to render the rest\n",
        );
      });
    });
  },
});

Deno.test("render --session through a gateway: the permission error prints the command that works", async () => {
  const key = "sk-ant-api03-gateway-test-key-00000000000";
  const api = startFakeApi({
    apiKey: key,
    sessions: [{
      id: "sesn_gw",
      events: [
        { id: "sevt_1", type: "user.message", content: [{ type: "text", text: "Up?" }] },
        { id: "sevt_2", type: "agent.message", content: [{ type: "text", text: "Yes." }] },
      ],
    }],
  });
  try {
    const env = { ANTHROPIC_API_KEY: key, ANTHROPIC_BASE_URL: api.baseUrl };
    const host = new URL(api.baseUrl).host;
    await withTempDir(async (dir) => {
      // The task allows api.anthropic.com only: it stops before any request.
      const refused = await taskFrom("render", ["--session", "sesn_gw"], { cwd: dir, env });
      assert.equal(refused.code, 2);
      assert.equal(api.requests.length, 0, "no request was sent");
      assert.ok(!refused.stderr.includes(key));
      const printed = refused.stderr.match(/^ {2}(deno run .*)$/m)?.[1];
      assert.ok(printed, refused.stderr);
      assert.ok(printed.includes(`--allow-net=${host} `), printed);
      assert.ok(!printed.includes("'"), "nothing here needs quoting");

      // The printed command, run as printed from the same folder, renders the session.
      const [, ...args] = printed.split(" ");
      const result = await run("deno", args, { cwd: dir, env });
      assert.equal(result.code, 0, result.stderr);
      assert.equal(result.stdout, "[user]\n  Up?\n\n[agent]\n  Yes.\n");
      assert.ok(api.requests.length > 0);
    });
  } finally {
    await api.shutdown();
  }
});

Deno.test("render --session through a gateway: the printed command may write only where --out writes", async () => {
  const key = "sk-ant-api03-gateway-test-key-00000000000";
  const api = startFakeApi({
    apiKey: key,
    sessions: [{
      id: "sesn_gw",
      events: [{ id: "sevt_1", type: "user.message", content: [{ type: "text", text: "Up?" }] }],
    }],
  });
  try {
    const env = { ANTHROPIC_API_KEY: key, ANTHROPIC_BASE_URL: api.baseUrl };
    await withTempDir(async (dir) => {
      for (
        const [out, write, written] of [
          ["dreams/", "--allow-write=dreams/", "dreams/sesn_gw.md"],
          ["session.md", "--allow-write=.", "session.md"],
        ] as const
      ) {
        const given = ["--renderer", "dream", "--session", "sesn_gw", "--out", out];
        const refused = await taskFrom("render", given, { cwd: dir, env });
        assert.equal(refused.code, 2, refused.stderr);
        const printed = refused.stderr.match(/^ {2}(deno run .*)$/m)?.[1];
        assert.ok(printed, refused.stderr);
        assert.deepEqual(printed.split(" ").filter((arg) => arg.startsWith("--allow-write")), [
          write,
        ]);

        // Run as printed, from the same folder: it writes there, and only there.
        const [, ...args] = printed.split(" ");
        const result = await run("deno", args, { cwd: dir, env });
        assert.equal(result.code, 0, result.stderr);
        assert.match(await Deno.readTextFile(join(dir, written)), /Up\?/);
      }
    });
  } finally {
    await api.shutdown();
  }
});

Deno.test("render --session without the environment it needs says what to run", async () => {
  const result = await run("deno", [
    "run",
    "--config",
    join(ROOT, "deno.json"),
    "--allow-read",
    join(ROOT, "cli/render.ts"),
    "--session",
    "sesn_1",
  ], { cwd: ROOT, env: { ANTHROPIC_API_KEY: "sk-ant-api03-never-printed-0000000000000" } });
  assert.equal(result.code, 2);
  assert.match(
    result.stderr,
    /^render: Cannot read ANTHROPIC_API_KEY: this command may not read it/,
  );
  assert.match(
    result.stderr,
    /^ {2}deno run .* --allow-net=api\.anthropic\.com .*--session sesn_1$/m,
  );
  assert.ok(!result.stderr.includes("never-printed"));
});

Deno.test("the rerun command names the JSR entry point when loaded from JSR", () => {
  const printed = rerunCommand(
    "gateway.example.com:8443",
    ["--session", "sesn_1", "--out", "my dreams/"],
    "my dreams/",
    `https://jsr.io/@brigade/transcript/${config.version}/cli/render.ts`,
  );
  assert.equal(
    printed,
    "deno run --allow-net=gateway.example.com:8443 --allow-read '--allow-write=my dreams/' " +
      "--allow-env=ANTHROPIC_API_KEY,ANTHROPIC_BASE_URL " +
      `jsr:@brigade/transcript@${config.version}/render --session sesn_1 --out 'my dreams/'`,
  );
});

Deno.test("deno task render on a fresh DENO_DIR fetches its own packages and none of the test-only ones", async () => {
  await withTempDir(async (denoDir) => {
    await withTempDir(async (dir) => {
      const env = { DENO_DIR: denoDir };
      const rendered = await taskFrom("render", [], { cwd: dir, env });
      assert.equal(rendered.code, 0, rendered.stderr);
      assert.equal(rendered.stdout, await grader(EXAMPLE_LOG));
      const facts = await taskFrom("facts", [], { cwd: dir, env });
      assert.equal(facts.code, 0, facts.stderr);
      assert.equal(facts.stdout, FACTS_LINE);
      const npm = join(denoDir, "npm", "registry.npmjs.org");
      const fetched = (await Array.fromAsync(Deno.readDir(npm))).map((e) => e.name).sort();
      // jsonc-parser for the configuration; the html renderer's Markdown parser and diff library
      // when the checkout's deno.lock holds them (Deno fetches a lockfile's npm packages ahead).
      assert.ok(fetched.includes("jsonc-parser"));
      assert.deepEqual(
        fetched.filter((name) => /^(?:fast-check|axe-core|yaml|@anthropic-ai)$/.test(name)),
        [],
      );
      assert.ok(
        fetched.every((name) =>
          /^(?:jsonc-parser|diff|markdown-it|argparse|entities|linkify-it|mdurl|punycode\.js|uc\.micro)$/
            .test(name)
        ),
        fetched.join(", "),
      );
    });
  });
});

/** Whether `npm` can be run here. */
const HAS_NPM = await new Deno.Command("npm", {
  args: ["--version"],
  stdout: "null",
  stderr: "null",
})
  .output().then((r) => r.success, () => false);

/**
 * A project whose log sits in `sub/`, for the commands that reach `render` with an INIT_CWD set by
 * an outer command to the project's root while `deno task` starts in `sub/`. `line` renders the
 * log into `dreams/`; `named` is the same, the folder named as the refusal says.
 */
async function withProject(
  body: (dir: string, line: string, named: string) => Promise<void>,
): Promise<void> {
  await withTempDir(async (dir) => {
    await Deno.mkdir(join(dir, "sub"));
    await Deno.copyFile(SINGLE, join(dir, "sub/log.ndjson"));
    const line = `deno task --quiet --config ${shellQuote(join(ROOT, "deno.json"))} render ` +
      "--renderer dream --out dreams/ log.ndjson";
    await body(dir, line, `TRANSCRIPT_CWD="$PWD" ${line}`);
  });
}

/** Asserts the dreams went to `sub/dreams/` and nothing to the project's root. */
async function assertDreamsInSub(
  dir: string,
  result: { code: number; stderr: string },
): Promise<void> {
  assert.equal(result.code, 0, result.stderr);
  const names = (await Array.fromAsync(Deno.readDir(join(dir, "sub/dreams")))).map((e) => e.name);
  assert.deepEqual(names.sort(), [
    ".transcript-manifest.json",
    "INDEX.md",
    "sesn_01SingleAgentKv7Q.md",
  ]);
  await assert.rejects(Deno.stat(join(dir, "dreams")), Deno.errors.NotFound);
}

/** Asserts a refusal of the relative paths that names the fix, and that nothing was written. */
async function assertRefused(
  dir: string,
  result: { code: number; stderr: string },
): Promise<void> {
  assert.equal(result.code, 2, result.stderr);
  assert.match(
    result.stderr,
    /^render: Cannot resolve the relative path "log\.ndjson": INIT_CWD \(.+\) was set by an outer npm script or deno task, not by this deno task, so the folder you ran it in is unknown\. Pass absolute paths, or name the folder: TRANSCRIPT_CWD="\$PWD" deno task …\n/,
  );
  await assert.rejects(Deno.stat(join(dir, "dreams")), Deno.errors.NotFound);
  await assert.rejects(Deno.stat(join(dir, "sub/dreams")), Deno.errors.NotFound);
}

Deno.test({
  name: "render: an INIT_CWD inherited from an outer command never moves the paths",
  ignore: !POSIX,
  fn: async (t) => {
    await t.step("nested deno task: a project's task that runs render in a subfolder", async () => {
      await withProject(async (dir, line, named) => {
        await Deno.writeTextFile(
          join(dir, "deno.json"),
          JSON.stringify({ tasks: { dreams: `cd sub && ${line}`, named: `cd sub && ${named}` } }),
        );
        // The outer task sets INIT_CWD to the project's root, where the user typed it.
        await assertRefused(dir, await task("dreams", [], { cwd: dir }));
        await assertDreamsInSub(dir, await task("named", [], { cwd: dir }));
      });
    });

    await t.step({
      name: "npm script: npm sets INIT_CWD to the root, the script runs render in sub/",
      ignore: !HAS_NPM,
      fn: async () => {
        await withProject(async (dir, line, named) => {
          const scripts = { dreams: `cd sub && ${line}`, named: `cd sub && ${named}` };
          await Deno.writeTextFile(
            join(dir, "package.json"),
            JSON.stringify({ name: "p", private: true, scripts }),
          );
          await assertRefused(dir, await run("npm", ["run", "--silent", "dreams"], { cwd: dir }));
          await assertDreamsInSub(
            dir,
            await run("npm", ["run", "--silent", "named"], { cwd: dir }),
          );
        });
      },
    });

    await t.step("plain deno task from a subfolder: its own folder, under npx too", async () => {
      const args = ["--renderer", "dream", "--out", "dreams/", "log.ndjson"];
      await withProject(async (dir) => {
        await assertDreamsInSub(dir, await taskFrom("render", args, { cwd: join(dir, "sub") }));
      });
      await withProject(async (dir) => {
        // `npx deno task …` sets INIT_CWD where it was typed, and runs there.
        const env = { INIT_CWD: join(dir, "sub"), npm_lifecycle_event: "npx" };
        await assertDreamsInSub(
          dir,
          await taskFrom("render", args, { cwd: join(dir, "sub"), env }),
        );
      });
    });

    await t.step("plain deno task, in a shell an npm script started: refused", async () => {
      await withProject(async (dir) => {
        const args = ["--renderer", "dream", "--out", "dreams/", "log.ndjson"];
        const env = { INIT_CWD: dir, npm_lifecycle_event: "shell" };
        await assertRefused(dir, await taskFrom("render", args, { cwd: join(dir, "sub"), env }));
        // Absolute paths need no folder.
        const absolute = [
          "--renderer",
          "dream",
          "--out",
          `${dir}/sub/dreams/`,
          `${dir}/sub/log.ndjson`,
        ];
        await assertDreamsInSub(
          dir,
          await taskFrom("render", absolute, { cwd: join(dir, "sub"), env }),
        );
      });
    });

    await t.step(
      "plain deno task, an INIT_CWD merely inherited in a package manager's environment: refused",
      async () => {
        // No outer script ran (no npm_lifecycle_event, no `?`), but INIT_CWD and a package
        // manager's user agent were left in the environment: deno task keeps both.
        const agent = "pnpm/9.15.0 npm/? node/v20.20.2 linux x64";
        await withProject(async (dir) => {
          const args = ["--renderer", "dream", "--out", "dreams/", "log.ndjson"];
          const env = { INIT_CWD: dir, npm_config_user_agent: agent };
          const refused = await taskFrom("render", args, { cwd: join(dir, "sub"), env });
          assert.equal(refused.code, 2, refused.stderr);
          assert.match(
            refused.stderr,
            /^render: Cannot resolve the relative path "log\.ndjson": INIT_CWD \(.+\) was inherited from a package manager's environment, not set by this deno task, so the folder you ran it in is unknown\. Pass absolute paths, or name the folder: TRANSCRIPT_CWD="\$PWD" deno task …\n/,
          );
          await assert.rejects(Deno.stat(join(dir, "dreams")), Deno.errors.NotFound);
          await assert.rejects(Deno.stat(join(dir, "sub/dreams")), Deno.errors.NotFound);
          // The folder named: rendered there, as typed.
          const named = { ...env, TRANSCRIPT_CWD: join(dir, "sub") };
          await assertDreamsInSub(
            dir,
            await taskFrom("render", args, { cwd: join(dir, "sub"), env: named }),
          );
        });
        const cwd = join(ROOT, "fixtures");
        const env = { INIT_CWD: ROOT, npm_config_user_agent: agent };
        const facts = await taskFrom("facts", ["claude_code/example.jsonl"], { cwd, env });
        assert.equal(facts.code, 2, facts.stderr);
        assert.match(
          facts.stderr,
          /^facts: Cannot resolve the relative path "claude_code\/example\.jsonl": INIT_CWD \(.+\) was inherited from a package manager's environment/,
        );
        // npx runs where it was typed: its INIT_CWD is believed, its user agent npm's.
        const npx = await taskFrom("facts", ["claude_code/example.jsonl"], {
          cwd,
          env: { INIT_CWD: cwd, npm_config_user_agent: agent, npm_lifecycle_event: "npx" },
        });
        assert.equal(npx.code, 0, npx.stderr);
        assert.equal(npx.stdout, FACTS_LINE);
      },
    );

    await t.step(
      "facts, the same: a relative path refused, the example and --help not",
      async () => {
        const env = { INIT_CWD: ROOT, npm_lifecycle_event: "shell" };
        const cwd = join(ROOT, "fixtures");
        const refused = await taskFrom("facts", ["claude_code/example.jsonl"], { cwd, env });
        assert.equal(refused.code, 2);
        assert.match(
          refused.stderr,
          /^facts: Cannot resolve the relative path "claude_code\/example\.jsonl"/,
        );
        const example = await taskFrom("facts", [], { cwd, env });
        assert.equal(example.code, 0, example.stderr);
        const named = await taskFrom("facts", ["claude_code/example.jsonl"], {
          cwd,
          env: { ...env, TRANSCRIPT_CWD: cwd },
        });
        assert.equal(named.code, 0, named.stderr);
        assert.equal(named.stdout, FACTS_LINE);
      },
    );
  },
});
