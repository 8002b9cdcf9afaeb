// Copyright 2026 the brigade authors. MIT license.

/**
 * The `facts` command: the model and the context tokens of a Claude Code transcript, once,
 * followed (`--follow`), or as Claude Code's status line (`--statusline`). With no path it reads
 * a bundled example.
 *
 * ```sh
 * deno run --allow-read jsr:@brigade/transcript/facts ~/.claude/projects/<project>/<session>.jsonl
 * deno install -g -n transcript-facts --allow-read --allow-env=XDG_CACHE_HOME,HOME,LOCALAPPDATA \
 *   --allow-write="${XDG_CACHE_HOME:-$HOME/.cache}/brigade-transcript" jsr:@brigade/transcript/facts
 * transcript-facts --help
 * ```
 *
 * The last two permissions are the status line's cache (on macOS
 * `$HOME/Library/Caches/brigade-transcript`): without them each call reads the whole transcript.
 *
 * @module
 */

import type { Facts, RefreshResult, TranscriptReader } from "../reader/mod.ts";
import {
  contextWindowOf,
  costOf,
  humanLine,
  jsonLine,
  modelOf,
  rateLimitsOf,
  statusJsonLine,
  statusLine,
  type StatusLineOptions,
} from "./_facts_format.ts";
import { dropOtherWriteAccess, loadState, saveState } from "./_statusline_cache.ts";
import { type FactsCommand, parseFactsArgs, UsageError } from "./_args.ts";
import { enterCallerDirectory, refuseRelative } from "./_cwd.ts";
import { EXAMPLE_INPUT, exampleFacts } from "./_example.ts";

/**
 * The reader, imported when a transcript is read: the status line given Claude Code's own
 * context figures never reads one, and the reader's graph (`node:fs`, `node:buffer`) would cost
 * it more than the rest of its work.
 */
async function openReader(
  ...args: ConstructorParameters<typeof TranscriptReader>
): Promise<TranscriptReader> {
  const { TranscriptReader } = await import("../reader/mod.ts");
  return new TranscriptReader(...args);
}

/** The most status-line JSON read from standard input. */
const MAX_STDIN_BYTES = 1 << 20;

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
    if (command.statusline) return await statusline(command.json);
    if (command.follow) return await follow(command);
    const result: RefreshResult = command.path === EXAMPLE_INPUT
      ? { facts: await exampleFacts() }
      : await (await openReader(command.path)).refresh();
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
    const reader = await openReader(command.path);
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

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done);
  });
}

/**
 * Reads Claude Code's status-line JSON on stdin and prints the one-line summary (`json`: the
 * same as one JSON line).
 */
async function statusline(json: boolean): Promise<number> {
  // Claude Code pipes its JSON in; on a terminal, the command would otherwise look stuck.
  if (Deno.stdin.isTerminal()) {
    console.error(
      "facts: --statusline reads Claude Code's status-line JSON on standard input; end it with Ctrl-D",
    );
  }
  const input = readStdin();
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
  const sent = status as Record<string, unknown>;
  const now = Date.now();
  const model = modelOf(sent);
  // Claude Code's own figures, when it sends them, win over a guess and over a read.
  const window = contextWindowOf(sent);
  const options: StatusLineOptions = {
    displayName: model.displayName,
    windowSize: window.size,
    costUsd: costOf(sent),
    rateLimits: rateLimitsOf(sent, now),
    now,
  };
  const print = (facts: Facts): void =>
    writeLineSync((json ? statusJsonLine : statusLine)(facts, model.id, options));
  if (window.used !== undefined) {
    // Everything shown is on stdin: the transcript is not touched.
    print({
      model: "",
      contextUsedTokens: window.used,
      hasContext: true,
      compactedSinceUsage: false,
    });
    return 0;
  }
  const path = sent.transcript_path;
  if (typeof path !== "string" || path === "") {
    options.noTranscript = true;
    print({ model: "", contextUsedTokens: 0, hasContext: false, compactedSinceUsage: false });
    return 0;
  }
  // The reader's state from the last call (see _statusline_cache.ts): only what was appended
  // since is read. The reader checks the state against the file, so a stale one costs a
  // full read, never a wrong line.
  const cached = loadState(path);
  const reader = await openReader(path, { state: cached.state });
  const { facts, error } = await reader.refresh();
  print(facts);
  if (error === undefined) saveState(cached, reader.saveState());
  return 0;
}

/** One line to stdout, synchronously: `console.log`'s first call costs a status line ~1 ms. */
function writeLineSync(line: string): void {
  const bytes = new TextEncoder().encode(`${line}\n`);
  for (let at = 0; at < bytes.length;) at += Deno.stdout.writeSync(bytes.subarray(at));
}

function readStdin(): string {
  // Deno.stdin.readSync, not Deno.stdin.readable (the streams module costs a status line
  // ~10 ms) nor the async read (~1 ms more): the process has nothing else to do meanwhile.
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const chunk = new Uint8Array(64 * 1024);
    const read = Deno.stdin.readSync(chunk);
    if (read === null) break;
    size += read;
    if (size > MAX_STDIN_BYTES) {
      throw new UsageError(`Cannot read standard input: it is over ${MAX_STDIN_BYTES} bytes`);
    }
    chunks.push(chunk.subarray(0, read));
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.length;
  }
  return new TextDecoder().decode(all);
}

if (import.meta.main) {
  // Write access outside the status line's cache folder is given up before anything runs.
  dropOtherWriteAccess();
  Deno.exit(await main(Deno.args));
}
