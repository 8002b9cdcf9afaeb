// Copyright 2026 the brigade authors. MIT license.

// The package's rooms, checked on its module graph as Deno resolves it (type-only imports
// included): each folder imports only the folders below it, the reader stands alone, nothing in
// the library reaches the command line, no module imports itself back through another, and each
// built-in renderer is written against the kit's public face, as a team's renderer is.

import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import denoJson from "../deno.json" with { type: "json" };

const ROOT = new URL("../", import.meta.url);

/** The folders a library folder may import from, besides its own and Node's built-ins. */
const MAY_IMPORT: Record<string, readonly string[]> = {
  "deps": [],
  "redact": [],
  "events": ["redact"],
  "lines": ["events", "redact"],
  "sources": ["events", "lines", "redact"],
  "kit": ["events", "redact"],
  "renderers": ["events", "redact", "kit", "deps"],
  "reader": [],
};

type Graph = Map<string, Set<string>>;

/** Each own module's import specifiers as written (`./x.ts`, `node:fs`, `npm:diff@^9.0.0`). */
const written = new Map<string, string[]>();

/** The package's own modules reachable from the published entry points, and their imports. */
async function moduleGraph(): Promise<Graph> {
  const graph: Graph = new Map();
  const own = (specifier: string | undefined): string | undefined =>
    specifier?.startsWith(ROOT.href) && specifier.endsWith(".ts")
      ? specifier.slice(ROOT.href.length)
      : undefined;
  for (const entry of Object.values(denoJson.exports)) {
    const { stdout, code } = await new Deno.Command(Deno.execPath(), {
      args: ["info", "--json", fileURLToPath(new URL(entry, ROOT))],
      cwd: fileURLToPath(ROOT),
      stdout: "piped",
      stderr: "null",
    }).output();
    assert.equal(code, 0, `deno info reads the module graph of ${entry}`);
    const info = JSON.parse(new TextDecoder().decode(stdout));
    for (const module of info.modules as { specifier: string; dependencies?: unknown[] }[]) {
      const from = own(module.specifier);
      if (from === undefined) continue;
      const imports = new Set<string>();
      const dependencies = (module.dependencies ?? []) as Record<string, { specifier?: string }>[];
      written.set(from, dependencies.map((dependency) => String(dependency.specifier)));
      for (const dependency of dependencies) {
        for (const to of [own(dependency.code?.specifier), own(dependency.type?.specifier)]) {
          if (to !== undefined) imports.add(to);
        }
      }
      graph.set(from, imports);
    }
  }
  return graph;
}

