// Copyright 2026 the brigade authors. MIT license.

import assert from "node:assert/strict";
import { fileStamp, inputStampNow, subagentFilesStamp } from "./_file_stamp.ts";

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
