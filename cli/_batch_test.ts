// Copyright 2026 the brigade authors. MIT license.

import assert from "node:assert/strict";
import { join } from "node:path";
import { parseRenderArgs } from "./_args.ts";
import { RenderRun } from "./_batch.ts";
import { loadBuiltin } from "./_builtins.ts";
import type { Interrupt } from "./_interrupt.ts";
import { Stderr } from "./_terminal.ts";

const FIXTURE = new URL("../fixtures/single_agent.ndjson", import.meta.url);

/** A run of `render -r dream --out out/ a.ndjson` in `dir`, Ctrl-C'd once its page is rendered. */
async function run(dir: string, ctrlCInPage: boolean): Promise<{ code: number; said: string }> {
  const command = await parseRenderArgs([
    "-r",
    "dream",
    "--out",
    join(dir, "out"),
    join(dir, "a.ndjson"),
  ]);
  const renderer = await loadBuiltin("dream");
  const folder = renderer.folder!;
  const rendered = folder.page!.bind(folder);
  const controller = new AbortController();
  // Ctrl-C as the session's page is rendered: the session in flight is finished and written.
  const page: typeof folder.page = async (...args) => {
    const text = await rendered(...args);
    if (ctrlCInPage) controller.abort(new DOMException("Interrupted by SIGINT", "AbortError"));
    return text;
  };
  const interrupt = {
    signal: controller.signal,
    get exitCode(): number | undefined {
      return controller.signal.aborted ? 130 : undefined;
    },
  } as unknown as Interrupt;
  let said = "";
  const stderr = new Stderr("render", false);
  stderr.say = (message: string): void => {
    said += `${message}\n`;
  };
  const code = await new RenderRun({
    renderer: { ...renderer, folder: { ...folder, page } },
    command,
    target: { kind: "dir", path: join(dir, "out") },
    inputs: command.inputs,
    stderr,
    interrupt,
  }).all();
  return { code, said };
}

Deno.test("RenderRun: a page written by a run stopped with Ctrl-C stays its to replace once the session grows", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const lines = (await Deno.readTextFile(FIXTURE)).trimEnd().split("\n");
    const write = (from: number, to?: number): Promise<void> =>
      Deno.writeTextFile(join(dir, "a.ndjson"), lines.slice(from, to).join("\n") + "\n", {
        append: from > 0,
      });
    await Deno.mkdir(join(dir, "out"));
    await write(0, 10);
    assert.equal((await run(dir, false)).code, 0);
    await write(10, 15);
    assert.equal((await run(dir, true)).code, 130);
    await write(15);
    const last = await run(dir, false);
    assert.equal(last.code, 0, last.said);
    assert.doesNotMatch(last.said, /a different file exists/);
    assert.match(last.said, /1 rendered, 0 unchanged, 0 failed/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
