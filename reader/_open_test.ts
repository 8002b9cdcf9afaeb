// Copyright 2026 the brigade authors. MIT license.

import assert from "node:assert/strict";
import { openTranscript } from "./_open.ts";
import { TranscriptError } from "./_error.ts";

Deno.test({
  name: "openTranscript() refuses a FIFO swapped in after the stat, without blocking",
  ignore: Deno.build.os === "windows",
}, async () => {
  const dir = await Deno.makeTempDir();
  const fifo = `${dir}/swapped.jsonl`;
  // deno-lint-ignore no-sync-fn-in-async-fn -- kept to restore it, not called here
  const statSync = Deno.statSync;
  try {
    assert.ok((await new Deno.Command("mkfifo", { args: [fifo] }).output()).success);
    // Simulate the race: the path was a regular file when it was checked, then a FIFO.
    const regular = await Deno.stat(import.meta.filename!);
    // deno-lint-ignore no-sync-fn-in-async-fn -- replaced for the reader's check, not called
    Deno.statSync = (path) => {
      Deno.statSync = statSync;
      return path === fifo ? regular : statSync(path);
    };
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), 5_000);
    });
    const outcome = await Promise.race([
      openTranscript(fifo).then(
        async (file) => {
          await file.close();
          return "opened";
        },
        (error: unknown) => error,
      ),
      timeout,
    ]);
    clearTimeout(timer);
    assert.ok(outcome instanceof TranscriptError, String(outcome));
    assert.equal(outcome.code, "not_regular");
  } finally {
    // deno-lint-ignore no-sync-fn-in-async-fn -- restored, not called
    Deno.statSync = statSync;
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("openTranscript() gives the size and identity of a regular file", async () => {
  const path = await Deno.makeTempFile();
  try {
    await Deno.writeTextFile(path, "hello\n");
    const file = await openTranscript(path);
    try {
      assert.equal(file.size, 6);
      const info = await Deno.stat(path);
      assert.equal(file.identity, `${info.dev}:${info.ino}`);
      const into = new Uint8Array(3);
      assert.equal(await file.readAt(into, 2), 3);
      assert.equal(new TextDecoder().decode(into), "llo");
    } finally {
      await file.close();
    }
  } finally {
    await Deno.remove(path);
  }
});

Deno.test({
  name: "openTranscript() returns on a swapped-in FIFO even without write permission",
  ignore: Deno.build.os === "windows",
}, async () => {
  // Without write permission the blocked open cannot be released, so this runs in a process
  // of its own that ends itself: the refresh must still return, promptly.
  const dir = await Deno.makeTempDir();
  try {
    const fifo = `${dir}/swapped.jsonl`;
    assert.ok((await new Deno.Command("mkfifo", { args: [fifo] }).output()).success);
    const script = `${dir}/race.ts`;
    await Deno.writeTextFile(
      script,
      `import { openTranscript } from ${
        JSON.stringify(new URL("./_open.ts", import.meta.url).href)
      };
const statSync = Deno.statSync;
const regular = statSync(${JSON.stringify(import.meta.filename!)});
Deno.statSync = (path) => { Deno.statSync = statSync; return path === ${
        JSON.stringify(fifo)
      } ? regular : statSync(path); };
try { await openTranscript(${JSON.stringify(fifo)}); console.log("opened"); }
catch (error) { console.log(error.code); }
Deno.exit(0);
`,
    );
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "--no-check", "--allow-read", script],
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    const { stdout, stderr, success } = await child.output();
    clearTimeout(timer);
    const decoder = new TextDecoder();
    assert.ok(success, decoder.decode(stderr));
    assert.equal(decoder.decode(stdout), "not_regular\n");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
