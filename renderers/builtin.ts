// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

import { dreamRenderer, type DreamRendererOptions } from "./dream/dream.ts";
import { type GraderOptions, graderRenderer } from "./grader/grader.ts";
import { htmlRenderer } from "./html/lazy.ts";
import type { HtmlOptions } from "./html/options.ts";
import { type IndexOptions, indexRenderer } from "./dream/dream_index.ts";
import { type JsonOptions, jsonRenderer } from "./json/json.ts";
import { RendererRegistry } from "./registry.ts";

/** The built-in renderers' names, each mapped to its options. */
export type BuiltinRenderers = {
  /** {@linkcode renderGrader}'s options. */
  grader: GraderOptions;
  /** {@linkcode renderDream}'s options, and into a folder, the previous index's. */
  dream: DreamRendererOptions;
  /** {@linkcode renderIndex}'s options. */
  index: IndexOptions;
  /** {@linkcode renderJson}'s options. */
  json: JsonOptions;
  /** {@linkcode renderHtml}'s options. */
  html: HtmlOptions;
};

/**
 * A fresh registry holding the built-in renderers, for a caller who wants to
 * add renderers without touching the shared {@linkcode registry}.
 *
 * @returns A new registry.
 *
 * @example Usage
 * ```ts
 * import { createRegistry } from "@brigade/transcript";
 * import assert from "node:assert/strict";
 *
 * const mine = createRegistry();
 * assert.ok(mine.has("grader"));
 * ```
 */
export function createRegistry(): RendererRegistry<BuiltinRenderers> {
  return new RendererRegistry()
    .register(graderRenderer)
    .register(dreamRenderer)
    .register(indexRenderer)
    .register(jsonRenderer)
    .register(htmlRenderer);
}

/**
 * A ready registry holding the built-in renderers.
 *
 * @example Usage
 * ```ts
 * import { fromEntries, registry } from "@brigade/transcript";
 * import assert from "node:assert/strict";
 *
 * const text = await registry.render("grader", fromEntries([{
 *   seq: 1,
 *   session_id: "sesn_1",
 *   thread_id: null,
 *   event: { id: "sevt_1", type: "user.message", content: "Hello" },
 * }]));
 * assert.equal(text, "[user]\n  Hello\n");
 * ```
 */
export const registry: RendererRegistry<BuiltinRenderers> = createRegistry();
