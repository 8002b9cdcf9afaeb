// Copyright 2026 the brigade authors. MIT license.

/**
 * A folder of pages as a stat sees it, without reading a page: its temporary files, and the
 * listing of its pages (each name with its stamp) that the folder's record keeps beside the stamp
 * of the index built from them. The same listing and the same index stamp later say that the index
 * would come out as it is, and it is not built again. Its own module, importing
 * only the stamps, so that a rerun that finds nothing changed loads no renderer and no redactor.
 *
 * @module
 */

import { outputStampNow } from "./_file_stamp.ts";
import type { FolderState, Stamps } from "./_manifest_state.ts";

/** The temporary files this command writes: a fixed-length name, whatever the target's. */
export const TEMPORARY: RegExp = /^\.transcript-[0-9a-f]{16}\.tmp$/;

/**
 * The path of `name` in the folder `dir`, as messages show it (the folder as given).
 *
 * @example Usage
 * ```ts
 * import { inFolder } from "./_folder_pages.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(inFolder("out//", "a.md"), "out/a.md");
 * ```
 *
 * @param dir The folder, as given.
 * @param name A file's name in it.
 * @returns The file's path.
 */
export function inFolder(dir: string, name: string): string {
  return `${dir.replace(/\/+$/, "")}/${name}`;
}

/**
 * What a page's entry is, for the listing: its stamp, or the kind of entry it is. `prefix` is the
 * folder's path with its `/` (see {@linkcode inFolder}), taken once for a whole listing.
 */
function entryMark(prefix: string, entry: Deno.DirEntry): string {
  if (entry.isSymlink) return "link";
  if (!entry.isFile) return "other";
  return outputStampNow(`${prefix}${entry.name}`) ?? "gone";
}

/** Whether a listed name is one of the pages an index is built from (see {@linkcode pagesListing}). */
function isPage(name: string, extension: string, indexName: string): boolean {
  return name.endsWith(extension) && !name.startsWith(".") && name !== indexName;
}

/**
 * The pages a folder's index is built from, as a stat sees them: every entry whose name ends in
 * `extension` (hidden ones and the index itself left out, as the index leaves them out), each
 * with its stamp (device, inode, size, modification time) or its kind ("link", "other").
 *
 * @example Usage
 * ```ts
 * import { pagesListing } from "./_folder_pages.ts";
 * import assert from "node:assert/strict";
 *
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/b.md`, "b");
 * await Deno.writeTextFile(`${dir}/a.md`, "a");
 * await Deno.writeTextFile(`${dir}/INDEX.md`, "the index is not one of its pages");
 * const listing = pagesListing(dir, [...Deno.readDirSync(dir)], ".md", "INDEX.md");
 * assert.deepEqual([...listing.keys()].sort(), ["a.md", "b.md"]);
 * await Deno.remove(dir, { recursive: true });
 * ```
 *
 * @param dir The folder.
 * @param entries The folder's entries, as listed.
 * @param extension The renderer's extension, with its dot.
 * @param indexName The index's file name.
 * @returns Each page's name and stamp (or kind).
 */
export function pagesListing(
  dir: string,
  entries: readonly Deno.DirEntry[],
  extension: string,
  indexName: string,
): Map<string, string> {
  const pages = new Map<string, string>();
  const prefix = inFolder(dir, "");
  for (const entry of entries) {
    if (isPage(entry.name, extension, indexName)) pages.set(entry.name, entryMark(prefix, entry));
  }
  return pages;
}

/**
 * Whether the folder's pages are those a record lists, name for name and stamp for stamp, with no
 * temporary file beside them: {@linkcode sameStamps} of the {@linkcode pagesListing}, told
 * without building the listing. Each page is stamped as it comes in the folder's entries and
 * compared at once; the first that differs (or a temporary file: a run writing into the folder)
 * ends the look, so a rerun of hundreds of pages that finds one changed stats no more. `entries`
 * may be the listing itself (`Deno.readDirSync(dir)`), walked once.
 *
 * @example Usage
 * ```ts
 * import { pagesAre } from "./_folder_pages.ts";
 * import assert from "node:assert/strict";
 *
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/a.md`, "a");
 * const entries = [...Deno.readDirSync(dir)];
 * const stamp = (await import("./_file_stamp.ts")).outputStampNow(`${dir}/a.md`)!;
 * assert.equal(pagesAre(dir, entries, ".md", "INDEX.md", { "a.md": stamp }), true);
 * assert.equal(pagesAre(dir, entries, ".md", "INDEX.md", { "a.md": "1:2:3:4" }), false);
 * assert.equal(pagesAre(dir, entries, ".md", "INDEX.md", { "a.md": stamp, "b.md": stamp }), false);
 * assert.equal(pagesAre(dir, entries, ".md", "INDEX.md", {}), false);
 * // A run writing into the folder meanwhile: its temporary file is there.
 * await Deno.writeTextFile(`${dir}/.transcript-0123456789abcdef.tmp`, "");
 * assert.equal(pagesAre(dir, Deno.readDirSync(dir), ".md", "INDEX.md", { "a.md": stamp }), false);
 * await Deno.remove(dir, { recursive: true });
 * ```
 *
 * @param dir The folder.
 * @param entries The folder's entries, as listed.
 * @param extension The renderer's extension, with its dot.
 * @param indexName The index's file name.
 * @param recorded The pages' names and stamps as the record keeps them.
 * @returns Whether the folder holds those pages, each with its stamp, and no other, and no
 *   temporary file.
 */
