// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

import type { EntryIterable } from "../events/types.ts";

/**
 * A renderer: turns one event source into text a model reads.
 *
 * @typeParam Options The options its `render` takes.
 * @typeParam Name Its registry name.
 */
export interface Renderer<Options = unknown, Name extends string = string> {
  /** The name it is registered and called by: letters, digits, `.`, `_` and `-`. */
  readonly name: Name;
  /** One line saying what it produces, for `list()` and `--help`. */
  readonly description: string;
  /**
   * The file extension, with its dot, of its output when written to a folder.
   *
   * @default {".txt"}
   */
  readonly extension?: string;
  /**
   * The names of the options {@linkcode Renderer.render} reads, for a caller
   * that passes options by name, such as the command line's `--item-budget`,
   * `--transcript-budget` and `--keep`: an option not listed is refused there
   * rather than ignored. Left out, the renderer does not say, and every option
   * given is passed.
   *
   * @default {undefined}
   */
  readonly optionNames?: readonly string[];
  /**
   * Renders the entries of a source.
   *
   * @param source The entries.
   * @param options The renderer's options.
   * @returns The text.
   */
  render(source: EntryIterable, options?: Options): Promise<string>;
  /**
   * Renders the entries of a source in chunks, each given out as soon as it
   * is final (an item complete), for following a live session
   * (`render --follow`). Joined, the chunks should be
   * {@linkcode Renderer.render}'s text. Without it, a caller that follows
   * waits for the whole text.
   *
   * @param source The entries, e.g. a followed session.
   * @param options The renderer's options.
   * @returns The text's chunks.
   *
   * @default {undefined}
   */
  stream?(source: EntryIterable, options?: Options): AsyncIterable<string>;
  /**
   * How its output lives in a folder (`render --out DIR`): the page written
   * for each session, the summary read back from a page, and the folder's
   * index built from those summaries. Without it, a folder holds one plain
   * file per session and no index.
   *
   * @default {undefined}
   */
  readonly folder?: RendererFolder<Options>;
  /**
   * Set when the renderer takes whole batches: the command reads every input
   * as one source (their sessions one after another), renders it once, and
   * into a folder writes the text under {@linkcode RendererBatch.fileName}.
   * Without it, each session is rendered on its own.
   *
   * @default {undefined}
   */
  readonly batch?: RendererBatch;
}

/**
 * What a renderer that takes whole batches declares: see
 * {@linkcode Renderer.batch}.
 *
 * @example Usage
 * ```ts
 * import type { RendererBatch } from "@brigade/transcript";
 * import assert from "node:assert/strict";
 *
 * const batch: RendererBatch = { fileName: "SESSIONS.txt" };
 * assert.equal(batch.fileName, "SESSIONS.txt");
 * ```
 */
export interface RendererBatch {
  /** The file the batch's text is written to in a folder: a plain name, no `/`. */
  readonly fileName: string;
}

/**
 * The head of a file of a folder, as the command reads it back to rebuild
 * the folder's index: never more than {@linkcode RendererFolder.headBytes}
 * bytes, so a folder of huge files costs no more than a folder of small ones.
 */
export interface PageHead {
  /** The file's name in the folder. */
  readonly name: string;
  /** Its first bytes as text (the whole file when it is smaller than the head). */
  readonly head: string;
  /** The file's size in bytes. */
  readonly size: number;
}

/**
 * Where a session written into a folder was read from, as the command tells
 * a renderer's {@linkcode RendererFolder.page} (each field where known), so a
 * page can carry it for the folder's index to group and describe sessions by.
 *
 * @example Usage
 * ```ts
 * import type { PageOrigin } from "@brigade/transcript";
 * import assert from "node:assert/strict";
 *
 * // A session of `deno task render --out site/ ~/.claude/projects`.
 * const origin: PageOrigin = {
 *   project: "-home-me-app",
 *   cwd: "/home/me/app",
 *   bytes: 20_480,
 * };
 * assert.equal(origin.project, "-home-me-app");
 * ```
 */
