// Copyright 2026 the brigade authors. MIT license.

/**
 * `deno task render --out DIR/` rerun from another folder: with nothing changed it is told from
 * stats and the folder's state the record ends with, and INDEX.md is not built again; each thing
 * a careless user (or a new version) changes makes the rerun go the whole way, and INDEX.md comes
 * out as a run into a fresh folder writes it.
 */

import assert from "node:assert/strict";
import { entryLine, inTempDir, ROOT, task, twoLogs } from "./_cli.ts";
import { outputStamp } from "../cli/_file_stamp.ts";
import { folderIndex } from "../cli/_folder_index.ts";
import { MANIFEST_NAME } from "../cli/_manifest_file.ts";
import { VERSION } from "../cli/_version.ts";
import { registry } from "../renderers/builtin.ts";

/** The state line the folder's record ends with, parsed; undefined when it has none. */
async function recordState(dir: string): Promise<{ key: string; index: string } | undefined> {
  const text = await Deno.readTextFile(`${dir}/out/${MANIFEST_NAME}`);
  const line = /\n"state":(\{.*\})\}\n$/.exec(text)?.[1];
  return line === undefined ? undefined : JSON.parse(line);
}

/** The index reading every page back gives: the one a run into a fresh folder writes. */
async function indexOfPages(dir: string): Promise<string> {
  const dream = registry.get("dream");
  return await folderIndex(`${dir}/out`, ".md", dream.folder!);
}

/** A folder of two dreams written once, and the command that wrote it, to run again. */
async function renderedFolder(
  dir: string,
): Promise<{ render: (...more: string[]) => ReturnType<typeof task>; index: string }> {
  const logs = await twoLogs(dir);
  const render = (...more: string[]) =>
    task("render", ["-r", "dream", "--out", "out/", ...more, ...logs], { cwd: dir });
  const first = await render();
  assert.equal(first.code, 0, first.stderr);
  return { render, index: await Deno.readTextFile(`${dir}/out/INDEX.md`) };
}

Deno.test("render: a rerun with nothing changed leaves INDEX.md as it is, told by the state the folder's record ends with", async () => {
  await inTempDir(async (dir) => {
    const { render, index } = await renderedFolder(dir);
    const state = await recordState(dir);
    assert.ok(state !== undefined, "the record ends with the folder's state");
    assert.equal(state.index, await outputStamp(`${dir}/out/INDEX.md`));
    assert.ok(state.key.includes(VERSION));
    const record = await Deno.readTextFile(`${dir}/out/${MANIFEST_NAME}`);

    const rerun = await render();
    assert.equal(rerun.code, 0, rerun.stderr);
    assert.equal(rerun.stderr, "render: 0 rendered, 2 unchanged, 0 failed\n");
    assert.equal(await outputStamp(`${dir}/out/INDEX.md`), state.index);
    assert.equal(await Deno.readTextFile(`${dir}/out/INDEX.md`), index);
    assert.equal(await Deno.readTextFile(`${dir}/out/${MANIFEST_NAME}`), record);
  });
});

Deno.test("render: INDEX.md edited by hand is built again by the rerun", async () => {
  await inTempDir(async (dir) => {
    const { render, index } = await renderedFolder(dir);
    await Deno.writeTextFile(`${dir}/out/INDEX.md`, `${index}\na note of mine\n`);
    const rerun = await render();
    assert.equal(rerun.code, 0, rerun.stderr);
    assert.match(rerun.stderr, /render: 0 rendered, 2 unchanged, 0 failed\n$/);
    assert.equal(await Deno.readTextFile(`${dir}/out/INDEX.md`), index);
    // And the next rerun, with nothing changed, keeps it.
    assert.equal((await render()).code, 0);
    assert.equal(await Deno.readTextFile(`${dir}/out/INDEX.md`), index);
  });
});

Deno.test("render: INDEX.md deleted is built again by the rerun", async () => {
  await inTempDir(async (dir) => {
    const { render, index } = await renderedFolder(dir);
    await Deno.remove(`${dir}/out/INDEX.md`);
    const rerun = await render();
    assert.equal(rerun.code, 0, rerun.stderr);
    assert.equal(await Deno.readTextFile(`${dir}/out/INDEX.md`), index);
  });
});

