// Copyright 2026 the brigade authors. MIT license.

/**
 * The `facts` command: the model and the context tokens of a Claude Code transcript, once,
 * followed (`--follow`), or as Claude Code's status line (`--statusline`). With no path it reads
 * a bundled example.
 *
 * ```sh
 * deno run --allow-read jsr:@brigade/transcript/facts ~/.claude/projects/<project>/<session>.jsonl
 * deno install -g -n transcript-facts --v8-flags=--no-lazy --unstable-lazy-dynamic-imports \
 *   --allow-read --allow-env=XDG_CACHE_HOME,HOME,LOCALAPPDATA \
 *   --allow-write="${XDG_CACHE_HOME:-$HOME/.cache}/brigade-transcript" jsr:@brigade/transcript/facts
 * transcript-facts --help
 * ```
 *
 * The last two permissions are the status line's cache (on macOS
 * `$HOME/Library/Caches/brigade-transcript`): without them each call reads the whole transcript.
 * `--unstable-lazy-dynamic-imports` keeps Deno from reading the files of the command's other
 * calls before the status line's common one; `--v8-flags=--no-lazy` has V8 compile every function
 * as its module loads, so that Deno's code cache holds them all and a call compiles none.
 *
 * @module
 */

import { sentStatus, sentStatusLine } from "./_facts_format.ts";
import { readStatusInput, writeLineSync } from "./_statusline_io.ts";

/**
 * Runs the command as if typed with `args`, printing to stdout and stderr; the caller exits.
 *
 * @example Print the facts of a transcript
 * ```ts
 * import { main } from "@brigade/transcript/facts";
 * import assert from "node:assert/strict";
 *
 * const path = await Deno.makeTempFile({ suffix: ".jsonl" });
 * const turn = { type: "assistant", message: { model: "claude-opus-5", usage: { input_tokens: 7 } } };
 * await Deno.writeTextFile(path, JSON.stringify(turn) + "\n");
 * assert.equal(await main([path, "--json"]), 0); // {"model":"claude-opus-5",...}
 * assert.equal(await main([`${path}.missing`]), 1);
 * await Deno.remove(path);
 * ```
 *
 * @param args The command-line arguments, as in `Deno.args`.
 * @returns The exit code: 0 read, 1 the transcript could not be read, 2 usage error.
 */
export async function main(args: string[]): Promise<number> {
  return await run(args, false);
}

/**
 * The status line's common call, Claude Code's status-line JSON on stdin with its own context
 * figures (`context_window.current_usage`), is answered here, from this module and the two it
 * imports: it reads no transcript, resolves no path and writes nothing. Its call without them
 * is `_statusline_read.ts`'s, given the JSON parsed here (parsed once), which loads the reader
 * and the cache but not the rest of the command. Every other call (or a status-line JSON that
 * is not an object: a usage error) is `_facts_command.ts`'s. Each is imported when it runs (Deno
 * still reads the files of a literal `import()` before the call, unless
 * `--unstable-lazy-dynamic-imports`, but neither compiles nor runs them).
 *
 * On the common call, write access is not given up first as the other calls do (`command`):
 * the process runs nothing but this module and the two it imports, which write only the line to
 * stdout, and then exits, so there is nothing the access could be given up against; the revoke
 * would cost the call about a millisecond.
 */
async function run(args: string[], command: boolean): Promise<number> {
  const json = statuslineOnly(args);
  if (json === undefined) return await rest(args, { command });
  let text: string | undefined;
  try {
    text = readStatusInput();
    const status = text === undefined ? undefined : statusObject(text);
    if (status !== undefined) {
      const sent = sentStatus(status, Date.now());
      if (sent.used !== undefined) {
        writeLineSync(sentStatusLine(sent, json));
        return 0;
      }
      const { runStatusLine } = await import("./_statusline_read.ts");
      return await runStatusLine(status, sent, json, { command });
    }
  } catch (error) {
    console.error(`facts: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
  return await rest(args, { command, stdin: { text } });
}

async function rest(
  args: string[],
  options: { command: boolean; stdin?: { text: string | undefined } },
): Promise<number> {
  const { runFacts } = await import("./_facts_command.ts");
  return await runFacts(args, options);
}

/**
 * Whether `args` are the status line's and nothing else (`--statusline`, with `--json` or not):
 * `--json`'s value then, else `undefined`.
 */
function statuslineOnly(args: string[]): boolean | undefined {
  if (args.length === 1) return args[0] === "--statusline" ? false : undefined;
  const both = args.length === 2 && args.includes("--statusline") && args.includes("--json");
  return both ? true : undefined;
}

/**
 * Status-line JSON parsed, when it is an object; `undefined` when it is not JSON or not an
 * object (a usage error, which the rest of the command reports).
 */
function statusObject(text: string): Record<string, unknown> | undefined {
  let status: unknown;
  try {
    status = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof status !== "object" || status === null || Array.isArray(status)) return undefined;
  return status as Record<string, unknown>;
}

if (import.meta.main) {
  // Not Deno.exit() here: a process that exits in the middle of its main module's evaluation
  // never writes V8's code cache, so every call would compile each module again. Once the
  // evaluation is over (the cache written) and nothing is left to run, the process exits
  // without tearing its runtime down, which costs a status line a millisecond or more.
  Deno.exitCode = await run(Deno.args, true);
  globalThis.addEventListener("unload", () => Deno.exit());
}
