// Copyright 2026 the brigade authors. MIT license.

/**
 * Resolves a team renderer module's imports from the team's own configuration, whatever
 * configuration the command itself runs with. Deno resolves every import of a process with one
 * configuration: a checkout's task pins the checkout's `deno.json`, `--config` names another, an
 * installed command pins what it was installed with. So a team's module (a bare
 * `import … from "@brigade/transcript"`, or an import its own `deno.json` maps) would fail with
 * `Import "…" not a dependency`. A resolve hook (`registerHooks` of `node:module`), scoped to the
 * files under the team configuration's folder (with a load hook, without which Deno would
 * resolve a module's static imports before asking), resolves their bare specifiers with that file's
 * `imports` and `scopes` (or the import map its `importMap` names) first; `@brigade/transcript`
 * and its entry points, when the team does not map them, are the running package's own files.
 *
 * The hooks are synchronous, so a remote module (a `jsr:` package, an `https:` URL, an `npm:`
 * package the running configuration's lockfile does not hold) can only be handed over once Deno
 * has fetched it: the hook (Deno itself, for such an `npm:` package) reports it as unprepared, and
 * {@linkcode importTeamModules} has Deno fetch it (a graph that fails to link, so nothing of it
 * runs) and tries again. A `jsr:` specifier then resolves to the file Deno chose for it, checked
 * against the registry's manifest as Deno checks any `jsr:` import. Once the team's graph is
 * loaded, and before any of it runs, the import permission is revoked and the hook refuses any
 * other import from code that is not the command's own: a team module may import only what its
 * own import map and files name.
 *
 * @module
 */

import module from "node:module";
import { dirname } from "node:path";
import { pathToFileURL } from "node:url";
import { parse } from "../deps/jsonc_parser.ts";

/** The package's entry points, as its `deno.json` exports them, relative to this folder. */
export const OWN_EXPORTS: Readonly<Record<string, string>> = {
  "@brigade/transcript": "../mod.ts",
  "@brigade/transcript/kit": "../kit/mod.ts",
  "@brigade/transcript/html": "../renderers/html/mod.ts",
  "@brigade/transcript/managed-agents": "../sources/managed_agents/mod.ts",
  "@brigade/transcript/claude-code": "../sources/claude_code/mod.ts",
  "@brigade/transcript/reader": "../reader/mod.ts",
  "@brigade/transcript/redact": "../redact/mod.ts",
  "@brigade/transcript/render": "./render.ts",
  "@brigade/transcript/facts": "./facts.ts",
};

type Mapping = Record<string, string>;

/** An import map: `imports`, `scopes`, and the URL their relative values are relative to. */
export interface ImportMap {
  imports: Mapping;
  scopes: Record<string, Mapping>;
  base: URL;
}

function mapping(value: unknown): Mapping {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return {};
  return Object.fromEntries(
    Object.entries(value).filter((pair): pair is [string, string] => typeof pair[1] === "string"),
  );
}

/**
 * The import map of a configuration file: its own `imports` and `scopes`, or the file its
 * `importMap` names. Unreadable parts are empty: the import that needs them then fails and says so.
 */
export async function readImportMap(configPath: string): Promise<ImportMap> {
  const base = pathToFileURL(configPath);
  const config = parse(await Deno.readTextFile(configPath), [], { allowTrailingComma: true }) ??
    {};
  let source = config as Record<string, unknown>;
  let mapBase = base;
  if (typeof source.importMap === "string" && source.imports === undefined) {
    mapBase = new URL(source.importMap, base);
    if (mapBase.protocol === "file:") {
      const text = await Deno.readTextFile(mapBase).catch(() => "{}");
      source = (parse(text, [], { allowTrailingComma: true }) ?? {}) as Record<string, unknown>;
    } else {
      source = {};
    }
  }
  const scopes: Record<string, Mapping> = {};
  const rawScopes = source.scopes;
  if (typeof rawScopes === "object" && rawScopes !== null) {
    for (const [scope, value] of Object.entries(rawScopes)) {
      scopes[new URL(scope, mapBase).href] = mapping(value);
    }
  }
  return { imports: mapping(source.imports), scopes, base: mapBase };
}

