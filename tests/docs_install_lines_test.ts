// Copyright 2026 the brigade authors. MIT license.

// Every `deno install` line the guides and the commands' own pages (their module docs, which JSR
// shows) give, run as written: installed into a folder of its own, the installed command run as
// its user would. `facts` so installed must keep its status-line cache (else each call reads the
// whole transcript); `render` must render. JSR is not reachable here: a `jsr:` entry point stands
// for the checkout's file, with its configuration, as the checkout's own lines install it.

import assert from "node:assert/strict";
import { join } from "node:path";
import { ROOT, run } from "./_command.ts";

/** Where install lines are written for users to copy. */
const PAGES = ["README.md", "docs/commands.md", "docs/reader.md", "cli/facts.ts", "cli/render.ts"];

/** One `deno install` command as a page writes it, its `\` continuations joined. */
interface InstallLine {
  page: string;
  command: string;
}

/** The `deno install` commands of a page's text (a module doc's lines start with ` * `). */
function installLines(page: string, text: string): InstallLine[] {
  const lines = text.split("\n").map((line) => line.replace(/^ \* ?/, ""));
  const found: InstallLine[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^deno install /.test(lines[i]!)) continue;
    let command = lines[i]!;
    while (command.endsWith("\\") && i + 1 < lines.length) {
      command = `${command.slice(0, -1).trimEnd()} ${lines[++i]!.trim()}`;
    }
    found.push({ page, command });
  }
  return found;
}

/**
 * The command as it runs here: `/path/to/transcript` is the checkout, and a `jsr:` entry point
 * the checkout's file (with the checkout's configuration, as JSR's package brings its own).
 */
function runnable(command: string): string {
  let line = command.replaceAll("/path/to/transcript", ROOT.replace(/\/$/, ""));
  line = line.replace(
    /jsr:@brigade\/transcript\/(facts|render)\b/,
    (_, name) => `--config ${ROOT}deno.json ${ROOT}cli/${name}.ts`,
  );
  return line;
}

/** The name a line installs the command under (`-n NAME`). */
function installedName(command: string): string {
  const name = command.match(/(?:-n|--name) (\S+)/)?.[1];
  assert.ok(name !== undefined, `no -n NAME in: ${command}`);
  return name;
}

Deno.test("the pages' install lines are found: both commands, from JSR and from a checkout", async () => {
  const lines = (await Promise.all(
    PAGES.map(async (page) => installLines(page, await Deno.readTextFile(join(ROOT, page)))),
  )).flat();
  const names = new Set(lines.map((line) => installedName(line.command)));
  assert.ok(names.has("transcript-facts") && names.has("transcript-render"), [...names].join());
  assert.ok(lines.some((line) => line.command.includes("/path/to/transcript/cli/facts.ts")));
  assert.ok(lines.some((line) => line.command.includes("jsr:@brigade/transcript/facts")));
});

Deno.test("every install line of the pages installs a command that works, facts with its cache", async (t) => {
  const transcript = join(ROOT, "fixtures/claude_code/example.jsonl");
  for (const page of PAGES) {
    for (const { command } of installLines(page, await Deno.readTextFile(join(ROOT, page)))) {
      await t.step(`${page}: ${command}`, async () => {
        const temp = await Deno.makeTempDir({ prefix: "install_line_" });
        try {
          const home = join(temp, "home");
          const cwd = join(temp, "work");
          await Deno.mkdir(home);
          await Deno.mkdir(cwd);
          // As a user's shell runs the line: $HOME set, $XDG_CACHE_HOME not, the install root
          // a folder of this test's.
          const env = { HOME: home, DENO_INSTALL_ROOT: join(temp, "root") };
          const installed = await run("bash", ["-c", runnable(command)], { cwd, env });
          assert.equal(installed.code, 0, installed.stderr);
          const bin = join(temp, "root", "bin", installedName(command));
          if (command.includes("facts")) {
            const status = JSON.stringify({ transcript_path: transcript, model: { id: "m" } });
            const result = await run(bin, ["--statusline"], { cwd, env, stdin: status });
            assert.equal(result.code, 0, result.stderr);
            assert.match(result.stdout, /30\.2k tokens/);
            // The reader's position is kept, where the command looks for it next call.
            const cache = join(home, ".cache", "brigade-transcript", "statusline");
            const kept = await Array.fromAsync(Deno.readDir(cache)).catch(() => []);
            assert.equal(kept.length, 1, `no status-line cache written under ${cache}`);
          } else {
            const result = await run(bin, [], { cwd, env });
            assert.equal(result.code, 0, result.stderr);
            assert.match(result.stdout, /^\[user\]\n/);
          }
        } finally {
          await Deno.remove(temp, { recursive: true });
        }
      });
    }
  }
});
