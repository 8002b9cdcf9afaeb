// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// The html renderer as `.` exports it: the same page as `./html`'s, with `./html` (and with it the
// Markdown parser and the diff library) imported when the first page is rendered, so that `.`'s
// module graph, and a user's lockfile, hold no third-party package.

import type { EntryIterable } from "../../events/types.ts";
import type { PageOrigin, Renderer } from "../registry.ts";
import { htmlFolderIndex } from "./html_index.ts";
import { HTML_RENDERER_FACTS, type HtmlOptions } from "./options.ts";

/** What `.` uses of `./html` (`mod.ts` beside this file). */
interface HtmlModule {
  renderHtml(source: EntryIterable, options?: HtmlOptions): Promise<string>;
  htmlRenderer: {
    folder: {
      page(source: EntryIterable, options?: HtmlOptions, origin?: PageOrigin): Promise<string>;
    };
  };
}

/** A path segment the specifier of `./html` steps into and back out of (see {@linkcode htmlModule}). */
const STEP = "html";

/**
 * `./html`, imported. The specifier is a template whose one expression is a
 * segment it steps back out of (`./html/../mod.ts`): deno_graph follows a
 * string literal (which would put the libraries in `.`'s graph) and globs a
 * template's files (here any folder, then `../mod.ts`: no file's path holds
 * `..`, so none), and `deno publish` warns of any other computed specifier.
 * At run time it is `./mod.ts` resolved against this module's URL, dot
 * segments removed, so it loads the same from a file, from an http server and
 * from JSR, whose manifest knows the file by that path (a fragment or a query
 * would fail JSR's integrity check). By path, a dynamic import reads a local
 * file: the caller needs read access to the package's folder then.
 */
function htmlModule(): Promise<HtmlModule> {
  return import(`./${STEP}/../mod.ts`);
}

/**
 * Renders one session as a self-contained HTML page for people to read,
 * redacted, escaped, with no script but its own find-and-filter: the page of
 * `@brigade/transcript/html`'s `renderHtml`, byte for byte (see there for
 * what it shows). The Markdown parser and the diff library it needs are
 * imported with the first page rendered, never when `.` is imported: a
 * program that renders no page fetches no third-party package.
 *
 * @param source The session's entries (one session).
 * @param options Budgets, redaction, thinking and a signal.
 * @returns The page.
 * @throws {EventSourceError} When an entry is malformed (code `invalid_entry`) or a second
 * session appears (`second_session`).
 * @throws {RangeError} When a budget is not a positive integer.
 *
 * @example Usage
 * ```ts
 * import { renderHtml } from "@brigade/transcript";
 * import assert from "node:assert/strict";
 *
 * const page = await renderHtml([{
 *   seq: 1,
 *   session_id: "sesn_1",
 *   thread_id: null,
 *   event: { id: "sevt_1", type: "user.message", content: "<script>alert(1)</script>" },
 * }]);
 * assert.match(page, /^<!DOCTYPE html>/);
 * assert.match(page, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
 * // One script, the page's own (find and filter), which its policy names by hash.
 * assert.equal(page.match(/<script/g)?.length, 1);
 * assert.match(page, /script-src 'sha256-[^']+'/);
 * ```
 */
export async function renderHtml(
  source: EntryIterable,
  options: HtmlOptions = {},
): Promise<string> {
  return await (await htmlModule()).renderHtml(source, options);
}

/**
 * The `html` renderer: {@linkcode renderHtml} under the registry's contract;
 * a folder of its pages gets an `index.html` of every page, grouped by
 * project (a page of a folder carries where its session came from, the
 * {@linkcode PageOrigin} the command gives it, and links back to the index).
 * Its page is `@brigade/transcript/html`'s, loaded with the first one.
 *
 * @example Usage
 * ```ts
 * import { htmlRenderer } from "@brigade/transcript";
 * import assert from "node:assert/strict";
 *
 * assert.equal(htmlRenderer.name, "html");
 * assert.equal(htmlRenderer.extension, ".html");
 * assert.equal(htmlRenderer.folder?.indexName, "index.html");
 * assert.match(await htmlRenderer.render([]), /^<!DOCTYPE html>/);
 * ```
 */
export const htmlRenderer: Renderer<HtmlOptions, "html"> = {
  ...HTML_RENDERER_FACTS,
  render: renderHtml,
  folder: {
    ...htmlFolderIndex,
    page: async (
      source: EntryIterable,
      options?: HtmlOptions,
      origin?: PageOrigin,
    ): Promise<string> =>
      await (await htmlModule()).htmlRenderer.folder.page(source, options, origin),
  },
};
