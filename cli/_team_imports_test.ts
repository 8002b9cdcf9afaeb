// Copyright 2026 the brigade authors. MIT license.

import assert from "node:assert/strict";
import { type ImportMap, OWN_EXPORTS, readImportMap, resolveBare } from "./_team_imports.ts";
import config from "../deno.json" with { type: "json" };

const base = new URL("file:///team/deno.json");
const map: ImportMap = {
  imports: {
    "@brigade/transcript": "jsr:@brigade/transcript@^0.2",
    "@team/words": "./words.ts",
    "lib/": "./lib/",
    "chalk": "npm:chalk@5",
    "plain": "https://example.com/plain.ts",
  },
  scopes: { "file:///team/legacy/": { "@team/words": "./legacy/words.ts" } },
  base,
};
const parent = "file:///team/renderers/team_md.ts";

Deno.test("a team's import map: exact names, folders, a package's subpaths, scopes", () => {
  assert.equal(resolveBare(map, "@team/words", parent), "file:///team/words.ts");
  assert.equal(resolveBare(map, "lib/a/b.ts", parent), "file:///team/lib/a/b.ts");
  assert.equal(resolveBare(map, "@brigade/transcript", parent), "jsr:@brigade/transcript@^0.2");
  assert.equal(
    resolveBare(map, "@brigade/transcript/kit", parent),
    "jsr:@brigade/transcript@^0.2/kit",
  );
  assert.equal(resolveBare(map, "chalk/ansi", parent), "npm:chalk@5/ansi");
  // A URL value maps its name only, as in Deno.
  assert.equal(resolveBare(map, "plain/x.ts", parent), undefined);
  assert.equal(
    resolveBare(map, "@team/words", "file:///team/legacy/old.ts"),
    "file:///team/legacy/words.ts",
  );
  // Paths and URLs are not the map's.
  for (const specifier of ["./words.ts", "../x.ts", "/abs.ts", "npm:chalk@5", "node:fs"]) {
    assert.equal(resolveBare(map, specifier, parent), undefined, specifier);
  }
  assert.equal(resolveBare(map, "@team/missing", parent), undefined);
});

Deno.test("the package unmapped: the running package's own entry points", () => {
  const empty: ImportMap = { imports: {}, scopes: {}, base };
  assert.equal(
    resolveBare(empty, "@brigade/transcript/kit", parent),
    new URL("../kit/mod.ts", import.meta.url).href,
  );
  const exported = Object.entries(config.exports).map(([key, path]) => [
    key === "." ? config.name : `${config.name}${key.slice(1)}`,
    new URL(`.${path.slice(1)}`, new URL("../", import.meta.url)).href,
  ]);
  assert.deepEqual(
    Object.entries(OWN_EXPORTS).map(([name, path]) => [name, new URL(path, import.meta.url).href]),
    exported,
  );
});

Deno.test("an import map read from deno.json, or the file its importMap names", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/deno.json`, '{ "importMap": "./map.json" } // JSONC\n');
    await Deno.writeTextFile(`${dir}/map.json`, '{ "imports": { "a": "./a.ts" } }');
    const read = await readImportMap(`${dir}/deno.json`);
    assert.equal(resolveBare(read, "a", `file://${dir}/m.ts`), `file://${dir}/a.ts`);
    await Deno.writeTextFile(`${dir}/deno.jsonc`, '{ "imports": { "b": "./b.ts", }, }');
    const own = await readImportMap(`${dir}/deno.jsonc`);
    assert.equal(resolveBare(own, "b", `file://${dir}/m.ts`), `file://${dir}/b.ts`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
