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

Deno.test("RendererRegistry.register() refuses folder and batch hooks that could name a path", () => {
  const mine = new RendererRegistry();
  const folder = { indexName: "SESSIONS.txt", summary: () => undefined, buildIndex: () => "" };
  mine.register({ ...count, name: "ok", folder, batch: { fileName: "ALL.txt" } });
  for (const indexName of ["", "..", "a/b.txt", "a\\b.txt"]) {
    assert.throws(
      () => mine.register({ ...count, name: "bad", folder: { ...folder, indexName } }),
      /folder needs a plain indexName/,
    );
  }
  assert.throws(
    () => mine.register({ ...count, name: "bad", folder: { ...folder, headBytes: 0 } }),
    /folder needs/,
  );
  assert.throws(
    () =>
      mine.register(
        {
          ...count,
          name: "bad",
          folder: { ...folder, buildIndex: undefined },
        } as unknown as Renderer,
      ),
    /folder needs/,
  );
  assert.throws(
    () => mine.register({ ...count, name: "bad", batch: { fileName: "../up.txt" } }),
    /batch\.fileName must be a plain file name/,
  );
  assert.ok(!mine.has("bad"));
});

Deno.test("the built-ins declare their folder formats and batches through the hooks", async () => {
  const builtins = createRegistry();
  assert.equal(builtins.get("dream").folder?.indexName, "INDEX.md");
  assert.equal(builtins.get("html").folder?.indexName, "index.html");
  assert.equal(builtins.get("index").batch?.fileName, "INDEX.md");
  assert.equal(builtins.get("grader").folder, undefined);
  assert.equal(builtins.get("json").folder, undefined);
  // The dream's page is its text behind front matter that holds the INDEX.md row.
  const entries = [{
    seq: 1,
    session_id: "sesn_1",
    thread_id: null,
    event: {
      id: "sevt_1",
      type: "user.message",
      processed_at: "2026-01-01T00:00:00Z",
      content: "Hi",
    },
  }];
  const dream = builtins.get("dream");
  const text = await dream.render(entries);
  const page = await dream.folder!.page!(entries);
  assert.ok(page.startsWith('---\nrenderer: "dream"\n') && page.endsWith(text));
  const size = new TextEncoder().encode(page).length;
  const summary = dream.folder!.summary({ name: "sesn_1.md", head: page, size });
  assert.ok(summary !== undefined);
  assert.equal(
    await dream.folder!.buildIndex([{ name: "sesn_1.md", summary }]),
    await builtins.render("index", entries),
  );
  // A head cut inside the front matter, or a file that is not a page, is no page.
  assert.equal(dream.folder!.summary({ name: "x.md", head: page.slice(0, 20), size }), undefined);
  assert.equal(dream.folder!.summary({ name: "x.md", head: "# notes\n", size: 8 }), undefined);
});
