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
}