export interface PageOrigin {
  /**
   * The project the session belongs to: the folder holding its transcript,
   * named relative to the folder given to the command (a transcript right
   * in that folder: its name). Undefined for an input named on its own.
   */
  readonly project?: string;
  /** The directory the session ran in, as its records say (a Claude Code record's `cwd`). */
  readonly cwd?: string;
  /** The input's size in bytes (a log of several sessions: the whole log's). */
  readonly bytes?: number;
  /**
   * The session is still growing (`render --watch`): the page says so and
   * reloads itself every few seconds (a `<meta http-equiv="refresh">`, no
   * script). Undefined or false for a finished session: no reload.
   */
  readonly live?: boolean;
}

/** A page of a folder and the summary read back from it. */
export interface FolderPage<Summary = unknown> {
  /** The page's file name in the folder. */
  readonly name: string;
  /** What {@linkcode RendererFolder.summary} read back from it. */
  readonly summary: Summary;
}

/**
 * How a renderer's output lives in a folder. Each session's page carries
 * its own summary (front matter, a `<meta>`, …); the folder's index is
 * rebuilt from the summaries of every page in the folder after each run, so
 * a folder that several runs wrote (interrupted, resumed, forced) gets the
 * index one uninterrupted run writes. The command only walks the folder: it
 * never tests which renderer it runs.
 *
 * @typeParam Options The renderer's options.
 * @typeParam Summary What a page carries for its index row.
 *
 * @example A team renderer with a resumable folder and its own index
 * ```ts
 * import type { Renderer, RendererFolder } from "@brigade/transcript";
 * import assert from "node:assert/strict";
 *
 * const folder: RendererFolder<unknown, { id: string }> = {
 *   indexName: "SESSIONS.txt",
 *   summary: ({ head }) => {
 *     const match = /^session (\S+)\n/.exec(head);
 *     return match === null ? undefined : { id: match[1]! };
 *   },
 *   ownsIndex: (head) => head === "" || /^\S+\n/.test(head),
 *   buildIndex: (pages) => pages.map((page) => `${page.summary.id}\n`).join(""),
 * };
 * const ids: Renderer = {
 *   name: "ids",
 *   description: "The session id",
 *   extension: ".txt",
 *   async render(source) {
 *     for await (const entry of source) return `session ${entry.session_id}\n`;
 *     return "session -\n";
 *   },
 *   folder,
 * };
 * const page = await ids.render([{
 *   seq: 1,
 *   session_id: "sesn_1",
 *   thread_id: null,
 *   event: { id: "sevt_1", type: "user.message", content: "Hi" },
 * }]);
 * const summary = folder.summary({ name: "sesn_1.txt", head: page, size: page.length });
 * assert.deepEqual(summary, { id: "sesn_1" });
 * assert.equal(await folder.buildIndex([{ name: "sesn_1.txt", summary: summary! }]), "sesn_1\n");
 * ```
 */
export interface RendererFolder<Options = unknown, Summary = unknown> {
  /**
   * The index file's name in the folder (`INDEX.md`, `index.html`): a plain
   * name, no `/`, ending in the renderer's extension. No session's page is
   * ever given it.
   */
  readonly indexName: string;
  /**
   * The most bytes of a page read back for {@linkcode RendererFolder.summary}.
   *
   * @default {65536}
   */
  readonly headBytes?: number;
  /**
   * Renders one session as the page written into the folder, when it
   * differs from {@linkcode Renderer.render}'s text (a summary added in
   * front, say). Standard output and `--out FILE` still get `render`'s text.
   *
   * @param source The session's entries.
   * @param options The renderer's options.
   * @param origin Where the session was read from, as far as the command
   *   knows: its project (when found in a folder of transcripts), the
   *   directory it ran in, its input's size.
   * @returns The page.
   */
  page?(source: EntryIterable, options?: Options, origin?: PageOrigin): Promise<string>;
  /**
   * The summary a page carries, read from its head.
   *
   * @param page The file's name, head and size.
   * @returns The summary; undefined when the file is not one of this
   *   renderer's pages (it is left out of the index).
   */
  summary(page: PageHead): Summary | undefined;
  /**
   * Whether an existing file under {@linkcode RendererFolder.indexName} is an
   * index this renderer wrote, told from its head (as read for
   * {@linkcode RendererFolder.summary}). Only such a file is rebuilt; any
   * other (a user's own `index.html`, say) is kept and reported unless
   * `--force`, like any other file. Without it, no existing index is ever
   * taken for the renderer's own.
   *
   * @param head The existing file's head.
   * @returns Whether the renderer wrote it.
   */
  ownsIndex?(head: string): boolean;
  /**
   * The folder's index.
   *
   * @param pages Every page of the folder and its summary, in file-name order.
   * @param options The renderer's options the run was given (the dream's
   *   folder index marks its rows against a `previous` index, say).
   * @returns The index file's text.
   */
  buildIndex(pages: FolderPage<Summary>[], options?: Options): string | Promise<string>;
}

