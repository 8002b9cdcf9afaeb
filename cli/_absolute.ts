// Copyright 2026 the brigade authors. MIT license.

/**
 * Whether a path is absolute, by the rules of `node:path`'s `isAbsolute` for the platform the
 * process runs on, without loading `node:path`: the status line, which checks one path a call,
 * would otherwise pay more for the module than for the rest of its work.
 *
 * @module
 */

/** The platform whose rules apply: Windows', or POSIX's. */
export type PathStyle = "posix" | "windows";

/**
 * Whether `path` is absolute: on POSIX, it starts with `/`; on Windows, with `/` or `\`
 * (rooted, a UNC path included) or a drive letter, `:` and `/` or `\` (`C:\x`; `C:x` is
 * relative to the drive's current folder), as `node:path` decides.
 *
 * @example
 * ```ts
 * import { isAbsolutePath } from "./_absolute.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(isAbsolutePath("/home/me/x.jsonl", "posix"), true);
 * assert.equal(isAbsolutePath("C:\\Users\\me", "posix"), false);
 * assert.equal(isAbsolutePath("C:\\Users\\me", "windows"), true);
 * assert.equal(isAbsolutePath("C:me", "windows"), false);
 * ```
 *
 * @param path The path.
 * @param style Whose rules apply; by default, the platform the process runs on's.
 * @returns Whether the path is absolute.
 */
export function isAbsolutePath(
  path: string,
  style: PathStyle = Deno.build.os === "windows" ? "windows" : "posix",
): boolean {
  if (style === "posix") return path.startsWith("/");
  const first = path.charCodeAt(0);
  if (isSeparator(first)) return true;
  const letter = (first >= 0x41 && first <= 0x5a) || (first >= 0x61 && first <= 0x7a);
  return letter && path.charCodeAt(1) === 0x3a && isSeparator(path.charCodeAt(2));
}

function isSeparator(code: number): boolean {
  return code === 0x2f || code === 0x5c;
}
