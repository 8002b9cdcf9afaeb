// Copyright 2026 the brigade authors. MIT license.

/**
 * The examples the commands show when given no input. They are embedded in the code, not read
 * from `fixtures/`, which the published package does not ship: `render` and `facts` run the
 * same from a checkout, an install and JSR.
 *
 * @module
 */

import { BatchSummary, classifyRecord, type Facts, FactsState } from "../reader/_facts.ts";
import { decodeLine } from "../reader/_decode.ts";
import { EXAMPLE_LOG, EXAMPLE_TRANSCRIPT } from "./_example_data.ts";

/** The name the example goes by in messages. */
export const EXAMPLE_NAME = "example";

/** The input that stands for the example log: a NUL is in no path, so no file is taken for it. */
export const EXAMPLE_INPUT = "\0example";

/** The example log, as the byte stream a file would give. */
export function exampleLogStream(): ReadableStream<Uint8Array> {
  return ReadableStream.from([new TextEncoder().encode(EXAMPLE_LOG)]);
}

/** The facts of the example transcript, by the reader's own rules, line by line. */
export function exampleFacts(): Facts {
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
