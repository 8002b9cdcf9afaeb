// Copyright 2026 the brigade authors. MIT license.

/**
 * A rerun into a folder that finds nothing changed, told from stats alone, before the run's own
 * machinery loads: no renderer, no redactor, no source. It says so on the run's closing line and
 * ends; anything else, or any doubt, goes the whole way (the caller runs the command as ever).
 *
 * Nothing changed means: a built-in renderer with a folder index, files as inputs (no folder, no
 * stream), none of the options that read or write otherwise (`--force`, `--watch`, `--previous`,
 * `--since`, `--until`, `--session`, `--follow`), and the state the folder's record ends with (see
 * `FolderState` in `_manifest_file.ts`, kept only when every entry was current) is the folder's
 * now: the same key (the package's version, the renderer, its options); the same inputs, each
 * with the stamp it has now (and no other entry in the record); every page of the folder with the
 * name and stamp it had when the index was built (so every output of every entry is as written);
 * the index file with the stamp it had once written; the record's entries as that run wrote them;
 * no temporary file in the folder. A page edited, added or deleted, an index edited or deleted,
 * an input changed, another option or version: each goes the whole way, which renders what
 * changed and builds the index again. Only the record's last line is read and parsed, from the
 * record's end; the entries before it are only measured (their size, the one the state says).
 *
 * It writes nothing, so it takes no lock: each file it checks is checked once, after the record
 * is read, and a run writing into the folder meanwhile (it replaces a file whole, so its stamp
 * changes) either wrote nothing it checked yet, and then this rerun saw the folder as it was
 * before that run, or is seen, and then this rerun goes the whole way and waits for it.
 *
 * What it trusts the record with is what a run trusts it with (see `_manifest.ts`): whoever can
 * write the record can make a run skip an input and leave its pages and the index as they are;
 * they can as well write those pages and the index themselves, in the same folder. An option's
 * value is checked by the renderer on the whole way only: here, a key equal to the record's is
 * one the same version rendered with.
 *
 * @module
 */

import type { RenderCommand } from "./_args.ts";
import { BUILTIN_FACTS, isBuiltin } from "./_builtins.ts";
import type { CallerDirectory } from "./_cwd.ts";
import { FolderListings, inputStampNow, outputStampNow } from "./_file_stamp.ts";
import { inFolder, pagesAre } from "./_folder_pages.ts";
import { MANIFEST_NAME, type Stamps, stateOfFile } from "./_manifest_state.ts";
import { resolvePath } from "./_path.ts";
import { runKey } from "./_run_key.ts";
import { VERSION } from "./_version.ts";
import { countsLine } from "./_counts_line.ts";

/**
 * Whether the command is a rerun into a folder that finds nothing changed; when it is, the run's
 * closing line is written to standard error and the exit code (0) returned, else undefined: the
 * command must run the whole way.
 *
 * @example Usage
 * ```ts ignore
 * const code = quickRerun(command, caller);
 * if (code !== undefined) return code;
 * ```
 *
 * @param command The parsed command.
 * @param caller The folder the command runs for (it must be known: else relative paths are
 *   refused, on the whole way).
 * @returns 0 when nothing changed (said), undefined otherwise.
 */
export function quickRerun(command: RenderCommand, caller: CallerDirectory): number | undefined {
  try {
    const unchanged = unchangedOutputs(command, caller);
    if (unchanged === undefined) return undefined;
    const counts = { rendered: 0, unchanged, failed: 0, outside: 0 };
    // The closing line the whole way says (through the redactor, which leaves these words be).
    writeStderr(`render: ${countsLine(counts, false)}\n`);
    return 0;
  } catch {
    return undefined;
  }
}

/** How many outputs the inputs have in the folder, when nothing changed; else undefined. */
function unchangedOutputs(command: RenderCommand, caller: CallerDirectory): number | undefined {
  const out = command.out;
  if (out === undefined || !caller.known || !plainRerun(command)) return undefined;
  if (!isBuiltin(command.renderer)) return undefined;
  const facts = BUILTIN_FACTS[command.renderer];
  const indexName = facts.indexName;
  if (facts.batch || indexName === undefined) return undefined;
  const given = Object.keys(command.rendererOptions);
  if (given.some((name) => !facts.optionNames.includes(name))) return undefined;
  // Absolute paths: Deno takes the working folder again for each relative path it is given.
  const cwd = Deno.cwd();
  const folder = resolvePath(cwd, out);
  if (!Deno.statSync(folder).isDirectory) return undefined;
  // The state's line alone, read from the record's end: about 200 bytes an input (its path and
  // stamp, its page's name and stamp); the entries before it are only measured.
  const tail = 64 * 1024 + 256 * command.inputs.length;
  const recorded = stateOfFile(inFolder(folder, MANIFEST_NAME), tail);
  if (recorded === undefined) return undefined;
  const { state, bodyBytes } = recorded;
  // The record's entries as its run wrote them (else the whole way reads them).
  if (bodyBytes !== state.bytes) return undefined;
  const key = runKey(command, { name: command.renderer, ...facts }, VERSION);
  if (state.key !== key || !sameInputs(cwd, command.inputs, state.inputs)) return undefined;
  // The index as its run left it (the key is the record's, above), then its pages: the listing
  // and the stat of each, the most of a rerun's work, only once the rest holds.
  const index = outputStampNow(inFolder(folder, indexName));
  if (index === undefined || index !== state.index) return undefined;
  // One pass over the listing as it comes: no temporary file, and each page as recorded.
  const entries = Deno.readDirSync(folder);
  const extension = facts.extension ?? ".txt";
  return pagesAre(folder, entries, extension, indexName, state.pages) ? state.outputs : undefined;
}

/** Whether the inputs are the record's, each (a file) with the stamp it has now. */
function sameInputs(
  cwd: string,
  inputs: readonly string[],
  recorded: Stamps,
): boolean {
  if (inputs.length !== Object.keys(recorded).length) return false;
  const seen = new Set<string>();
  const folders = new FolderListings();
  for (const input of inputs) {
    const path = resolvePath(cwd, input);
    if (input === "-" || seen.has(path)) return false;
    seen.add(path);
    // A stamp is a string: a path that is no own key gives none.
    const stamp = recorded[path];
    if (typeof stamp !== "string") return false;
    if (inputStampNow(path, undefined, folders) !== stamp) return false;
  }
  return true;
}

/** Whether the command renders files into a folder as a rerun does, with nothing else to do. */
function plainRerun(command: RenderCommand): boolean {
  return !command.help && !command.version && !command.unrendered && !command.follow &&
    !command.watch && !command.force && command.session === undefined &&
    command.previous === undefined && command.range === undefined && command.inputs.length > 0;
}

/** Writes a line to standard error whole; one that cannot be written is dropped, as `Stderr`'s. */
function writeStderr(text: string): void {
  const bytes = new TextEncoder().encode(text);
  try {
    for (let at = 0; at < bytes.length;) at += Deno.stderr.writeSync(bytes.subarray(at));
  } catch {
    // The run is done: a closed or full standard error does not make it run again.
  }
}
