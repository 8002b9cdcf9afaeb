// Copyright 2026 the brigade authors. MIT license.

/**
 * A folder of pages as a stat sees it, without reading a page: its temporary files, and the
 * signature of its pages (each name with its stamp) that the folder's record keeps beside the
 * stamp of the index built from them. The same signature and the same index stamp later say
 * that the index would come out as it is, and it is not built again. Its own module, importing
 * only the stamps, so that a rerun that finds nothing changed loads no renderer and no redactor.
 *
 * @module
 */

import { outputStampNow, sha256Hex } from "./_file_stamp.ts";
import type { FolderState } from "./_manifest_file.ts";

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

/** What a page's entry is, for the signature: its stamp, or the kind of entry it is. */
function entryMark(dir: string, entry: Deno.DirEntry): string {
  if (entry.isSymlink) return "link";
  if (!entry.isFile) return "other";
  return outputStampNow(inFolder(dir, entry.name)) ?? "gone";
}

/**
 * The pages a folder's index is built from, as a stat sees them: every entry whose name ends in
 * `extension` (hidden ones and the index itself left out, as the index leaves them out), in name
 * order, each with its stamp (device, inode, size, modification time) or its kind ("link",
 * "other").
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
 * assert.deepEqual([...listing.keys()], ["a.md", "b.md"]);
 * await Deno.remove(dir, { recursive: true });
 * ```
 *
 * @param dir The folder.
 * @param entries The folder's entries, as listed.
 * @param extension The renderer's extension, with its dot.
 * @param indexName The index's file name.
 * @returns Each page's name and stamp (or kind), in name order.
 */
export function pagesListing(
  dir: string,
  entries: readonly Deno.DirEntry[],
  extension: string,
  indexName: string,
): Map<string, string> {
  const pages = entries.filter(({ name }) =>
    name.endsWith(extension) && !name.startsWith(".") && name !== indexName
  );
  pages.sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  return new Map(pages.map((entry) => [entry.name, entryMark(dir, entry)]));
}

/**
 * The signature of a {@linkcode pagesListing}: the SHA-256 of its lines. A page added, removed,
 * replaced or written again changes it.
 *
 * @example Usage
 * ```ts
 * import { listingSignature } from "./_folder_pages.ts";
 * import assert from "node:assert/strict";
 *
 * const one = await listingSignature(new Map([["a.md", "1:2:3:4"]]));
 * assert.notEqual(await listingSignature(new Map([["a.md", "1:2:3:5"]])), one);
 * ```
 *
 * @param listing Each page's name and stamp, in name order.
 * @returns 64 hex digits.
 */
export async function listingSignature(listing: ReadonlyMap<string, string>): Promise<string> {
  let text = "";
  for (const [name, mark] of listing) text += `${name}\t${mark}\n`;
  return await sha256Hex(new TextEncoder().encode(text));
}

/**
 * Whether the folder's index is the one the record says its run left: written with the same
 * options from pages of the same signature, the index file still with the stamp it had once
 * written. Built again, it would come out as it is.
 *
 * @example Usage
 * ```ts
 * import { indexIsCurrent } from "./_folder_pages.ts";
 * import assert from "node:assert/strict";
 *
 * const state = { key: "k", pages: "0".repeat(64), index: "1:2:3:4" };
 * assert.equal(indexIsCurrent(state, { ...state }), true);
 * assert.equal(indexIsCurrent(state, { ...state, index: "1:2:3:5" }), false);
 * assert.equal(indexIsCurrent(state, { ...state, index: undefined }), false);
 * assert.equal(indexIsCurrent(undefined, { ...state }), false);
 * ```
 *
 * @param recorded The folder's state as the record keeps it.
 * @param now The run's key, the pages' signature now and the index file's stamp now.
 * @returns Whether it need not be built again.
 */
export function indexIsCurrent(
  recorded: Pick<FolderState, "key" | "pages" | "index"> | undefined,
  now: { key: string; pages: string; index: string | undefined },
): boolean {
  return recorded !== undefined && now.index !== undefined && recorded.key === now.key &&
    recorded.pages === now.pages && recorded.index === now.index;
}
