// Copyright 2026 the brigade authors. MIT license.

/**
 * The status line's call that reads the transcript: Claude Code's status-line JSON without its
 * own context figures, already parsed, answered from the transcript through the status line's
 * cache. `facts.ts` imports it for that call alone, so that the call loads the reader, the cache
 * and the caller's folder, not the rest of the command (its argument parser with its edit
 * distance and option tables, the bundled example, `--follow`'s sleep): each module a process
 * loads costs it a file read, a code-cache lookup and an evaluation. `_facts_command.ts` prints
 * through it too, once it has parsed a command line of its own.
 *
 * @module
 */

import { TranscriptReader } from "../reader/mod.ts";
import { type SentStatus, sentStatusLine } from "./_facts_format.ts";
import { dropOtherWriteAccess, loadState, saveState } from "./_statusline_cache.ts";
import { writeLineSync } from "./_statusline_io.ts";

/**
 * The variables that can move `enterCallerDirectory()` (`_cwd.ts`) out of the working directory:
 * `TRANSCRIPT_CWD` and the tasks' `TRANSCRIPT_INIT_CWD` (`CALLER_CWD_VARIABLE` and
 * `TASK_CWD_VARIABLE` there). When neither may be read or both are empty, it stays where it is,
 * so the status line of an installed command or a plain `deno run` does not load it and the two
 * modules it imports (about a millisecond of a call).
 */
export const CALLER_DIRECTORY_VARIABLES: readonly string[] = [
  "TRANSCRIPT_CWD",
  "TRANSCRIPT_INIT_CWD",
];

/** Whether one of {@linkcode CALLER_DIRECTORY_VARIABLES} is set and may be read; never prompts. */
function namesCallerDirectory(): boolean {
  return CALLER_DIRECTORY_VARIABLES.some((name) =>
    Deno.permissions.querySync({ name: "env", variable: name }).state === "granted" &&
    (Deno.env.get(name) ?? "") !== ""
  );
}

/** How {@linkcode runStatusLine} runs. */
export interface RunStatusLineOptions {
  /**
   * Whether the process is the command itself, not a caller of `main()`: the write access it
   * has outside the status line's cache folder is then given up before anything else runs.
   *
   * @default {false}
   */
  command?: boolean;
}

/**
 * The status line's call for `status` (the parsed JSON, an object), what was `sent` in it and
 * whether the line is `json`, as the whole command would run it: write access given up (a
 * command), the caller's folder entered, then the line printed.
 *
 * @returns The exit code: 0 printed, 1 it failed (the reason on stderr), 2 the caller's folder
 * could not be entered.
 */
export async function runStatusLine(
  status: Record<string, unknown>,
  sent: SentStatus,
  json: boolean,
  options: RunStatusLineOptions = {},
): Promise<number> {
  // Before anything else runs, the reader included (see dropOtherWriteAccess).
  if (options.command) dropOtherWriteAccess();
  try {
    // A relative `transcript_path` is the caller's, as every path the command is given.
    if (namesCallerDirectory()) (await import("./_cwd.ts")).enterCallerDirectory();
  } catch (error) {
    console.error(`facts: ${(error as Error).message}\nRun with --help for usage.`);
    return 2;
  }
  try {
    await printFromTranscript(status, sent, json);
    return 0;
  } catch (error) {
    console.error(`facts: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}

/**
 * Prints the status line of `status`'s transcript (`transcript_path`; a line without its facts
 * when there is none), through the cache: only what was appended since the last call is read.
 */
export async function printFromTranscript(
  status: Record<string, unknown>,
  sent: SentStatus,
  json: boolean,
): Promise<void> {
  const path = status.transcript_path;
  if (typeof path !== "string" || path === "") {
    sent.options.noTranscript = true;
    const none = { model: "", contextUsedTokens: 0, hasContext: false, compactedSinceUsage: false };
    writeLineSync(sentStatusLine(sent, json, none));
    return;
  }
  // The reader's state from the last call (see _statusline_cache.ts). The reader checks the
  // state against the file, so a stale one costs a full read, never a wrong line.
  const cached = loadState(path);
  const reader = new TranscriptReader(path, { state: cached.state });
  const { facts, error } = await reader.refresh();
  writeLineSync(sentStatusLine(sent, json, facts));
  if (error === undefined) saveState(cached, reader.saveState());
}
