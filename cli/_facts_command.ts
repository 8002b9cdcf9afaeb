// Copyright 2026 the brigade authors. MIT license.

/**
 * Every call of the `facts` command but the status line given Claude Code's own context figures
 * (which `facts.ts` answers alone): the command line parsed, a transcript read once, followed,
 * or as the status line, with the status line's cache. `facts.ts` imports it on the call that
 * needs it, so that Deno loads none of it for the status line's common call. It imports the
 * reader itself, not on first use: most of its calls read a transcript, and a second `import()`
 * would cost each of them a second walk of the module graph.
 *
 * @module
 */

import { type RefreshResult, TranscriptReader } from "../reader/mod.ts";
import { humanLine, jsonLine, sentStatus, sentStatusLine } from "./_facts_format.ts";
import { dropOtherWriteAccess } from "./_statusline_cache.ts";
import { printFromTranscript } from "./_statusline_read.ts";
import { MAX_STDIN_BYTES, readStatusInput, writeLineSync } from "./_statusline_io.ts";
import { type FactsCommand, parseFactsArgs, UsageError } from "./_args.ts";
import { enterCallerDirectory, refuseRelative } from "./_cwd.ts";
import { EXAMPLE_INPUT, exampleFacts } from "./_example.ts";
import { sleep } from "./_sleep.ts";

const HELP = `Print the model and the context tokens in use of a Claude Code transcript.

Usage:
  deno task facts [PATH] [--json] [--follow [--interval MS]]
  deno task facts --statusline [--json] < status.json

With no PATH, reads the bundled example transcript. PATH is a Claude Code
transcript (~/.claude/projects/<project>/<session>.jsonl, the
"transcript_path" its hooks receive).

Options:
      --json          print the facts as JSON ({"model","contextUsedTokens",
                      "hasContext","compactedSinceUsage"}); with --statusline,
                      also "contextWindowTokens" and what Claude Code sent:
                      "displayName", "costUsd", "rateLimits"
  -f, --follow        poll the transcript and print each change; Ctrl-C stops
      --interval MS   how often --follow polls, in milliseconds (default: 1000)
      --statusline    read Claude Code's status-line JSON on standard input
                      and print one short line: model (its display name),
                      context tokens and the percentage of the window (Claude
                      Code's context_window when it sends one: its size, and
                      its current usage without reading the transcript; else
                      1M when the model id carries [1m], else 200k), or that
                      the context was compacted since; then the session's cost
                      and each rate-limit window's use and time to its reset
                      ($0.42 · 5h 23% (resets in 2h10m) · 7d 61% (resets in
                      3d4h)), each when sent; it keeps the reader's position
                      in a per-user cache ($XDG_CACHE_HOME or ~/.cache,
                      brigade-transcript/statusline)
  -h, --help          show this help
  -V, --version       print the package's name and version

Exit codes: 0 read, 1 the transcript could not be read, 2 usage error.`;

/** How {@linkcode runFacts} runs. */
export interface RunFactsOptions {
  /**
   * Whether the process is the command itself (`deno run cli/facts.ts`), not a caller of
   * `main()`: the write access it has outside the status line's cache folder is then given up
   * before anything else runs.
   *
   * @default {false}
   */
  command?: boolean;
  /**
   * Standard input, when already read (`text` undefined: it was over the limit); else it is
   * read here, when the status line needs it.
   *
   * @default {undefined}
   */
  stdin?: { text: string | undefined };
}

/**
 * Runs the command as if typed with `args`, printing to stdout and stderr; the caller exits.
 *
 * @param args The command-line arguments, as in `Deno.args`.
 * @param options How it runs.
 * @returns The exit code: 0 read, 1 the transcript could not be read, 2 usage error.
 */
