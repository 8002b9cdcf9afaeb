// Copyright 2026 the brigade authors. MIT license.

/**
 * `deno task render --out DIR/` and the folder's record (`.transcript-manifest.json`): what a
 * record someone else wrote can and cannot make a run do, the entries that go with their files,
 * and the bound on what is read.
 */

import assert from "node:assert/strict";
import { entryLine, inTempDir, task } from "./_cli.ts";
import { outputStamp, textDigest } from "../cli/_file_stamp.ts";
import {
  entryLine as recordLine,
  MANIFEST_NAME,
  MAX_MANIFEST_BYTES,
  recordText,
} from "../cli/_manifest_file.ts";

const KEPT =
  /sesn_a\.md: a different file exists \(pass --force to overwrite it\)\nrender: 0 rendered, 0 unchanged, 1 failed\n$/;

/** The record's entries, by input path. */
async function recorded(dir: string): Promise<string[]> {
  return Object.keys(JSON.parse(await Deno.readTextFile(`${dir}/${MANIFEST_NAME}`)).entries);
}

/** Lines of record for inputs that are gone, until the lines hold `bytes`. */
function vanished(bytes: number): string[] {
  const lines = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const line = recordLine(`/home/someone/.claude/projects/-gone-${i % 50}/${i}.jsonl`, {
      key: '["0.2.0","dream",".md",null,"auto",false,null,{},false]',
      input: `2049:${i}:123456:1790000000000`,
      outputs: [{
        name: `gone-${i}.md`,
        stamp: `2049:${i}:4567:1790000000000`,
        digest: "ab".repeat(32),
      }],
    });
    lines.push(line);
    size += line.length + 2;
  }
  return lines;
}

Deno.test("render: a forged record entry naming a user's own file does not make a run replace it", async (t) => {
  await inTempDir(async (dir) => {
    await Deno.writeTextFile(`${dir}/a.ndjson`, `${entryLine(1, "sesn_a", "hello")}\n`);
    const input = `${await Deno.realPath(dir)}/a.ndjson`;
    await Deno.mkdir(`${dir}/out`);
    const mine = `${dir}/out/sesn_a.md`;
    await Deno.writeTextFile(mine, "my own notes\n");
    const render = async () =>
      await task("render", ["-r", "dream", "--out", "out/", "a.ndjson"], { cwd: dir });

    await t.step("an entry as version 0.2.0 wrote them: the file's stamp alone", async () => {
      const info = await Deno.stat(mine);
      const stamp = `${info.dev}:${info.ino}:${info.size}:${info.mtime!.getTime()}`;
      const entries = { [input]: { key: "x", input: "x", outputs: [["sesn_a.md", stamp]] } };
      await Deno.writeTextFile(
        `${dir}/out/${MANIFEST_NAME}`,
        JSON.stringify({ version: 1, entries }),
      );
      const run = await render();
      assert.equal(run.code, 1, run.stderr);
      assert.match(
        run.stderr,
        /\.transcript-manifest\.json was not read: an earlier version wrote it; /,
      );
      assert.match(run.stderr, KEPT);
      assert.equal(await Deno.readTextFile(mine), "my own notes\n");
    });

    await t.step(
      "an entry with the file's stamp and the digest of the page the run writes",
      async () => {
        // What a forger who cannot read the file can know: its stamp, and what the command would
        // write (it renders the same input elsewhere).
        const other = await task("render", ["-r", "dream", "--out", "other/", "a.ndjson"], {
          cwd: dir,
        });
        assert.equal(other.code, 0, other.stderr);
        const page = await Deno.readTextFile(`${dir}/other/sesn_a.md`);
        const forged = recordLine(input, {
          key: "x",
          input: "x",
          outputs: [{
            name: "sesn_a.md",
            stamp: (await outputStamp(mine))!,
            digest: await textDigest(page),
          }],
        });
        await Deno.writeTextFile(`${dir}/out/${MANIFEST_NAME}`, recordText([forged]));
        const run = await render();
        assert.equal(run.code, 1, run.stderr);
        assert.match(run.stderr, KEPT);
        assert.equal(await Deno.readTextFile(mine), "my own notes\n");
      },
    );
  });
});

