// Copyright 2026 the brigade authors. MIT license.

/**
 * Opening a transcript safely: the path (symlinks followed) must name a regular file before
 * a byte is read. `Deno.open` on a FIFO blocks until a writer appears, so the path is checked
 * with `Deno.stat` first, then opened non-blocking and the handle itself checked with `fstat`,
 * so that a FIFO swapped in between the two cannot hang the process either.
 *
 * @module
 */

import { constants } from "node:fs";
import { type FileHandle, open } from "node:fs/promises";
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

function isNotFound(error: unknown): boolean {
  return error instanceof Deno.errors.NotFound ||
    (error instanceof Error && (error as { code?: unknown }).code === "ENOENT");
}

function isKnown(value: unknown): boolean {
  return (typeof value === "number" && value !== 0) || (typeof value === "bigint" && value !== 0n);
}

function identityOf(dev: unknown, ino: unknown): string | null {
  return isKnown(dev) && isKnown(ino) ? `${dev}:${ino}` : null;
}

async function closeQuietly(handle: FileHandle): Promise<void> {
  try {
    await handle.close();
  } catch {
    // A failed close loses nothing: the handle was only read.
  }
}

/** Opens `path` for reading, or throws a {@linkcode TranscriptError}. */
export async function openTranscript(path: string): Promise<OpenTranscript> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(path);
  } catch (error) {
    throw new TranscriptError(isNotFound(error) ? "missing" : "unreadable");
  }
  if (!info.isFile) throw new TranscriptError("not_regular");
  let handle: FileHandle;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    throw new TranscriptError(isNotFound(error) ? "missing" : "unreadable");
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
        const { bytesRead } = await handle.read(into, 0, into.length, position);
        return bytesRead;
      } catch {
        throw new TranscriptError("unreadable");
      }
    },
    close(): Promise<void> {
      return closeQuietly(handle);
    },
  };
}
