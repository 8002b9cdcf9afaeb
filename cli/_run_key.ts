// Copyright 2026 the brigade authors. MIT license.

/**
 * What, besides an input, a run's outputs into a folder depend on: the package's version, the
 * renderer and the options that change what is written. The folder's record keeps it with each
 * input (and with the folder's state): a rerun whose key differs renders again. Its own module,
 * with no import, so that a rerun that finds nothing changed takes it without loading a renderer,
 * and a render to standard output (which needs only {@linkcode readsThinking}) loads neither it
 * nor the package's version with it.
 *
 * @module
 */

import type { RenderCommand } from "./_args.ts";

/** What the key needs of a renderer: its name, extension and the options it takes. */
export interface KeyedRenderer {
  name: string;
  extension?: string | undefined;
  optionNames?: readonly string[] | undefined;
}

/**
 * Whether a Claude Code transcript's thinking is read: for a renderer that says it takes a
 * `thinking` option, unless `--no-thinking`.
 *
 * @example Usage
 * ```ts
 * import { readsThinking } from "./_run_key.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(readsThinking({ name: "html", optionNames: ["thinking"] }, {}), true);
 * assert.equal(readsThinking({ name: "html", optionNames: ["thinking"] }, { thinking: false }), false);
 * assert.equal(readsThinking({ name: "dream", optionNames: ["cap"] }, {}), false);
 * ```
 *
 * @param renderer The renderer.
 * @param options The options the command line sets.
 * @returns Whether the thinking is read.
 */
export function readsThinking(
  renderer: KeyedRenderer,
  options: RenderCommand["rendererOptions"],
): boolean {
  return renderer.optionNames?.includes("thinking") === true && options.thinking !== false;
}

/**
 * The options' fingerprint: what, besides an input, its outputs depend on. A previous index
 * marks the folder's index, never a page: it is left out.
 *
 * @example Usage
 * ```ts
 * import { parseRenderArgs } from "./_args.ts";
 * import { runKey } from "./_run_key.ts";
 * import assert from "node:assert/strict";
 *
 * const dream = { name: "dream", extension: ".md", optionNames: ["cap"] };
 * const command = await parseRenderArgs(["-r", "dream", "a.jsonl"]);
 * const scoped = await parseRenderArgs(["-r", "dream", "--scope", "all", "a.jsonl"]);
 * assert.notEqual(runKey(command, dream, "0.2.0"), runKey(scoped, dream, "0.2.0"));
 * assert.notEqual(runKey(command, dream, "0.2.0"), runKey(command, dream, "0.2.1"));
 * ```
 *
 * @param command The command.
 * @param renderer The renderer named.
 * @param version The package's version (`VERSION` of `_version.ts`).
 * @returns The fingerprint, a JSON text.
 */
export function runKey(command: RenderCommand, renderer: KeyedRenderer, version: string): string {
  const { scope, format, skipInvalid, sessionId } = command;
  const { previous: _previous, previousName: _name, ...rendererOptions } = command.rendererOptions;
  return JSON.stringify([
    version,
    renderer.name,
    renderer.extension ?? ".txt",
    scope ?? null,
    format,
    skipInvalid,
    sessionId ?? null,
    rendererOptions,
    readsThinking(renderer, command.rendererOptions),
  ]);
}
