// Copyright 2026 the brigade authors. MIT license.

import assert from "node:assert/strict";
import { createRegistry } from "../renderers/builtin.ts";
import { BUILTIN_FACTS, BUILTIN_NAMES, isBuiltin, loadBuiltin, loadBuiltins } from "./_builtins.ts";

Deno.test("the render command's built-ins are createRegistry()'s, by name and in order", async () => {
  const registry = createRegistry();
  assert.deepEqual([...BUILTIN_NAMES], registry.list().map((r) => r.name));
  for (const name of BUILTIN_NAMES) {
    assert.equal(await loadBuiltin(name), registry.resolve(name), name);
  }
  assert.deepEqual(
    (await loadBuiltins()).map(({ name, description }) => ({ name, description })),
    registry.list(),
  );
});

Deno.test("isBuiltin() knows only the built-in names", () => {
  for (const name of BUILTIN_NAMES) assert.ok(isBuiltin(name));
  for (const name of ["gradr", "toString", "constructor", "", "GRADER"]) {
    assert.equal(isBuiltin(name), false, name);
  }
});

Deno.test("BUILTIN_FACTS are each built-in renderer's own fields", async () => {
  for (const name of BUILTIN_NAMES) {
    const renderer = await loadBuiltin(name);
    const facts = {
      ...(renderer.extension === undefined ? {} : { extension: renderer.extension }),
      optionNames: renderer.optionNames,
      ...(renderer.folder === undefined ? {} : { indexName: renderer.folder.indexName }),
      batch: renderer.batch !== undefined,
    };
    assert.deepEqual(BUILTIN_FACTS[name], facts, name);
  }
});
