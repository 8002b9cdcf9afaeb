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

/** {@linkcode fileStamp}, taken at once (a stat blocks for microseconds). */
export function fileStampNow(path: string): string | undefined {
  try {
    return infoStamp(Deno.statSync(path));
  } catch {
    return undefined;
  }
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