/** What {@linkcode RendererRegistry.list} gives for each renderer. */
export interface RendererInfo {
  /** The renderer's name. */
  name: string;
  /** What it produces. */
  description: string;
}

/** Options for {@linkcode RendererRegistry.register}. */
export interface RegisterOptions {
  /**
   * Replace a renderer already registered under the same name instead of failing.
   *
   * @default {false}
   */
  replace?: boolean;
}

/** Why a {@linkcode RendererRegistryError} was thrown. */
export type RendererRegistryErrorCode = "unknown_renderer" | "duplicate_renderer";

/**
 * A registry lookup or registration failed: the name is unknown, or taken.
 *
 * @example Usage
 * ```ts
 * import { createRegistry, RendererRegistryError } from "@brigade/transcript";
 * import assert from "node:assert/strict";
 *
 * assert.throws(() => createRegistry().resolve("gradr"), RendererRegistryError);
 * ```
 */
export class RendererRegistryError extends Error {
  /** What went wrong. */
  readonly code: RendererRegistryErrorCode;
  /** The name asked for. */
  readonly rendererName: string;

  /**
   * Constructs a new instance.
   *
   * @param code What went wrong.
   * @param rendererName The name asked for.
   * @param message The message.
   */
  constructor(code: RendererRegistryErrorCode, rendererName: string, message: string) {
    super(message);
    this.name = "RendererRegistryError";
    this.code = code;
    this.rendererName = rendererName;
  }
}

const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * A set of renderers by name. Its type parameter maps each registered name to
 * its renderer's options, so `render("grader", source, { … })` checks both the
 * name and the options at compile time; {@linkcode RendererRegistry.resolve}
 * is the untyped path for names that come from configuration.
 *
 * @typeParam Known Each registered name, mapped to its renderer's options.
 *
 * @example A team registers its own renderer
 * ```ts
 * import { createRegistry, fromEntries, type Renderer } from "@brigade/transcript";
 * import assert from "node:assert/strict";
 *
 * const counter: Renderer<{ label?: string }, "count"> = {
 *   name: "count",
 *   description: "How many events the session holds",
 *   async render(source, options = {}) {
 *     let n = 0;
 *     for await (const _ of source) n++;
 *     return `${options.label ?? "events"}: ${n}`;
 *   },
 * };
 * const registry = createRegistry().register(counter);
 * const source = fromEntries([{
 *   seq: 1,
 *   session_id: "sesn_1",
 *   thread_id: null,
 *   event: { id: "sevt_1", type: "user.message", content: "Hi" },
 * }]);
 * assert.equal(await registry.render("count", source, { label: "rows" }), "rows: 1");
 * assert.ok(registry.list().some((info) => info.name === "count"));
 * ```
 */
// deno-lint-ignore ban-types -- `{}` is the empty starting point of the intersection
export class RendererRegistry<Known extends Record<string, unknown> = {}> {
  #renderers: Map<string, Renderer> = new Map();

  /**
   * Adds a renderer under its name.
   *
   * @typeParam Name The renderer's name.
   * @typeParam Options The renderer's options.
   * @param renderer The renderer.
   * @param options `replace: true` to replace one already registered.
   * @returns This registry, typed with the new name.
   * @throws {TypeError} When `renderer` lacks a valid name, description or render function.
   * @throws {RendererRegistryError} When the name is taken and `replace` is not set.
   */
  register<Name extends string, Options>(
    renderer: Renderer<Options, Name>,
    options: RegisterOptions = {},
  ): RendererRegistry<Known & { [K in Name]: Options }> {
    checkRenderer(renderer);
    if (this.#renderers.has(renderer.name) && !options.replace) {
      throw new RendererRegistryError(
        "duplicate_renderer",
        renderer.name,
        `Cannot register renderer "${renderer.name}": the name is taken (pass { replace: true } to replace it)`,
      );
    }
    this.#renderers.set(renderer.name, renderer as Renderer);
    return this as unknown as RendererRegistry<Known & { [K in Name]: Options }>;
  }

