// Copyright 2026 the brigade authors. MIT license.

/**
 * An input as a source of log entries: a file, a FIFO, standard input or the bundled example, in
 * its format (`--format`, else `.jsonl` or a peek at a stream), its session named.
 *
 * @module
 */

import { baseName } from "../lines/_base_name.ts";
import { EXAMPLE_INPUT, EXAMPLE_NAME, exampleEntries } from "./_example.ts";
import { fromEntries } from "../sources/from_entries.ts";
import type { OpenedInput, OpenInputOptions } from "./_input_file.ts";

export type { OpenedInput, OpenInputOptions } from "./_input_file.ts";

/** An input as the batch reads it: a path, or standard input (`-`). */
export type Input = string;

/** The session an input's entries without one of their own belong to. */
export function inputSessionId(input: Input): string {
  return input === "-" ? "stdin" : baseName(input);
}

/** What messages call an input. */
export function inputName(input: Input): string {
  if (input === "-") return "stdin";
  return input === EXAMPLE_INPUT ? EXAMPLE_NAME : input;
}

/** Whether an input is a file the folder's record can fingerprint (not a stream, not the example). */
export function isRecordable(input: Input): boolean {
  return input !== "-" && input !== EXAMPLE_INPUT;
}

/** An input's source in its format: `--format`, else `.jsonl` or a peek at a stream's start. */
export async function openInput(input: Input, options: OpenInputOptions): Promise<OpenedInput> {
  const name = inputName(input);
  if (input === EXAMPLE_INPUT) {
    const source = fromEntries(await exampleEntries(), { name, signal: options.signal });
    return { format: "log", source, sessionId: inputSessionId(input) };
  }
  // Imported here: a render of the bundled example reads no file.
  const { openFileInput } = await import("./_input_file.ts");
  return await openFileInput(input, name, inputSessionId(input), options);
}