/** Every run of modules that import each other in a circle (Tarjan's strongly connected parts). */
function circles(graph: Graph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const part: string[] = [];
    let top: string;
    do {
      top = stack.pop()!;
      onStack.delete(top);
      part.push(top);
    } while (top !== node);
    if (part.length > 1 || graph.get(node)?.has(node)) found.push(part.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

/** The top folder of a module path; "" for a file at the root (mod.ts). */
function folder(path: string): string {
  return path.includes("/") ? path.slice(0, path.indexOf("/")) : "";
}

const graph = await moduleGraph();

Deno.test("the module graph has no import circle, type-only imports included", () => {
  assert.ok(graph.size > 50, `the graph holds the package (${graph.size} modules)`);
  assert.deepEqual(circles(graph), []);
});

Deno.test("each library folder imports only the folders below it", () => {
  const crossings: string[] = [];
  for (const [from, imports] of graph) {
    const allowed = MAY_IMPORT[folder(from)];
    if (allowed === undefined) continue; // mod.ts and cli/ sit on top
    for (const to of imports) {
      const target = folder(to);
      if (target !== folder(from) && !allowed.includes(target)) crossings.push(`${from} → ${to}`);
    }
  }
  assert.deepEqual(crossings, []);
});

Deno.test("a library folder's private files (_name.ts) are imported from that folder only", () => {
  const crossings: string[] = [];
  for (const [from, imports] of graph) {
    if (MAY_IMPORT[folder(from)] === undefined) continue; // cli/ is the reader's and the kit's own front end
    for (const to of imports) {
      const name = to.slice(to.lastIndexOf("/") + 1);
      const sameFolder = to.slice(0, to.lastIndexOf("/")) === from.slice(0, from.lastIndexOf("/"));
      if (name.startsWith("_") && !sameFolder) crossings.push(`${from} → ${to}`);
    }
  }
  assert.deepEqual(crossings, []);
});

/** The built-in renderer a module belongs to (`renderers/<name>/…`); undefined for any other. */
function builtin(path: string): string | undefined {
  return /^renderers\/([^/]+)\//.exec(path)?.[1];
}

Deno.test("the built-ins are in a folder each, beside the registry", async () => {
  const folders: string[] = [];
  const files: string[] = [];
  for await (const entry of Deno.readDir(new URL("renderers/", ROOT))) {
    (entry.isDirectory ? folders : files).push(entry.name);
  }
  assert.deepEqual(folders.sort(), ["dream", "grader", "html", "json"]);
  assert.deepEqual(files.filter((name) => !name.endsWith("_test.ts")).sort(), [
    "builtin.ts",
    "registry.ts",
  ]);
});

/** The kit's modules kit/mod.ts re-exports whole (`export * from "./x.ts"`), by path. */
async function kitFace(): Promise<Set<string>> {
  const text = await Deno.readTextFile(new URL("kit/mod.ts", ROOT));
  return new Set(
    [...text.matchAll(/^export \* from "\.\/([a-z0-9_]+\.ts)";$/gm)].map(([, name]) =>
      `kit/${name}`
    ),
  );
}

Deno.test("a built-in reaches the kit only through modules kit/mod.ts re-exports whole", async () => {
  // The kit's face, or one of its public modules whose every export the face re-exports: a
  // built-in then uses nothing a team cannot import from `@brigade/transcript/kit`, and loads
  // only the kit modules it uses.
  const face = await kitFace();
  assert.ok(face.size > 5, `kit/mod.ts re-exports its modules (${[...face].join(", ")})`);
  const kit = await import(new URL("kit/mod.ts", ROOT).href);
  const crossings: string[] = [];
  for (const [from, imports] of graph) {
    if (builtin(from) === undefined) continue;
    for (const to of imports) {
      if (folder(to) === "kit" && to !== "kit/mod.ts" && !face.has(to)) {
        crossings.push(`${from} → ${to}`);
      }
    }
  }
  assert.deepEqual(crossings, []);
  // And each of those modules' exports is the face's own (the same value under the same name).
  for (const path of face) {
    const module = await import(new URL(path, ROOT).href);
    for (const [name, value] of Object.entries(module)) {
      assert.equal(kit[name], value, `kit/mod.ts re-exports ${name} of ${path}`);
    }
  }
});

Deno.test("no built-in imports a private file of the kit or of another built-in", () => {
  const crossings: string[] = [];
  for (const [from, imports] of graph) {
    const own = builtin(from);
    if (own === undefined) continue;
    for (const to of imports) {
      const isPrivate = to.slice(to.lastIndexOf("/") + 1).startsWith("_");
      if (isPrivate && builtin(to) !== own) crossings.push(`${from} → ${to}`);
    }
  }
  assert.deepEqual(crossings, []);
});

Deno.test("third-party code is named in deps/ alone, by full specifier with a caret range", () => {
  const elsewhere: string[] = [];
  const unranged: string[] = [];
  for (const [from, specifiers] of written) {
    for (const specifier of specifiers) {
      if (/^(\.\.?\/|node:)/.test(specifier)) continue;
      if (folder(from) !== "deps") elsewhere.push(`${from} → ${specifier}`);
      else if (!/^npm:(@[\w.-]+\/)?[\w.-]+@\^\d+\.\d+\.\d+$/.test(specifier)) {
        unranged.push(`${from} → ${specifier}`);
      }
    }
  }
  assert.deepEqual(elsewhere, [], "a bare or full third-party specifier outside deps/");
  assert.deepEqual(unranged, [], "a deps/ specifier that is not npm:NAME@^X.Y.Z");
  assert.ok([...written.keys()].some((path) => folder(path) === "deps"), "deps/ is in the graph");
});

Deno.test("the reader imports only its own files", () => {
  const reader = [...graph].filter(([from]) => folder(from) === "reader");
  assert.ok(reader.length > 3, "the reader's modules are in the graph");
  for (const [from, imports] of reader) {
    for (const to of imports) assert.equal(folder(to), "reader", `${from} imports ${to}`);
  }
});

Deno.test("nothing in the library imports the command line", () => {
  for (const [from, imports] of graph) {
    if (folder(from) === "cli") continue;
    for (const to of imports) assert.notEqual(folder(to), "cli", `${from} imports ${to}`);
  }
});

Deno.test("events/ holds the event model: no source, no line toolkit", async () => {
  const names: string[] = [];
  for await (const entry of Deno.readDir(new URL("events/", ROOT))) names.push(entry.name);
  assert.deepEqual(names.filter((name) => /^_?from_|lines|excerpt|file_source/.test(name)), []);
  assert.ok(names.includes("types.ts") && names.includes("errors.ts"));
});

Deno.test("every library module is reached from a published entry point", async () => {
  const unreached: string[] = [];
  for (const top of Object.keys(MAY_IMPORT).concat("cli")) {
    for await (const path of walk(new URL(`${top}/`, ROOT), `${top}/`)) {
      if (!path.endsWith("_test.ts") && !graph.has(path)) unreached.push(path);
    }
  }
  assert.deepEqual(unreached, []);
});

Deno.test("no test file is over 1,000 lines: a suite that grows is split by concern", async () => {
  const long: string[] = [];
  for (const top of Object.keys(MAY_IMPORT).concat("cli", "tests", "bench")) {
    for await (const path of walk(new URL(`${top}/`, ROOT), `${top}/`)) {
      if (!path.endsWith("_test.ts")) continue;
      const lines = (await Deno.readTextFile(new URL(path, ROOT))).split("\n").length - 1;
      if (lines > 1_000) long.push(`${path}: ${lines} lines`);
    }
  }
  assert.deepEqual(long, []);
});

async function* walk(dir: URL, prefix: string): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(dir)) {
    if (entry.isDirectory) {
      yield* walk(new URL(`${entry.name}/`, dir), `${prefix}${entry.name}/`);
    } else if (entry.name.endsWith(".ts")) {
      yield `${prefix}${entry.name}`;
    }
  }
}
