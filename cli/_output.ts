// Copyright 2026 the brigade authors. MIT license.

import { inFolder, TEMPORARY } from "./_folder_pages.ts";
import { folderOf } from "./_path.ts";
import { redact } from "../redact/mod.ts";

const SAFE = /^[A-Za-z0-9_-]$/;
const MAX_NAME = 200;

/**
 * A file name for a session id: letters, digits, `_` and `-` stay, every other
 * character becomes `%XX` of its UTF-8 bytes (a lone surrogate, which has none, `%uXXXX` of its
 * code unit; a `/` `%u002F`), so an id can never name a path
 * (`/`, `..`) or a hidden file. A session of a project (`options.project`) is named
 * `<project>%2F<id>`, the project encoded the same way except that its `/` is `%2F`: `%2F`
 * never occurs in an encoded id, so the last one splits the name, and no two (project, id)
 * pairs, nor a pair and an id alone, share a name (project `a` with id `b/s1` is
 * `a%2Fb%u002Fs1`, project `a/b` with id `s1` is `a%2Fb%2Fs1`). The name derives from the
 * redacted parts; when redaction changed one, `~` and 8 hex digits of the SHA-256 of the raw
 * key follow, so two ids never share a file. An over-long name ends in `~` and 16
 * hex digits of that digest. `INDEX` and the `reserved` name (the folder's
 * index) are never given: they take a `%` in front.
 */
export async function sessionFileName(
  sessionId: string,
  extension: string,
  options: SessionFileNameOptions = {},
): Promise<string> {
  const { project } = options;
  const shown = redact(sessionId);
  const shownProject = project === undefined ? undefined : redact(project);
  let name = encodePart(shown, "%u002F");
  if (shownProject !== undefined) name = `${encodePart(shownProject, "%2F")}%2F${name}`;
  // The raw key: the id alone, or the pair (a project's `/` must not make two pairs one).
  const raw = project === undefined ? sessionId : JSON.stringify([project, sessionId]);
  if (name === "" || name.toUpperCase() === "INDEX") name = `%${name}`;
  if (shown !== sessionId || shownProject !== project) {
    name += `~${(await sha256Hex(raw)).slice(0, 8)}`;
  }
  if (name.length > MAX_NAME) {
    name = `${name.slice(0, MAX_NAME - 17)}~${(await sha256Hex(raw)).slice(0, 16)}`;
  }
  const file = `${name}${extension}`;
  // A folder's index (a renderer's RendererFolder.indexName) is never a session's page.
  return file.toLowerCase() === options.reserved?.toLowerCase() ? `%${file}` : file;
}

