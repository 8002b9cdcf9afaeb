// Copyright 2026 the brigade authors. MIT license.

/**
 * The examples the commands show when given no input. They are embedded in the code, not read
 * from `fixtures/`, which the published package does not ship: `render` and `facts` run the
 * same from a checkout, an install and JSR. The data is imported on first use, so a command
 * given an input (the status line, every few hundred ms) never loads it.
 *
 * @module
 */

import type { LogEntry } from "../events/types.ts";
import type { Facts } from "../reader/_facts.ts";

/** The name the example goes by in messages. */
export const EXAMPLE_NAME = "example";

/** The input that stands for the example log: a NUL is in no path, so no file is taken for it. */
export const EXAMPLE_INPUT = "\0example";

/**
 * The example log's entries (each of its lines is a whole log entry), parsed without a stream:
 * a render of the example then never loads Deno's streams, which cost its start-up more than
 * the rest of its reading. The entries are checked as a source's are, by `fromEntries`.
 */
export async function exampleEntries(): Promise<LogEntry[]> {
  const { EXAMPLE_LOG } = await import("./_example_data.ts");
  return EXAMPLE_LOG.split("\n").filter((line) => line !== "").map((line) => JSON.parse(line));
}

/** Loads the examples' module ahead of {@linkcode exampleEntries}, as it would on its first call. */
export async function loadExample(): Promise<void> {
  await import("./_example_data.ts");
}

/** The facts of the example transcript, by the reader's own rules, line by line. */
export async function exampleFacts(): Promise<Facts> {
  const { EXAMPLE_TRANSCRIPT } = await import("./_example_data.ts");
  // Imported here too: the commands import this module for EXAMPLE_INPUT alone.
  const { BatchSummary, classifyRecord, FactsState } = await import("../reader/_facts.ts");
  const { decodeLine } = await import("../reader/_decode.ts");
  const state = new FactsState();
  const summary = new BatchSummary();
  const lines = new TextEncoder().encode(EXAMPLE_TRANSCRIPT);
  let start = 0;
  // Complete lines only, as the reader reads them.
  for (let end = lines.indexOf(0x0a); end !== -1; end = lines.indexOf(0x0a, start)) {
    summary.clear();
    summary.offer(classifyRecord(decodeLine(lines.subarray(start, end), start === 0)));
    state.merge(summary);
    start = end + 1;
  }
  return state.facts();
}
