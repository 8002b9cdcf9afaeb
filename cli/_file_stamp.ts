// Copyright 2026 the brigade authors. MIT license.

/**
 * What the folder's record knows a file by: its stamp (device, inode, size, modification time,
 * which a stat gives) and the SHA-256 of its bytes (which only reading it gives).
 *
 * @module
 */

/** A stamp from a file's information: device, inode, size and modification time. */
function stampOf(info: Deno.FileInfo): string {
  return `${info.dev}:${info.ino ?? ""}:${info.size}:${info.mtime?.getTime() ?? ""}`;
}

/** {@linkcode fileStamp} from a stat already taken: undefined for a non-file. */
export function infoStamp(info: Deno.FileInfo): string | undefined {
  return info.isFile ? stampOf(info) : undefined;
}

/**
 * An input's fingerprint: its device, inode, size and modification time; undefined for a
 * non-file, or a path that cannot be looked at. A link is followed (an input may be one).
 */
export async function fileStamp(path: string): Promise<string | undefined> {
  try {
    return infoStamp(await Deno.stat(path));
  } catch {
    return undefined;
  }
}

/**
 * An output's stamp, as {@linkcode fileStamp}, but of the name itself: a link in a page's place is
 * no page this command wrote (it writes regular files, and replaces a link, never its target).
 */
export async function outputStamp(path: string): Promise<string | undefined> {
  try {
    return infoStamp(await Deno.lstat(path));
  } catch {
    return undefined;
  }
}

/** What an input's subagent files come to: how many, a hash of their names and stamps, the latest change. */
export interface SubagentFilesStamp {
  /** The `agent-*` files of the session's `subagents/` folder. */
  count: number;
  /** 64 bits of FNV-1a over each file's name and stamp, in name order, as 16 hex digits. */
  hash: string;
  /** The latest modification time among them, in milliseconds (0 for none). */
  mtime: number;
}

/** The `agent-<id>.jsonl` and `agent-<id>.meta.json` names Claude Code writes a subagent to. */
const SUBAGENT_FILE = /^agent-.+\.(?:jsonl|meta\.json)$/;

/**
 * The folders a round of stamps looked into, each listed once: whether a session has a folder of
 * its own beside its file (where Claude Code puts its subagents) is then a lookup, not a failed
 * call for every input that has none (Deno throws an error for each, about 20 µs).
 */
export class FolderListings {
  #folders = new Map<string, ReadonlySet<string>>();

  /** Whether `folder` held an entry `name` that is a folder or a link, when it was first listed. */
  holds(folder: string, name: string): boolean {
    return this.#listed(folder).has(name);
  }

  /** Whether `folder` held any folder or link at all, when it was first listed. */
  holdsAny(folder: string): boolean {
    return this.#listed(folder).size > 0;
  }

  /** The names of the folders and links `folder` held when first listed (none, unreadable). */
  #listed(folder: string): ReadonlySet<string> {
    let names = this.#folders.get(folder);
    if (names === undefined) {
      const found = new Set<string>();
      try {
        for (const entry of Deno.readDirSync(folder)) {
          if (entry.isDirectory || entry.isSymlink) found.add(entry.name);
        }
      } catch {
        // Not there, or not readable: it holds nothing this round.
      }
      this.#folders.set(folder, names = found);
    }
    return names;
  }
}

/**
 * The files Claude Code writes a session's subagents to (`<session>/subagents/agent-*`, beside
 * `<session>.jsonl`, as the Claude Code source reads them), stamped at once; undefined when that
 * folder holds none (or is not there, as for every log but a current Claude Code session's).
 * A subagent's file grows while its session's own file stays as it was, until the subagent ends.
 * `folders` lists the session's folder once for every input of a round (by default, for this call).
 */
