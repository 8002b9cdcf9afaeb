// Copyright 2026 the brigade authors. MIT license.

/**
 * Opening a transcript safely, on any runtime: the path (symlinks followed) must name a
 * regular file before a byte is read, and a FIFO must never hang the caller. Opening a FIFO
 * for reading blocks until a writer appears, so the path is checked before it is opened, and
 * the open handle is checked again (`fstat`), since the path may be swapped in between.
 *
 * Under Deno, Deno's own file API is used: importing `node:fs` costs a status-line process
 * more than the rest of its work. Deno cannot open without blocking (`Deno.open` takes no
 * `O_NONBLOCK`), so the one case where the open can block, a FIFO swapped in between the
 * check and the open, is handled by a watchdog (see {@linkcode openWithDeno}). Elsewhere
 * (Node, Bun) `node:fs` is imported lazily, on the first open, and opens non-blocking.
 *
 * @module
 */

import { TranscriptError } from "./_error.ts";

/** An open transcript: a regular file, read by position. */
export interface OpenTranscript {
  /** Its size when it was opened. */
  size: number;
  /** `dev:ino`, or `null` where the platform gives no file identity. */
  identity: string | null;
  /** Reads into `into` from `position`; returns the bytes read, 0 at the end of the file. */
  readAt(into: Uint8Array, position: number): Promise<number>;
  /** Closes the handle; never rejects. */
  close(): Promise<void>;
}

/** How often a slow pending open looks at its path again, in milliseconds. */
const WATCH_MS = 50;
/** How many times a pending open looks at its path at once before it waits between looks. */
const QUICK_LOOKS = 16;

function isKnown(value: unknown): boolean {
  return (typeof value === "number" && value !== 0) || (typeof value === "bigint" && value !== 0n);
}

function identityOf(dev: unknown, ino: unknown): string | null {
  return isKnown(dev) && isKnown(ino) ? `${dev}:${ino}` : null;
}

function codeOf(error: unknown): unknown {
  return typeof error === "object" && error !== null
    ? (error as { code?: unknown }).code
    : undefined;
}

/** Opens `path` for reading, or throws a {@linkcode TranscriptError}. */
export function openTranscript(path: string): Promise<OpenTranscript> {
  const deno = (globalThis as { Deno?: typeof Deno }).Deno;
  return deno?.open !== undefined ? openWithDeno(deno, path) : openWithNode(path);
}

/**
 * The Deno way: `Deno.stat` (a regular file only), `Deno.open`, then `file.stat()` (still a
 * regular file: what was opened is what is read).
 *
 * The race: if the path is swapped for a FIFO between the stat and the open, `Deno.open`
 * blocks in Deno's thread pool until a writer appears, and its promise stays pending. So
 * while the open is pending, the path is looked at again every {@linkcode WATCH_MS} ms. A
 * regular file opens in microseconds, so the watchdog costs nothing on the normal path; a
 * slow file system only makes it look again, as long as the path is still the regular file
 * that was checked. Once the path is something else, the refresh does not wait: it fails
 * with `not_regular`. If the path is now a FIFO and the process may write to it, the
 * blocked open is released by opening the FIFO for writing and closing it at once (no byte
 * written; a FIFO with a reader waiting opens for writing without blocking), so no operation
 * is left pending. Without write permission the blocked open stays pending until a writer
 * appears or the process ends (the CLI ends its process explicitly); the refresh still
 * returns.
 */
