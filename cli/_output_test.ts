// Copyright 2026 the brigade authors. MIT license.

import assert from "node:assert/strict";
import { sessionFileName, writeAtomic } from "./_output.ts";

Deno.test("sessionFileName() keeps safe ids and encodes everything else", async () => {
  assert.equal(await sessionFileName("sesn_01AbC-9", ".md"), "sesn_01AbC-9.md");
  assert.equal(await sessionFileName("../x", ".md"), "%2E%2E%2Fx.md");
  assert.equal(await sessionFileName("a b/é", ".txt"), "a%20b%2F%C3%A9.txt");
  assert.equal(await sessionFileName("INDEX", ".md"), "%INDEX.md");
  assert.equal(await sessionFileName("", ".md"), "%.md");
  const long = await sessionFileName("x".repeat(500), ".md");
  assert.ok(long.length <= 203);
  assert.notEqual(long, await sessionFileName("x".repeat(501), ".md"));
});

Deno.test("writeAtomic() leaves no partial file when the write is interrupted", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const target = `${dir}/out.md`;
    await assert.rejects(
      writeAtomic(target, "whole text", {
        force: false,
        write: async (path, text) => {
          await Deno.writeTextFile(path, text.slice(0, 3)); // half written, then the failure
          throw new Error("disk full");
        },
      }),
      /disk full/,
    );
    assert.deepEqual(await Array.fromAsync(Deno.readDir(dir)), []);
    await writeAtomic(target, "whole text", { force: false });
    assert.equal(await Deno.readTextFile(target), "whole text");
    await assert.rejects(writeAtomic(target, "new", { force: false }), /the file exists/);
    await writeAtomic(target, "new", { force: true });
    assert.equal(await Deno.readTextFile(target), "new");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
