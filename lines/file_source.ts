// Copyright 2026 the brigade authors. MIT license.

import { EventSourceError } from "../events/errors.ts";

/** A path as text: a `file:` URL's decoded path, or the string itself. */
export function pathText(path: string | URL): string {
  return typeof path === "string" ? path : decodeURIComponent(path.pathname);
}

// Re-exported: a source outside lines/ takes the name from here (a private file is its folder's).
export { baseName } from "./_base_name.ts";

/** An error class of `Deno.errors`, as far as {@linkcode openFile} uses one. */
type DenoErrorClass = new (message?: string) => Error;

/**
 * The part of the `Deno` namespace that {@linkcode openFile} uses, typed here so that this
 * module type-checks without Deno's types (in a browser, `globalThis.Deno` is absent).
 */
interface DenoFiles {
  open(path: string | URL, options: { read: true }): Promise<{
    readonly readable: ReadableStream<Uint8Array>;
    stat(): Promise<{ readonly isDirectory: boolean }>;
    close(): void;
  }>;
  readonly errors: {
    readonly NotFound: DenoErrorClass;
    readonly PermissionDenied: DenoErrorClass;
    readonly IsADirectory: DenoErrorClass;
  };
}

/** What a source's file open needs of `node:fs`'s file handle (Node, Bun). */
interface NodeFileHandle {
  stat(): Promise<{ isDirectory(): boolean }>;
  read(
    buffer: Uint8Array,
    offset: number,
    length: number,
    position: null,
  ): Promise<{ bytesRead: number }>;
  close(): Promise<void>;
}

/** The part of `node:fs` a source's file open uses. */
interface NodeFiles {
  promises: { open(path: string | URL, flags: "r"): Promise<NodeFileHandle> };
}

/** How many bytes a read of a file opened through `node:fs` asks for, when the reader gives none. */
const NODE_CHUNK_BYTES = 64 * 1024;

/**
 * Opens a file for a source, as a byte stream that closes the file when read
 * to the end or cancelled: with Deno's file API under Deno, else with
 * `node:fs` (Node, Bun; imported only then), as the reader reads a path
 * everywhere. A directory is refused. `what` names the input in errors
 * ("file", "Claude Code transcript").
 */
export async function openFile(
  path: string | URL,
  name: string,
  what: string,
): Promise<ReadableStream<Uint8Array>> {
  const deno = (globalThis as { Deno?: DenoFiles }).Deno;
  return deno === undefined
    ? await openWithNode(path, name, what)
    : await openWithDeno(deno, path, name, what);
}

/** Deno's way: `Deno.open`, then `stat` on the handle (a directory is refused). */
async function openWithDeno(
  deno: DenoFiles,
  path: string | URL,
  name: string,
  what: string,
): Promise<ReadableStream<Uint8Array>> {
  try {
    const file = await deno.open(path, { read: true });
    if ((await file.stat().catch(() => undefined))?.isDirectory) {
      file.close();
      throw new deno.errors.IsADirectory(name);
    }
    return file.readable;
  } catch (error) {
    const why = error instanceof deno.errors.NotFound
      ? "no such file"
      : error instanceof deno.errors.PermissionDenied
      ? "permission denied"
      : error instanceof deno.errors.IsADirectory
      ? "it is a directory"
      : "it cannot be read";
    throw new EventSourceError(`Cannot open the ${what}: ${why}`, {
      code: "unreadable",
      source: name,
      cause: error,
    });
  }
}

/** Why `node:fs` could not open a file, by its error's `code`, in the words Deno's way uses. */
function nodeReason(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === "ENOENT" || code === "ENOTDIR") return "no such file";
  if (code === "EACCES" || code === "EPERM") return "permission denied";
  if (code === "EISDIR") return "it is a directory";
  return "it cannot be read";
}

/**
 * The `node:fs` way (Node, Bun): `open`, then `stat` on the handle (a directory is refused); a
 * byte stream that reads into the reader's own buffer when it brings one.
 */
async function openWithNode(
  path: string | URL,
  name: string,
  what: string,
): Promise<ReadableStream<Uint8Array>> {
  let fs: NodeFiles;
  try {
    fs = await import("node:fs") as unknown as NodeFiles;
  } catch (error) {
    throw new EventSourceError(
      `Cannot open the ${what} without Deno's or Node's file API: pass a ReadableStream`,
      { code: "unreadable", source: name, cause: error },
    );
  }
  let handle: NodeFileHandle;
  try {
    handle = await fs.promises.open(path, "r");
  } catch (error) {
    throw new EventSourceError(`Cannot open the ${what}: ${nodeReason(error)}`, {
      code: "unreadable",
      source: name,
      cause: error,
    });
  }
  const directory = await handle.stat().then((info) => info.isDirectory(), () => false);
  if (directory) {
    await handle.close().catch(() => {});
    throw new EventSourceError(`Cannot open the ${what}: it is a directory`, {
      code: "unreadable",
      source: name,
    });
  }
  return nodeFileStream(handle);
}

/** A file handle's bytes as a byte stream, the handle closed at the end, on a failure or a cancel. */
function nodeFileStream(handle: NodeFileHandle): ReadableStream<Uint8Array> {
  let closed = false;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    await handle.close().catch(() => {});
  };
  return new ReadableStream({
    type: "bytes",
    async pull(controller): Promise<void> {
      const request = controller.byobRequest;
      const view = request?.view;
      const into = view
        ? new Uint8Array(view.buffer, view.byteOffset, view.byteLength)
        : new Uint8Array(NODE_CHUNK_BYTES);
      let bytesRead: number;
      try {
        ({ bytesRead } = await handle.read(into, 0, into.length, null));
      } catch (error) {
        await close();
        throw error;
      }
      if (bytesRead === 0) {
        await close();
        controller.close();
        request?.respond(0);
        return;
      }
      if (request) request.respond(bytesRead);
      else controller.enqueue(into.subarray(0, bytesRead));
    },
    cancel: close,
  });
}