async function openWithDeno(deno: typeof Deno, path: string): Promise<OpenTranscript> {
  const isNotFound = (error: unknown): boolean => error instanceof deno.errors.NotFound;
  let checked: Deno.FileInfo;
  try {
    checked = statNow(deno, path);
  } catch (error) {
    throw new TranscriptError(isNotFound(error) ? "missing" : "unreadable");
  }
  if (!checked.isFile) throw new TranscriptError("not_regular");
  const file = await watchedOpen(deno, path, identityOf(checked.dev, checked.ino));
  let size: number;
  let identity: string | null;
  try {
    const info = fstatNow(file);
    if (!info.isFile) throw new TranscriptError("not_regular");
    size = info.size;
    identity = identityOf(info.dev, info.ino);
  } catch (error) {
    file.close();
    throw error instanceof TranscriptError ? error : new TranscriptError("unreadable");
  }
  /** The file position, as the reads left it (`NaN` after a failed one). */
  let at = 0;
  /** What this handle may still read synchronously. */
  let syncBudget = SYNC_READ_BYTES;
  return {
    size,
    identity,
    readAt(into: Uint8Array, position: number): Promise<number> {
      const sync = into.length <= syncBudget;
      if (sync) syncBudget -= into.length;
      const read = sync ? readNow : readLater;
      return read(deno, file, into, position, at).then(
        (end) => {
          at = end;
          return end - position;
        },
        () => {
          at = Number.NaN;
          throw new TranscriptError("unreadable");
        },
      );
    },
    close(): Promise<void> {
      try {
        file.close();
      } catch {
        // A failed close loses nothing: the handle was only read.
      }
      return Promise.resolve();
    },
  };
}

/*
 * Small operations on a local file are made synchronously: a stat, an fstat and a read of a
 * few KiB take microseconds, while each asynchronous one is a round trip through Deno's
 * thread pool, which in a fresh process (a status line) costs far more than the work. The
 * open stays asynchronous (it is what a FIFO can block), and so do large reads.
 */

/**
 * How many bytes a handle reads synchronously before its reads go through the thread pool:
 * the fingerprints, a status line's appends and the whole first read of a small transcript,
 * while a large first read still lets the event loop run (and an abort signal fire) between
 * its reads.
 */
const SYNC_READ_BYTES = 4 << 20;

function statNow(deno: typeof Deno, path: string): Deno.FileInfo {
  return deno.statSync(path);
}

function fstatNow(file: Deno.FsFile): Deno.FileInfo {
  return file.statSync();
}

/**
 * Reads into `into` from `position` (the file is at `at`); resolves with the position after
 * the bytes read. Reads often go on where the last one ended (the scan after the
 * fingerprint before the offset), and a seek is saved then.
 */
function readNow(
  deno: typeof Deno,
  file: Deno.FsFile,
  into: Uint8Array,
  position: number,
  at: number,
): Promise<number> {
  try {
    if (position !== at) file.seekSync(position, deno.SeekMode.Start);
    let filled = 0;
    while (filled < into.length) {
      const read = file.readSync(into.subarray(filled));
      if (read === null) break;
      filled += read;
    }
    return Promise.resolve(position + filled);
  } catch (error) {
    return Promise.reject(error);
  }
}

/** {@linkcode readNow} through Deno's thread pool, for large reads. */
async function readLater(
  deno: typeof Deno,
  file: Deno.FsFile,
  into: Uint8Array,
  position: number,
  at: number,
): Promise<number> {
  if (position !== at) await file.seek(position, deno.SeekMode.Start);
  let filled = 0;
  while (filled < into.length) {
    const read = await file.read(into.subarray(filled));
    if (read === null) break;
    filled += read;
  }
  return position + filled;
}

/** `Deno.open(path)`, given up on once the path stops being the regular file checked. */
async function watchedOpen(
  deno: typeof Deno,
  path: string,
  checked: string | null,
): Promise<Deno.FsFile> {
  const opening = deno.open(path, { read: true }).then(
    (file) => ({ file }),
    (error: unknown) => ({ error }),
  );
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    for (let look = 0;; look++) {
      // The first looks race the open against a stat of the path, not a timer: a regular
      // file opens first, and a status line's first timer costs it Deno's lazy load of its
      // timers module. A slow open is then looked at every WATCH_MS ms.
      let statting: Promise<{ info: Deno.FileInfo | null }> | undefined;
      const lookNow = (): Promise<{ info: Deno.FileInfo | null }> =>
        statting = deno.stat(path).then((info) => ({ info }), () => ({ info: null }));
      const looking = look < QUICK_LOOKS ? lookNow() : new Promise<{ info: Deno.FileInfo | null }>(
        (resolve) => {
          timer = setTimeout(() => lookNow().then(resolve), WATCH_MS);
        },
      );
      const outcome = await Promise.race([opening, looking]);
      stop(timer);
      timer = undefined;
      if ("file" in outcome || "error" in outcome) {
        // A stat still running would outlive the refresh: wait for it (it is quick).
        await statting;
        if ("file" in outcome) return outcome.file;
        throw new TranscriptError(
          outcome.error instanceof deno.errors.NotFound ? "missing" : "unreadable",
        );
      }
      const now = outcome.info;
      if (now?.isFile === true && identityOf(now.dev, now.ino) === checked) continue;
      // The path changed under the pending open: do not wait for it.
      if (now?.isFifo === true && await releaseFifo(deno, path)) {
        const settled = await opening;
        if ("file" in settled) settled.file.close();
      } else {
        // Close the file if the open ever completes.
        opening.then((settled) => "file" in settled && settled.file.close());
      }
      throw new TranscriptError("not_regular");
    }
  } finally {
    stop(timer);
  }
}

