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
type NextResolve = (specifier: string, context?: ResolveContext) => unknown;
type NextLoad = (url: string, context?: unknown) => unknown;
interface Hooks {
  resolve(specifier: string, context: ResolveContext, next: NextResolve): unknown;
  load(url: string, context: unknown, next: NextLoad): unknown;
}

const folders = new Map<string, ImportMap>();
let registered = false;

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
    resolve(specifier, context, next): unknown {
      const parent = context.parentURL;
      if (parent !== undefined && !parent.includes("/node_modules/")) {
        for (const [folder, map] of folders) {
          if (!parent.startsWith(folder)) continue;
          const url = resolveBare(map, specifier, parent);
          if (url !== undefined) return { url, shortCircuit: true };
          if (isBare(specifier) && !module.builtinModules.includes(specifier)) {
            // Left to Deno, it would read as a path beside the module.
            throw new TypeError(`Import "${specifier}" not a dependency`);
          }
        }
      }
      return next(specifier, context);
    },
    // Deno resolves the imports of a module it loads itself with its own configuration alone;
    // those of a module a load hook hands over go through the resolve hook (Deno 2.9).
    load(url, context, next): unknown {
      return next(url, context);
    },
  });
  registered = true;
  return true;
}