/** Whether `specifier` is bare: neither a path nor a URL. */
function isBare(specifier: string): boolean {
  if (/^\.{0,2}\//.test(specifier)) return false;
  return !/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(specifier);
}

function target(value: string, base: URL): string {
  return /^\.{0,2}\//.test(value) ? new URL(value, base).href : value;
}

function lookUp(table: Mapping, specifier: string, base: URL): string | undefined {
  const exact = table[specifier];
  if (exact !== undefined) return target(exact, base);
  let best: string | undefined;
  for (const key of Object.keys(table)) {
    const prefix = key.endsWith("/") ? key : `${key}/`;
    if (!specifier.startsWith(prefix) || (best !== undefined && best.length >= prefix.length)) {
      continue;
    }
    const value = table[key]!;
    // Deno's own rule: a package mapped by name (`jsr:…`, `npm:…`) maps its subpaths too.
    if (!key.endsWith("/") && !/^(jsr|npm):/.test(value)) continue;
    best = key;
  }
  if (best === undefined) return undefined;
  const value = table[best]!;
  const rest = specifier.slice(best.endsWith("/") ? best.length : best.length + 1);
  const joined = value.endsWith("/") ? `${value}${rest}` : `${value}/${rest}`;
  return target(joined, base);
}

/**
 * Where a bare `specifier` imported by `parent` goes under `map`; the package's own entry points
 * when the map does not name them; undefined for anything else.
 */
export function resolveBare(map: ImportMap, specifier: string, parent: string): string | undefined {
  if (!isBare(specifier)) return undefined;
  const scopes = Object.keys(map.scopes).filter((scope) => parent.startsWith(scope))
    .sort((a, b) => b.length - a.length);
  for (const scope of scopes) {
    const found = lookUp(map.scopes[scope]!, specifier, map.base);
    if (found !== undefined) return found;
  }
  const found = lookUp(map.imports, specifier, map.base);
  if (found !== undefined) return found;
  const own = OWN_EXPORTS[specifier];
  return own === undefined ? undefined : new URL(own, import.meta.url).href;
}

interface ResolveContext {
  parentURL?: string;
}
type NextResolve = (specifier: string, context?: ResolveContext) => { url: string };
type NextLoad = (url: string, context?: unknown) => unknown;
interface Hooks {
  resolve(specifier: string, context: ResolveContext, next: NextResolve): unknown;
  load(url: string, context: unknown, next: NextLoad): unknown;
}

/** The start of the message Deno and the hook give for a remote module not fetched yet. */
const UNPREPARED = "Loading unprepared module: ";
/** Where `registerHooks` comes from. */
const HOOKS_MODULES = ["node:module", "module"];
/** An import of it in a module's source: static, re-exported, or by a literal `import()`. */
const HOOKS_IMPORT = /(?:\bfrom|\bimport|\brequire)\s*\(?\s*(["'`])(?:node:)?module\1/;
/** The folder of the running package: its own code imports what it likes (html's libraries). */
const OWN_ROOT = new URL("../", import.meta.url).href;

const folders = new Map<string, ImportMap>();
/** What the team's code was resolved to while its graph loaded: all it may import later. */
const named = new Set<string>();
let registered = false;
let sealed = false;

function teamFolder(parent: string): ImportMap | undefined {
  if (parent.includes("/node_modules/")) return undefined;
  for (const [folder, map] of folders) {
    if (parent.startsWith(folder)) return map;
  }
  return undefined;
}

/** A `jsr:` specifier as the file Deno fetched for it; an unprepared error while it has not. */
function fetched(url: string, parent: string): string {
  if (!url.startsWith("jsr:")) return url;
  const found = import.meta.resolve(url);
  if (found.startsWith("jsr:")) throw new TypeError(`${UNPREPARED}${url}, imported from ${parent}`);
  // Deno gives a range the running package satisfies the running package's files, relative to
  // the configuration it runs with, which `deno install --config` copies away from them.
  const own = found.startsWith("file:") ? ownEntryPoint(url) : undefined;
  return own ?? found;
}

/** The running package's own file for `jsr:@brigade/transcript@RANGE/SUBPATH`, if it is that. */
function ownEntryPoint(url: string): string | undefined {
  const match = /^jsr:\/?(@[^/@]+\/[^/@]+)(?:@[^/]*)?(\/.*)?$/.exec(url);
  const path = match === null ? undefined : OWN_EXPORTS[`${match[1]}${match[2] ?? ""}`];
  return path === undefined ? undefined : new URL(path, import.meta.url).href;
}

/** Where the team's `parent` importing `specifier` goes, or undefined to leave it to Deno. */
function resolveForTeam(map: ImportMap, specifier: string, parent: string): string | undefined {
  const url = resolveBare(map, specifier, parent);
  if (url !== undefined) return fetched(url, parent);
  if (isBare(specifier) && !module.builtinModules.includes(specifier)) {
    // Left to Deno, it would read as a path beside the module.
    throw new TypeError(`Import "${specifier}" not a dependency`);
  }
  return specifier.startsWith("jsr:") ? fetched(specifier, parent) : undefined;
}

/** The resolve hook: the team's import map while its graph loads, only that graph after. */
function resolve(specifier: string, context: ResolveContext, next: NextResolve): unknown {
  const parent = context.parentURL;
  if (parent === undefined) return next(specifier, context);
  const map = teamFolder(parent);
  const own = map === undefined && parent.startsWith(OWN_ROOT);
  if (!own && HOOKS_MODULES.includes(specifier)) {
    // Its hooks would run before this one, and could hand Deno what this one refuses.
    throw new TypeError(
      `Cannot import "${specifier}" from ${parent}: a team's renderer may not add module hooks`,
    );
  }
  if (!sealed && map === undefined) return next(specifier, context);
  if (sealed && own) return next(specifier, context);
  if (!sealed) {
    const url = (map && resolveForTeam(map, specifier, parent)) ?? next(specifier, context).url;
    named.add(url);
    return { url, shortCircuit: true };
  }
  let url: string | undefined;
  try {
    url = (map && resolveForTeam(map, specifier, parent)) ?? next(specifier, context).url;
  } catch {
    // Not loaded before: refused below, whatever else was wrong with it.
  }
  if (url !== undefined && permitted(url)) return { url, shortCircuit: true };
  throw refusal(specifier, parent);
}

/**
 * Whether the team's code may import `url` once sealed: what its graph named, or a local file,
 * the team's own code (read access bounds it). Anything else could carry what the renderer read
 * to a host, in the URL of a module or in the name of a package.
 */
function permitted(url: string): boolean {
  return named.has(url) || /^(file|node):/.test(url);
}

function refusal(specifier: string, parent: string | undefined): TypeError {
  const from = parent === undefined ? "" : ` from ${parent}`;
  return new TypeError(
    `Cannot import "${
      outline(specifier)
    }"${from}: a team's renderer may import only what its own import map and files name, loaded before it runs`,
  );
}

/** A specifier refused, without the path, query or name that may carry what was read. */
function outline(specifier: string): string {
  if (!/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(specifier)) return "…";
  const url = URL.parse(specifier);
  if (url !== null && /^https?:$/.test(url.protocol)) return `${url.origin}/…`;
  return `${specifier.slice(0, specifier.indexOf(":") + 1)}…`;
}

/**
 * Makes the files under the folder of `configPath` (outside `node_modules`) resolve their bare
 * specifiers with that file's import map, from now on in this process.
 *
 * @returns Whether the hook could be installed (the runtime offers `registerHooks`).
 */
export async function useTeamImports(configPath: string): Promise<boolean> {
  const folder = `${pathToFileURL(dirname(configPath)).href}/`;
  if (!folders.has(folder)) folders.set(folder, await readImportMap(configPath));
  if (registered) return true;
  const register = (module as unknown as { registerHooks?: (hooks: Hooks) => unknown })
    .registerHooks;
  if (typeof register !== "function") return false;
  register({
    resolve,
    // Deno resolves the imports of a module it loads itself with its own configuration alone;
    // those of a module a load hook hands over go through the resolve hook (Deno 2.9).
    load(url, context, next): unknown {
      const loaded = next(url, context) as { source?: unknown } | undefined;
      const source = loaded?.source;
      if (typeof source === "string" && !url.startsWith(OWN_ROOT) && HOOKS_IMPORT.test(source)) {
        // A static import of a builtin reaches no resolve hook: it is refused here.
        throw new TypeError(
          `Cannot load ${url}: it imports "node:module", and a team's renderer may not add module hooks`,
        );
      }
      return loaded;
    },
  });
  registered = true;
  return true;
}

/** A module that fails to link after its imports are loaded: nothing of the graph runs. */
function unlinkable(imports: string[], attempt: number): string {
  const lines = imports.map((url) => `import ${JSON.stringify(url)};`);
  lines.push(`import { unlinkable } from "data:text/javascript,export {};"; // ${attempt}`);
  return `data:text/javascript,${encodeURIComponent(lines.join("\n"))}`;
}

/** Whether `error` is the link error of {@linkcode unlinkable}: the whole graph was loaded. */
function linkFailed(error: unknown): boolean {
  return error instanceof SyntaxError && /export named 'unlinkable'/.test(error.message);
}

/**
 * The remote module `error` says Deno has not fetched, if that is what it says: an `npm:` package
 * it has not installed is named as a constraint it cannot find.
 */
function unprepared(error: unknown): string | undefined {
  const message = error instanceof Error ? error.message : "";
  const npm = /^Could not find constraint '([^']+)' in the list of packages/.exec(message)?.[1];
  return new RegExp(`${UNPREPARED}(\\S+?),? imported from`).exec(message)?.[1] ??
    /^Unsupported scheme "jsr" for module "([^"]+)"/.exec(message)?.[1] ??
    (npm === undefined ? undefined : `npm:${npm}`);
}

