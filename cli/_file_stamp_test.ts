// Copyright 2026 the brigade authors. MIT license.

import assert from "node:assert/strict";
import { fileStamp, FolderListings, inputStampNow, subagentFilesStamp } from "./_file_stamp.ts";

Deno.test("inputStampNow() is the file's stamp, and its session's subagent files' after a +", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const session = `${dir}/sesn.jsonl`;
    await Deno.writeTextFile(session, "{}\n");
    const own = (await fileStamp(session))!;
    assert.equal(inputStampNow(session), own, "no subagents' folder");
    await Deno.mkdir(`${dir}/sesn/subagents`, { recursive: true });
    await Deno.writeTextFile(`${dir}/sesn/subagents/notes.txt`, "not a subagent's");
    assert.equal(inputStampNow(session), own, "no agent-* file in it");
    assert.equal(subagentFilesStamp(session), undefined);

    await Deno.writeTextFile(`${dir}/sesn/subagents/agent-a1.jsonl`, "{}\n");
    const withOne = inputStampNow(session)!;
    assert.match(withOne, new RegExp(`^${own}\\+1:[0-9a-f]{16}$`));
    assert.equal(inputStampNow(session), withOne, "the same files, the same stamp");

    await Deno.writeTextFile(`${dir}/sesn/subagents/agent-a1.jsonl`, "{}\n{}\n");
    const grown = inputStampNow(session)!;
    assert.notEqual(grown, withOne, "a subagent's file grew");
    assert.ok(grown.startsWith(`${own}+1:`), "the session's own file did not change");

    await Deno.writeTextFile(`${dir}/sesn/subagents/agent-a1.meta.json`, "{}");
    assert.ok(inputStampNow(session)!.startsWith(`${own}+2:`), "a meta file counts");
    const latest = (await Deno.stat(`${dir}/sesn/subagents/agent-a1.meta.json`)).mtime!.getTime();
    assert.ok(subagentFilesStamp(session)!.mtime >= latest);

    assert.equal(inputStampNow(`${dir}/sesn`), undefined, "a folder is no input");
    assert.equal(inputStampNow(`${dir}/missing.jsonl`), undefined);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("subagentFilesStamp() with a round's FolderListings lists each session's folder once", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/a.jsonl`, "{}\n");
    await Deno.writeTextFile(`${dir}/b.jsonl`, "{}\n");
    await Deno.mkdir(`${dir}/a/subagents`, { recursive: true });
    await Deno.writeTextFile(`${dir}/a/subagents/agent-1.jsonl`, "{}\n");
    const round = new FolderListings();
    assert.equal(subagentFilesStamp(`${dir}/a.jsonl`, round)?.count, 1);
    assert.equal(subagentFilesStamp(`${dir}/b.jsonl`, round), undefined);
    // A session folder made after the round listed its folder is the next round's to see: a
    // stamp without it only makes the next run read the session again.
    await Deno.mkdir(`${dir}/b/subagents`, { recursive: true });
    await Deno.writeTextFile(`${dir}/b/subagents/agent-2.jsonl`, "{}\n");
    assert.equal(subagentFilesStamp(`${dir}/b.jsonl`, round), undefined);
    assert.equal(subagentFilesStamp(`${dir}/b.jsonl`, new FolderListings())?.count, 1);
    assert.equal(
      subagentFilesStamp(`${dir}/b.jsonl`)?.count,
      1,
      "by default, a listing of its own",
    );
    assert.equal(subagentFilesStamp(`${dir}/missing/c.jsonl`, round), undefined);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
