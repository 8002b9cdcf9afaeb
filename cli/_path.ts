// Copyright 2026 the brigade authors. MIT license.

/**
 * The three path operations the folder's machinery uses (an input's absolute path for the
 * folder's record, a page's path in its folder, a file's folder), by `node:path`'s rules for the
 * platform the process runs on. On POSIX they are written here: `node:path` loads about fifty of
 * Deno's Node modules (its errors, `util`, `assert`, `buffer`), which cost a rerun into a folder
 * more than the rest of its own work. On Windows, whose rules (drives, UNC roots, both
 * separators) are `node:path`'s to keep, `node:path` does the work.
 *
 * @module
 */

/** `node:path` on Windows; undefined elsewhere, where it is not loaded. */
const windows: typeof import("node:path") | undefined = Deno.build.os === "windows"
  ? await import("node:path")
  : undefined;

/**
 * `path` made absolute against the absolute folder `cwd` and normalised (no `.` or `..` segment,
 * no repeated or trailing `/`), as `node:path`'s `resolve(cwd, path)` gives it.
 *
 * @example
 * ```ts
 * import { resolvePath } from "./_path.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(resolvePath("/home/me", "logs/../in//a.jsonl"), "/home/me/in/a.jsonl");
 * assert.equal(resolvePath("/home/me", "/tmp/./x/"), "/tmp/x");
 * assert.equal(resolvePath("/", ".."), "/");
 * ```
 *
 * @param cwd The folder a relative path is taken against (absolute).
 * @param path The path.
 * @returns The absolute, normalised path.
 */
export function resolvePath(cwd: string, path: string): string {
  if (windows !== undefined) return windows.resolve(cwd, path);
  // The common case, a path with nothing to normalise, joined as it is (the record's key of each
  // input is taken several times a run).
  if (normal(path) && normal(cwd)) {
    if (path.startsWith("/")) return path;
    return cwd === "/" ? `/${path}` : `${cwd}/${path}`;
  }
  const segments: string[] = [];
  for (const segment of `${path.startsWith("/") ? "" : `${cwd}/`}${path}`.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") segments.pop();
    else segments.push(segment);
  }
  return `/${segments.join("/")}`;
}

/** A `.` or `..` segment. */
const DOT_SEGMENT = /(?:^|\/)\.\.?(?:\/|$)/;

/** Whether a path has nothing `resolvePath` would change: no dot segment, no `//`, no `/` last. */
function normal(path: string): boolean {
  return path !== "" && (path === "/" || !path.endsWith("/")) && !path.includes("//") &&
    !DOT_SEGMENT.test(path);
}

/**
 * The folder of `path`, as `node:path`'s `dirname` gives it: what comes before its last
 * segment (`.` for a bare name, `/` for one at the root), trailing `/` ignored.
 *
 * @example
 * ```ts
 * import { folderOf } from "./_path.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(folderOf("out/INDEX.md"), "out");
 * assert.equal(folderOf("out/"), ".");
 * assert.equal(folderOf("/x.md"), "/");
 * assert.equal(folderOf("a//b"), "a/");
 * ```
 *
 * @param path The path.
 * @returns Its folder.
 */
export function folderOf(path: string): string {
  if (windows !== undefined) return windows.dirname(path);
  if (path === "") return ".";
  // The separator before the last segment, trailing ones passed over, as `node:path` finds it.
  let end = -1;
  let trailing = true;
  for (let i = path.length - 1; i >= 1; i--) {
    if (path[i] !== "/") trailing = false;
    else if (!trailing) {
      end = i;
      break;
    }
  }
  const rooted = path.startsWith("/");
  if (end === -1) return rooted ? "/" : ".";
  return rooted && end === 1 ? "//" : path.slice(0, end);
}
