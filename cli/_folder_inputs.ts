// Copyright 2026 the brigade authors. MIT license.

/**
 * Into a folder, the inputs as found: a folder given as an input stands for the transcripts and
 * logs in it, each belonging to a project; a page says where its session came from.
 *
 * @module
 */

import type { PageOrigin } from "../renderers/registry.ts";
import { EXAMPLE_INPUT } from "./_example.ts";
import { type InputFormat, transcriptCwd } from "./_format.ts";
import type { Input } from "./_input_source.ts";

/** The inputs with each folder among them replaced by what was found in it. */
export interface FolderInputs {
  inputs: Input[];
  /** The project of each input found in a folder, by its path. */
  projects: Map<string, string>;
  /**
   * What a stat of each input given that is not a folder said (a link followed), by the input as
   * given: the folder's record takes an input's stamp from it rather than stat it again.
   */
  stats: Map<Input, Deno.FileInfo>;
}

/** Where {@linkcode expandFolders} says what it found wrong, and notes. */
export interface ExpandFoldersOptions {
  failed: (message: string) => void;
  note: (message: string) => void;
}

/**
 * The inputs with each folder among them replaced by the transcripts and logs found in it,
 * each found one's project noted. A folder with none is a failure of that input.
 */
export async function expandFolders(
  inputs: readonly Input[],
  options: ExpandFoldersOptions,
): Promise<FolderInputs> {
  const expanded: Input[] = [];
  const projects = new Map<string, string>();
  const stats = new Map<Input, Deno.FileInfo>();
  const infos = statAll(inputs);
  for (const [i, input] of inputs.entries()) {
    const info = infos[i];
    if (!info?.isDirectory) {
      if (info !== undefined) stats.set(input, info);
      expanded.push(input);
      continue;
    }
    // The search (and `node:path`, which it uses) loaded only when a folder is among the inputs.
    const { inputsIn } = await import("./_walk.ts");
    const found = await inputsIn(input, options);
    if (found.length === 0) {
      options.failed(`${input}: no transcripts (*.jsonl) or logs (*.ndjson) in the folder`);
    }
    for (const { path, project } of found) {
      projects.set(path, project);
      expanded.push(path);
    }
  }
  return { inputs: expanded, projects, stats };
}

/**
 * Each input's stat (undefined for standard input, the example, or a path that has none), taken
 * at once: a stat takes microseconds, Deno's async one ten times that in CPU, and a rerun into a
 * folder takes one of every input.
 */
function statAll(inputs: readonly Input[]): (Deno.FileInfo | undefined)[] {
  return inputs.map((input) => {
    if (input === "-" || input === EXAMPLE_INPUT) return undefined;
    try {
      return Deno.statSync(input);
    } catch {
      return undefined;
    }
  });
}

/**
 * Where an input's sessions come from, for their pages: the project of an input found in a
 * folder, the directory a transcript's records say it ran in, the input's size.
 */
export async function inputOrigin(
  input: Input,
  format: InputFormat,
  project: string | undefined,
): Promise<PageOrigin> {
  if (input === "-" || input === EXAMPLE_INPUT) return {};
  const info = await Deno.stat(input).catch(() => undefined);
  // A FIFO is read once, by its source: its size says nothing, and a peek would take its bytes.
  const file = info?.isFile === true;
  const bytes = file ? info.size : undefined;
  const cwd = file && project !== undefined && format === "claude-code"
    ? await transcriptCwd(input)
    : undefined;
  return {
    ...(project === undefined ? {} : { project }),
    ...(cwd === undefined ? {} : { cwd }),
    ...(bytes === undefined ? {} : { bytes }),
  };
}
