// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

/**
 * The html renderer with its libraries: {@linkcode renderHtml} writes one
 * session as a self-contained page for people (redacted, escaped, no
 * scripts), and {@linkcode htmlRenderer} is it under the registry's
 * contract, with the site index of a folder of pages. This entry point
 * imports the Markdown parser (markdown-it) and the diff library (diff) with
 * it, so a lockfile or `deno cache` of it holds them; `.` exports the same
 * renderer and loads them with its first page instead.
 *
 * ```ts
 * import { renderHtml } from "@brigade/transcript/html";
 * import assert from "node:assert/strict";
 *
 * const page = await renderHtml([{
 *   seq: 1,
 *   session_id: "sesn_1",
 *   thread_id: null,
 *   event: { id: "sevt_1", type: "agent.message", content: "**Done**: see `notes.md`" },
 * }]);
 * assert.match(page, /<strong>Done<\/strong>: see <code>notes\.md<\/code>/);
 * ```
 *
 * @module
 */

export * from "./options.ts";
export { htmlRenderer, renderHtml } from "./html.ts";
// The event model and the renderer contract its names are made of, so that this entry point
// documents whole on its own.
export type * from "../../events/types.ts";
export type {
  FolderPage,
  PageHead,
  PageOrigin,
  Renderer,
  RendererBatch,
  RendererFolder,
} from "../registry.ts";
