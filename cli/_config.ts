// Copyright 2026 the brigade authors. MIT license.

/**
 * The team renderers a project's `deno.json` names. Their modules are code from the folder the
 * command runs in, so reading the configuration imports nothing: a module is imported only when a
 * renderer it defines is named on the command line (never for `--help` or a built-in), and one
 * that fails to load is reported with its path and error.
 *
 * Two forms, under `"transcript": { "renderers": … }`, paths relative to the configuration file:
 * - an object, `{ "NAME": "./module.ts" }`: each name is known without importing anything, and
 *   naming it imports that module alone;
 * - an array, `["./module.ts"]`: the names are the modules' own, so the modules are imported (all
 *   of them, as one graph) only when the name asked for is neither a built-in nor one edit from a
 *   known name (`gradr`): a typo imports nothing, and is reported with the name meant.
 *
 * Either way the modules' graphs are loaded before any of their code runs, and from then on they
 * may import nothing else (`importTeamModules`).
 *
 * @module
 */

import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parse, type ParseError, printParseErrorCode } from "../deps/jsonc_parser.ts";
import { type Renderer, RendererRegistry } from "../renderers/registry.ts";
import { UsageError } from "./_args.ts";
import { importTeamModules, TeamImportError, useTeamImports } from "./_team_imports.ts";
import { editDistance } from "./_edit_distance.ts";

/** What a project's configuration says of its renderers, nothing imported. */
export interface RendererConfig {
  /** The configuration file read. */
  configPath: string;
  /** Renderers declared by name, each with its module's absolute path. */
  named: Map<string, string>;
  /** Modules listed without names (the array form), absolute paths, in order. */
  modules: string[];
}

const CONFIG_NAMES = ["deno.json", "deno.jsonc"];

