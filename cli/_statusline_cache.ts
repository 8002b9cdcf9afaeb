// Copyright 2026 the brigade authors. MIT license.

/**
 * The status line's per-user cache of reader states, so that each call reads only what was
 * appended to the transcript since the last one.
 *
 * One small JSON file per transcript, named by a hash of the transcript's path, in
 * `$XDG_CACHE_HOME/brigade-transcript/statusline/` (else the platform's cache folder:
 * `~/.cache` on Linux, `~/Library/Caches` on macOS, `%LOCALAPPDATA%` on Windows). A file holds
 * a {@linkcode TranscriptReaderState}: offsets, fingerprints (hashes) and the facts, never
 * other transcript text, and not the path. Files are written with mode 0600 in a folder of
 * mode 0700, atomically (a temporary file renamed over the old one).
 *
 * Everything here is best effort: a cache that is refused (no permission for the variables
 * or the folder), missing, unreadable, corrupt or stale is ignored, and the reader, which
 * checks a state against the file before trusting it, reads the transcript from the start.
 * No error here ever reaches the status line. Permissions are queried, never requested, so
 * that a status line never prompts.
 *
 * @module
 */

import type { TranscriptReaderState } from "../reader/mod.ts";
import { fingerprint } from "../reader/_fingerprint.ts";

/** The folder under the cache home. */
const FOLDER = ["brigade-transcript", "statusline"];
/** The path separator of the platform (the cache builds its paths without `node:path`). */
const SEP = Deno.build.os === "windows" ? "\\" : "/";
/** The largest cache file read: a state is a few hundred bytes. */
const MAX_CACHE_BYTES = 64 * 1024;
/** A cache file unchanged this long belongs to a finished session: it is removed. */
export const CACHE_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;
/** A temporary file this old was left by a killed call. */
const TEMP_MAX_AGE_MS = 60 * 1000;
/** The names this cache gives its files (a state, or a state being written). */
const CACHE_NAME = /^[0-9a-f]{16}\.json(?:\.[0-9a-f]{8}\.tmp)?$/;

/** The environment variables the cache reads, in the order they are tried. */
export const CACHE_ENV_VARIABLES: readonly string[] = Deno.build.os === "windows"
  ? ["LOCALAPPDATA"]
  : ["XDG_CACHE_HOME", "HOME"];

function env(name: string): string | undefined {
  try {
    if (Deno.permissions.querySync({ name: "env", variable: name }).state !== "granted") {
      return undefined;
    }
    const value = Deno.env.get(name);
    return value === undefined || value === "" ? undefined : value;
  } catch {
    return undefined;
  }
}

function isAbsolute(path: string): boolean {
  return Deno.build.os === "windows" ? /^[a-zA-Z]:[\\/]|^\\\\/.test(path) : path.startsWith("/");
}

/**
 * The user's id, to tell the user's own folders: `Deno.uid()` when `--allow-sys=uid` is
 * granted, else the owner of `$HOME` (the tasks may read it); undefined when neither is known.
 */