export function subagentFilesStamp(
  path: string,
  folders: FolderListings = new FolderListings(),
): SubagentFilesStamp | undefined {
  // The extension cut off holds no separator: the stem's folder is the path's.
  const cut = Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\"));
  const parent = cut < 0 ? "." : path.slice(0, cut + 1);
  // A folder of sessions with no folder in it (logs, a batch's inputs): no name to take apart,
  // for each of a rerun's hundreds of inputs.
  if (!folders.holdsAny(parent)) return undefined;
  const stem = path.replace(/\.[^./\\]*$/, "");
  if (!folders.holds(parent, stem.slice(cut + 1))) return undefined;
  const folder = `${stem}/subagents/`;
  let names: string[];
  try {
    names = Array.from(Deno.readDirSync(folder), (entry) => entry.name)
      .filter((name) => SUBAGENT_FILE.test(name));
  } catch {
    return undefined;
  }
  if (names.length === 0) return undefined;
  names.sort();
  // Two 32-bit FNV-1a hashes of different bases: a change is missed only by a collision.
  let low = 0x811c9dc5;
  let high = 0x050c5d1f;
  let mtime = 0;
  for (const name of names) {
    let stamp = "";
    try {
      const info = Deno.statSync(`${folder}${name}`);
      stamp = infoStamp(info) ?? "";
      mtime = Math.max(mtime, info.mtime?.getTime() ?? 0);
    } catch {
      // Gone since the listing: its name alone is hashed.
    }
    const text = `${name}\u0000${stamp}\u0000`;
    for (let i = 0; i < text.length; i++) {
      const unit = text.charCodeAt(i);
      low = Math.imul(low ^ unit, 0x01000193) >>> 0;
      high = Math.imul(high ^ unit, 0x01000193) >>> 0;
    }
  }
  const hex = (word: number): string => word.toString(16).padStart(8, "0");
  return { count: names.length, hash: `${hex(high)}${hex(low)}`, mtime };
}

/**
 * An input's stamp, taken at once: its own ({@linkcode infoStamp}, from `info` when the run
 * already took it), and, when its session has subagent files, theirs
 * ({@linkcode subagentFilesStamp}, its folder looked up in `folders`) after a `+`; undefined for
 * a non-file or a path that cannot be looked at. A link is followed (an input may be one).
 */
export function inputStampNow(
  path: string,
  info?: Deno.FileInfo,
  folders?: FolderListings,
): string | undefined {
  let own: string | undefined;
  try {
    own = infoStamp(info ?? Deno.statSync(path));
  } catch {
    return undefined;
  }
  return own === undefined ? undefined : withSubagents(own, subagentFilesStamp(path, folders));
}

/** A file's own stamp with its session's subagent files' after a `+`, when it has any. */
export function withSubagents(own: string, subagents: SubagentFilesStamp | undefined): string {
  return subagents === undefined ? own : `${own}+${subagents.count}:${subagents.hash}`;
}

/** {@linkcode outputStamp}, taken at once. */
export function outputStampNow(path: string): string | undefined {
  try {
    return infoStamp(Deno.lstatSync(path));
  } catch {
    return undefined;
  }
}

/** The size a stamp records. */
export function stampSize(stamp: string): number {
  return Number(stamp.split(":")[2]);
}

/** The SHA-256 of bytes, as 64 lower-case hex digits. */
export async function sha256Hex(bytes: Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** The SHA-256 of a text's UTF-8 bytes: of the file `Deno.writeTextFile` makes of it. */
export async function textDigest(text: string): Promise<string> {
  return await sha256Hex(new TextEncoder().encode(text));
}

/**
 * The SHA-256 of a regular file's bytes, when it holds exactly `size` of them; undefined
 * otherwise (another size, not a regular file, unreadable), without reading more than `size`.
 */
export async function fileDigest(path: string, size: number): Promise<string | undefined> {
  try {
    using file = await Deno.open(path);
    const info = await file.stat();
    if (!info.isFile || info.size !== size) return undefined;
    const bytes = new Uint8Array(size);
    let filled = 0;
    while (filled < size) {
      const read = await file.read(bytes.subarray(filled));
      if (read === null) return undefined;
      filled += read;
    }
    // A file that grew since its size was taken is not the one stamped.
    if (await file.read(new Uint8Array(1)) !== null) return undefined;
    return await sha256Hex(bytes);
  } catch {
    return undefined;
  }
}
