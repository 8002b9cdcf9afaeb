// Copyright 2026 the brigade authors. MIT license.

import assert from "node:assert/strict";
import { EventSourceError } from "../events/errors.ts";
import { checkInput } from "./_inputs.ts";

Deno.test("checkInput() refuses a directory or a device with code unreadable", async (t) => {
  const dir = await Deno.makeTempDir();
  try {
    const cases: Array<[string, string]> = [
      [dir, "a directory: with --out DIR, the transcripts in it are rendered"],
    ];
    if (Deno.build.os !== "windows") cases.push(["/dev/null", "a device"]);
    for (const [input, kind] of cases) {
      await t.step(kind, async () => {
        await assert.rejects(checkInput(input), (error: unknown) => {
          assert.ok(error instanceof EventSourceError, `not an EventSourceError: ${error}`);
          assert.equal(error.code, "unreadable");
          assert.equal(
            error.message,
            `${input}: Cannot read the input: it is not a regular file (${kind})`,
          );
          return true;
        });
      });
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("checkInput() lets a regular file, standard input and a missing path through", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const file = `${dir}/log.ndjson`;
    await Deno.writeTextFile(file, "");
    assert.deepEqual(await checkInput(file), { fifo: false });
    assert.deepEqual(await checkInput("-"), { fifo: false });
    assert.deepEqual(await checkInput(`${dir}/missing`), { fifo: false });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