export function pagesAre(
  dir: string,
  entries: Iterable<Deno.DirEntry>,
  extension: string,
  indexName: string,
  recorded: Stamps,
): boolean {
  const prefix = inFolder(dir, "");
  let pages = 0;
  for (const entry of entries) {
    const name = entry.name;
    if (!isPage(name, extension, indexName)) {
      // A temporary file's name is hidden, as no page's is.
      if (name.startsWith(".") && TEMPORARY.test(name)) return false;
      continue;
    }
    // A stamp is a string: a name that is no own key of the record gives none.
    if (recorded[name] !== entryMark(prefix, entry)) return false;
    pages++;
  }
  // The names of a listing are distinct: as many as the record's, and each found in it.
  return pages === Object.keys(recorded).length;
}

/**
 * Whether the folder's index is the one the record says its run left: written with the same
 * options from the same pages (each with the stamp it had then), the index file still with the
 * stamp it had once written. Built again, it would come out as it is.
 *
 * @example Usage
 * ```ts
 * import { indexIsCurrent } from "./_folder_pages.ts";
 * import assert from "node:assert/strict";
 *
 * const pages = new Map([["a.md", "1:2:3:4"]]);
 * const state = { key: "k", pages: { "a.md": "1:2:3:4" }, index: "1:2:3:5" };
 * assert.equal(indexIsCurrent(state, { key: "k", pages: new Map(pages), index: "1:2:3:5" }), true);
 * assert.equal(indexIsCurrent(state, { key: "k", pages: new Map(), index: "1:2:3:5" }), false);
 * assert.equal(indexIsCurrent(state, { key: "k", pages, index: "1:2:3:6" }), false);
 * assert.equal(indexIsCurrent(state, { key: "k", pages, index: undefined }), false);
 * assert.equal(indexIsCurrent(undefined, { key: "k", pages, index: "1:2:3:5" }), false);
 * ```
 *
 * @param recorded The folder's state as the record keeps it.
 * @param now The run's key, the pages' listing now and the index file's stamp now.
 * @returns Whether it need not be built again.
 */
export function indexIsCurrent(
  recorded: Pick<FolderState, "key" | "pages" | "index"> | undefined,
  now: { key: string; pages: ReadonlyMap<string, string>; index: string | undefined },
): boolean {
  if (recorded === undefined || now.index === undefined) return false;
  if (recorded.key !== now.key || recorded.index !== now.index) return false;
  return sameStamps(recorded.pages, now.pages);
}

/**
 * Whether the stamps a record keeps are those of a map, name for name.
 *
 * @example Usage
 * ```ts
 * import { sameStamps } from "./_folder_pages.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(sameStamps({ a: "1" }, new Map([["a", "1"]])), true);
 * assert.equal(sameStamps({ a: "1" }, new Map([["a", "2"]])), false);
 * assert.equal(sameStamps({ a: "1", b: "2" }, new Map([["a", "1"]])), false);
 * assert.equal(sameStamps({}, new Map([["toString", "1"]])), false);
 * ```
 *
 * @param recorded The names and stamps as the record keeps them.
 * @param now The names and stamps now.
 * @returns Whether they hold the same names with the same stamps.
 */
export function sameStamps(recorded: Stamps, now: ReadonlyMap<string, string>): boolean {
  // Each name of `now` found with its stamp, a string, is one of the record's own keys.
  if (Object.keys(recorded).length !== now.size) return false;
  for (const [name, stamp] of now) {
    if (recorded[name] !== stamp) return false;
  }
  return true;
}