/** Clears `timer` if one was set: merely naming `clearTimeout` makes Deno load its timers. */
function stop(timer: ReturnType<typeof setTimeout> | undefined): void {
  if (timer !== undefined) clearTimeout(timer);
}

/**
 * Releases an open blocked on the FIFO at `path` by opening it for writing and closing it
 * (no byte is written). Returns whether that was possible (write permission, a FIFO still).
 */
async function releaseFifo(deno: typeof Deno, path: string): Promise<boolean> {
  try {
    if (deno.permissions.querySync({ name: "write", path }).state !== "granted") return false;
    const writer = await deno.open(path, { write: true });
    writer.close();
    return true;
  } catch {
    return false;
  }
}

interface NodeHandle {
  stat(): Promise<{ isFile(): boolean; size: number | bigint; dev: unknown; ino: unknown }>;
  read(
    buffer: Uint8Array,
    offset: number,
    length: number,
    position: number,
  ): Promise<{ bytesRead: number }>;
  close(): Promise<void>;
}

interface NodeFs {
  constants: { O_RDONLY: number; O_NONBLOCK?: number };
  promises: {
    stat(path: string): Promise<{ isFile(): boolean }>;
    open(path: string, flags: number): Promise<NodeHandle>;
  };
}

let nodeFs: Promise<NodeFs> | undefined;

/** `node:fs`, imported on first use only (never under Deno). */
function loadNodeFs(): Promise<NodeFs> {
  nodeFs ??= import("node:fs") as Promise<NodeFs>;
  return nodeFs;
}

async function closeQuietly(handle: NodeHandle): Promise<void> {
  try {
    await handle.close();
  } catch {
    // A failed close loses nothing: the handle was only read.
  }
}

/** The `node:fs` way (Node, Bun): `stat`, a non-blocking open, then `fstat` on the handle. */
async function openWithNode(path: string): Promise<OpenTranscript> {
  let fs: NodeFs;
  try {
    fs = await loadNodeFs();
  } catch {
    throw new TranscriptError("unreadable");
  }
  try {
    if (!(await fs.promises.stat(path)).isFile()) throw new TranscriptError("not_regular");
  } catch (error) {
    if (error instanceof TranscriptError) throw error;
    throw new TranscriptError(codeOf(error) === "ENOENT" ? "missing" : "unreadable");
  }
  let handle: NodeHandle;
  try {
    // O_NONBLOCK: a FIFO swapped in after the stat opens at once, and fstat refuses it.
    handle = await fs.promises.open(path, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
  } catch (error) {
    throw new TranscriptError(codeOf(error) === "ENOENT" ? "missing" : "unreadable");
  }
  let size: number;
  let identity: string | null;
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw new TranscriptError("not_regular");
    size = Number(stat.size);
    identity = identityOf(stat.dev, stat.ino);
  } catch (error) {
    await closeQuietly(handle);
    throw error instanceof TranscriptError ? error : new TranscriptError("unreadable");
  }
  return {
    size,
    identity,
    async readAt(into: Uint8Array, position: number): Promise<number> {
      try {
        let filled = 0;
        while (filled < into.length) {
          const { bytesRead } = await handle.read(
            into,
            filled,
            into.length - filled,
            position + filled,
          );
          if (bytesRead === 0) break;
          filled += bytesRead;
        }
        return filled;
      } catch {
        throw new TranscriptError("unreadable");
      }
    },
    close(): Promise<void> {
      return closeQuietly(handle);
    },
  };
}
