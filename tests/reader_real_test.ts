// Copyright 2026 the brigade authors. MIT license.

// The five real Claude Code transcripts (fixtures/claude_code/real, see SOURCES.txt): the
// facts of each read whole (complete lines only: most lack a final newline, so their last
// record is not read), and the same facts when the file grows by random appends cut at
// arbitrary bytes, with a refresh after each: the incremental reader must agree, at every
// step, with a one-shot read of the same bytes and with the naive statement of the rules.

import assert from "node:assert/strict";
import { type Facts, TranscriptReader } from "@brigade/transcript/reader";
import { LATIN1_SCAN_BYTES_OPTION, READ_BUFFER_BYTES_OPTION } from "../reader/_scanner.ts";
import { naiveFacts } from "./reader_naive.ts";
import { makeRandom as random } from "./_random.ts";

const REAL = new URL("../fixtures/claude_code/real/", import.meta.url);

/** The facts at the end of each file, complete lines only (see the reference notes). */
const EXPECTED: Record<string, Facts> = {
  "entireio-cli_76_62d755ef9f_2_full.jsonl": {
    model: "claude-sonnet-4-5-20250929",
    contextUsedTokens: 60_206,
    hasContext: true,
    compactedSinceUsage: false,
  },
  "entireio-cli_5a_c45bc32212_0_full.jsonl": {
    model: "claude-sonnet-4-5-20250929",
    contextUsedTokens: 71_519,
    hasContext: true,
    compactedSinceUsage: false,
  },
  "entireio-cli_73_7e6e3ea2ad_0_full.jsonl": {
    model: "claude-opus-4-5-20251101",
    contextUsedTokens: 136_736,
    hasContext: true,
    compactedSinceUsage: false,
  },
  "entireio-cli_05_a188c59540_0_full.jsonl": {
    model: "claude-opus-4-6",
    contextUsedTokens: 52_710,
    hasContext: true,
    compactedSinceUsage: false,
  },
  // A routed non-Anthropic model whose usage is all zero: a valid reading of 0.
  "jfmoe-rnltv_be_4f6c2e7a4c_0_full.jsonl": {
    model: "gpt-5.3-codex",
    contextUsedTokens: 0,
    hasContext: true,
    compactedSinceUsage: false,
  },
};

/** Cut points: random sizes, plus cuts inside multi-byte characters and right at newlines. */
function cuts(bytes: Uint8Array, next: () => number): number[] {
  const points = new Set<number>();
  for (let at = 0; at < bytes.length;) {
    at += 1 + Math.floor(next() * next() * 60_000);
    points.add(Math.min(at, bytes.length));
  }
  let inside = 0;
  for (let i = 0; i < bytes.length && inside < 3; i++) {
    if ((bytes[i]! & 0xc0) === 0x80 && next() < 0.01) { // a continuation byte
      points.add(i);
      inside++;
    }
  }
  const newline = bytes.indexOf(10, Math.floor(bytes.length / 2));
  if (newline !== -1) points.add(newline).add(newline + 1);
  points.add(bytes.length);
  return [...points].sort((a, b) => a - b);
}

async function read(path: string, options: Record<symbol, number> = {}): Promise<Facts> {
  const { facts, error } = await new TranscriptReader(path, options).refresh();
  assert.equal(error, undefined);
  return facts;
}

Deno.test("TranscriptReader reads the five real transcripts", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "reader_real_" });
  try {
    for (const [name, expected] of Object.entries(EXPECTED)) {
      const source = new URL(name, REAL);
      const bytes = await Deno.readFile(source);
      await t.step(`${name}: whole`, async () => {
        assert.deepEqual(naiveFacts(bytes), expected, "the naive computation agrees");
        assert.deepEqual(await read(source.pathname), expected);
        assert.deepEqual(
          await read(source.pathname, { [READ_BUFFER_BYTES_OPTION]: 4096 }),
          expected,
          "with a read buffer smaller than many lines",
        );
        assert.deepEqual(
          await read(source.pathname, { [LATIN1_SCAN_BYTES_OPTION]: 0 }),
          expected,
          "searching Latin-1 strings",
        );
      });
      await t.step(`${name}: random appends agree with a one-shot read`, async () => {
        const next = random(name.length * 7919 + bytes.length);
        const path = `${dir}/${name}`;
        await Deno.writeFile(path, new Uint8Array(0));
        const reader = new TranscriptReader(path);
        // A small read buffer, and Latin-1 strings searched (the large-read way) at every scan.
        const small = new TranscriptReader(path, {
          [READ_BUFFER_BYTES_OPTION]: 1000,
          [LATIN1_SCAN_BYTES_OPTION]: 0,
        } as object);
        let written = 0;
        for (const cut of cuts(bytes, next)) {
          await Deno.writeFile(path, bytes.subarray(written, cut), { append: true });
          written = cut;
          const incremental = await reader.refresh();
          assert.equal(incremental.error, undefined);
          const prefix = bytes.subarray(0, cut);
          const naive = naiveFacts(prefix);
          assert.deepEqual(incremental.facts, naive, `after ${cut} bytes: incremental`);
          assert.deepEqual((await small.refresh()).facts, naive, `after ${cut} bytes: small`);
          assert.deepEqual(await read(path), naive, `after ${cut} bytes: one-shot`);
        }
        assert.deepEqual((await reader.refresh()).facts, expected);
      });
    }
    await t.step("73: cut after its <synthetic> line 9, whose zeros are no reading", async () => {
      const bytes = await Deno.readFile(new URL("entireio-cli_73_7e6e3ea2ad_0_full.jsonl", REAL));
      let end = -1;
      for (let line = 0; line < 9; line++) end = bytes.indexOf(10, end + 1);
      const ninth = new TextDecoder().decode(
        bytes.subarray(bytes.lastIndexOf(10, end - 1) + 1, end),
      );
      assert.ok(ninth.includes('"model":"<synthetic>"'), "line 9 is the synthetic record");
      const path = `${dir}/73_head.jsonl`;
      await Deno.writeFile(path, bytes.subarray(0, end + 1));
      const reader = new TranscriptReader(path);
      const none = {
        model: "",
        contextUsedTokens: 0,
        hasContext: false,
        compactedSinceUsage: false,
      };
      assert.deepEqual((await reader.refresh()).facts, none);
      assert.deepEqual(naiveFacts(bytes.subarray(0, end + 1)), none);
      // Up to the first real assistant record after it.
      const latin1 = new TextDecoder("latin1").decode(bytes); // one character a byte
      const next = bytes.indexOf(10, latin1.indexOf('"model":"claude-opus', end));
      await Deno.writeFile(path, bytes.subarray(end + 1, next + 1), { append: true });
      const facts = (await reader.refresh()).facts;
      assert.equal(facts.model, "claude-opus-4-5-20251101");
      assert.ok(facts.hasContext && facts.contextUsedTokens > 0);
      assert.deepEqual(facts, naiveFacts(bytes.subarray(0, next + 1)));
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
