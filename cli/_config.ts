// Copyright 2026 the brigade authors. MIT license.

import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parse, type ParseError, printParseErrorCode } from "jsonc-parser";
import type { Renderer } from "../renderers/registry.ts";
import { UsageError } from "./_args.ts";

/** The renderer modules a project's `deno.json` names, loaded. */
export interface ConfiguredRenderers {
  /** The configuration file read, or undefined when none was found. */
  configPath: string | undefined;
  /** The renderers its modules export. */
  renderers: Renderer[];
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
 * Loads the renderers named by `"transcript": { "renderers": [...] }` in the
 * nearest configuration file: each entry is a module path relative to that
 * file, exporting `renderers: Renderer[]`.
 */
export async function loadConfiguredRenderers(start: string): Promise<ConfiguredRenderers> {
  const configPath = await findConfig(start);
  if (configPath === undefined) return { configPath, renderers: [] };
  const modules = rendererModules(await Deno.readTextFile(configPath), configPath);
  const renderers: Renderer[] = [];
  for (const specifier of modules) {
    renderers.push(...await importRenderers(resolve(dirname(configPath), specifier), configPath));
  }
  return { configPath, renderers };
}

function rendererModules(text: string, configPath: string): string[] {
  const errors: ParseError[] = [];
  const config = parse(text, errors, { allowTrailingComma: true }) as Record<string, unknown>;
  if (errors.length > 0) {
    const first = errors[0]!;
    throw new UsageError(
      `Cannot parse ${configPath}: ${printParseErrorCode(first.error)} at offset ${first.offset}`,
    );
  }
  const section = config?.transcript;
  if (section === undefined) return [];
  const modules = (section as { renderers?: unknown } | null)?.renderers;
  if (modules === undefined) return [];
  if (!Array.isArray(modules) || modules.some((m) => typeof m !== "string")) {
    throw new UsageError(
      `Cannot read ${configPath}: "transcript.renderers" must be an array of module paths`,
    );
  }
  return modules;
}

async function importRenderers(path: string, configPath: string): Promise<Renderer[]> {
  let module: Record<string, unknown>;
  try {
    module = await import(pathToFileURL(path).href);
  } catch (error) {
    const why = error instanceof Error ? error.message.split("\n")[0] : String(error);
    throw new UsageError(`Cannot load renderer module ${path} (named in ${configPath}): ${why}`);
  }
  if (!Array.isArray(module.renderers)) {
    throw new UsageError(
      `Cannot load renderer module ${path} (named in ${configPath}): it does not export "renderers" as an array`,
    );
  }
  return module.renderers as Renderer[];
}
