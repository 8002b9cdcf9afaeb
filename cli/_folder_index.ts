// Copyright 2026 the brigade authors. MIT license.

/**
 * The read-back of an output folder: the index of a folder is rebuilt from
 * the pages in it, whatever runs wrote them (interrupted, rerun, partly
 * forced), and comes out byte-identical to the one an uninterrupted run
 * writes. What a page carries and how an index looks are the renderer's
 * (its {@linkcode RendererFolder}); this module only walks the folder, and
 * reads at most a fixed head of each file, one file at a time. A page whose
 * head the folder's record keeps (see {@linkcode recordedHead}) is not read
 * at all: its summary comes from that head, the same as from the page.
 *
 * @module
 */

import type { FolderPage, PageHead, RendererFolder } from "../renderers/registry.ts";
import { MAX_RECORDED_HEAD, utf8Length } from "./_manifest_file.ts";
import { folderEntries, inFolder, writeAtomic } from "./_output.ts";

/** A page's head as the folder's record keeps it, and the page's size. */
export interface KnownHead {
  head: string;
  size: number;
}

/** What the folder's record keeps of the pages' heads. */
export interface KnownHeads {
  /** The head the record keeps of a page, by name, when it keeps one still current. */
  get(name: string): Promise<KnownHead | undefined>;
  /**
   * Keeps the head of a page read back (one the record knows by its stamp but keeps no head
   * of: an earlier version wrote it), for the next run not to read it.
   */
  learn(name: string, head: string): void;
}

/** How much of a page is read back when its renderer does not say. */
export const DEFAULT_HEAD_BYTES = 64 * 1024;

/**
 * The files of `dir` whose names end in `extension`, hidden ones (temporary
 * files) and the index itself left out, in name order, each with at most
 * `headBytes` of its head. A file that cannot be read is passed over: the
 * index lists what it can.
 */
async function* folderHeads(
  dir: string,
  extension: string,
  folder: RendererFolder,
  known?: KnownHeads,
): AsyncGenerator<PageHead, void, undefined> {
  const indexName = folder.indexName;
  const headBytes = folder.headBytes ?? DEFAULT_HEAD_BYTES;
  const names: string[] = [];
  for (const entry of folderEntries(dir)) {
    if (
      entry.isFile && entry.name.endsWith(extension) && !entry.name.startsWith(".") &&
      entry.name !== indexName
    ) {
      names.push(entry.name);
    }
  }
  names.sort();
  for (const name of names) {
    const kept = await known?.get(name);
    if (kept !== undefined) {
      yield { name, ...kept };
      continue;
    }
    const page = await readHead(inFolder(dir, name), headBytes).catch(() => undefined);
    if (page === undefined) continue;
    yield { name, ...page };
    if (known !== undefined) learnHead(known, folder, { name, ...page });
  }
}

/** A file's first `headBytes` bytes as text, and its size. */
export async function readHead(
  path: string,
  headBytes: number,
): Promise<{ head: string; size: number }> {
  using file = await Deno.open(path);
  const { size, isFile } = await file.stat();
  if (!isFile) throw new Error(`${path} is not a file`);
  const buffer = new Uint8Array(Math.min(size, headBytes));
  let filled = 0;
  while (filled < buffer.length) {
    const read = await file.read(buffer.subarray(filled));
    if (read === null) break;
    filled += read;
  }
  return { head: new TextDecoder().decode(buffer.subarray(0, filled)), size };
}

/**
 * The head of a page that {@linkcode readHead} reads back: its first
 * `headBytes` bytes as text, and its size.
 */
export function pageHead(text: string, headBytes: number): { head: string; size: number } {
  const size = utf8Length(text);
  if (size <= headBytes) return { head: text, size };
  const bytes = new TextEncoder().encode(text).subarray(0, headBytes);
  return { head: new TextDecoder().decode(bytes), size };
}

/**
 * The shortest head of a page (at most {@linkcode MAX_RECORDED_HEAD} code
 * units) whose summary equals the one the page's whole head gives, for the
 * folder's record to keep; undefined when none that short does, or the
 * summary is not plain data to compare. Read back as the page would be, it
 * gives the index the same summary.
 *
 * @param folder The renderer's folder format.
 * @param name The page's file name.
 * @param text The page's text, as written.
 * @returns The head to record, or undefined.
 *
 * @example Usage
 * ```ts ignore
 * const head = recordedHead(folder, "sesn_a.md", page);
 * ```
 */
