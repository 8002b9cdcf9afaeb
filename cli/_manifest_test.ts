// Copyright 2026 the brigade authors. MIT license.

import assert from "node:assert/strict";
import { fileStamp, outputStamp, textDigest } from "./_file_stamp.ts";
import { Manifest, MANIFEST_NAME } from "./_manifest.ts";
import {
  entryLine,
  parseEntryLine,
  readRecord,
  recordBody,
  recordText,
  recordWithState,
  stateOfText,
} from "./_manifest_file.ts";
import { MAX_MANIFEST_BYTES, stateOfFile } from "./_manifest_state.ts";

/** A folder with an input and, for it, the outputs written and recorded as a run records them. */
async function recorded(
  dir: string,
  outputs: Record<string, string>,
  options: { maxBytes?: number; say?: (m: string) => void } = {},
): Promise<{ manifest: Manifest; input: string }> {
  const input = `${dir}/a.ndjson`;
  await Deno.writeTextFile(input, "{}\n");
  const manifest = await Manifest.load(dir, { say: options.say ?? (() => {}), ...options });
  const written = [];
  for (const [name, text] of Object.entries(outputs)) {
    await Deno.writeTextFile(`${dir}/${name}`, text);
    written.push({ name, digest: await textDigest(text) });
  }
  await manifest.record(input, "key", (await fileStamp(input))!, written);
  return { manifest, input };
}