  /**
   * Whether a renderer is registered under `name`.
   *
   * @param name The name.
   * @returns Whether it is registered.
   */
  has(name: string): name is keyof Known & string {
    return this.#renderers.has(name);
  }

  /**
   * The renderer registered under `name`.
   *
   * @typeParam Name The name.
   * @param name The name.
   * @returns The renderer.
   * @throws {RendererRegistryError} When no renderer has that name.
   */
  get<Name extends keyof Known & string>(name: Name): Renderer<Known[Name], Name> {
    return this.resolve(name) as Renderer<Known[Name], Name>;
  }

  /**
   * The renderer registered under a name known only at run time (from
   * configuration or a command line), untyped.
   *
   * @param name The name.
   * @returns The renderer.
   * @throws {RendererRegistryError} When no renderer has that name; the
   * message lists the known ones.
   */
  resolve(name: string): Renderer {
    const renderer = this.#renderers.get(name);
    if (renderer !== undefined) return renderer;
    const known = [...this.#renderers.keys()].map((n) => `"${n}"`).join(", ");
    throw new RendererRegistryError(
      "unknown_renderer",
      name,
      `Unknown renderer "${name}": known renderers are ${known || "none"}`,
    );
  }

  /**
   * The registered renderers' names and descriptions, in registration order.
   *
   * @returns One entry per renderer.
   */
  list(): RendererInfo[] {
    return [...this.#renderers.values()].map(({ name, description }) => ({ name, description }));
  }

  /**
   * Renders a source with the renderer registered under `name`.
   *
   * @typeParam Name The name.
   * @param name The renderer's name.
   * @param source The entries.
   * @param options The renderer's options.
   * @returns The text.
   * @throws {RendererRegistryError} When no renderer has that name.
   */
  async render<Name extends keyof Known & string>(
    name: Name,
    source: EntryIterable,
    options?: Known[Name],
  ): Promise<string> {
    return await this.resolve(name).render(source, options);
  }
}

function checkRenderer(renderer: unknown): void {
  const candidate = renderer as Partial<Renderer> | null;
  if (typeof candidate !== "object" || candidate === null) {
    throw new TypeError(`Cannot register a renderer: expected an object, got ${typeof renderer}`);
  }
  if (typeof candidate.name !== "string" || !NAME_PATTERN.test(candidate.name)) {
    throw new TypeError(
      `Cannot register a renderer: its name must be letters, digits, ".", "_" or "-": ${
        JSON.stringify(candidate.name) ?? "missing"
      }`,
    );
  }
  if (typeof candidate.description !== "string") {
    throw new TypeError(
      `Cannot register renderer "${candidate.name}": description is not a string`,
    );
  }
  if (typeof candidate.render !== "function") {
    throw new TypeError(`Cannot register renderer "${candidate.name}": render is not a function`);
  }
  const folder = candidate.folder;
  if (folder !== undefined) {
    const f = folder as Partial<RendererFolder> | null;
    if (
      typeof f !== "object" || f === null || !isPlainName(f.indexName) ||
      typeof f.summary !== "function" || typeof f.buildIndex !== "function" ||
      (f.page !== undefined && typeof f.page !== "function") ||
      (f.ownsIndex !== undefined && typeof f.ownsIndex !== "function") ||
      (f.headBytes !== undefined && !(Number.isSafeInteger(f.headBytes) && f.headBytes > 0))
    ) {
      throw new TypeError(
        `Cannot register renderer "${candidate.name}": folder needs a plain indexName, summary and buildIndex functions (page, ownsIndex and a positive headBytes optional)`,
      );
    }
  }
  const batch = candidate.batch;
  if (batch !== undefined && !isPlainName((batch as Partial<RendererBatch> | null)?.fileName)) {
    throw new TypeError(
      `Cannot register renderer "${candidate.name}": batch.fileName must be a plain file name`,
    );
  }
}

/** A file name with no folder in it: not empty, not `.` or `..`, no `/`, `\\` or NUL. */
function isPlainName(name: unknown): boolean {
  return typeof name === "string" && name !== "" && name !== "." && name !== ".." &&
    !/[/\\\0]/.test(name);
}
