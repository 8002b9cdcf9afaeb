// Copyright 2026 the brigade authors. MIT license.

/**
 * The `render` command: renders agent-session logs (Managed Agents events as NDJSON, a Claude
 * Code transcript, or a session read from the Managed Agents API) as text a model reads, with a
 * registered renderer. With no input it renders a bundled example through the grader.
 * Write access is scoped to where it writes (rendering to stdout needs none), because a team
 * renderer it runs inherits it:
 *
 * ```sh
 * deno run --allow-read --allow-write=dreams jsr:@brigade/transcript/render --renderer dream \
 *   --out dreams/ logs/*.ndjson
 * deno install -g -n transcript-render --v8-flags=--no-lazy --unstable-lazy-dynamic-imports \
 *   --allow-read --allow-write=. --allow-net=api.anthropic.com \
 *   --allow-env=ANTHROPIC_API_KEY,ANTHROPIC_BASE_URL jsr:@brigade/transcript/render
 * transcript-render --help
 * ```
 *
 * @module
 */

import { parseRenderArgs, type RenderCommand } from "./_args.ts";
import { isBuiltin, loadBuiltin } from "./_builtins.ts";
import { enterCallerDirectory } from "./_cwd.ts";
import { loadExample } from "./_example.ts";
import { serveTeamRun } from "./_team_run.ts";
import type { Prelude } from "./_render_command.ts";

// What runs the command is imported on the call: `--version`, and a rerun into a folder that
// finds nothing changed (_quick_rerun.ts: the folder's record and stats), end before any of it
// loads.

/**
 * Runs the command as if typed with `args`, printing to stdout and stderr; the caller exits.
 *
 * @example Render a log to a folder of dreams
 * ```ts
 * import { main } from "@brigade/transcript/render";
 * import assert from "node:assert/strict";
 *
 * const dir = await Deno.makeTempDir();
 * const log = `${dir}/log.ndjson`;
 * await Deno.writeTextFile(log, '{"id":"sevt_1","type":"user.message","content":"Hi"}\n');
 * assert.equal(await main(["--renderer", "dream", "--out", `${dir}/dreams/`, log]), 0);
 * assert.ok((await Deno.readTextFile(`${dir}/dreams/log.md`)).includes("Hi"));
 * await Deno.remove(dir, { recursive: true });
 * ```
 *
 * @param args The command-line arguments, as in `Deno.args`.
 * @returns The exit code: 0 all rendered, 1 some input failed, 2 usage error, 130 or 143
 *   interrupted.
 */
export async function main(args: string[]): Promise<number> {
  const prelude = await take(args);
  const command = prelude?.command;
  if (command?.version) {
    // What the command says first of all, here: its one line loads none of its machinery.
    console.log((await import("./_version.ts")).VERSION_LINE);
    return 0;
  }
  if (command?.out !== undefined) {
    const { quickRerun } = await import("./_quick_rerun.ts");
    const code = quickRerun(command, prelude!.caller);
    if (code !== undefined) return code;
  }
  if (command !== undefined) loadAhead(command);
  return await (await import("./_render_command.ts")).renderCommand(args, prelude);
}

/**
 * Starts loading what the command will import next beside the command's own modules, so that
 * their loads overlap: the built-in renderer named and, with no input, the bundled example. The
 * command imports them again (at once, then); a failure is its to say.
 */
function loadAhead(command: RenderCommand): void {
  if (command.help || command.version || command.unrendered) return;
  if (isBuiltin(command.renderer)) loadBuiltin(command.renderer).catch(() => {});
  if (command.inputs.length === 0 && command.session === undefined) loadExample().catch(() => {});
}

/**
 * The caller's folder, entered, and the command parsed; undefined when the folder cannot be
 * entered, no command when it does not parse: the whole way says why.
 */
async function take(args: string[]): Promise<Prelude | undefined> {
  let caller;
  try {
    caller = enterCallerDirectory();
  } catch {
    return undefined;
  }
  let command: RenderCommand | undefined;
  try {
    command = await parseRenderArgs(args);
  } catch {
    command = undefined;
  }
  return { caller, command };
}

// In the worker a run with a team's renderer goes on in, the run it is sent (there too, this is
// the main module).
if (!serveTeamRun(main) && import.meta.main) {
  Deno.exit(await main(Deno.args));
}
