// Copyright 2026 the brigade authors. MIT license.

// The reader against the file system: partial lines, the line cap across refreshes,
// truncation, replacement, paths that are not regular files, missing and unreadable paths,
// and the error contract (fixed messages, last facts standing, never a rejection).

import assert from "node:assert/strict";
import {
  type Facts,
  MAX_LINE_BYTES,
  type RefreshResult,
  TranscriptError,
  TranscriptReader,
} from "@brigade/transcript/reader";
import { READ_BUFFER_BYTES_OPTION } from "./_scanner.ts";

const NONE: Facts = {
  model: "",
  contextUsedTokens: 0,
  hasContext: false,
  compactedSinceUsage: false,
};

function turn(model: string, input: number, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({
    type: "assistant",
    message: { model, usage: { input_tokens: input, cache_read_input_tokens: 1000 } },
    ...extra,
  }) + "\n";
}

function model(id: string): string {
  return JSON.stringify({
    type: "attachment",
    attachment: { type: "model", identity: { modelId: id } },
  }) +
    "\n";
}

function facts(model: string, context: number): Facts {
  return { model, contextUsedTokens: context, hasContext: true, compactedSinceUsage: false };
}

async function ok(reader: TranscriptReader): Promise<Facts> {
  const { facts, error } = await reader.refresh();
  assert.equal(error, undefined);
  return facts;
}

function assertError(result: RefreshResult, code: string, path: string): void {
  assert.ok(result.error instanceof TranscriptError, "an error is returned");
  assert.equal(result.error.code, code);
  assert.equal(result.error.name, "TranscriptError");
  assert.equal(result.error.cause, undefined);
  assert.ok(!result.error.message.includes(path), "the message never names the path");
  const base = path.split("/").pop()!;
  assert.ok(!result.error.message.includes(base), "the message never names the file");
}