function userId(): number | undefined {
  try {
    if (Deno.permissions.querySync({ name: "sys", kind: "uid" }).state === "granted") {
      return Deno.uid() ?? undefined;
    }
    const home = env("HOME");
    if (home === undefined) return undefined;
    if (Deno.permissions.querySync({ name: "read", path: home }).state !== "granted") {
      return undefined;
    }
    return Deno.statSync(home).uid ?? undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether the cache's folders (its own two levels under the cache home) are the user's:
 * real folders, not links, owned by the user and writable by no one else. A folder someone
 * else could write (a shared cache home, a planted `brigade-transcript`) could hold a planted
 * state or a link in place of a file: such a cache is not used. Windows has no modes to check.
 */
export function ownCacheFolder(dir: string): boolean {
  if (Deno.build.os === "windows") return true;
  const uid = userId();
  if (uid === undefined) return false;
  try {
    for (const path of [dir.slice(0, dir.lastIndexOf(SEP)), dir]) {
      const info = Deno.lstatSync(path);
      if (!info.isDirectory || info.uid !== uid || ((info.mode ?? 0o777) & 0o022) !== 0) {
        return false;
      }
    }
    return true;
  } catch {
    return false;
  }
}

/** The cache folder, or `undefined` when the environment does not give one. */
export function cacheDir(): string | undefined {
  let home: string | undefined;
  if (Deno.build.os === "windows") {
    home = env("LOCALAPPDATA");
  } else {
    const xdg = env("XDG_CACHE_HOME");
    if (xdg !== undefined && isAbsolute(xdg)) {
      home = xdg;
    } else {
      const user = env("HOME");
      if (user !== undefined && isAbsolute(user)) {
        home = Deno.build.os === "darwin" ? `${user}/Library/Caches` : `${user}/.cache`;
      }
    }
  }
  if (home === undefined || !isAbsolute(home)) return undefined;
  return [home.replace(/[\\/]+$/, ""), ...FOLDER].join(SEP);
}

/**
 * The folders the `facts` task grants write access to. The task line leaves out an entry whose
 * variable is not set; a line written the older way (`$XDG_CACHE_HOME/brigade-transcript`
 * unconditionally) makes it a folder at the root (`/brigade-transcript`), given up here too.
 */
function grantedCacheHomes(): string[] {
  const xdg = env("XDG_CACHE_HOME") ?? "";
  const home = env("HOME") ?? "";
  const local = env("LOCALAPPDATA") ?? "";
  return [
    `${xdg}/brigade-transcript`,
    `${home}/.cache/brigade-transcript`,
    `${home}/Library/Caches/brigade-transcript`,
    `${local}/brigade-transcript`,
  ];
}

/**
 * Gives up the write access the process has outside its cache folder among what the `facts`
 * task grants (the task line grants every cache home that is set, not only the one used), so that
 * nothing the process runs afterwards may write anywhere else. Permissions are revoked, never
 * requested; never throws.
 *
 * @returns The folders given up.
 */
export function dropOtherWriteAccess(): string[] {
  // Write access everywhere (not the task's) is the caller's choice, not narrowed here.
  if (Deno.permissions.querySync({ name: "write" }).state === "granted") return [];
  const dir = cacheDir();
  const keep = dir?.slice(0, dir.lastIndexOf(SEP));
  const dropped: string[] = [];
  for (const path of grantedCacheHomes()) {
    if (path === keep || dropped.includes(path)) continue;
    try {
      if (Deno.permissions.querySync({ name: "write", path }).state !== "granted") continue;
      Deno.permissions.revokeSync({ name: "write", path });
      dropped.push(path);
    } catch {
      // Nothing was granted there to give up.
    }
  }
  return dropped;
}

/**
 * The cache file of a transcript, named by a hash of its path so that the path is not
 * stored. The reader's 64-bit fingerprint is enough: two paths that collide would only offer
 * each other a state that the reader's checks then drop (a full read, never a wrong line).
 */
function cacheFile(dir: string, transcriptPath: string): string {
  return `${dir}${SEP}${fingerprint(new TextEncoder().encode(transcriptPath))}.json`;
}

/** A transcript's cache entry: where it lives and what it held when loaded. */
export interface CacheEntry {
  /** The cache file, or `undefined` when there is no cache. */
  file: string | undefined;
  /** The folder that holds it. */
  dir: string | undefined;
  /** The state read from it (unchecked: the reader checks it), `undefined` when none. */
  state: unknown;
  /** The file's text when loaded, to skip a write that would change nothing. */
  text: string | undefined;
  /**
   * Whether the folder was there when loaded: a folder made since holds no stale file, so a
   * save does not look for any.
   */
  folder?: boolean;
}

/**
 * Loads the cached state of `transcriptPath`; never throws. Synchronous on purpose, as is
 * {@linkcode saveState}: a status-line process has nothing else to do meanwhile, and an
 * asynchronous file operation costs a round trip through Deno's thread pool each.
 */
export function loadState(transcriptPath: string): CacheEntry {
  const dir = cacheDir();
  if (dir === undefined) return { file: undefined, dir, state: undefined, text: undefined };
  let file: string | undefined;
  let folder = false;
  try {
    file = cacheFile(dir, transcriptPath);
    if (Deno.permissions.querySync({ name: "read", path: file }).state !== "granted") {
      return { file: undefined, dir, state: undefined, text: undefined };
    }
    // A folder that is not the user's own is not used: a state there could be anyone's. One
    // not made yet (lstat throws) is made by saveState, which checks it then.
    Deno.lstatSync(dir);
    if (!ownCacheFolder(dir)) return { file: undefined, dir, state: undefined, text: undefined };
    folder = true;
    // A regular file only (a FIFO would block the read, a link could point anywhere). The
    // folder is the user's own and no one else's to write, so only the user could swap
    // either in between the lstat and the read.
    const info = Deno.lstatSync(file);
    if (!info.isFile || info.size > MAX_CACHE_BYTES) {
      return { file, dir, state: undefined, text: undefined, folder };
    }
    const bytes = Deno.readFileSync(file);
    const text = new TextDecoder().decode(bytes);
    return { file, dir, state: JSON.parse(text), text, folder };
  } catch {
    return { file, dir, state: undefined, text: undefined, folder };
  }
}

/** Saves `state` as the cache entry's new content, atomically; never throws. */
export function saveState(entry: CacheEntry, state: TranscriptReaderState): void {
  const { file, dir } = entry;
  if (file === undefined || dir === undefined) return;
  const text = JSON.stringify(state);
  if (text === entry.text) return;
  let temp: string | undefined;
  try {
    if (Deno.permissions.querySync({ name: "write", path: dir }).state !== "granted") return;
    Deno.mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (!ownCacheFolder(dir)) return;
    const name = `${file}.${tempSuffix()}.tmp`;
    Deno.writeTextFileSync(name, text, { createNew: true, mode: 0o600 });
    // Only a file this call created is removed on a failure: a name taken is another call's.
    temp = name;
    Deno.renameSync(temp, file);
    temp = undefined;
    // A transcript's first call, not every call, looks for what finished sessions left (in a
    // folder that was there before it).
    if (entry.text === undefined && entry.folder !== false) pruneStale(dir, Date.now());
  } catch {
    // A cache that cannot be written only costs the next call a longer read.
  } finally {
    if (temp !== undefined) removeQuietly(temp);
  }
}

/**
 * Eight hex digits for a temporary file's name. Not `crypto.randomUUID()`: its first call costs
 * a status line about 0.2 ms, and the name needs no secrecy (the file is created new, so a
 * name another call holds only makes this call's save fail, and is left to that call).
 */
function tempSuffix(): string {
  return (Math.floor(Math.random() * 0x1_0000_0000)).toString(16).padStart(8, "0");
}

/**
 * Removes the cache's own files that are stale: states unchanged for
 * {@linkcode CACHE_MAX_AGE_MS} (one file per transcript would otherwise pile up
 * forever) and temporary files a killed call left. Other files are left alone.
 */
export function pruneStale(dir: string, now: number): void {
  try {
    for (const { name, isFile } of Deno.readDirSync(dir)) {
      if (!isFile || !CACHE_NAME.test(name)) continue;
      const path = `${dir}${SEP}${name}`;
      const changed = Deno.lstatSync(path).mtime?.getTime() ?? now;
      const maxAge = name.endsWith(".tmp") ? TEMP_MAX_AGE_MS : CACHE_MAX_AGE_MS;
      if (now - changed > maxAge) removeQuietly(path);
    }
  } catch {
    // Best effort, like the rest of the cache: the next new transcript tries again.
  }
}

function removeQuietly(path: string): void {
  try {
    Deno.removeSync(path);
  } catch {
    // Nothing more to do: a stray temporary file is only a few hundred bytes.
  }
}
