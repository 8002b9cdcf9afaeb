// Copyright 2026 the brigade authors. MIT license.

/**
 * `deno task facts`: the model and the context tokens of a Claude Code transcript, once,
 * followed (`--follow`), or as Claude Code's status line (`--statusline`).
 *
 * @module
 */

import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { type RefreshResult, TranscriptReader } from "../reader/mod.ts";
import { humanLine, jsonLine, sanitizeModel, statusLine } from "./_facts_format.ts";
import { ClosedOutputError, writeOutput } from "./_terminal.ts";

const EXAMPLE = fileURLToPath(new URL("../fixtures/claude_code/example.jsonl", import.meta.url));
const DEFAULT_INTERVAL_MS = 1_000;
/** The most status-line JSON read from standard input. */
const MAX_STDIN_BYTES = 1 << 20;

const HELP = `Print the model and the context tokens in use of a Claude Code transcript.

Usage:
  deno task facts [PATH] [--json] [--follow [--interval MS]]
  deno task facts --statusline < status.json

With no PATH, reads the bundled example transcript. PATH is a Claude Code transcript
(~/.claude/projects/<project>/<session>.jsonl, the "transcript_path" its hooks receive).

Options:
      --json          print the facts as JSON ({"model","contextUsedTokens","hasContext"})
  -f, --follow        poll the transcript and print each change; Ctrl-C stops
      --interval MS   how often --follow polls, in milliseconds (default: 1000)
      --statusline    read Claude Code's status-line JSON on standard input and print one
                      short line: model, context tokens and the percentage of the window
                      (1M when the model id carries [1m], else 200k)
  -h, --help          show this help

Exit codes: 0 read, 1 the transcript could not be read, 2 usage error.`;

class UsageError extends Error {}

interface FactsCommand {
  path: string;
  json: boolean;
  follow: boolean;
  intervalMs: number;
  statusline: boolean;
  help: boolean;
}

function parse(args: string[]): FactsCommand {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      strict: true,
      options: {
        json: { type: "boolean" },
        follow: { type: "boolean", short: "f" },
        interval: { type: "string" },
        statusline: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (positionals.length > 1) {
    throw new UsageError(`Cannot read more than one transcript: got ${positionals.length} paths`);
  }
  const follow = values.follow ?? false;
  let intervalMs = DEFAULT_INTERVAL_MS;
  if (values.interval !== undefined) {
    if (!follow) throw new UsageError("Cannot use --interval without --follow");
    intervalMs = Number(values.interval);
    if (!/^\d+$/.test(values.interval) || intervalMs < 10 || intervalMs > 3_600_000) {
      throw new UsageError(
        `Cannot poll every "${values.interval}" ms: --interval takes a whole number from 10 to 3600000`,
      );
    }
  }
  const statusline = values.statusline ?? false;
  if (statusline && (positionals.length > 0 || follow || values.json)) {
    throw new UsageError(
      "Cannot combine --statusline with a PATH, --json or --follow: it reads the path from standard input",
    );
  }
  return {
    path: positionals[0] ?? EXAMPLE,
    json: values.json ?? false,
    follow,
    intervalMs,
    statusline,
    help: values.help ?? false,
  };
}

/** Runs the command; returns the exit code. */
export async function main(args: string[]): Promise<number> {
  let command: FactsCommand;
  try {
    command = parse(args);
  } catch (error) {
    console.error(`facts: ${(error as Error).message}\nRun with --help for usage.`);
    return 2;
  }
  try {
    if (command.help) {
      console.log(HELP);
      return 0;
    }
    if (command.statusline) return await statusline();
    if (command.follow) return await follow(command);
    const result = await new TranscriptReader(command.path).refresh();
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

/** Reads Claude Code's status-line JSON on stdin and prints the one-line summary. */
async function statusline(): Promise<number> {
  const input = await readStdin();
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
  const { transcript_path: path, model } = status as Record<string, unknown>;
  const modelId = typeof model === "object" && model !== null &&
      typeof (model as Record<string, unknown>).id === "string"
    ? (model as Record<string, string>).id!
    : "";
  if (typeof path !== "string" || path === "") {
    console.log(`${sanitizeModel(modelId) || "unknown model"} · no transcript`);
    return 0;
  }
  const { facts } = await new TranscriptReader(path).refresh();
  console.log(statusLine(facts, modelId));
  return 0;
}

async function readStdin(): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of Deno.stdin.readable) {
    size += chunk.length;
    if (size > MAX_STDIN_BYTES) {
      throw new UsageError(`Cannot read standard input: it is over ${MAX_STDIN_BYTES} bytes`);
    }
    chunks.push(chunk);
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
  Deno.exit(await main(Deno.args));
}
