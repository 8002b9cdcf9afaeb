// Copyright 2026 the brigade authors. MIT license.

import assert from "node:assert/strict";
import { removeStaleTemporaries, sessionFileName, writeAtomic } from "./_output.ts";

Deno.test("sessionFileName() keeps safe ids and encodes everything else", async () => {
  assert.equal(await sessionFileName("sesn_01AbC-9", ".md"), "sesn_01AbC-9.md");
  assert.equal(await sessionFileName("../x", ".md"), "%2E%2E%u002Fx.md");
  assert.equal(await sessionFileName("a b/é", ".txt"), "a%20b%u002F%C3%A9.txt");
  assert.equal(await sessionFileName("INDEX", ".md"), "%INDEX.md");
  assert.equal(await sessionFileName("", ".md"), "%.md");
  const long = await sessionFileName("x".repeat(500), ".md");
  assert.ok(long.length <= 203);
  assert.notEqual(long, await sessionFileName("x".repeat(501), ".md"));
});

Deno.test("sessionFileName() gives every (project, id) pair its own name, and an id alone another", async () => {
  const name = (id: string, project?: string) => sessionFileName(id, ".html", { project });
  assert.equal(await name("s1", "-home-me-app"), "-home-me-app%2Fs1.html");
  assert.equal(await name("b/s1", "a"), "a%2Fb%u002Fs1.html");
  assert.equal(await name("s1", "a/b"), "a%2Fb%2Fs1.html");
  assert.equal(await name("a/b/s1"), "a%u002Fb%u002Fs1.html");
  const names = new Set(
    await Promise.all([
      name("b/s1", "a"),
      name("s1", "a/b"),
      name("a/b/s1"),
      name("b%2Fs1", "a"),
      name("a%2Fb%2Fs1"),
      name("", "a/b/s1"),
    ]),
  );
  assert.equal(names.size, 6);
  const long = await name("s".repeat(150), "p".repeat(150));
  assert.ok(long.length <= 205);
  assert.notEqual(long, await name("s".repeat(149), "p".repeat(151)));
});

Deno.test("sessionFileName() names a redacted id, and two secrets never share a file", async () => {
  const one = await sessionFileName("sesn_password=hunter2abc", ".md");
  const two = await sessionFileName("sesn_password=hunter3xyz", ".md");
  assert.match(one, /^sesn_password%3D%5BREDACTED_SECRET%5D~[0-9a-f]{8}\.md$/);
  assert.doesNotMatch(one, /hunter/);
  assert.notEqual(one, two);
  assert.equal(one, await sessionFileName("sesn_password=hunter2abc", ".md"), "stable");
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
    assert.equal(await writeAtomic(target, "whole text", { force: false }), "written");
    assert.equal(await Deno.readTextFile(target), "whole text");
    assert.equal(await writeAtomic(target, "whole text", { force: false }), "unchanged");
    await assert.rejects(
      writeAtomic(target, "new", { force: false }),
      /out\.md: a different file exists \(pass --force to overwrite it\)/,
    );
    assert.equal(await writeAtomic(target, "new", { force: true }), "written");
    assert.equal(await Deno.readTextFile(target), "new");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("writeAtomic() writes a 240-character file name and says when the folder is missing", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const long = `${dir}/${"n".repeat(236)}.txt`;
    assert.equal(await writeAtomic(long, "text", { force: false }), "written");
    assert.equal(await Deno.readTextFile(long), "text");
    const missing = `${dir}/a/missing/f.txt`;
    const error = await writeAtomic(missing, "text", { force: false }).catch((e) => e as Error);
    assert.ok(error instanceof Error);
    assert.equal(
      error.message,
      `Cannot write ${missing}: the folder ${dir}/a/missing does not exist`,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("removeStaleTemporaries() removes only old temporary files of its own naming", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const old = new Date(Date.now() - 10 * 60_000);
    const names = {
      stale: ".transcript-0123456789abcdef.tmp",
      // Another program's temporary file (0.1.0 named its own so): never this command's to remove.
      staleOther: ".sesn_a.md.6f9619ff-8b86-4d11-b42d-00c04fc964ff.tmp",
      fresh: ".transcript-fedcba9876543210.tmp",
      other: ".notes.tmp",
    };
    for (const name of Object.values(names)) await Deno.writeTextFile(`${dir}/${name}`, "x");
    for (const name of [names.stale, names.staleOther, names.other]) {
      await Deno.utime(`${dir}/${name}`, old, old);
    }
    assert.equal(await removeStaleTemporaries(dir), 1);
    const left = (await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name).sort();
    assert.deepEqual(left, [names.other, names.staleOther, names.fresh].sort());
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("sessionFileName() never gives two ids that differ only in lone surrogates one name", async () => {
  const ids = [
    "sesn_\uD800",
    "sesn_\uDBFF",
    "sesn_\uFFFD",
    `${"x".repeat(300)}\uD800`,
    `${"x".repeat(300)}\uDC00`,
  ];
  const names = await Promise.all(ids.map((id) => sessionFileName(id, ".md")));
  assert.equal(new Set(names).size, ids.length, names.join(" "));
  assert.equal(names[0], "sesn_%uD800.md");
  assert.equal(names[2], "sesn_%EF%BF%BD.md");
});