export async function runFacts(args: string[], options: RunFactsOptions = {}): Promise<number> {
  // Before anything else runs, the reader included (see dropOtherWriteAccess).
  if (options.command) dropOtherWriteAccess();
  let command: FactsCommand;
  try {
    const caller = enterCallerDirectory();
    command = await parseFactsArgs(args);
    if (command.path !== EXAMPLE_INPUT) refuseRelative(caller, [command.path]);
  } catch (error) {
    console.error(`facts: ${(error as Error).message}\nRun with --help for usage.`);
    return 2;
  }
  try {
    if (command.help || command.version) {
      // Imported here: the package's configuration is no load for the status line.
      console.log(command.help ? HELP : (await import("./_version.ts")).VERSION_LINE);
      return 0;
    }
    if (command.statusline) return await statusline(command.json, options.stdin);
    if (command.follow) return await follow(command);
    const result: RefreshResult = command.path === EXAMPLE_INPUT
      ? { facts: await exampleFacts() }
      : await new TranscriptReader(command.path).refresh();
    if (result.error !== undefined) {
      console.error(`facts: ${command.path}: ${result.error.message}`);
      return 1;
    }
    console.log(command.json ? jsonLine(result.facts) : humanLine(result.facts));
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`facts: ${error.message}\nRun with --help for usage.`);
      return 2;
    }
    console.error(`facts: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}

/** Prints the facts, then each change, until SIGINT or SIGTERM. */
async function follow(command: FactsCommand): Promise<number> {
  const stop = new AbortController();
  const signals: Deno.Signal[] = Deno.build.os === "windows" ? ["SIGINT"] : ["SIGINT", "SIGTERM"];
  const onSignal = (): void => stop.abort();
  for (const signal of signals) Deno.addSignalListener(signal, onSignal);
  try {
    const reader = new TranscriptReader(command.path);
    let last: string | undefined;
    while (!stop.signal.aborted) {
      const result = await reader.refresh();
      const line = describe(result, command);
      if (line !== last) {
        if (result.error !== undefined && !command.json) console.error(line);
        else if (!await printed(line)) return 0;
        last = line;
      }
      await sleep(command.intervalMs, stop.signal);
    }
    return 0;
  } finally {
    for (const signal of signals) Deno.removeSignalListener(signal, onSignal);
  }
}

/** Prints a line; false when standard output is closed (`facts --follow | head -1`). */
async function printed(line: string): Promise<boolean> {
  // Imported here: the terminal's module brings the redactor, which the status line never needs.
  const { ClosedOutputError, writeOutput } = await import("./_terminal.ts");
  try {
    await writeOutput(`${line}\n`);
    return true;
  } catch (error) {
    if (error instanceof ClosedOutputError) return false;
    throw error;
  }
}

function describe(result: RefreshResult, command: FactsCommand): string {
  if (command.json) return jsonLine(result.facts, result.error?.code);
  if (result.error !== undefined) return `facts: ${command.path}: ${result.error.message}`;
  return humanLine(result.facts);
}

/**
 * Reads Claude Code's status-line JSON (`stdin`, else standard input) and prints the one-line
 * summary (`json`: the same as one JSON line).
 */
async function statusline(json: boolean, stdin = { text: readStatusInput() }): Promise<number> {
  const input = stdin.text;
  if (input === undefined) {
    throw new UsageError(`Cannot read standard input: it is over ${MAX_STDIN_BYTES} bytes`);
  }
  let status: unknown;
  try {
    status = JSON.parse(input);
  } catch {
    throw new UsageError(
      "Cannot parse standard input: --statusline reads Claude Code's status-line JSON",
    );
  }
  if (typeof status !== "object" || status === null || Array.isArray(status)) {
    throw new UsageError("Cannot read standard input: the status-line JSON must be an object");
  }
  const sent = sentStatus(status as Record<string, unknown>, Date.now());
  if (sent.used !== undefined) {
    // Everything shown is on stdin: the transcript is not touched.
    writeLineSync(sentStatusLine(sent, json));
    return 0;
  }
  await printFromTranscript(status as Record<string, unknown>, sent, json);
  return 0;
}
