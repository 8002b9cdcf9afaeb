// Copyright 2026 the brigade authors. MIT license.

import { EventSourceError } from "../events/errors.ts";

/** A path as text: a `file:` URL's decoded path, or the string itself. */
export function pathText(path: string | URL): string {
  return typeof path === "string" ? path : decodeURIComponent(path.pathname);
}

/** The last path segment without its extension: `logs/sesn_1.ndjson` → `sesn_1`. */
export function baseName(path: string): string {
  const segment = path.split(/[\\/]/).pop() ?? path;
  const dot = segment.lastIndexOf(".");
  return dot > 0 ? segment.slice(0, dot) : segment;
}

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

/**
 * Opens a file for a source, as a byte stream that closes the file when read
 * to the end or cancelled. Deno is looked up only here, when a path is read,
 * so the sources still import on runtimes without it. `what` names the input
 * in errors ("file", "Claude Code transcript").
 */
export async function openFile(
  path: string | URL,
  name: string,
  what: string,
): Promise<ReadableStream<Uint8Array>> {
  const deno = (globalThis as { Deno?: DenoFiles }).Deno;
  if (deno === undefined) {
    throw new EventSourceError(`Cannot open the ${what} outside Deno: pass a ReadableStream`, {
      code: "unreadable",
      source: name,
    });
  }
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