/** A part of a file name: safe characters kept, `/` as `slash`, every other one `%`-encoded. */
function encodePart(text: string, slash: string): string {
  let name = "";
  for (const char of text) {
    if (SAFE.test(char)) {
      name += char;
    } else if (char === "/") {
      name += slash;
    } else if (char.length === 1 && char >= "\uD800" && char <= "\uDFFF") {
      // A lone surrogate has no UTF-8 bytes (it would encode as U+FFFD, as any other would):
      // `%u` and its code unit keep two ids that differ only there apart.
      name += `%u${char.charCodeAt(0).toString(16).toUpperCase()}`;
    } else {
      name += [...new TextEncoder().encode(char)]
        .map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, "0")}`).join("");
    }
  }
  return name;
}

/** Options for {@linkcode sessionFileName}. */
export interface SessionFileNameOptions {
  /**
   * A file name no session may take (the folder's index), compared without case.
   *
   * @default {undefined}
   */
  reserved?: string | undefined;
  /**
   * The project the session belongs to (a folder given as an input: the folder holding its
   * transcript, `/`-separated); the name starts with it.
   *
   * @default {undefined}
   */
  project?: string | undefined;
}

/** A text's UTF-16 code units, little-endian. */
function codeUnits(text: string): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(text.length * 2);
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    bytes[2 * i] = unit & 0xff;
    bytes[2 * i + 1] = unit >> 8;
  }
  return bytes;
}

async function sha256Hex(text: string): Promise<string> {
  // A text with a lone surrogate is hashed by its UTF-16 code units: as UTF-8 its surrogates
  // would all be U+FFFD, and two ids differing only there would share a digest.
  const bytes: Uint8Array<ArrayBuffer> = text.isWellFormed()
    ? new TextEncoder().encode(text)
    : codeUnits(text);
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export { inFolder };

/** Options for {@linkcode writeAtomic}. */
export interface WriteAtomicOptions {
  /** Replace an existing file whose content differs. */
  force: boolean;
  /** Writes the temporary file; a test replaces it to interrupt a write. */
  write?: (path: string, text: string) => Promise<void>;
}

/** What {@linkcode writeAtomic} did: wrote the file, or found it already holding the text. */
export type WriteOutcome = "written" | "unchanged";

/** A target that exists with other content, kept because `--force` was not given. */
export class FileExistsError extends Error {
  /**
   * Constructs a new instance.
   *
   * @param path The file kept.
   */
  constructor(path: string) {
    super(`Cannot write ${path}: a different file exists (pass --force to overwrite it)`);
    this.name = "FileExistsError";
  }
}

function temporaryName(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return `.transcript-${[...bytes].map((b) => b.toString(16).padStart(2, "0")).join("")}.tmp`;
}

/**
 * Writes a file whole or not at all: the text goes to a temporary file in the
 * same folder (a short name of its own, so any target name that fits the
 * file system fits), renamed over the target once complete; on any failure
 * the temporary file is removed. A target that already holds exactly the text
 * is left alone ("unchanged"); one that holds something else is a
 * {@linkcode FileExistsError} unless `force`.
 */
export async function writeAtomic(
  path: string,
  text: string,
  options: WriteAtomicOptions,
): Promise<WriteOutcome> {
  const bytes = new TextEncoder().encode(text);
  const existing = await existingContent(path, bytes.length);
  if (existing !== undefined) {
    if (existing !== null && sameBytes(existing, bytes)) return "unchanged";
    if (!options.force) throw new FileExistsError(path);
  }
  const temporary = inFolder(folderOf(path), temporaryName());
  try {
    await (options.write ?? ((p, t) => Deno.writeTextFile(p, t)))(temporary, text);
    await Deno.rename(temporary, path);
  } catch (error) {
    await Deno.remove(temporary).catch(() => {});
    throw new Error(`Cannot write ${path}: ${writeProblem(error, path)}`, { cause: error });
  }
  return "written";
}

/**
 * The bytes of an existing target of the given size, null when it exists with
 * another size (or is not a regular file), undefined when there is none.
 */
async function existingContent(path: string, size: number): Promise<Uint8Array | null | undefined> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.lstat(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory) {
      return undefined;
    }
    throw new Error(`Cannot write ${path}: ${writeProblem(error, path)}`, { cause: error });
  }
  if (!info.isFile || info.size !== size) return null;
  return await Deno.readFile(path);
}

/**
 * Whether two byte strings are the same, `b` valid UTF-8: compared as the texts a strict decoder
 * makes of them (strict UTF-8 decoding maps no two byte strings to one text), natively, where a
 * loop over an index's hundreds of kilobytes costs a rerun more than the rest of its writing.
 */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  const strict = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  try {
    return strict.decode(a) === strict.decode(b);
  } catch {
    // `a` is not UTF-8: not the bytes of `b`.
    return false;
  }
}

/** Why a write failed, in words that name no temporary file. */
function writeProblem(error: unknown, path: string): string {
  if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory) {
    return `the folder ${folderOf(path)} does not exist`;
  }
  if (error instanceof Deno.errors.PermissionDenied) return "permission denied";
  if (error instanceof Deno.errors.IsADirectory) return "it is a directory";
  if ((error as { code?: unknown })?.code === "ENAMETOOLONG") return "the file name is too long";
  const message = error instanceof Error ? error.message : String(error);
  // Deno's messages end with the path of the call, here the temporary file's.
  return message.replace(/:\s*\w+ '[^']*'$/, "").replace(/ \(os error \d+\)$/, "");
}

/**
 * The entries of a folder, read at once: Deno's async listing costs an op a batch of entries,
 * and a folder of pages is listed twice a run (its leftovers, its index).
 */
export function folderEntries(dir: string): Deno.DirEntry[] {
  return Array.from(Deno.readDirSync(dir));
}

/** How old a temporary file must be to count as left behind by a killed run. */
export const STALE_TEMPORARY_MS = 60_000;

/**
 * Removes the temporary files of this command's naming that a killed run left
 * in a folder: those older than {@linkcode STALE_TEMPORARY_MS} (a live run
 * renames its temporary file within moments). Returns how many were removed.
 */
export async function removeStaleTemporaries(dir: string, now = Date.now()): Promise<number> {
  let removed = 0;
  for (const entry of folderEntries(dir)) {
    // Only this command's own naming: `.{name}.{uuid}.tmp` (version 0.1.0's) is any program's.
    if (!entry.isFile || !TEMPORARY.test(entry.name)) continue;
    const path = inFolder(dir, entry.name);
    const info = await Deno.lstat(path).catch(() => undefined);
    const age = now - (info?.mtime?.getTime() ?? now);
    if (age < STALE_TEMPORARY_MS) continue;
    await Deno.remove(path).then(() => removed++, () => {});
  }
  return removed;
}
