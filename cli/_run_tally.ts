// Copyright 2026 the brigade authors. MIT license.

/**
 * What a run tells its user on stderr: each failure as it happens, a progress line on a terminal,
 * and one summary line of how many sessions ended which way.
 *
 * @module
 */

import type { Stderr } from "./_terminal.ts";
import type { Interrupt } from "./_interrupt.ts";
import { counted } from "./_plural.ts";
import { type Counts, countsLine } from "./_counts_line.ts";

/** What the tally needs of the run. */
export interface RunTallyOptions {
  stderr: Stderr;
  interrupt: Interrupt;
  /** Where the output goes: stdout is told only news, a folder is told how to finish. */
  target: "stdout" | "file" | "dir";
  /** Whether the run reads inputs (not a `--session`): the progress line counts them. */
  counted: boolean;
  /** Whether `--since`/`--until` were given: the summary counts the sessions they left out. */
  ranged: boolean;
}

/** A run's outcomes, counted, and what it says of them. */
export class RunTally {
  readonly counts: Counts = { rendered: 0, unchanged: 0, failed: 0, outside: 0 };
  /** How many inputs are done, of how many. */
  readonly inputs = { done: 0, total: 0 };
  readonly #options: RunTallyOptions;
  readonly #started = Date.now();

  /**
   * Constructs a new instance.
   *
   * @param options The terminal, the interrupt, the target and what the lines count.
   */
  constructor(options: RunTallyOptions) {
    this.#options = options;
  }

  /** Says a line on stderr. */
  say = (message: string): void => this.#options.stderr.say(message);

  /** Counts a failure and says it. */
  fail = (message: string): void => {
    this.counts.failed++;
    this.say(message);
  };

  /** Counts an output written ("written") or found already holding its text. */
  wrote(outcome: "written" | "unchanged"): void {
    this.counts[outcome === "written" ? "rendered" : "unchanged"]++;
  }

  /** The progress line, on a terminal. */
  progress(): void {
    const { rendered, unchanged } = this.counts;
    const seconds = ((Date.now() - this.#started) / 1000).toFixed(1);
    const { done, total } = this.inputs;
    const inputs = this.#options.counted ? `inputs ${done}/${total} · ` : "";
    this.#options.stderr.progress(
      `${inputs}${counted(rendered + unchanged, "session")} rendered · ${seconds} s`,
      done === total,
    );
  }

  /** Clears the progress line. */
  clearProgress(): void {
    this.#options.stderr.clearProgress();
  }

  /** One line at the end: always for a file or folder, for stdout only when there is news. */
  summary(): void {
    const { failed, outside } = this.counts;
    const { target, ranged, interrupt } = this.#options;
    const code = interrupt.exitCode;
    // To stdout, a session left out by the dates is news: else nothing would say why.
    if (target === "stdout" && failed === 0 && outside === 0 && code === undefined) return;
    const counts = countsLine(this.counts, ranged);
    if (code === undefined) return this.say(counts);
    const by = code === 143 ? "SIGTERM" : "SIGINT";
    const rest = target === "dir" ? "; run the same command again to render the rest" : "";
    this.say(`interrupted by ${by}: ${counts}${rest}`);
  }

  /** The run's exit code: the signal's, else 1 when something failed. */
  exitCode(): number {
    return this.#options.interrupt.exitCode ?? (this.counts.failed > 0 ? 1 : 0);
  }
}

/** An error as one line that names its input once. */
export function describe(error: unknown, name: string): string {
  const message = error instanceof Error ? error.message : String(error);
  const line = message.split("\n")[0]!;
  return line.includes(name) || line.includes(lastSegment(name)) ? line : `${name}: ${line}`;
}

/**
 * A path's last segment, as `node:path`'s `basename` gives it for the platform (trailing
 * separators dropped; on Windows `\\` separates too, and a drive's `C:` is no segment), without
 * loading `node:path`: a render to standard output would otherwise load it for this alone.
 *
 * @example
 * ```ts
 * import { lastSegment } from "./_run_tally.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(lastSegment("logs/sesn_1.ndjson/", false), "sesn_1.ndjson");
 * assert.equal(lastSegment("C:\\logs\\a.jsonl", true), "a.jsonl");
 * ```
 *
 * @param path The path.
 * @param windows Whether Windows' rules apply; by default, whether the process runs on Windows.
 * @returns The last segment (`""` for a root).
 */
export function lastSegment(
  path: string,
  windows: boolean = Deno.build.os === "windows",
): string {
  const separator = windows ? /[\\/]+$/ : /\/+$/;
  let rest = path.replace(separator, "");
  if (windows && /^[A-Za-z]:/.test(rest)) rest = rest.slice(2);
  const at = Math.max(rest.lastIndexOf("/"), windows ? rest.lastIndexOf("\\") : -1);
  return rest.slice(at + 1);
}
