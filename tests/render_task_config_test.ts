// Copyright 2026 the brigade authors. MIT license.

// `deno task render` runs its command with Deno's `--no-config` and the checkout's lock file
// named: Deno then reads none of the checkout's configuration (it read its deno.json 10 to 13 times
// a run, and looked for a package.json beside each module's folder), and the lock still pins the
// npm packages the command imports. That team renderers load in every way the command runs, with
// their own imports, is render_team_import_test.ts's and render_team_jsr_test.ts's.

import assert from "node:assert/strict";
import { ROOT, run } from "./_command.ts";

/** The flags the render task gives `deno run`, from the checkout's deno.json. */
async function renderTaskFlags(): Promise<string[]> {
  const config = JSON.parse(await Deno.readTextFile(`${ROOT}deno.json`));
  const task = config.tasks.render;
  const command: string = typeof task === "string" ? task : task.command;
  const flags = /\bdeno run (.*?) cli\/render\.ts$/.exec(command)?.[1];
  assert.ok(flags !== undefined, `no "deno run … cli/render.ts" in ${command}`);
  return flags.split(" ");
}

Deno.test("deno task render's command reads none of the checkout's configuration", async () => {
  const flags = await renderTaskFlags();
  const cwd = await Deno.makeTempDir({ prefix: "render_task_config_" });
  try {
    // What the task runs (in the checkout, as deno task does), its debug log on: Deno names each
    // configuration file it finds.
    const args = ["run", ...flags, "cli/render.ts", "--version"];
    const result = await run("deno", args, { cwd: ROOT, env: { DENO_LOG: "debug" } });
    assert.equal(result.code, 0, result.stderr.slice(-2000));
    assert.match(result.stdout, /^@brigade\/transcript \d+\.\d+\.\d+/);
    const found = result.stderr.split("\n").filter((line) => /Config file found/.test(line));
    assert.deepEqual(found, []);
    // And from another folder, as a user types it: the command still runs.
    const from = await run("deno", ["task", "-q", "--config", `${ROOT}deno.json`, "render", "-V"], {
      cwd,
    });
    assert.equal(from.code, 0, from.stderr);
    assert.equal(from.stdout, result.stdout);
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
});

Deno.test("deno task render names the checkout's lock, which pins every npm package it imports", async () => {
  const flags = await renderTaskFlags();
  // Relative: the task runs in the checkout, wherever it is typed.
  assert.ok(flags.includes("--lock=deno.lock"), flags.join(" "));
  const lock = JSON.parse(await Deno.readTextFile(`${ROOT}deno.lock`));
  const pinned = Object.keys(lock.specifiers ?? {});
  for await (const entry of Deno.readDir(`${ROOT}deps`)) {
    const text = await Deno.readTextFile(`${ROOT}deps/${entry.name}`);
    for (const [, name] of text.matchAll(/from "npm:((?:@[^/@"]+\/)?[^/@"]+)@/g)) {
      assert.ok(
        pinned.some((specifier) => specifier.startsWith(`npm:${name}@`)),
        `${entry.name} imports npm:${name}, which deno.lock does not pin`,
      );
    }
  }
});
