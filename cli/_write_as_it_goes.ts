// Copyright 2026 the brigade authors. MIT license.

/**
 * `--follow`'s output, of a session from the API or of a growing file: each item written as it
 * completes.
 *
 * @module
 */

import type { LogEntry } from "../events/types.ts";
import type { Renderer } from "../renderers/registry.ts";
import type { RendererFlags } from "./_args.ts";
import { writeOutput } from "./_terminal.ts";

/**
 * Each chunk of the renderer's `stream` (each item, as it completes) written whole to standard
 * output before the next is asked for, until the source ends; a renderer without `stream` prints
 * its whole text at the end.
 */
export async function writeAsItGoes(
  renderer: Renderer,
  source: AsyncIterable<LogEntry>,
  options: RendererFlags,
): Promise<void> {
  const chunks = renderer.stream?.(source, options) ??
    (async function* (): AsyncGenerator<string> {
      yield await renderer.render(source, options);
    })();
  for await (const chunk of chunks) {
    // Whole, before the next is asked for: Ctrl-C stops the reading, never a write.
    await writeOutput(chunk);
  }
}
