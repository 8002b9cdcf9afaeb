// Copyright 2026 the brigade authors. MIT license.

/**
 * Which inputs the command reads: files and streams, nothing else. A regular file is read; a
 * FIFO (`<(zcat log.gz)`, a named pipe) is read as a stream, as `-` reads standard input; a
 * directory, a device or a socket is refused before a byte is read, in the reader's words
 * (reading `/dev/zero` would never end). (Into a folder, `--out DIR`, a directory given is a
 * folder of transcripts: `_walk.ts` finds them before any is checked here.)
 *
 * @module
 */

import { EventSourceError } from "../events/errors.ts";
import { TranscriptError } from "../reader/_error.ts";

/** The reader's reason for refusing anything but a regular file: "it is not a regular file". */
const NOT_REGULAR = new TranscriptError("not_regular").message.replace(/^.*?: /, "");

/** What a path names, in words, when it is neither a regular file nor a FIFO. */
function refusedKind(info: Deno.FileInfo): string | undefined {
  if (info.isFile || info.isFifo) return undefined;
  if (info.isDirectory) return "a directory: with --out DIR, the transcripts in it are rendered";
  if (info.isCharDevice || info.isBlockDevice) return "a device";
  if (info.isSocket) return "a socket";
  return "not a file";
}

/**
 * Checks an input before it is opened: `-`, a regular file and a FIFO pass; anything else is an
 * {@linkcode EventSourceError} naming the input. A path that cannot be looked at passes too: its
 * opener says why (no such file, permission denied).
 *
 * @returns Whether the input is a FIFO (to be read as a stream).
 */
export async function checkInput(input: string): Promise<{ fifo: boolean }> {
  if (input === "-") return { fifo: false };
  const info = await Deno.stat(input).catch(() => undefined);
  const kind = info === undefined ? undefined : refusedKind(info);
  if (kind !== undefined) {
    throw new EventSourceError(`Cannot read the input: ${NOT_REGULAR} (${kind})`, {
      code: "unreadable",
      source: input,
    });
  }
  return { fifo: info?.isFifo === true };
}
