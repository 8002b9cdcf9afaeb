// Copyright 2026 the brigade authors. MIT license.

/**
 * The files of an output folder that an index is rebuilt from (`INDEX.md`
 * from the dream pages, `index.html` from the session pages), read back one
 * at a time.
 *
 * @module
 */

import { join } from "node:path";

/** A file of the folder and its text (or the text before a marker, see {@linkcode folderFiles}). */
export interface FolderFile {
  name: string;
  text: string;
}

/** Options for {@linkcode folderFiles}. */
export interface FolderFilesOptions {
  /**
   * Read each file only up to this marker (its text ends before it), for
   * files whose index facts are at the top: a 1 MB page is not read whole.
   *
   * @default {undefined}
   */
  until?: string;
}

/**
 * The files of `dir` whose names end in `extension`, hidden ones (temporary
 * files) left out, in name order, with their text. A file that cannot be read
 * is passed over: the index lists what it can.
 */
export async function* folderFiles(
  dir: string,
  extension: string,
  options: FolderFilesOptions = {},
): AsyncGenerator<FolderFile, void, undefined> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    if (entry.isFile && entry.name.endsWith(extension) && !entry.name.startsWith(".")) {
      names.push(entry.name);
    }
  }
  names.sort();
  for (const name of names) {
    const text = await readText(join(dir, name), options.until).catch(() => undefined);
    if (text !== undefined) yield { name, text };
  }
}

/** A file's text, or the part before `until`. */
async function readText(path: string, until: string | undefined): Promise<string> {
  if (until === undefined) return await Deno.readTextFile(path);
  using file = await Deno.open(path);
  const decoder = new TextDecoder();
  const buffer = new Uint8Array(16 * 1024);
  let text = "";
  for (;;) {
    const read = await file.read(buffer);
    if (read === null) return text + decoder.decode();
    const from = Math.max(0, text.length - until.length);
    text += decoder.decode(buffer.subarray(0, read), { stream: true });
    const at = text.indexOf(until, from);
    if (at !== -1) return text.slice(0, at);
  }
}

/** Orders strings by code unit, as the indexes sort their rows. */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