let attempts = 0;

/** Loads the graph of `url` and every remote module it needs, running none of it. */
async function loadGraph(url: string): Promise<void> {
  const fetchedNow = new Set<string>();
  while (true) {
    try {
      await import(unlinkable([url], attempts++));
    } catch (error) {
      if (linkFailed(error)) return;
      const missing = unprepared(error);
      if (missing === undefined || fetchedNow.has(missing) || fetchedNow.size >= 1_000) {
        throw error;
      }
      fetchedNow.add(missing);
      // Deno itself fetches it and its imports (a `jsr:` package checked against its manifest).
      await import(unlinkable([missing], attempts++)).then(() => {}, (error) => {
        if (!linkFailed(error)) throw error;
      });
    }
  }
}

/**
 * What {@linkcode importTeamModules} reports when a module's graph fails to load: the module the
 * failure is under, and Deno's message.
 */
export class TeamImportError extends Error {
  /** The module, one of those asked for, whose graph failed. */
  readonly url: string;
  /** Makes the error for `url` with Deno's `cause`. */
  constructor(url: string, cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.name = "TeamImportError";
    this.url = url;
  }
}

/**
 * Imports the team's modules `urls` (file URLs under a folder given to
 * {@linkcode useTeamImports}): loads the graph of each, then, before any of it runs, revokes the
 * import permission and seals the resolve hook, then runs them. After it, a team's code can
 * import nothing it did not name: a module already loaded, or a local file.
 *
 * @throws {TeamImportError} When a module's graph fails to load (nothing of the team's code ran).
 * @returns The modules' namespaces, in the order of `urls`.
 */