Deno.test("render: a page deleted is rendered again, and INDEX.md built again", async () => {
  await inTempDir(async (dir) => {
    const { render, index } = await renderedFolder(dir);
    const page = await Deno.readTextFile(`${dir}/out/sesn_a.md`);
    await Deno.remove(`${dir}/out/sesn_a.md`);
    const rerun = await render();
    assert.equal(rerun.code, 0, rerun.stderr);
    assert.match(rerun.stderr, /render: 1 rendered, 1 unchanged, 0 failed\n$/);
    assert.equal(await Deno.readTextFile(`${dir}/out/sesn_a.md`), page);
    assert.equal(await Deno.readTextFile(`${dir}/out/INDEX.md`), index);
  });
});

Deno.test("render: a page deleted whose input is not named again still leaves INDEX.md", async () => {
  await inTempDir(async (dir) => {
    const { index } = await renderedFolder(dir);
    await Deno.remove(`${dir}/out/sesn_b.md`);
    // Only a.ndjson: the record's entry of b.ndjson is left with no page.
    const rerun = await task("render", ["-r", "dream", "--out", "out/", "a.ndjson"], { cwd: dir });
    assert.equal(rerun.code, 0, rerun.stderr);
    const rebuilt = await Deno.readTextFile(`${dir}/out/INDEX.md`);
    assert.notEqual(rebuilt, index);
    assert.doesNotMatch(rebuilt, /question b/);
    assert.equal(rebuilt, await indexOfPages(dir));
  });
});

Deno.test("render: a page added by hand is listed by the rerun's INDEX.md", async () => {
  await inTempDir(async (dir) => {
    const { render, index } = await renderedFolder(dir);
    const page = await Deno.readTextFile(`${dir}/out/sesn_b.md`);
    await Deno.writeTextFile(`${dir}/out/sesn_c.md`, page.replaceAll("sesn_b", "sesn_c"));
    const rerun = await render();
    assert.equal(rerun.code, 0, rerun.stderr);
    const rebuilt = await Deno.readTextFile(`${dir}/out/INDEX.md`);
    assert.notEqual(rebuilt, index);
    assert.match(rebuilt, / · sesn_c · /);
    assert.equal(rebuilt, await indexOfPages(dir));
  });
});

