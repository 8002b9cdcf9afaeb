// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// Its own module, importing nothing: the CLI names the session of an input it reads (the bundled
// example's too) without loading the file source, which a render of the example never opens.

/**
 * The last path segment without its extension: `logs/sesn_1.ndjson` → `sesn_1`.
 *
 * @example Usage
 * ```ts
 * import { baseName } from "./_base_name.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(baseName("logs/sesn_1.ndjson"), "sesn_1");
 * assert.equal(baseName("C:\\logs\\.hidden"), ".hidden");
 * ```
 *
 * @param path The path.
 * @returns Its last segment, without the extension.
 */
export function baseName(path: string): string {
  const segment = path.split(/[\\/]/).pop() ?? path;
  const dot = segment.lastIndexOf(".");
  return dot > 0 ? segment.slice(0, dot) : segment;
}
