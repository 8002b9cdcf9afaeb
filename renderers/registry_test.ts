// Copyright 2026 the brigade authors. MIT license.

import assert from "node:assert/strict";
import {
  createRegistry,
  fromEntries,
  registry,
  type Renderer,
  RendererRegistry,
  RendererRegistryError,
} from "../mod.ts";
import { entries, user } from "../tests/_entries.ts";

const count: Renderer<{ label?: string }, "count"> = {
  name: "count",
  description: "How many entries",
  async render(source, options = {}): Promise<string> {
    let n = 0;
    for await (const _ of source) n++;
    return `${options.label ?? "entries"}: ${n}`;
  },
};

Deno.test("createRegistry() holds the built-in renderers, fresh each time", () => {
  const a = createRegistry();
  const b = createRegistry();
  assert.deepEqual(a.list().map((r) => r.name), ["grader", "dream", "index", "json", "html"]);
  a.register(count);
  assert.ok(a.has("count"));
  assert.ok(!b.has("count"), "registries do not share renderers");
  assert.ok(registry.has("grader"));
});

Deno.test("RendererRegistry.register() adds a team's renderer, typed by name and options", async () => {
  const mine = createRegistry().register(count);
  const text = await mine.render("count", fromEntries(entries([user("a"), user("b")])), {
    label: "rows",
  });
  assert.equal(text, "rows: 2");
  assert.equal(mine.get("count"), count);
  assert.deepEqual(mine.list().at(-1), { name: "count", description: "How many entries" });
  // @ts-expect-error: a typo in a renderer name fails to compile
  await assert.rejects(() => mine.render("cuont", []), RendererRegistryError);
  // @ts-expect-error: a typo in an option fails to compile
  await mine.render("count", [], { lable: "x" });
});

Deno.test("RendererRegistry.register() refuses a taken name unless replace is set", () => {
  const mine = new RendererRegistry().register(count);
  assert.throws(() => mine.register({ ...count }), (error: unknown) => {
    assert.ok(error instanceof RendererRegistryError);
    assert.equal(error.code, "duplicate_renderer");
    assert.match(error.message, /^Cannot register renderer "count": the name is taken/);
    return true;
  });
  const other = { ...count, description: "replaced" };
  mine.register(other, { replace: true });
  assert.equal(mine.resolve("count").description, "replaced");
});

Deno.test("RendererRegistry.resolve() names an unknown renderer and lists the known ones", () => {
  try {
    createRegistry().resolve("gradr");
    assert.fail("resolve() did not throw");
  } catch (error) {
    assert.ok(error instanceof RendererRegistryError);
    assert.equal(error.code, "unknown_renderer");
    assert.equal(
      error.message,
      'Unknown renderer "gradr": known renderers are "grader", "dream", "index", "json", "html"',
    );
  }
});

Deno.test("RendererRegistry.register() refuses a malformed renderer with a TypeError naming the field", () => {
  const mine = new RendererRegistry();
  assert.throws(
    () => mine.register({ ...count, name: "has space" as "count" }),
    /its name must be/,
  );
  assert.throws(() => mine.register({ ...count, name: "" as "count" }), TypeError);
  assert.throws(
    () => mine.register({ ...count, render: undefined } as unknown as Renderer),
    /render is not a function/,
  );
  assert.throws(
    () => mine.register({ ...count, description: 3 } as unknown as Renderer),
    /description is not a string/,
  );
});