Deno.test("render: a page edited by hand is kept and said, and INDEX.md built from it", async () => {
  await inTempDir(async (dir) => {
    const { render } = await renderedFolder(dir);
    const path = `${dir}/out/sesn_a.md`;
    const edited = (await Deno.readTextFile(path)).replace('"question a"', '"question A, edited"');
    await Deno.writeTextFile(path, edited);
    const rerun = await render();
    assert.equal(rerun.code, 1, rerun.stderr);
    assert.match(rerun.stderr, /sesn_a\.md: a different file exists \(pass --force/);
    assert.equal(await Deno.readTextFile(path), edited);
    assert.match(await Deno.readTextFile(`${dir}/out/INDEX.md`), /question A, edited/);
  });
});

Deno.test("render: an input that changed is rendered again, and INDEX.md built again", async () => {
  await inTempDir(async (dir) => {
    const { render, index } = await renderedFolder(dir);
    await Deno.writeTextFile(
      `${dir}/a.ndjson`,
      `${entryLine(2, "sesn_a", "and a follow-up", "2026-09-14T10:03:00Z")}\n`,
      { append: true },
    );
    const rerun = await render();
    assert.equal(rerun.code, 0, rerun.stderr);
    assert.match(rerun.stderr, /render: 1 rendered, 1 unchanged, 0 failed\n$/);
    const rebuilt = await Deno.readTextFile(`${dir}/out/INDEX.md`);
    assert.notEqual(rebuilt, index);
    assert.equal(rebuilt, await indexOfPages(dir));
  });
});

Deno.test("render: another option goes the whole way, and the record keeps its key", async () => {
  await inTempDir(async (dir) => {
    const { render, index } = await renderedFolder(dir);
    const before = (await recordState(dir))!.key;
    const rerun = await render("--scope", "all");
    assert.equal(rerun.code, 0, rerun.stderr);
    const after = (await recordState(dir))!.key;
    assert.notEqual(after, before);
    assert.match(after, /"all"/);
    assert.equal(await Deno.readTextFile(`${dir}/out/INDEX.md`), index);
  });
});

Deno.test("render: an INDEX.md marked against --previous is built again by the next plain rerun", async () => {
  await inTempDir(async (dir) => {
    const { index } = await renderedFolder(dir);
    await Deno.copyFile(`${dir}/out/INDEX.md`, `${dir}/previous.md`);
    await Deno.remove(`${dir}/out/sesn_b.md`);
    await Deno.remove(`${dir}/b.ndjson`);
    const marked = await task(
      "render",
      ["-r", "dream", "--out", "out/", "--previous", "previous.md", "a.ndjson"],
      { cwd: dir },
    );
    assert.equal(marked.code, 0, marked.stderr);
    const withMarks = await Deno.readTextFile(`${dir}/out/INDEX.md`);
    assert.match(withMarks, /sesn_b/, "the session gone is listed");
    assert.equal(await recordState(dir), undefined, "a marked index is not the state of a rerun");
    const plain = await task("render", ["-r", "dream", "--out", "out/", "a.ndjson"], { cwd: dir });
    assert.equal(plain.code, 0, plain.stderr);
    const rebuilt = await Deno.readTextFile(`${dir}/out/INDEX.md`);
    assert.notEqual(rebuilt, withMarks);
    assert.doesNotMatch(rebuilt, /sesn_b/);
    assert.equal(rebuilt, await indexOfPages(dir));
    assert.notEqual(rebuilt, index);
  });
});

Deno.test("render: a folder another version of the package wrote goes the whole way", async () => {
  await inTempDir(async (dir) => {
    // This checkout under another version: its command keys the record with it.
    const other = `${dir}/other`;
    await Deno.mkdir(other);
    for (
      const name of ["cli", "events", "kit", "lines", "redact", "renderers", "sources", "reader"]
    ) {
      const copy = await new Deno.Command("cp", {
        args: ["-r", new URL(name, ROOT).pathname, `${other}/`],
      }).output();
      assert.ok(copy.success, name);
    }
    const config = JSON.parse(await Deno.readTextFile(new URL("deno.json", ROOT)));
    await Deno.writeTextFile(`${other}/deno.json`, JSON.stringify({ ...config, version: "0.0.1" }));
    const logs = await twoLogs(dir);
    const args = ["-r", "dream", "--out", "out/", ...logs];
    const first = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--allow-read", "--allow-write", `${other}/cli/render.ts`, ...args],
      cwd: dir,
    }).output();
    assert.equal(first.code, 0, new TextDecoder().decode(first.stderr));
    assert.match((await recordState(dir))!.key, /"0\.0\.1"/);
    const index = await Deno.readTextFile(`${dir}/out/INDEX.md`);
    await Deno.writeTextFile(`${dir}/out/INDEX.md`, `${index}\na note of mine\n`);

    const rerun = await task("render", args, { cwd: dir });
    assert.equal(rerun.code, 0, rerun.stderr);
    assert.ok((await recordState(dir))!.key.includes(JSON.stringify(VERSION)));
    assert.equal(await Deno.readTextFile(`${dir}/out/INDEX.md`), index);
  });
});

Deno.test("render: a folder given as an input keeps INDEX.md on a rerun; its files named alone go the whole way", async () => {
  await inTempDir(async (dir) => {
    await Deno.mkdir(`${dir}/projects/p1`, { recursive: true });
    const logs = await twoLogs(`${dir}/projects/p1`);
    const render = (...inputs: string[]) =>
      task("render", ["-r", "dream", "--out", "out/", ...inputs], { cwd: dir });
    assert.equal((await render("projects/")).code, 0);
    const state = await recordState(dir);
    assert.ok(state !== undefined, "the record ends with the folder's state");
    const rerun = await render("projects/");
    assert.equal(rerun.code, 0, rerun.stderr);
    assert.match(rerun.stderr, /render: 0 rendered, 2 unchanged, 0 failed\n$/);
    assert.equal(await outputStamp(`${dir}/out/INDEX.md`), state.index);
    // The same files named alone are other pages (no project in their names): rendered.
    const alone = await render(...logs.map((log) => `projects/p1/${log}`));
    assert.equal(alone.code, 0, alone.stderr);
    assert.match(alone.stderr, /render: 2 rendered, 0 unchanged, 0 failed\n$/);
    assert.equal(await Deno.readTextFile(`${dir}/out/INDEX.md`), await indexOfPages(dir));
  });
});

