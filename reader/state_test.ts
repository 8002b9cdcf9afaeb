// Copyright 2026 the brigade authors. MIT license.

// The reader's saved state (`saveState()`, the `state` option): trusted when it matches the
// file, ignored when it is of another version, malformed or for another cap, dropped when the
// file was replaced, truncated or rewritten; and it never holds transcript text. Then the
// compaction fact, on a real transcript.

import assert from "node:assert/strict";
import {
  type Facts,
  READER_STATE_VERSION,
  TranscriptReader,
  type TranscriptReaderState,
} from "@brigade/transcript/reader";
import { READ_BUFFER_BYTES_OPTION } from "./_scanner.ts";

function turn(input: number, model = "claude-opus-5"): string {
  return JSON.stringify({ type: "assistant", message: { model, usage: { input_tokens: input } } }) +
    "\n";
}

function userText(text: string): string {
  return JSON.stringify({ type: "user", message: { role: "user", content: text } }) + "\n";
}

async function withFile(fn: (path: string, dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir();
  try {
    await fn(`${dir}/session.jsonl`, dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

async function savedAfterRefresh(path: string): Promise<TranscriptReaderState> {
  const reader = new TranscriptReader(path);
  const { error } = await reader.refresh();
  assert.equal(error, undefined);
  // Through JSON, as a cache stores it.
  return JSON.parse(JSON.stringify(reader.saveState()));
}

async function factsFrom(path: string, state: unknown): Promise<Facts> {
  const { facts, error } = await new TranscriptReader(path, { state }).refresh();
  assert.equal(error, undefined);
  return facts;
}

/** A state that matches the file but claims other facts: shows whether it was trusted. */
function tampered(state: TranscriptReaderState, tokens: number): TranscriptReaderState {
  return { ...state, facts: { ...state.facts, contextUsedTokens: tokens } };
}

Deno.test("a saved reader state carries the position to another reader", async (t) => {
  await withFile(async (path) => {
    await t.step("a matching state is trusted: only what was appended is read", async () => {
      await Deno.writeTextFile(path, userText("hello") + turn(100));
      const state = await savedAfterRefresh(path);
      assert.equal(state.version, READER_STATE_VERSION);
      assert.equal(state.offset, (await Deno.stat(path)).size);
      // Nothing appended: the state's facts stand (a full read would say 100).
      assert.equal((await factsFrom(path, tampered(state, 42))).contextUsedTokens, 42);
      await Deno.writeTextFile(path, userText("more"), { append: true });
      assert.equal((await factsFrom(path, tampered(state, 42))).contextUsedTokens, 42);
      await Deno.writeTextFile(path, turn(250), { append: true });
      assert.deepEqual(await factsFrom(path, state), {
        model: "claude-opus-5",
        contextUsedTokens: 250,
        hasContext: true,
        compactedSinceUsage: false,
      });
    });
    await t.step("a state saved mid-line: the line is read once its newline arrives", async () => {
      const line = turn(300);
      await Deno.writeTextFile(path, turn(100) + line.slice(0, 10));
      const state = await savedAfterRefresh(path);
      await Deno.writeTextFile(path, line.slice(10), { append: true });
      assert.equal((await factsFrom(path, state)).contextUsedTokens, 300);
    });
    await t.step("a state saved inside a line longer than the read buffer", async () => {
      const long = JSON.stringify({
        type: "assistant",
        message: { model: "m", usage: { input_tokens: 512 } },
        pad: "x".repeat(5_000),
      }) + "\n";
      await Deno.writeTextFile(path, turn(100) + long.slice(0, 3_000));
      const options = { [READ_BUFFER_BYTES_OPTION]: 1_024 } as object;
      const first = new TranscriptReader(path, options);
      await first.refresh();
      const state = JSON.parse(JSON.stringify(first.saveState()));
      assert.ok(state.pending > 0, "a long line was pending");
      await Deno.writeTextFile(path, long.slice(3_000), { append: true });
      const next = new TranscriptReader(path, { ...options, state });
      assert.equal((await next.refresh()).facts.contextUsedTokens, 512);
    });
  });
});

Deno.test("a saved state that cannot be used is ignored: the file is read from the start", async (t) => {
  await withFile(async (path, dir) => {
    await Deno.writeTextFile(path, turn(100) + turn(200));
    const good = await savedAfterRefresh(path);
    const unusable: [string, unknown][] = [
      ["another version", { ...tampered(good, 42), version: READER_STATE_VERSION + 1 }],
      ["an older version", { ...tampered(good, 42), version: 0 }],
      ["another maxLineBytes", { ...tampered(good, 42), maxLineBytes: 1_000 }],
      ["not an object", "corrupt"],
      ["null", null],
      ["a missing field", { ...tampered(good, 42), tailHash: undefined }],
      ["a negative offset", { ...tampered(good, 42), offset: -1 }],
      ["a fractional offset", { ...tampered(good, 42), offset: 1.5 }],
      ["a malformed fingerprint", { ...tampered(good, 42), headHash: "zz" }],
      ["facts of the wrong type", { ...good, facts: { ...good.facts, hasContext: "yes" } }],
      ["an impossible tail", { ...tampered(good, 42), tailEnd: good.offset + 1 }],
    ];
    for (const [name, state] of unusable) {
      await t.step(name, async () => {
        assert.equal((await factsFrom(path, state)).contextUsedTokens, 200);
      });
    }
    await t.step("a state from a file replaced by another (renamed over it)", async () => {
      const other = `${dir}/other.jsonl`;
      await Deno.writeTextFile(other, turn(100) + turn(7));
      await Deno.rename(other, path);
      assert.equal((await factsFrom(path, tampered(good, 42))).contextUsedTokens, 7);
    });
    await t.step("a state from before a truncation", async () => {
      await Deno.writeTextFile(path, turn(100) + turn(200));
      const state = await savedAfterRefresh(path);
      await Deno.writeTextFile(path, turn(9));
      assert.equal((await factsFrom(path, tampered(state, 42))).contextUsedTokens, 9);
    });
    await t.step("a state from before a rewrite past its offset, same first KiB", async () => {
      const head = userText("h".repeat(1_500));
      await Deno.writeTextFile(path, head + turn(100));
      const state = await savedAfterRefresh(path);
      await Deno.truncate(path, 0);
      await Deno.writeTextFile(path, head + turn(7777) + userText("y".repeat(100)));
      assert.equal((await factsFrom(path, tampered(state, 42))).contextUsedTokens, 7777);
    });
  });
});

Deno.test("a saved state holds no transcript text beyond the facts", async () => {
  await withFile(async (path) => {
    const secret = "sk-ant-THIS-IS-TRANSCRIPT-TEXT";
    await Deno.writeTextFile(
      path,
      userText(`${secret} `.repeat(200)) + turn(100) + userText(secret),
    );
    const text = JSON.stringify(await savedAfterRefresh(path));
    assert.ok(!text.includes("TRANSCRIPT-TEXT"), text);
    assert.ok(!text.includes(path), "nor the path");
  });
});

Deno.test("compactedSinceUsage: a compaction after the latest usage, until the next reply", async (t) => {
  const real = new URL(
    "../fixtures/claude_code/real/entireio-cli_76_62d755ef9f_2_full.jsonl",
    import.meta.url,
  );
  const lines = (await Deno.readTextFile(real)).split("\n");
  const boundary = lines.findIndex((line) => line.includes('"subtype":"compact_boundary"'));
  const reply = lines.findIndex((line, i) => i > boundary && line.includes('"type":"assistant"'));
  assert.ok(boundary > 0 && reply > boundary);
  await withFile(async (path) => {
    await t.step("before the compaction", async () => {
      await Deno.writeTextFile(path, lines.slice(0, boundary).join("\n") + "\n");
      const facts = await factsFrom(path, undefined);
      assert.equal(facts.compactedSinceUsage, false);
      assert.ok(facts.contextUsedTokens > 150_000, "the usage before /compact is near the top");
    });
    await t.step("from the real compact_boundary on: compacted, the old count kept", async () => {
      const reader = new TranscriptReader(path);
      const before = (await reader.refresh()).facts;
      await Deno.writeTextFile(path, lines.slice(boundary, reply).join("\n") + "\n", {
        append: true,
      });
      const after = (await reader.refresh()).facts;
      assert.equal(after.compactedSinceUsage, true);
      assert.equal(after.contextUsedTokens, before.contextUsedTokens);
      // Carried by a saved state too.
      const state = JSON.parse(JSON.stringify(reader.saveState()));
      assert.equal((await factsFrom(path, state)).compactedSinceUsage, true);
      await Deno.writeTextFile(path, lines[reply] + "\n", { append: true });
      const replied = (await reader.refresh()).facts;
      assert.equal(replied.compactedSinceUsage, false, "the next reply has the new usage");
      assert.ok(replied.contextUsedTokens < before.contextUsedTokens);
    });
    await t.step("a sidechain compaction (a subagent's) says nothing", async () => {
      await Deno.writeTextFile(
        path,
        turn(100) +
          JSON.stringify({ type: "system", subtype: "compact_boundary", isSidechain: true }) + "\n",
      );
      assert.equal((await factsFrom(path, undefined)).compactedSinceUsage, false);
    });
    await t.step(
      "a microcompaction counts; a usage in the same batch after it clears it",
      async () => {
        const micro = JSON.stringify({
          type: "system",
          subtype: "microcompact_boundary",
          microcompactMetadata: { trigger: "auto", preTokens: 60_888, tokensSaved: 21_091 },
        }) + "\n";
        await Deno.writeTextFile(path, turn(60_888) + micro);
        assert.equal((await factsFrom(path, undefined)).compactedSinceUsage, true);
        await Deno.writeTextFile(path, turn(60_888) + micro + turn(39_797));
        assert.equal((await factsFrom(path, undefined)).compactedSinceUsage, false);
      },
    );
  });
});
