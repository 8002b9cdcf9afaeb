// Copyright 2026 the brigade authors. MIT license.

/**
 * What, besides an input, a run's outputs into a folder depend on: the package's version, the
 * renderer and the options that change what is written. The folder's record keeps it with each
 * input (and with the folder's index): a rerun whose key differs renders again. Its own module,
 * so that a rerun that finds nothing changed takes it without loading a renderer.
 *
 * @module
 */

import type { RenderCommand } from "./_args.ts";
import { VERSION } from "./_version.ts";

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
 * const plain = runKey(await parseRenderArgs(["-r", "dream", "a.jsonl"]), dream);
 * const scoped = runKey(await parseRenderArgs(["-r", "dream", "--scope", "all", "a.jsonl"]), dream);
 * assert.notEqual(plain, scoped);
 * ```
 *
 * @param command The command.
 * @param renderer The renderer named.
 * @returns The fingerprint, a JSON text.
 */
export function runKey(command: RenderCommand, renderer: KeyedRenderer): string {
  const { scope, format, skipInvalid, sessionId } = command;
  const { previous: _previous, previousName: _name, ...rendererOptions } = command.rendererOptions;
  return JSON.stringify([
    VERSION,
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