Deno.test("render: a rerun reads the record's last line alone, and an entry edited before it goes the whole way", async () => {
  await inTempDir(async (dir) => {
    const { render, index } = await renderedFolder(dir);
    const path = `${dir}/out/${MANIFEST_NAME}`;
    const record = await Deno.readTextFile(path);
    const cut = record.lastIndexOf("\n", record.length - 2);
    // a.ndjson's entry says another stamp of its input, one byte longer; the state is untouched.
    const body = record.slice(0, cut).replace(/("input":"[^"]*)"/, '$10"');
    assert.notEqual(body, record.slice(0, cut));
    await Deno.writeTextFile(path, `${body}${record.slice(cut)}`);
    const rerun = await render();
    assert.equal(rerun.code, 0, rerun.stderr);
    assert.match(rerun.stderr, /render: 0 rendered, 2 unchanged, 0 failed\n$/);
    assert.equal(await Deno.readTextFile(`${dir}/out/INDEX.md`), index);
    // The whole way read the entry, read its input again (its page came out the same) and wrote
    // the record again, the entry with its input's stamp: a rerun told from the state writes none.
    assert.equal(await Deno.readTextFile(path), record);
  });
});

Deno.test("render: a rerun whose folder's state is longer than the record's end it reads first tells nothing changed, and sees a page added", async () => {
  await inTempDir(async (dir) => {
    const { render } = await renderedFolder(dir);
    // Pages of the user's beside the dreams: the state lists them all, some 100 KB.
    const page = await Deno.readTextFile(`${dir}/out/sesn_b.md`);
    const name = (i: number): string => `notes_${"x".repeat(100)}_${i}`;
    for (let i = 0; i < 700; i++) {
      await Deno.writeTextFile(`${dir}/out/${name(i)}.md`, page.replaceAll("sesn_b", name(i)));
    }
    assert.equal((await render()).code, 0);
    const record = await Deno.readTextFile(`${dir}/out/${MANIFEST_NAME}`);
    const line = record.slice(record.lastIndexOf("\n", record.length - 2) + 1);
    assert.ok(line.length > 100_000 && line.startsWith('"state":'), `${line.length}`);
    const index = await Deno.readTextFile(`${dir}/out/INDEX.md`);

    // Told from the state alone: none of the record's reading and writing is loaded.
    const rerun = await render();
    assert.equal(rerun.code, 0, rerun.stderr);
    assert.equal(rerun.stderr, "render: 0 rendered, 2 unchanged, 0 failed\n");
    const debug = await task("render", ["-r", "dream", "--out", "out/", "a.ndjson", "b.ndjson"], {
      cwd: dir,
      env: { DENO_LOG: "debug" },
    });
    assert.match(debug.stderr, /render: 0 rendered, 2 unchanged, 0 failed\n$/);
    assert.match(debug.stderr, /cli\/_quick_rerun\.ts/);
    assert.doesNotMatch(debug.stderr, /cli\/_manifest\.ts/);
    assert.equal(await Deno.readTextFile(`${dir}/out/INDEX.md`), index);

    await Deno.writeTextFile(`${dir}/out/${name(700)}.md`, page.replaceAll("sesn_b", name(700)));
    assert.equal((await render()).code, 0);
    const rebuilt = await Deno.readTextFile(`${dir}/out/INDEX.md`);
    assert.match(rebuilt, new RegExp(` · ${name(700)} · `));
    assert.equal(rebuilt, await indexOfPages(dir));
  });
});

Deno.test("render: a run's temporary file in the folder makes the rerun go the whole way, which clears a stale one", async () => {
  await inTempDir(async (dir) => {
    const { render, index } = await renderedFolder(dir);
    // Named to come after the pages in the listing, and left by a run killed two minutes ago.
    const temporary = `${dir}/out/.transcript-ffffffffffffffff.tmp`;
    await Deno.writeTextFile(temporary, "half a page");
    const old = new Date(Date.now() - 120_000);
    await Deno.utime(temporary, old, old);
    const rerun = await render();
    assert.equal(rerun.code, 0, rerun.stderr);
    assert.match(rerun.stderr, /render: 0 rendered, 2 unchanged, 0 failed\n$/);
    await assert.rejects(Deno.lstat(temporary), Deno.errors.NotFound);
    assert.equal(await Deno.readTextFile(`${dir}/out/INDEX.md`), index);
  });
});