Deno.test("render: the record drops the entries of inputs that are gone and of outputs that are gone", async () => {
  await inTempDir(async (dir) => {
    for (const name of ["a", "b", "c"]) {
      await Deno.writeTextFile(`${dir}/${name}.ndjson`, `${entryLine(1, `sesn_${name}`, name)}\n`);
    }
    const all = await task("render", [
      "-r",
      "dream",
      "-o",
      "out/",
      "a.ndjson",
      "b.ndjson",
      "c.ndjson",
    ], {
      cwd: dir,
    });
    assert.equal(all.code, 0, all.stderr);
    assert.equal((await recorded(`${dir}/out`)).length, 3);
    await Deno.remove(`${dir}/b.ndjson`);
    await Deno.remove(`${dir}/out/sesn_c.md`);
    const rerun = await task("render", ["-r", "dream", "-o", "out/", "a.ndjson"], { cwd: dir });
    assert.equal(rerun.stderr, "render: 0 rendered, 1 unchanged, 0 failed\n");
    const kept = await recorded(`${dir}/out`);
    assert.deepEqual(kept.map((path) => path.split("/").at(-1)), ["a.ndjson"]);
  });
});

Deno.test("render: a record over its 4 MiB bound is not read; one within is read in a small heap", async (t) => {
  await inTempDir(async (dir) => {
    const log = `${dir}/a.ndjson`;
    await Deno.writeTextFile(log, `${entryLine(1, "sesn_a", "hello")}\n`);
    // A heap far smaller than the 421 MB a 23 MB record took to read whole.
    const run = async () =>
      await task("render", ["-r", "dream", "--out", "out/", "a.ndjson"], {
        cwd: dir,
        env: { DENO_V8_FLAGS: "--max-old-space-size=32" },
      });
    const first = await run();
    assert.equal(first.code, 0, first.stderr);
    const record = `${dir}/out/${MANIFEST_NAME}`;
    const honest = (await Deno.readTextFile(record)).split("\n")[1]!;
    /** The session goes on: the page is the command's to replace, if the record is read. */
    const grow = async (seq: number) =>
      await Deno.writeTextFile(log, `${entryLine(seq, "sesn_a", `more ${seq}`)}\n`, {
        append: true,
      });

    await t.step(
      "within the bound: read, its vanished entries dropped, the grown page replaced",
      async () => {
        const lines = vanished(MAX_MANIFEST_BYTES - 64 * 1024);
        await Deno.writeTextFile(record, recordText([honest, ...lines]));
        await grow(2);
        const within = await run();
        assert.equal(within.stderr, "render: 1 rendered, 0 unchanged, 0 failed\n");
        assert.match(await Deno.readTextFile(`${dir}/out/sesn_a.md`), /more 2/);
        assert.equal((await recorded(`${dir}/out`)).length, 1);
      },
    );

    await t.step(
      "over the bound (23 MiB): not read, the run goes on as without a record",
      async () => {
        const again = (await Deno.readTextFile(record)).split("\n")[1]!;
        await Deno.writeTextFile(record, recordText([again, ...vanished(23 * 1024 * 1024)]));
        await grow(3);
        const over = await run();
        assert.equal(over.code, 1, over.stderr);
        assert.match(
          over.stderr,
          /^render: out\/\.transcript-manifest\.json was not read: it is over the 4 MiB a record may be; every input is rendered again, and a page that differs from what would be written is kept unless --force\n/,
        );
        assert.match(over.stderr, KEPT);
        assert.doesNotMatch(await Deno.readTextFile(`${dir}/out/sesn_a.md`), /more 3/);
        assert.ok((await Deno.stat(record)).size < 1024, "the record is written again, small");
        const forced = await task(
          "render",
          ["-r", "dream", "--out", "out/", "--force", "a.ndjson"],
          {
            cwd: dir,
          },
        );
        assert.equal(forced.stderr, "render: 1 rendered, 0 unchanged, 0 failed\n");
      },
    );
  });
});