async function inTemp(work: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir();
  try {
    await work(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("Manifest.mayReplace() is true only while the output's bytes hash to what was written", async () => {
  await inTemp(async (dir) => {
    const { manifest, input } = await recorded(dir, { "sesn_a.md": "as written\n" });
    await manifest.save();
    const again = await Manifest.load(dir, { say: () => {} });
    assert.equal(await again.mayReplace(input, "sesn_a.md"), true, "as written");
    assert.equal(await again.mayReplace(input, "sesn_b.md"), false, "never written");
    // Same inode, same size, its modification time put back: its stamp is as recorded, its
    // bytes are not.
    const path = `${dir}/sesn_a.md`;
    const { mtime, atime } = await Deno.stat(path);
    await Deno.writeTextFile(path, "AS WRITTEN\n");
    await Deno.utime(path, atime!, mtime!);
    assert.equal(await again.mayReplace(input, "sesn_a.md"), false, "other bytes, same stamp");
  });
});

Deno.test("Manifest.record() of an input that grew while it was read: the next run reads it again and may replace its page", async () => {
  await inTemp(async (dir) => {
    const input = `${dir}/a.jsonl`;
    await Deno.writeTextFile(input, "{}\n");
    const manifest = await Manifest.load(dir, { say: () => {} });
    const before = (await fileStamp(input))!;
    await Deno.writeTextFile(`${dir}/a.html`, "page\n");
    // A live session: its file grows between the stamp taken before the read and the record.
    await Deno.writeTextFile(input, "{}\n", { append: true });
    await manifest.record(input, "key", before, [{
      name: "a.html",
      digest: await textDigest("page\n"),
    }]);
    await manifest.save();
    const again = await Manifest.load(dir, { say: () => {} });
    assert.equal(again.unchanged(input, "key"), undefined, "read again");
    assert.equal(await again.mayReplace(input, "a.html"), true, "this command's page");
  });
});

Deno.test("Manifest.readAgain() of an input that failed keeps its former page this command's to replace", async () => {
  await inTemp(async (dir) => {
    const { manifest, input } = await recorded(dir, { "a.html": "page\n", "b.html": "other\n" });
    await manifest.save();
    const failed = await Manifest.load(dir, { say: () => {} });
    // The failed run wrote b.html again before its failure, and a.html not.
    await Deno.writeTextFile(`${dir}/b.html`, "other, again\n");
    await failed.readAgain(input, "key", [{
      name: "b.html",
      digest: await textDigest("other, again\n"),
    }]);
    await failed.save();
    const again = await Manifest.load(dir, { say: () => {} });
    assert.equal(again.unchanged(input, "key"), undefined, "read again");
    assert.equal(await again.mayReplace(input, "a.html"), true, "the former page");
    assert.equal(await again.mayReplace(input, "b.html"), true, "the page it wrote");
    // A former page changed since it was written is no longer kept; with none left, no entry.
    await Deno.writeTextFile(`${dir}/a.html`, "edited\n");
    await Deno.remove(`${dir}/b.html`);
    const none = await Manifest.load(dir, { say: () => {} });
    await none.readAgain(input, "key", []);
    await none.save();
    const kept = await readRecord(`${dir}/${MANIFEST_NAME}`, 1 << 20);
    assert.equal(kept.entries.has(input), false, [...kept.entries.keys()].join());
  });
});

Deno.test("Manifest.record() of an input one of whose pages went during the run keeps the others this command's", async () => {
  await inTemp(async (dir) => {
    const input = `${dir}/a.ndjson`;
    await Deno.writeTextFile(input, "{}\n");
    const manifest = await Manifest.load(dir, { say: () => {} });
    const written = [];
    for (const name of ["a.html", "b.html"]) {
      await Deno.writeTextFile(`${dir}/${name}`, name);
      written.push({ name, digest: await textDigest(name) });
    }
    await Deno.remove(`${dir}/a.html`);
    await manifest.record(input, "key", (await fileStamp(input))!, written);
    await manifest.save();
    const again = await Manifest.load(dir, { say: () => {} });
    assert.equal(again.unchanged(input, "key"), undefined, "read again: a page is missing");
    assert.equal(await again.mayReplace(input, "b.html"), true, "the page still there");
  });
});

Deno.test("Manifest.save() drops the entries whose input is gone or whose outputs all are", async () => {
  await inTemp(async (dir) => {
    const { manifest, input } = await recorded(dir, { "a.md": "a\n", "b.md": "b\n" });
    await manifest.save();
    const entries = async () =>
      Object.keys(JSON.parse(await Deno.readTextFile(`${dir}/${MANIFEST_NAME}`)).entries);
    assert.equal((await entries()).length, 1);

    // One output gone: the other is still vouched for, the input is read again, the entry kept.
    await Deno.remove(`${dir}/b.md`);
    const partly = await Manifest.load(dir, { say: () => {} });
    assert.equal(await partly.mayReplace(input, "a.md"), true);
    assert.equal(await partly.mayReplace(input, "b.md"), false);
    assert.equal(await partly.unchanged(input, "key"), undefined, "read again");
    await partly.save();
    assert.equal((await entries()).length, 1);

    // Every output gone: the entry is dropped.
    await Deno.remove(`${dir}/a.md`);
    await (await Manifest.load(dir, { say: () => {} })).save();
    assert.deepEqual(await entries(), []);

    // The input gone: the entry is dropped.
    const { manifest: second } = await recorded(dir, { "a.md": "a\n" });
    await second.save();
    assert.equal((await entries()).length, 1);
    await Deno.remove(input);
    await (await Manifest.load(dir, { say: () => {} })).save();
    assert.deepEqual(await entries(), []);
  });
});

Deno.test("Manifest.save() keeps within its bound, this run's inputs first, and says what it left out", async () => {
  await inTemp(async (dir) => {
    // An earlier run's entries, of inputs that are still there, filling the record.
    const lines = [];
    for (let i = 0; i < 50; i++) {
      const input = `${dir}/old${String(i).padStart(2, "0")}.ndjson`;
      await Deno.writeTextFile(input, "{}\n");
      await Deno.writeTextFile(`${dir}/old${i}.md`, "x\n");
      lines.push(entryLine(input, {
        key: "key",
        input: (await fileStamp(input))!,
        outputs: [{
          name: `old${i}.md`,
          stamp: (await outputStamp(`${dir}/old${i}.md`))!,
          digest: await textDigest("x\n"),
        }],
      }));
    }
    await Deno.writeTextFile(`${dir}/${MANIFEST_NAME}`, recordText(lines));
    const maxBytes = (await Deno.stat(`${dir}/${MANIFEST_NAME}`)).size;
    const said: string[] = [];
    const { manifest, input } = await recorded(dir, { "a.md": "a\n" }, {
      maxBytes,
      say: (m) => said.push(m),
    });
    await manifest.save();
    assert.ok((await Deno.stat(`${dir}/${MANIFEST_NAME}`)).size <= maxBytes);
    const kept = await readRecord(`${dir}/${MANIFEST_NAME}`, maxBytes);
    assert.ok(kept.entries.has(input), "this run's input is kept");
    assert.equal(kept.entries.size, 50, "one earlier entry made room");
    assert.deepEqual(said, [
      `${dir}/${MANIFEST_NAME} is full (${
        (maxBytes / 1024 / 1024).toFixed(1)
      } MiB): 1 of 51 inputs are not in it, and are read again next time`,
    ]);
  });
});

Deno.test("readRecord() does not read a record over its bound, nor one of version 1", async () => {
  await inTemp(async (dir) => {
    const path = `${dir}/${MANIFEST_NAME}`;
    await Deno.writeTextFile(path, recordText([]) + " ".repeat(100));
    const over = await readRecord(path, 64);
    assert.equal(over.entries.size, 0);
    assert.match(over.problem!, /over the 0\.0 MiB a record may be/);
    await Deno.writeTextFile(path, '{"version":1,"entries":{}}\n');
    assert.equal((await readRecord(path, 1024)).problem, "an earlier version wrote it");
    await Deno.writeTextFile(path, "not a record");
    assert.deepEqual(await readRecord(path, 1024), { entries: new Map(), existed: true });
  });
});

Deno.test("parseEntryLine() reads the lines entryLine() writes and nothing else", () => {
  const entry = {
    key: "k",
    input: "1:2:3:4",
    outputs: [{ name: "a.md", stamp: "1:2:3:4", digest: "0".repeat(64) }],
  };
  assert.deepEqual(parseEntryLine(entryLine("/x/a.ndjson", entry)), ["/x/a.ndjson", entry]);
  assert.deepEqual(parseEntryLine(`${entryLine("/x", entry)},`), ["/x", entry]);
  for (
    const line of [
      "",
      "{}",
      '"/x":{"key":"k","input":"i","outputs":[["a.md","s"]]}',
      '"/x":{"key":"k","input":"i","outputs":[["../a.md","s","' + "0".repeat(64) + '"]]}',
      '"/x":{"key":"k","input":"i","outputs":[[".hidden","s","' + "0".repeat(64) + '"]]}',
      '"/x":{"key":"k","input":"i","outputs":[["a.md","s","not hex"]]}',
      '"/x":{"key":1,"input":"i","outputs":[]}',
    ]
  ) {
    assert.equal(parseEntryLine(line), undefined, line);
  }
});

Deno.test("Manifest.save() keeps the pages' heads in the room its bound leaves once every entry is in", async () => {
  await inTemp(async (dir) => {
    const input = `${dir}/a.ndjson`;
    await Deno.writeTextFile(input, "{}\n");
    const head = "h".repeat(2000);
    const save = async (maxBytes: number) => {
      const manifest = await Manifest.load(dir, { say: () => {}, maxBytes });
      await Deno.writeTextFile(`${dir}/a.md`, `${head}\n`);
      const written = [{ name: "a.md", digest: await textDigest(`${head}\n`), head }];
      await manifest.record(input, "key", (await fileStamp(input))!, written);
      await manifest.save();
      const again = await Manifest.load(dir, { say: () => {}, maxBytes });
      assert.deepEqual(await again.unchanged(input, "key"), ["a.md"]);
      return await again.get("a.md");
    };
    assert.deepEqual(await save(4096), { head, size: 2001 }, "room for the head");
    await Deno.remove(`${dir}/${MANIFEST_NAME}`);
    assert.equal(await save(1024), undefined, "the entry kept, its head left out");
  });
});

/** A folder's state, for the record's last line. */
const STATE = {
  key: '["0.2.0","dream"]',
  inputs: { "/in/a.ndjson": "1:2:3:4" },
  pages: { "sesn_a.md": "1:2:5:6" },
  index: "1:2:7:8",
  outputs: 1,
  bytes: 0,
};

Deno.test("the record's state line is read with the record, whole or line by line, and found alone at its end", async () => {
  await inTemp(async (dir) => {
    const entry = { key: "k", input: "1:2:3:4", outputs: [] };
    const body = recordBody([entryLine("/in/a.ndjson", entry)]);
    const state = { ...STATE, bytes: new TextEncoder().encode(body).length };
    const text = recordWithState(body, state);
    // Any JSON reader reads it whole (an earlier version's reader passes over the state).
    assert.deepEqual(JSON.parse(text).state.inputs, { "/in/a.ndjson": "1:2:3:4" });
    const path = `${dir}/${MANIFEST_NAME}`;
    await Deno.writeTextFile(path, text);
    assert.deepEqual((await readRecord(path, 1 << 20)).state, state);
    // A cut line: the others are read one by one, the state too.
    await Deno.writeTextFile(path, text.replace('"input":"1:2:3:4",', '"input":'));
    const cut = await readRecord(path, 1 << 20);
    assert.equal(cut.entries.size, 0);
    assert.deepEqual(cut.state, state);
    // The state and the size of the text before it, the entries not parsed.
    const found = stateOfText(new TextEncoder().encode(text));
    assert.deepEqual(found?.state, state);
    assert.equal(found?.bodyBytes, state.bytes);
    assert.equal(stateOfText(new TextEncoder().encode(recordText([]))), undefined);
    const broken = text.replace('"outputs":1', '"outputs":"1"');
    assert.equal(stateOfText(new TextEncoder().encode(broken)), undefined);
  });
});

Deno.test("stateOfFile() reads the state from the record's end, the whole file only when its line is longer, and no link", async () => {
  await inTemp(async (dir) => {
    const entries = Array.from({ length: 50 }, (_, i) => {
      const entry = { key: "k", input: `1:${i}:3:4`, outputs: [] };
      return entryLine(`/in/${"long/".repeat(20)}${i}.ndjson`, entry);
    });
    const body = recordBody(entries);
    const pages = Object.fromEntries(
      Array.from({ length: 400 }, (_, i) => [`${"p".repeat(100)}_${i}.md`, `1:${i}:5:6`]),
    );
    const state = { ...STATE, pages, bytes: new TextEncoder().encode(body).length };
    const text = recordWithState(body, state);
    const path = `${dir}/${MANIFEST_NAME}`;
    await Deno.writeTextFile(path, text);
    const whole = stateOfText(new TextEncoder().encode(text));
    assert.deepEqual(whole?.state, state);
    // However much of its end is read first: all of the line, a part of it, one byte, all.
    for (const tail of [text.length - body.length, 50_000, 1, 0, text.length * 2]) {
      assert.deepEqual(stateOfFile(path, tail), whole, `tail ${tail}`);
    }
    // Its entries edited to another size: the size the state says is not the one before it.
    await Deno.writeTextFile(path, text.replace('"input":"1:7:3:4"', '"input":"1:77:3:4"'));
    assert.equal(stateOfFile(path, 50_000)?.bodyBytes, state.bytes + 1);
    // A link in the record's place, a folder, a file over the bound: no state.
    await Deno.writeTextFile(path, text);
    await Deno.symlink(path, `${dir}/link`);
    assert.equal(stateOfFile(`${dir}/link`, 50_000), undefined);
    assert.equal(stateOfFile(dir, 50_000), undefined);
    await Deno.writeTextFile(path, `${" ".repeat(MAX_MANIFEST_BYTES)}${text}`);
    assert.equal(stateOfFile(path, 50_000), undefined);
    assert.ok(stateOfText(await Deno.readFile(path)) !== undefined, "the line is there");
  });
});

Deno.test("Manifest.save() keeps the folder's state only when every entry's outputs are in the pages listed, as recorded", async () => {
  await inTemp(async (dir) => {
    const { manifest } = await recorded(dir, { "sesn_a.md": "a\n" });
    const stamp = (await outputStamp(`${dir}/sesn_a.md`))!;
    const built = { key: "key", index: "1:2:3:4" };
    manifest.indexBuilt({ ...built, pages: new Map([["sesn_a.md", stamp]]) });
    await manifest.save();
    const state = (await readRecord(`${dir}/${MANIFEST_NAME}`, 1 << 20)).state;
    assert.equal(state?.outputs, 1);
    assert.deepEqual(state?.pages, { "sesn_a.md": stamp });
    assert.deepEqual(Object.keys(state!.inputs), [`${dir}/a.ndjson`]);
    // A page whose stamp is not the one recorded: no state.
    const other = await Manifest.load(dir, { say: () => {} });
    other.indexBuilt({ ...built, pages: new Map([["sesn_a.md", "9:9:9:9"]]) });
    await other.save();
    assert.equal((await readRecord(`${dir}/${MANIFEST_NAME}`, 1 << 20)).state, undefined);
  });
});

Deno.test("Manifest.save() keeps no state where it does not fit beside every entry: the record stays within its bound", async () => {
  await inTemp(async (dir) => {
    const entriesOnly = (await recorded(dir, { "sesn_a.md": "a\n" })).manifest;
    await entriesOnly.save();
    const bare = (await Deno.stat(`${dir}/${MANIFEST_NAME}`)).size;
    await Deno.remove(`${dir}/${MANIFEST_NAME}`);
    // Room for every entry, not for the state's line beside them.
    const maxBytes = bare + 8;
    const { manifest } = await recorded(dir, { "sesn_a.md": "a\n" }, { maxBytes });
    const stamp = (await outputStamp(`${dir}/sesn_a.md`))!;
    manifest.indexBuilt({ key: "key", index: "1:2:3:4", pages: new Map([["sesn_a.md", stamp]]) });
    await manifest.save();
    assert.ok((await Deno.stat(`${dir}/${MANIFEST_NAME}`)).size <= maxBytes);
    const kept = await readRecord(`${dir}/${MANIFEST_NAME}`, maxBytes);
    assert.equal(kept.state, undefined);
    assert.deepEqual([...kept.entries.keys()], [`${dir}/a.ndjson`]);
  });
});
