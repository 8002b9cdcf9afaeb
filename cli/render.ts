// Copyright 2026 the brigade authors. MIT license.

/**
 * `deno task render`: renders session logs with a registered renderer.
 *
 * @module
 */

import { fileURLToPath } from "node:url";
import { createRegistry } from "../renderers/builtin.ts";
import { parseRenderArgs, type RenderCommand } from "./_args.ts";
import { RenderRun, type Target } from "./_batch.ts";
import { loadConfiguredRenderers, UsageError } from "./_config.ts";
import { Interrupt } from "./_interrupt.ts";
import { ClosedOutputError, Stderr } from "./_terminal.ts";

const EXAMPLE = new URL("../fixtures/coordinator_all_threads.ndjson", import.meta.url);

const HELP = `Render agent-session logs as text a model reads.

Usage:
  deno task render [--renderer NAME] [--out PATH] [--scope session|all] [FILE...|-]
  deno task render [--renderer NAME] [--out PATH] --session sesn_... [--scope all]

With no FILE, renders the bundled example session through the grader to stdout.
A FILE is NDJSON: one log entry ({seq, session_id, thread_id, event}) or one bare
Managed Agents event a line; "-" reads standard input. A *.jsonl file is read as a
Claude Code transcript (~/.claude/projects/.../SESSION.jsonl), one session; standard
input is told apart by its first records.

Options:
  -r, --renderer NAME   the renderer (default: grader)
  -o, --out PATH        write to PATH: a file for one session, a folder (existing,
                        or given with a trailing "/") for one file per session
      --session ID      read the session from the Managed Agents API (needs ANTHROPIC_API_KEY;
                        ANTHROPIC_BASE_URL, when set, replaces https://api.anthropic.com)
      --scope SCOPE     "session" keeps the primary thread's rows only; "all" keeps every
                        thread (the default for files; --session defaults to "session")
      --force           overwrite existing output files whose content differs
      --skip-invalid    skip bad lines (each is reported) instead of failing their session
      --format FORMAT   "log" (NDJSON log entries or events) or "claude-code" (a Claude Code
                        transcript); default: claude-code for *.jsonl files, log otherwise
  -h, --help            show this help

A folder is resumable: a file that already holds what would be written is left
alone ("unchanged"), and with the dream renderer INDEX.md always lists every dream
in the folder. Ctrl-C finishes or drops the session in flight, writes INDEX.md,
and exits; run the same command again to render the rest.

Exit codes: 0 all rendered, 1 some input failed (each failure is reported), 2 usage error,
130 interrupted (SIGINT), 143 terminated (SIGTERM).
Renderer modules named in the nearest deno.json(c) under "transcript": { "renderers": [...] }
are registered too.`;

/** Runs the command; returns the exit code. */
export async function main(args: string[]): Promise<number> {
  const stderr = new Stderr("render");
  try {
    return await run(parseRenderArgs(args), stderr);
  } catch (error) {
    stderr.clearProgress();
    // `render … | head -1`: the reader has what it wanted.
    if (error instanceof ClosedOutputError) return 0;
    if (error instanceof UsageError) {
      stderr.say(error.message);
      stderr.hint("Run with --help for usage.");
      return 2;
    }
    stderr.say(error instanceof Error ? error.message : String(error));
    return 1;
  }
}

async function run(command: RenderCommand, stderr: Stderr): Promise<number> {
  const registry = createRegistry();
  const configured = await loadConfiguredRenderers(Deno.cwd());
  for (const renderer of configured.renderers) {
    try {
      registry.register(renderer);
    } catch (error) {
      throw new UsageError(`${(error as Error).message} (from ${configured.configPath})`);
    }
  }
  if (command.help) {
    const names = registry.list().map((r) => `  ${r.name.padEnd(10)} ${r.description}`);
    console.log(`${HELP}\n\nRenderers:\n${names.join("\n")}`);
    return 0;
  }
  if (!registry.has(command.renderer)) {
    const known = registry.list().map((r) => r.name).join(", ");
    throw new UsageError(`Unknown renderer "${command.renderer}": known renderers are ${known}`);
  }
  const renderer = registry.resolve(command.renderer);
  const target = await outputTarget(command.out);
  const inputs = command.inputs.length > 0 ? command.inputs : [fileURLToPath(EXAMPLE)];
  using interrupt = new Interrupt();
  return await new RenderRun({ renderer, command, target, inputs, stderr, interrupt }).all();
}

async function outputTarget(out: string | undefined): Promise<Target> {
  if (out === undefined) return { kind: "stdout" };
  const info = await Deno.stat(out).catch(() => undefined);
  if (info?.isDirectory || out.endsWith("/")) {
    await Deno.mkdir(out, { recursive: true });
    return { kind: "dir", path: out };
  }
  return { kind: "file", path: out };
}

if (import.meta.main) {
  Deno.exit(await main(Deno.args));
}