async function withDir(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "reader_files_" });
  try {
    await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("TranscriptReader reads complete lines only", async (t) => {
  await withDir(async (dir) => {
    const path = `${dir}/partial.jsonl`;
    await t.step("a partial last line waits for its newline", async () => {
      const line = turn("claude-opus-4-6", 5);
      await Deno.writeTextFile(path, turn("claude-opus-4-5", 1) + line.slice(0, 30));
      const reader = new TranscriptReader(path);
      assert.deepEqual(await ok(reader), facts("claude-opus-4-5", 1001));
      await Deno.writeTextFile(path, line.slice(30, -1), { append: true });
      assert.deepEqual(await ok(reader), facts("claude-opus-4-5", 1001));
      await Deno.writeTextFile(path, "\n", { append: true });
      assert.deepEqual(await ok(reader), facts("claude-opus-4-6", 1005));
    });
    await t.step("a refresh with nothing new changes nothing", async () => {
      const reader = new TranscriptReader(path);
      const first = await ok(reader);
      assert.deepEqual(await ok(reader), first);
      assert.deepEqual(await ok(reader), first);
    });
    await t.step("a file cut inside a multi-byte character waits for the rest", async () => {
      const line = new TextEncoder().encode(
        JSON.stringify({ type: "assistant", message: { model: "modèle-🚀", usage: {} } }) + "\n",
      );
      const cut = line.indexOf(0xf0) + 2;
      await Deno.writeFile(path, line.subarray(0, cut));
      const reader = new TranscriptReader(path);
      assert.deepEqual(await ok(reader), NONE);
      await Deno.writeFile(path, line.subarray(cut), { append: true });
      assert.deepEqual(await ok(reader), {
        model: "modèle-🚀",
        contextUsedTokens: 0,
        hasContext: true,
        compactedSinceUsage: false,
      });
    });
  });
});

Deno.test("TranscriptReader skips a line over maxLineBytes whole", async (t) => {
  await withDir(async (dir) => {
    const path = `${dir}/long.jsonl`;
    await t.step("a complete line over the cap", async () => {
      await Deno.writeTextFile(
        path,
        turn("a", 1) + turn("b", 2, { pad: "x".repeat(300) }) + turn("c", 3),
      );
      const reader = new TranscriptReader(path, { maxLineBytes: 200 });
      assert.deepEqual(await ok(reader), facts("c", 1003));
      await Deno.writeTextFile(path, turn("d", 4, { pad: "x".repeat(300) }), { append: true });
      assert.deepEqual(await ok(reader), facts("c", 1003));
    });
    await t.step("a line still growing past the cap across refreshes", async () => {
      await Deno.writeTextFile(path, turn("a", 1));
      const reader = new TranscriptReader(path, { maxLineBytes: 200 });
      assert.deepEqual(await ok(reader), facts("a", 1001));
      // A record that would change the facts, written slowly, growing past the cap.
      const runaway = turn("runaway", 9, { pad: "y".repeat(1000) });
      for (let at = 0; at < runaway.length - 1; at += 150) {
        await Deno.writeTextFile(path, runaway.slice(at, Math.min(at + 150, runaway.length - 1)), {
          append: true,
        });
        assert.deepEqual(await ok(reader), facts("a", 1001));
      }
      await Deno.writeTextFile(path, "\n" + turn("b", 2), { append: true });
      assert.deepEqual(await ok(reader), facts("b", 1002));
    });
    await t.step("a line longer than the read buffer but within the cap is read", async () => {
      const big = turn("big", 7, { pad: "z".repeat(1_500_000) });
      await Deno.writeTextFile(path, turn("a", 1) + big.slice(0, 700_000));
      const reader = new TranscriptReader(path);
      assert.deepEqual(await ok(reader), facts("a", 1001));
      await Deno.writeTextFile(path, big.slice(700_000), { append: true });
      assert.deepEqual(await ok(reader), facts("big", 1007));
      await Deno.writeTextFile(path, turn("after", 8), { append: true });
      assert.deepEqual(await ok(reader), facts("after", 1008));
    });
    await t.step("maxLineBytes must be a positive integer", () => {
      for (const bad of [0, -1, 1.5, Number.NaN, Infinity]) {
        assert.throws(() => new TranscriptReader(path, { maxLineBytes: bad }), RangeError);
      }
      assert.equal(MAX_LINE_BYTES, 67_108_864);
    });
  });
});

Deno.test("TranscriptReader starts over on truncation and replacement", async (t) => {
  await withDir(async (dir) => {
    const path = `${dir}/session.jsonl`;
    await t.step("a file shorter than the offset is read again from the start", async () => {
      await Deno.writeTextFile(path, model("claude-opus-5[1m]") + turn("claude-opus-5", 10));
      const reader = new TranscriptReader(path);
      assert.deepEqual(await ok(reader), facts("claude-opus-5[1m]", 1010));
      await Deno.writeTextFile(path, turn("claude-haiku-5", 1));
      assert.deepEqual(await ok(reader), facts("claude-haiku-5", 1001));
    });
    await t.step("a file truncated to nothing has no facts", async () => {
      const reader = new TranscriptReader(path);
      await Deno.writeTextFile(path, turn("claude-haiku-5", 1));
      await ok(reader);
      await Deno.truncate(path, 0);
      assert.deepEqual(await ok(reader), NONE);
    });
    await t.step("a file replaced by a longer one (renamed over it) is read again", async () => {
      await Deno.writeTextFile(path, model("claude-opus-5[1m]") + turn("claude-opus-5", 10));
      const reader = new TranscriptReader(path);
      assert.deepEqual(await ok(reader), facts("claude-opus-5[1m]", 1010));
      const other = `${dir}/other.jsonl`;
      await Deno.writeTextFile(other, turn("claude-sonnet-5", 2).repeat(10));
      await Deno.rename(other, path);
      assert.deepEqual(await ok(reader), facts("claude-sonnet-5", 1002));
    });
    await t.step("a file rewritten in place with new first bytes is read again", async () => {
      await Deno.writeTextFile(path, model("claude-opus-5[1m]") + turn("claude-opus-5", 10));
      const reader = new TranscriptReader(path);
      await ok(reader);
      const before = await Deno.stat(path);
      // Same inode, same or greater length, another content.
      await Deno.writeTextFile(path, turn("claude-sonnet-5", 3).repeat(4));
      const after = await Deno.stat(path);
      assert.equal(after.ino, before.ino);
      assert.ok(after.size >= before.size);
      assert.deepEqual(await ok(reader), facts("claude-sonnet-5", 1003));
    });
    await t.step(
      "a file truncated and regrown past the offset with the same first KiB is read again",
      async () => {
        // The first KiB (a long first record) is the same before and after, and the new file
        // is longer than the old offset, at the same inode: only the bytes before the old
        // offset tell the rewrite.
        const head = JSON.stringify({ type: "user", text: "x".repeat(1_500) }) + "\n";
        const bare = (input: number): string =>
          JSON.stringify({
            type: "assistant",
            message: { model: "m", usage: { input_tokens: input } },
          }) +
          "\n";
        await Deno.writeTextFile(path, head + bare(100));
        const reader = new TranscriptReader(path);
        assert.equal((await ok(reader)).contextUsedTokens, 100);
        const before = await Deno.stat(path);
        await Deno.truncate(path, 0);
        // What now follows the old offset holds no usage: only a rewrite check finds 7777.
        const user = JSON.stringify({ type: "user", text: "y".repeat(200) }) + "\n";
        await Deno.writeTextFile(path, head + bare(7777) + user, { append: true });
        const after = await Deno.stat(path);
        assert.equal(after.ino, before.ino);
        assert.ok(after.size > before.size);
        assert.equal((await ok(reader)).contextUsedTokens, 7777);
      },
    );
    await t.step("a file that vanished keeps its last facts, and a new one is read", async () => {
      await Deno.writeTextFile(path, turn("claude-opus-4-6", 5));
      const reader = new TranscriptReader(path);
      assert.deepEqual(await ok(reader), facts("claude-opus-4-6", 1005));
      await Deno.remove(path);
      const gone = await reader.refresh();
      assertError(gone, "missing", path);
      assert.deepEqual(gone.facts, facts("claude-opus-4-6", 1005));
      await Deno.writeTextFile(path, turn("claude-sonnet-4-5", 6));
      assert.deepEqual(await ok(reader), facts("claude-sonnet-4-5", 1006));
    });
  });
});

Deno.test("TranscriptReader refuses what is not a regular file", async (t) => {
  await withDir(async (dir) => {
    await t.step("a directory", async () => {
      const result = await new TranscriptReader(dir).refresh();
      assertError(result, "not_regular", dir);
      assert.deepEqual(result.facts, NONE);
    });
    const posix = Deno.build.os !== "windows";
    await t.step("/dev/null", async () => {
      if (!posix) return;
      assertError(await new TranscriptReader("/dev/null").refresh(), "not_regular", "/dev/null");
    });
    await t.step("a FIFO, promptly and without a writer", async () => {
      if (!posix) return;
      const fifo = `${dir}/fifo.jsonl`;
      const made = await new Deno.Command("mkfifo", { args: [fifo] }).output();
      assert.ok(made.success, "mkfifo");
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<"timeout">((resolve) => {
        timer = setTimeout(() => resolve("timeout"), 5_000);
      });
      const started = performance.now();
      const result = await Promise.race([new TranscriptReader(fifo).refresh(), timeout]);
      clearTimeout(timer);
      assert.notEqual(result, "timeout", "the refresh returned");
      assert.ok(performance.now() - started < 5_000);
      assertError(result as RefreshResult, "not_regular", fifo);
    });
    await t.step("a symlink to a directory; a symlink to a file is followed", async () => {
      const link = `${dir}/link.jsonl`;
      await Deno.symlink(dir, link);
      assertError(await new TranscriptReader(link).refresh(), "not_regular", link);
      await Deno.remove(link);
      const target = `${dir}/target.jsonl`;
      await Deno.writeTextFile(target, turn("claude-opus-4-6", 1));
      await Deno.symlink(target, link);
      assert.deepEqual(await ok(new TranscriptReader(link)), facts("claude-opus-4-6", 1001));
    });
    await t.step("a regular file that becomes a directory keeps its last facts", async () => {
      const path = `${dir}/becomes_dir.jsonl`;
      await Deno.writeTextFile(path, turn("claude-opus-4-6", 2));
      const reader = new TranscriptReader(path);
      await ok(reader);
      await Deno.remove(path);
      await Deno.mkdir(path);
      const result = await reader.refresh();
      assertError(result, "not_regular", path);
      assert.deepEqual(result.facts, facts("claude-opus-4-6", 1002));
    });
  });
});

Deno.test("TranscriptReader reports missing and unreadable paths", async (t) => {
  await withDir(async (dir) => {
    await t.step("a missing file that appears later; nothing is opened before", async () => {
      const path = `${dir}/later.jsonl`;
      const reader = new TranscriptReader(path);
      const missing = await reader.refresh();
      assertError(missing, "missing", path);
      assert.deepEqual(missing.facts, NONE);
      await Deno.writeTextFile(path, model("claude-opus-5[1m]"));
      assert.deepEqual((await reader.refresh()).facts.model, "claude-opus-5[1m]");
    });
    await t.step("a dangling symlink is missing", async () => {
      const link = `${dir}/dangling.jsonl`;
      await Deno.symlink(`${dir}/nowhere.jsonl`, link);
      assertError(await new TranscriptReader(link).refresh(), "missing", link);
    });
    await t.step("a path through a regular file is unreadable", async () => {
      const file = `${dir}/file.jsonl`;
      await Deno.writeTextFile(file, turn("claude-opus-4-6", 1));
      const path = `${file}/child`;
      assertError(await new TranscriptReader(path).refresh(), "unreadable", path);
    });
    await t.step("a path the platform rejects is an error, never a rejection", async () => {
      const nul = await new TranscriptReader("bad\0path.jsonl").refresh();
      assertError(nul, "unreadable", "bad\0path.jsonl");
      const empty = await new TranscriptReader("").refresh();
      assert.ok(empty.error instanceof TranscriptError);
    });
  });
});

Deno.test("TranscriptReader runs concurrent refreshes one after another", async () => {
  await withDir(async (dir) => {
    const path = `${dir}/concurrent.jsonl`;
    await Deno.writeTextFile(path, turn("claude-opus-4-6", 1));
    const reader = new TranscriptReader(path);
    const first = reader.refresh();
    await Deno.writeTextFile(path, turn("claude-opus-4-6", 2), { append: true });
    const second = reader.refresh();
    const results = await Promise.all([first, second, reader.refresh()]);
    for (const result of results) assert.equal(result.error, undefined);
    assert.deepEqual(results[2]!.facts, facts("claude-opus-4-6", 1002));
  });
});

Deno.test("TranscriptReader.refresh() stops early when aborted and goes on later", async (t) => {
  await withDir(async (dir) => {
    const path = `${dir}/abort.jsonl`;
    const lines = Array.from({ length: 400 }, (_, i) => turn(`model-${i}`, i)).join("");
    await Deno.writeTextFile(path, lines);
    await t.step("an aborted signal: no read, the last facts", async () => {
      const reader = new TranscriptReader(path);
      const result = await reader.refresh({ signal: AbortSignal.abort() });
      assert.deepEqual(result, { facts: NONE });
      assert.deepEqual(await ok(reader), facts("model-399", 1399));
    });
    await t.step("aborted between two reads: the facts of a prefix, then the rest", async () => {
      const reader = new TranscriptReader(path, { [READ_BUFFER_BYTES_OPTION]: 4096 } as object);
      let checks = 0;
      // Aborts once a few reads are done.
      const signal = {
        get aborted(): boolean {
          return ++checks > 3;
        },
      } as AbortSignal;
      const early = await reader.refresh({ signal });
      assert.equal(early.error, undefined);
      assert.ok(early.facts.hasContext, "some lines were read");
      assert.notDeepEqual(early.facts, facts("model-399", 1399), "not all of them");
      assert.match(early.facts.model, /^model-\d+$/);
      assert.deepEqual(await ok(reader), facts("model-399", 1399));
    });
  });
});
