// Copyright 2026 the brigade authors. MIT license.

/**
 * The browser type check: every module whose text holds the line
 * `// This module is browser compatible.` is type-checked with the browser's libraries only
 * (`dom`, `dom.iterable`, `dom.asynciterable`, `esnext`: no `Deno` namespace), with
 * `deno.json`'s strict options and import map. A marked module that reaches `Deno` at type
 * level, or imports a module that does, fails the check.
 *
 * ```sh
 * deno task check:browser                 # the repository's marked modules
 * deno run --allow-read=.,DIR --allow-write=.tmp --allow-run=deno _tools/check_browser.ts DIR…
 * ```
 *
 * Given paths (files or folders), it checks the marked modules among them instead. Test
 * modules (`*_test.ts`) and the `tests/`, `bench/`, `docs/` and `fixtures/` folders are left
 * out, as are folders whose name starts with a dot and those `deno.json` excludes. The
 * configuration it hands to `deno check` is written under `.tmp/` and removed afterwards.
 *
 * @module
 */

import { resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const MARKER = "// This module is browser compatible.";
const LIBS = ["dom", "dom.iterable", "dom.asynciterable", "esnext"];
const DENO_REFERENCE = /^\s*\/\/\/\s*<reference\s+(?:lib|types)\s*=\s*["'][^"']*deno/im;
const SKIPPED_FOLDERS = new Set(["tests", "bench", "docs", "fixtures", "node_modules"]);

const ROOT = new URL("../", import.meta.url);

interface DenoJson {
  imports?: Record<string, string>;
  compilerOptions?: Record<string, unknown>;
  exclude?: string[];
}

/** A failure found before `deno check` runs: nothing to check, an unreadable path… */
class CheckError extends Error {}

function isMarked(text: string): boolean {
  return text.split(/\r?\n/).some((line) => line.trimEnd() === MARKER);
}

function isSkippedFile(name: string): boolean {
  return !name.endsWith(".ts") || name.endsWith("_test.ts") || name.endsWith(".d.ts");
}

/**
 * The `.ts` files under `folder`, less the skipped ones; `excluded` holds folder URLs. The
 * skipped folders (`tests/`…) are those at the top, where the walk starts.
 */
async function* walk(
  folder: URL,
  excluded: readonly string[],
  top = true,
): AsyncGenerator<URL> {
  const entries: Deno.DirEntry[] = [];
  for await (const entry of Deno.readDir(folder)) entries.push(entry);
  entries.sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  for (const entry of entries) {
    if (entry.isDirectory) {
      if (entry.name.startsWith(".") || (top && SKIPPED_FOLDERS.has(entry.name))) continue;
      const child = new URL(`${encodeURIComponent(entry.name)}/`, folder);
      if (excluded.some((prefix) => child.href.startsWith(prefix))) continue;
      yield* walk(child, excluded, false);
    } else if (entry.isFile && !isSkippedFile(entry.name)) {
      yield new URL(encodeURIComponent(entry.name), folder);
    }
  }
}

/** The marked modules under `paths` (the repository when none is given). */
async function markedModules(
  paths: readonly string[],
  excluded: readonly string[],
): Promise<URL[]> {
  const candidates: URL[] = [];
  if (paths.length === 0) {
    for await (const file of walk(ROOT, excluded)) candidates.push(file);
  }
  for (const path of paths) {
    const url = pathToFileURL(resolve(path));
    let info: Deno.FileInfo;
    try {
      info = await Deno.stat(url);
    } catch (error) {
      throw new CheckError(`cannot read ${path}: ${(error as Error).message}`);
    }
    if (info.isDirectory) {
      const folder = url.href.endsWith("/") ? url : new URL(`${url.href}/`);
      for await (const file of walk(folder, excluded)) candidates.push(file);
    } else {
      candidates.push(url);
    }
  }
  const marked: URL[] = [];
  for (const file of candidates) {
    const text = await Deno.readTextFile(file);
    if (!isMarked(text)) continue;
    // `/// <reference lib="deno.ns" />` would bring the Deno namespace back for the check.
    if (DENO_REFERENCE.test(text)) {
      throw new CheckError(`${shown(file)} is marked "${MARKER}" but references Deno's types`);
    }
    marked.push(file);
  }
  return marked;
}

/** `deno.json`'s import map, its targets made absolute (the generated config lives elsewhere). */
function absoluteImports(imports: Record<string, string>): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [specifier, target] of Object.entries(imports)) {
    result[specifier] = target.startsWith("./") || target.startsWith("../")
      ? new URL(target, ROOT).href
      : target;
  }
  return result;
}

/** A module's path, relative to the repository when inside it. */
function shown(file: URL): string {
  return file.href.startsWith(ROOT.href)
    ? decodeURIComponent(file.href.slice(ROOT.href.length))
    : fileURLToPath(file);
}

async function main(args: readonly string[]): Promise<number> {
  const denoJson = JSON.parse(await Deno.readTextFile(new URL("deno.json", ROOT))) as DenoJson;
  const excluded = (denoJson.exclude ?? []).map((path) =>
    new URL(path.endsWith("/") ? path : `${path}/`, ROOT).href
  );
  const files = await markedModules(args, excluded);
  const where = args.length === 0 ? "the repository" : args.join(", ");
  if (files.length === 0) {
    throw new CheckError(`no module in ${where} holds the line "${MARKER}": nothing to check`);
  }

  const config = {
    imports: absoluteImports(denoJson.imports ?? {}),
    compilerOptions: { ...denoJson.compilerOptions, lib: LIBS },
    // No lock file of its own next to the generated config; the versions are pinned by `imports`.
    lock: false,
  };
  const temporary = new URL(".tmp/", ROOT);
  await Deno.mkdir(temporary, { recursive: true });
  const configPath = await Deno.makeTempFile({
    dir: fileURLToPath(temporary),
    prefix: "deno.browser.",
    suffix: ".json",
  });
  try {
    await Deno.writeTextFile(configPath, JSON.stringify(config, null, 2) + "\n");
    console.log(
      `Browser check: ${files.length} module(s) marked "${MARKER}" in ${where}, ` +
        `type-checked with lib ${LIBS.join(", ")} (no Deno namespace):`,
    );
    for (const file of files) console.log(`  ${shown(file)}`);
    const { code } = await new Deno.Command("deno", {
      args: ["check", "--quiet", "--config", configPath, ...files.map((file) => file.href)],
      stdin: "null",
      stdout: "inherit",
      stderr: "inherit",
    }).output();
    if (code !== 0) {
      console.error(
        `\nBrowser check failed: a module marked "${MARKER}" does not type-check with the ` +
          `browser's libraries only (see the errors above). Most often it reaches Deno, or ` +
          `imports a module that does: reach Deno through globalThis with a local type when ` +
          `it is needed only once a function is called; or, if the module is Deno-only, drop ` +
          `the marker from it and from every marked module that imports it.`,
      );
      return 1;
    }
    console.log(`Browser check passed: ${files.length} module(s).`);
    return 0;
  } finally {
    await Deno.remove(configPath).catch(() => {});
  }
}

if (import.meta.main) {
  try {
    Deno.exit(await main(Deno.args));
  } catch (error) {
    if (!(error instanceof CheckError)) throw error;
    console.error(`Browser check failed: ${error.message}`);
    Deno.exit(1);
  }
}
