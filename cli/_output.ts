// Copyright 2026 the brigade authors. MIT license.

import { basename, dirname, join } from "node:path";

const SAFE = /^[A-Za-z0-9_-]$/;
const MAX_NAME = 200;

/**
 * A file name for a session id: letters, digits, `_` and `-` stay, every other
 * character becomes `%XX` of its UTF-8 bytes, so an id can never name a path
 * (`/`, `..`) or a hidden file; an over-long name ends in a digest of the id.
 */
export async function sessionFileName(sessionId: string, extension: string): Promise<string> {
  let name = "";
  for (const char of sessionId) {
    name += SAFE.test(char) ? char : [...new TextEncoder().encode(char)]
      .map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, "0")}`).join("");
  }
  if (name === "" || name.toUpperCase() === "INDEX") name = `%${name}`;
  if (name.length > MAX_NAME) {
    const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(sessionId));
    const hex = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
    name = `${name.slice(0, MAX_NAME - 17)}~${hex.slice(0, 16)}`;
  }
  return `${name}${extension}`;
}

/** Options for {@linkcode writeAtomic}. */
export interface WriteAtomicOptions {
  /** Replace an existing file. */
  force: boolean;
  /** Writes the temporary file; a test replaces it to interrupt a write. */
  write?: (path: string, text: string) => Promise<void>;
}

/**
 * Writes a file whole or not at all: the text goes to a temporary file in the
 * same folder, renamed over the target once complete; on any failure the
 * temporary file is removed. An existing target is an error unless `force`.
 */
export async function writeAtomic(
  path: string,
  text: string,
  options: WriteAtomicOptions,
): Promise<void> {
  if (!options.force && await exists(path)) {
    throw new Error(`Cannot write ${path}: the file exists (pass --force to overwrite it)`);
  }
  const temporary = join(dirname(path), `.${basename(path)}.${crypto.randomUUID()}.tmp`);
  try {
    await (options.write ?? ((p, t) => Deno.writeTextFile(p, t)))(temporary, text);
    await Deno.rename(temporary, path);
  } catch (error) {
    await Deno.remove(temporary).catch(() => {});
    throw error;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    throw error;
  }
}
