// Copyright 2026 the brigade authors. MIT license.

/**
 * The entries of an input a run renders: those in `--scope`, each counted, and a log that is a
 * Claude Code transcript told apart from its first records.
 *
 * @module
 */

import type { LogEntry, Scope } from "../events/types.ts";
import { claudeCodeType } from "./_claude_code_types.ts";
import type { BadLines } from "./_reporter.ts";

/** How many first entries of a log input are looked at for a Claude Code transcript. */
const LOOKED_AT = 5;

/** What {@linkcode entriesInScope} needs besides the source. */
export interface EntriesInScopeOptions {
  /** `--scope`: "session" keeps the primary thread's rows. */
  scope: Scope | undefined;
  /** Told of each entry, for the bad lines after it. */
  bad: BadLines | undefined;
  /** Counts the entries read. */
  tally: { entries: number };
  /** The input's name when it is read as a log: then a transcript's records are refused. */
  log: string | undefined;
}

/** A source's entries in scope, each counted and marking its input as a log. */
export async function* entriesInScope(
  source: AsyncIterable<LogEntry>,
  options: EntriesInScopeOptions,
): AsyncGenerator<LogEntry, void, undefined> {
  const { scope, bad, tally, log } = options;
  // A Claude Code transcript read as a log is all events of unknown types: it would render
  // as nothing, with success. Its first records say so before a session is written.
  let transcriptLike = 0;
  for await (const entry of source) {
    tally.entries++;
    bad?.entry();
    if (log !== undefined && tally.entries <= LOOKED_AT) {
      if (claudeCodeType(entry.event) !== undefined) transcriptLike++;
      if (transcriptLike === LOOKED_AT) throw transcriptAsLog(log);
    }
    if (scope !== "session" || entry.thread_id === null) yield entry;
  }
  if (log !== undefined && tally.entries > 0 && transcriptLike === tally.entries) {
    throw transcriptAsLog(log);
  }
}

function transcriptAsLog(name: string): Error {
  return new Error(
    `${name} does not look like a log: its first records are a Claude Code transcript's (pass --format claude-code)`,
  );
}
