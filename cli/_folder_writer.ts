// Copyright 2026 the brigade authors. MIT license.

/**
 * A run's outputs: each written whole, counted, and into a folder named after its session, once
 * per run, replacing an existing file only under `--force` or when the folder's record vouches
 * that this command wrote it from the same input and no one changed it since.
 *
 * @module
 */

import { excerpt } from "../redact/excerpt.ts";
import type { Renderer } from "../renderers/registry.ts";
import { outputStampNow, textDigest } from "./_file_stamp.ts";
import { recordedHead, writeFolderIndex } from "./_folder_index.ts";
import { indexIsCurrent, pagesListing } from "./_folder_pages.ts";
import type { Input } from "./_input_source.ts";
import type { Manifest, WrittenOutput } from "./_manifest.ts";
import {
  FileExistsError,
  folderEntries,
  inFolder,
  sessionFileName,
  writeAtomic,
} from "./_output.ts";
import { describe, type RunTally } from "./_run_tally.ts";

/** A session rendered, to be written. */
export interface Rendered {
  sessionId: string;
  /** What the folder's record knows it by: the session id, after its project when it has one. */
  key: string;
  /** The project it belongs to (an input found in a folder): its file's name starts with it. */
  project?: string;
  /** The text: into a folder, the renderer's page when it has one. */
  text: string;
}

/**
 * The input being rendered into a folder: the outputs it has written there, and whether the
 * folder's record can vouch for its earlier outputs (a file, not a stream).
 */
export interface Reading {
  input: Input;
  stamped: boolean;
  outputs: WrittenOutput[];
}

/**
 * Writes a file whole, the outcome counted; false when it could not (the failure is counted and
 * said). An existing file with other content is replaced under `force`, else kept and reported.
 */
export async function writeCounted(
  path: string,
  text: string,
  force: boolean,
  tally: RunTally,
): Promise<boolean> {
  try {
    tally.wrote(await writeAtomic(path, text, { force }));
    return true;
  } catch (error) {
    tally.fail(error instanceof FileExistsError ? error.message : describe(error, path));
    return false;
  }
}

/** What a {@linkcode FolderWriter} writes with. */
export interface FolderWriterOptions {
  dir: string;
  renderer: Renderer;
  /** `--force`: replace any file that differs. */
  force: boolean;
  /** The folder's record, for a batch of files into a folder. */
  manifest: Manifest | undefined;
  tally: RunTally;
  /** The renderer's options, for the folder's index (`--previous`). */
  rendererOptions?: unknown;
  /**
   * The options' fingerprint the folder's record keeps its index with, when the index is built
   * with the command's own options (not `--previous`'s marks, not a watch's live pages):
   * undefined, the record keeps no index.
   */
  indexKey?: string | undefined;
}

/** The pages of one run into a folder, and the folder's index. */
export class FolderWriter {
  readonly #options: FolderWriterOptions;
  /** Each file name this run has written or counted, and the input it came from. */
  readonly #names = new Map<string, string>();

  /**
   * Constructs a new instance.
   *
   * @param options The folder, the renderer, `--force`, the record and the tally.
   */
  constructor(options: FolderWriterOptions) {
    this.#options = options;
  }

  /**
   * Claims the outputs of an input the record says are current, for `input`: false, claiming
   * none, when this run already gave one of those names to another session.
   */
  claim(outputs: readonly string[], input: string): boolean {
    if (outputs.some((output) => this.#names.has(output))) return false;
    for (const output of outputs) this.#names.set(output, input);
    return true;
  }

  /** Writes a session's page into the folder, under its name, unless this run already did. */
  async write(rendered: Rendered, input: string, reading: Reading | undefined): Promise<void> {
    const { dir, renderer } = this.#options;
    const name = renderer.batch?.fileName ??
      await sessionFileName(rendered.sessionId, renderer.extension ?? ".txt", {
        reserved: renderer.folder?.indexName,
        project: rendered.project,
      });
    const path = inFolder(dir, name);
    const first = this.#names.get(name);
    if (first !== undefined) {
      this.#options.tally.fail(
        `session "${
          excerpt(rendered.sessionId)
        }" appears twice: its run in ${input} was not written, ${path} holds the one in ${first}`,
      );
      return;
    }
    this.#names.set(name, input);
    const force = this.#options.force || await this.#mayReplace(reading, name);
    this.#options.manifest?.wrote(name);
    if (!await writeCounted(path, rendered.text, force, this.#options.tally)) return;
    if (reading?.stamped) {
      const digest = await textDigest(rendered.text);
      const head = renderer.folder && recordedHead(renderer.folder, name, rendered.text);
      reading.outputs.push(head === undefined ? { name, digest } : { name, digest, head });
    }
  }

  /** A page this input wrote before and no one changed since is the command's to replace. */
  async #mayReplace(reading: Reading | undefined, name: string): Promise<boolean> {
    if (reading?.stamped !== true) return false;
    return await this.#options.manifest?.mayReplace(reading.input, name) === true;
  }

  /**
   * Writes the folder's index, for a renderer that has one (see {@linkcode writeFolderIndex}); a
   * failure is counted and said. An index the folder's record says was built with the same
   * options from the same pages, and that still has the stamp it had once written, is not built
   * again (unless `--force`): it would come out as it is.
   */
  async writeIndex(): Promise<void> {
    const { dir, renderer, force, tally, manifest, indexKey } = this.#options;
    const folder = renderer.folder;
    if (folder === undefined) return;
    const wroteAny = tally.counts.rendered + tally.counts.unchanged > 0;
    const path = inFolder(dir, folder.indexName);
    const extension = renderer.extension ?? ".txt";
    try {
      // The pages' stamps before the index reads them: a page changed meanwhile shows next time.
      const listing = manifest === undefined || indexKey === undefined
        ? undefined
        : pagesListing(dir, folderEntries(dir), extension, folder.indexName);
      const now = listing === undefined ? undefined : { key: indexKey!, pages: listing };
      const stamp = outputStampNow(path);
      if (
        now !== undefined && !force && indexIsCurrent(manifest!.state, { ...now, index: stamp })
      ) {
        return manifest!.indexBuilt({ ...now, index: stamp! });
      }
      await writeFolderIndex(dir, extension, folder, {
        force,
        wroteAny,
        rendererOptions: this.#options.rendererOptions,
        known: manifest,
      });
      const written = now === undefined ? undefined : outputStampNow(path);
      manifest?.indexBuilt(written === undefined ? undefined : { ...now!, index: written });
    } catch (error) {
      manifest?.indexBuilt(undefined);
      tally.fail(error instanceof FileExistsError ? error.message : describe(error, path));
    }
  }
}
