// Copyright 2026 the brigade authors. MIT license.

/**
 * `deno task render --out DIR/` rerun with nothing changed: the folder's index is built from the
 * pages' heads the folder's record keeps, no page read back, and it is the index reading the
 * pages gives; a page the record does not know is read.
 */

import assert from "node:assert/strict";
import { inTempDir, task, twoLogs } from "./_cli.ts";
import { outputStamp } from "../cli/_file_stamp.ts";
import { folderIndex } from "../cli/_folder_index.ts";
import { registry } from "../renderers/builtin.ts";

const REAL = new URL("../fixtures/claude_code/real/", import.meta.url).pathname;

/** Rewrites a file's bytes in place, its size and modification time kept: its stamp is the same. */
async function editKeepingStamp(path: string, from: string, to: string): Promise<void> {
  assert.equal(from.length, to.length);
  const before = await Deno.stat(path);
  const stamp = await outputStamp(path);
  const text = await Deno.readTextFile(path);
  assert.ok(text.includes(from));
  await Deno.writeTextFile(path, text.replace(from, to));
  await Deno.utime(path, before.atime!, before.mtime!);
  assert.equal(await outputStamp(path), stamp, "the edit kept the page's stamp");
}

Deno.test("render: a rerun with nothing changed builds INDEX.md from the folder's record, reading no page back", async () => {
  await inTempDir(async (dir) => {
    const logs = await twoLogs(dir);
    const render = async () =>
      await task("render", ["-r", "dream", "--out", "out/", ...logs], { cwd: dir });
    assert.equal((await render()).code, 0);
    const index = await Deno.readTextFile(`${dir}/out/INDEX.md`);
    assert.match(index, /question a/);
    // Were the page read back, the index would say what the page says now.
    await editKeepingStamp(
      `${dir}/out/sesn_a.md`,
      'first_user: "question a"',
      'first_user: "QUESTION A"',
    );

    const rerun = await render();
    assert.equal(rerun.code, 0, rerun.stderr);
    assert.match(rerun.stderr, /render: 0 rendered, 2 unchanged, 0 failed\n$/);
    assert.equal(await Deno.readTextFile(`${dir}/out/INDEX.md`), index);
  });
});

Deno.test("render: a page the folder's record does not know is read back for INDEX.md", async () => {
  await inTempDir(async (dir) => {
    const logs = await twoLogs(dir);
    const render = async () =>
      await task("render", ["-r", "dream", "--out", "out/", ...logs], { cwd: dir });
    assert.equal((await render()).code, 0);
    const page = await Deno.readTextFile(`${dir}/out/sesn_b.md`);
    await Deno.writeTextFile(`${dir}/out/sesn_c.md`, page.replaceAll("sesn_b", "sesn_c"));
    // A page the record knows, by hand made another: its stamp is no longer the recorded one.
    await Deno.writeTextFile(
      `${dir}/out/sesn_a.md`,
      (await Deno.readTextFile(`${dir}/out/sesn_a.md`)).replace(
        '"question a"',
        '"question A, edited"',
      ),
    );

    const rerun = await render();
    assert.equal(rerun.code, 1, rerun.stderr);
    const index = await Deno.readTextFile(`${dir}/out/INDEX.md`);
    assert.match(index, / · sesn_c · /);
    assert.match(index, /question A, edited/);
    assert.doesNotMatch(index, /question a\n/);
  });
});

for (const name of ["dream", "html"] as const) {
  Deno.test(`render -r ${name}: the index built from the folder's record is the one reading every page gives`, async () => {
    await inTempDir(async (dir) => {
      const logs = await twoLogs(dir);
      for await (const { name: source } of Deno.readDir(REAL)) {
        if (source.endsWith(".jsonl")) {
          await Deno.copyFile(`${REAL}${source}`, `${dir}/${source}`);
          logs.push(source);
        }
      }
      const args = ["-r", name, "--skip-invalid", "--out", "out/", ...logs];
      const first = await task("render", args, { cwd: dir });
      assert.equal(first.code, 0, first.stderr);
      const rerun = await task("render", args, { cwd: dir });
      assert.match(rerun.stderr, /render: 0 rendered, \d+ unchanged, 0 failed\n$/);
      const renderer = registry.get(name);
      const folder = renderer.folder!;
      const written = await Deno.readTextFile(`${dir}/out/${folder.indexName}`);
      const read = await folderIndex(`${dir}/out`, renderer.extension!, folder);
      assert.equal(written, read);
      // The record keeps every page's head: none is read back.
      const record = JSON.parse(await Deno.readTextFile(`${dir}/out/.transcript-manifest.json`));
      const outputs = Object.values(record.entries).flatMap((e) =>
        (e as { outputs: unknown[][] }).outputs
      );
      assert.equal(outputs.length, logs.length);
      assert.ok(outputs.every((o) => typeof o[3] === "string"));
    });
  });
}

Deno.test("render: a rerun keeps in the folder's record the heads an earlier version's record lacks", async () => {
  await inTempDir(async (dir) => {
    const logs = await twoLogs(dir);
    const render = async () =>
      await task("render", ["-r", "dream", "--out", "out/", ...logs], { cwd: dir });
    assert.equal((await render()).code, 0);
    const index = await Deno.readTextFile(`${dir}/out/INDEX.md`);
    const path = `${dir}/out/.transcript-manifest.json`;
    // The record as version 0.2.0 wrote it: each output's name, stamp and digest only, and no
    // state of the folder after the entries.
    const headless = (await Deno.readTextFile(path)).replace(/,"---\\n(?:[^"\\]|\\.)*"\]/g, "]")
      .replace(/\n\},\n"state":.*\}\n$/, "\n}}\n");
    assert.doesNotMatch(headless, /first_user|"state"/);
    await Deno.writeTextFile(path, headless);

    const upgrade = await render();
    assert.match(upgrade.stderr, /render: 0 rendered, 2 unchanged, 0 failed\n$/);
    assert.equal(await Deno.readTextFile(`${dir}/out/INDEX.md`), index);
    assert.match(await Deno.readTextFile(path), /first_user: \\"question a\\"/);
    await editKeepingStamp(
      `${dir}/out/sesn_a.md`,
      'first_user: "question a"',
      'first_user: "QUESTION A"',
    );
    assert.match((await render()).stderr, /render: 0 rendered, 2 unchanged, 0 failed\n$/);
    assert.equal(await Deno.readTextFile(`${dir}/out/INDEX.md`), index);
  });
});