export async function importTeamModules(urls: string[]): Promise<Record<string, unknown>[]> {
  for (const url of urls) {
    try {
      await loadGraph(url);
    } catch (error) {
      throw new TeamImportError(url, error);
    }
  }
  // The first module to run is the seal, first import of a graph whose imports are all loaded.
  const key = Symbol.for("@brigade/transcript seal");
  (globalThis as Record<symbol, unknown>)[key] = (): void => {
    delete (globalThis as Record<symbol, unknown>)[key];
    sealTeamImports();
  };
  const seal = `data:text/javascript,${
    encodeURIComponent(`globalThis[Symbol.for("@brigade/transcript seal")]?.(); // ${attempts++}`)
  }`;
  const wrapper = [
    `import ${JSON.stringify(seal)};`,
    ...urls.map((url, i) => `import * as m${i} from ${JSON.stringify(url)};`),
    `export const modules = [${urls.map((_, i) => `m${i}`).join(", ")}];`,
  ].join("\n");
  const loaded = await import(`data:text/javascript,${encodeURIComponent(wrapper)}`);
  if (!sealed) sealTeamImports();
  return loaded.modules as Record<string, unknown>[];
}

/**
 * Revokes the import permission and seals the resolve hook, for good. Deno fetches an npm package
 * whatever the permissions, so nothing may get around the hook either: no other hook (the one
 * `process.getBuiltinModule` reaches; `node:module` itself is refused to the team), no worker
 * (whose imports no hook sees).
 */
function sealTeamImports(): void {
  sealed = true;
  try {
    Deno.permissions.revokeSync({ name: "import" });
  } catch {
    // Nothing to give up.
  }
  // A function, not an arrow: `new Worker(…)` throws this, not "is not a constructor".
  const refuse = (what: string) =>
    function refused(): never {
      throw new TypeError(`Cannot ${what}: a team's renderer may not`);
    };
  for (
    const [target, key, what] of [
      [module, "registerHooks", "add module hooks"],
      [globalThis, "Worker", "start a worker"],
    ] as const
  ) {
    try {
      Object.defineProperty(target, key, { value: refuse(what) });
    } catch {
      // Not replaceable here: then not there to be used either.
    }
  }
}