/** The nearest `deno.json` or `deno.jsonc`, walking up from `start`. */
export async function findConfig(start: string): Promise<string | undefined> {
  let dir = resolve(start);
  while (true) {
    for (const name of CONFIG_NAMES) {
      const candidate = join(dir, name);
      const info = await Deno.stat(candidate).catch(() => undefined);
      if (info?.isFile) return candidate;
    }
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/**
 * Reads the `"transcript": { "renderers": … }` section of the nearest configuration file, walking
 * up from `start`, without importing any module; undefined when no file names any renderer.
 *
 * @throws {UsageError} When the file cannot be read or parsed, or the section is malformed.
 */
export async function readRendererConfig(start: string): Promise<RendererConfig | undefined> {
  const configPath = await findConfig(start);
  if (configPath === undefined) return undefined;
  let text: string;
  try {
    text = await Deno.readTextFile(configPath);
  } catch (error) {
    throw new UsageError(`Cannot read ${configPath}: ${(error as Error).message}`);
  }
  const declared = rendererSection(text, configPath);
  const base = dirname(configPath);
  if (declared === undefined) return undefined;
  if (Array.isArray(declared)) {
    return { configPath, named: new Map(), modules: declared.map((m) => resolve(base, m)) };
  }
  const named = new Map(Object.entries(declared).map(([name, m]) => [name, resolve(base, m)]));
  return { configPath, named, modules: [] };
}

function rendererSection(
  text: string,
  configPath: string,
): string[] | Record<string, string> | undefined {
  const errors: ParseError[] = [];
  const config = parse(text, errors, { allowTrailingComma: true }) as Record<string, unknown>;
  if (errors.length > 0) {
    const first = errors[0]!;
    throw new UsageError(
      `Cannot parse ${configPath}: ${printParseErrorCode(first.error)} at offset ${first.offset}`,
    );
  }
  const section = config?.transcript;
  if (section === undefined) return undefined;
  const modules = (section as { renderers?: unknown } | null)?.renderers;
  if (modules === undefined) return undefined;
  if (Array.isArray(modules) && modules.every((m) => typeof m === "string")) return modules;
  if (
    typeof modules === "object" && modules !== null && !Array.isArray(modules) &&
    Object.values(modules).every((m) => typeof m === "string")
  ) {
    return modules as Record<string, string>;
  }
  throw new UsageError(
    `Cannot read ${configPath}: "transcript.renderers" must be an array of module paths or an object of renderer names and module paths`,
  );
}

/**
 * The configured renderer named `name`, imported with only the modules that may define it;
 * undefined when the configuration defines no renderer of that name. A renderer declared by name
 * is looked for in its module alone; any other name, in the unnamed modules (all of them, in one
 * graph), unless it is a near miss of a known name ({@linkcode nearMiss}): then none is imported.
 *
 * @throws {UsageError} When a module it imports fails to load, does not export `renderers`, or
 *   exports a malformed renderer, or a module declared for `name` does not define it.
 */
export async function loadConfiguredRenderer(
  config: RendererConfig,
  name: string,
  known: readonly string[] = [],
): Promise<Renderer | undefined> {
  const declared = config.named.get(name);
  if (declared === undefined && nearMiss(name, [...known, ...config.named.keys()])) {
    return undefined;
  }
  const paths = declared !== undefined ? [declared] : config.modules;
  if (paths.length === 0) return undefined;
  const modules = await importModules(paths, config.configPath);
  for (const [i, path] of paths.entries()) {
    const renderer = findRenderer(modules[i]!, from(path, config.configPath), name);
    if (renderer !== undefined) return renderer;
  }
  if (declared === undefined) return undefined;
  throw new UsageError(
    `Cannot load renderer "${name}" from ${declared} (named in ${config.configPath}): the module exports no renderer of that name`,
  );
}

/**
 * The known name `name` is a typo of: the first one edit away from it (a letter inserted, deleted,
 * replaced, two neighbours swapped, or only letters' case changed). A typo of a built-in or of a
 * declared renderer must not import the unnamed modules only to report it; a team's renderer
 * named one edit from a known name is declared by name, or it cannot be reached.
 */
export function nearMiss(name: string, known: readonly string[]): string | undefined {
  const typed = name.toLowerCase();
  return known.find((candidate) =>
    candidate !== name && editDistance(typed, candidate.toLowerCase(), 1) <= 1
  );
}

function from(path: string, configPath: string): string {
  return `renderer module ${path} (named in ${configPath})`;
}

/** The modules at `paths`, their graphs loaded before any runs; what fails, said as a fix. */
async function importModules(
  paths: string[],
  configPath: string,
): Promise<Record<string, unknown>[]> {
  const urls = paths.map((path) => pathToFileURL(path).href);
  try {
    // Their imports resolve from the configuration that names them, not the command's own.
    await useTeamImports(configPath);
    return await importTeamModules(urls);
  } catch (error) {
    const failed = error instanceof TeamImportError ? paths[urls.indexOf(error.url)] : undefined;
    const where = from(failed ?? paths.join(", "), configPath);
    const why = error instanceof Error ? error.message.split("\n")[0]! : String(error);
    const unmapped = /(?:^|: )Import "([^"]+)" not a dependency|^Relative import path "([^"]+)"/
      .exec(why);
    if (unmapped) {
      const name = unmapped[1] ?? unmapped[2];
      throw new UsageError(
        `Cannot load ${where}: it imports "${name}", which ${configPath} does not map: add it to its "imports" (deno add jsr:${name} or npm:${name} from ${
          dirname(configPath)
        })`,
      );
    }
    throw new UsageError(`Cannot load ${where}: ${why}`);
  }
}

function findRenderer(
  module: Record<string, unknown>,
  from: string,
  name: string,
): Renderer | undefined {
  if (!Array.isArray(module.renderers)) {
    throw new UsageError(`Cannot load ${from}: it does not export "renderers" as an array`);
  }
  const renderer = (module.renderers as unknown[]).find((r) =>
    (r as { name?: unknown } | null)?.name === name
  );
  if (renderer === undefined) return undefined;
  try {
    // The registry's checks: a name, a description, a render function, well-formed hooks.
    return new RendererRegistry().register(renderer as Renderer).resolve(name);
  } catch (error) {
    throw new UsageError(`${(error as Error).message} (from ${from})`);
  }
}