export function recordedHead(
  folder: RendererFolder,
  name: string,
  text: string,
): string | undefined {
  return shortestHead(folder, { name, ...pageHead(text, folder.headBytes ?? DEFAULT_HEAD_BYTES) });
}

/** {@linkcode recordedHead} of a page's head as read back. */
function shortestHead(folder: RendererFolder, { name, head, size }: PageHead): string | undefined {
  const whole = summaryOf(folder, { name, head, size });
  if (whole === FAILED) return undefined;
  const gives = (length: number) =>
    sameData(summaryOf(folder, { name, head: head.slice(0, length), size }), whole);
  let high = Math.min(head.length, MAX_RECORDED_HEAD);
  if (!gives(high)) return undefined;
  // The shortest that gives it: a summary reads a head's beginning.
  let low = 0;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (gives(middle)) high = middle;
    else low = middle + 1;
  }
  return head.slice(0, high);
}

function learnHead(known: KnownHeads, folder: RendererFolder, page: PageHead): void {
  const head = shortestHead(folder, page);
  if (head !== undefined) known.learn(page.name, head);
}

const FAILED = Symbol("failed");

function summaryOf(folder: RendererFolder, page: PageHead): unknown {
  try {
    return folder.summary(page);
  } catch {
    return FAILED;
  }
}

/** Whether two values are the same plain data (what else they are is never the same). */
function sameData(a: unknown, b: unknown): boolean {
  if (a === FAILED || b === FAILED) return false;
  if (typeof a !== "object" || a === null || typeof b !== "object" || b === null) {
    return Object.is(a, b);
  }
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every((v, i) => sameData(v, b[i]));
  }
  if (!isPlain(a) || !isPlain(b)) return false;
  const keys = Object.keys(a);
  const other = Object.keys(b);
  return keys.length === other.length &&
    keys.every((key, i) =>
      key === other[i] &&
      sameData((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key])
    );
}

function isPlain(value: object): boolean {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * The index of every page of a renderer's in a folder: each file with the
 * renderer's extension is read back (its head only, or the head the folder's
 * record keeps of it) and its summary kept when it is one of the renderer's
 * pages; the renderer builds the index.
 *
 * @param dir The folder.
 * @param extension The renderer's extension, with its dot.
 * @param folder The renderer's folder format.
 * @param options The renderer's options, for its index (a previous index to mark against).
 * @param known The heads the folder's record keeps, by page name: those pages are not read.
 * @returns The index file's text.
 */
export async function folderIndex(
  dir: string,
  extension: string,
  folder: RendererFolder,
  options?: unknown,
  known?: KnownHeads,
): Promise<string> {
  const pages: FolderPage[] = [];
  const heads = folderHeads(dir, extension, folder, known);
  for await (const page of heads) {
    const summary = folder.summary(page);
    if (summary !== undefined) pages.push({ name: page.name, summary });
  }
  return await folder.buildIndex(pages, options);
}

/** What {@linkcode writeFolderIndex} needs besides the folder. */
export interface WriteFolderIndexOptions {
  /** `--force`: replace an index file the renderer did not write. */
  force: boolean;
  /** Whether the run wrote or found a page: a run that did neither adds no index. */
  wroteAny: boolean;
  /** The renderer's options, for its index. */
  rendererOptions?: unknown;
  /** The heads the folder's record keeps: those pages are not read back. */
  known?: KnownHeads | undefined;
}

/**
 * Writes the folder's index, listing every page of the folder, from this run or an earlier one.
 * An existing index is rebuilt when the renderer wrote it; any other file is kept (a
 * `FileExistsError`) unless `force`. A run that wrote nothing leaves a folder without an index
 * as it was.
 *
 * @param dir The folder.
 * @param extension The renderer's extension, with its dot.
 * @param folder The renderer's folder format.
 * @param options Whether to replace a foreign index, and whether the run wrote a page.
 */
export async function writeFolderIndex(
  dir: string,
  extension: string,
  folder: RendererFolder,
  options: WriteFolderIndexOptions,
): Promise<void> {
  const path = inFolder(dir, folder.indexName);
  const info = await Deno.lstat(path).catch((error) => {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  });
  if (info === undefined && !options.wroteAny) return;
  const headBytes = folder.headBytes ?? DEFAULT_HEAD_BYTES;
  const owned = info?.isFile === true &&
    folder.ownsIndex?.((await readHead(path, headBytes)).head) === true;
  const text = await folderIndex(dir, extension, folder, options.rendererOptions, options.known);
  await writeAtomic(path, text, { force: info === undefined || owned || options.force });
}
