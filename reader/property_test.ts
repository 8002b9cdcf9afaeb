// Copyright 2026 the brigade authors. MIT license.

// Property: for any generated transcript, written in appends cut at arbitrary bytes with a
// refresh after each, the incremental reader agrees at every step with the naive statement
// of the rules over the bytes written so far, and at the end with a one-shot read, whatever
// the line cap and the read buffer's size.

import assert from "node:assert/strict";
import fc from "fast-check";
import { TranscriptReader } from "@brigade/transcript/reader";
import {
  LATIN1_SCAN_BYTES,
  LATIN1_SCAN_BYTES_OPTION,
  READ_BUFFER_BYTES_OPTION,
} from "./_scanner.ts";
import { naiveFacts } from "../tests/reader_naive.ts";

const encoder = new TextEncoder();

const modelIds = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.constantFrom(
      "claude-opus-5[1m]",
      "claude-opus-5",
      "claude-sonnet-5",
      "claude-opus",
      "gpt-5.3-codex",
    ),
  },
  {
    weight: 2,
    arbitrary: fc.constantFrom<unknown>(
      "<synthetic>",
      "",
      "lone-\ud800-surrogate",
      "ctl-\u0007-\u001b[2J",
      null,
      42,
    ),
  },
);

const counts = fc.constantFrom<unknown>(
  undefined,
  7,
  42,
  null,
  0,
  1,
  3,
  15_764,
  200_000,
  Number.MAX_SAFE_INTEGER,
  1e300,
  -1,
  -0,
  1.5,
  "3",
  true,
);

const sidechain = fc.constantFrom<unknown>(undefined, false, false, false, true, null, "no");

const usage = fc.oneof(
  fc.record({
    input_tokens: counts,
    cache_creation_input_tokens: counts,
    cache_read_input_tokens: counts,
    output_tokens: counts,
  }),
  fc.constantFrom<unknown>(undefined, null, "none", [1, 2], {}),
);

function strip(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));
}

const assistant = fc.record({ model: modelIds, usage, isSidechain: sidechain }).map((
  { model, usage, isSidechain },
) =>
  strip({
    isSidechain,
    type: "assistant",
    message: strip({ model, role: "assistant", content: [{ type: "text", text: "ok" }], usage }),
  })
);

const attachment = fc.record({
  modelId: modelIds,
  isSidechain: sidechain,
  kind: fc.constantFrom("model", "model", "hook_success"),
}).map(({ modelId, isSidechain, kind }) =>
  strip({
    isSidechain,
    type: "attachment",
    attachment: { type: kind, identity: strip({ modelId }) },
  })
);

const other = fc.constantFrom<unknown>(
  {
    type: "user",
    message: { role: "user", content: 'the "assistant" said \u001b[31mno\u001b[0m' },
  },
  { type: "progress", data: { type: "hook_progress" } },
  { type: "summary", summary: "assistant attachment modelId" },
  { type: "system", subtype: "compact_boundary", compactMetadata: { preTokens: 155_068 } },
  [1, 2],
  "assistant",
);

/** How a record is written on its line. */
const spelling = fc.constantFrom(
  "plain",
  "plain",
  "plain",
  "escaped-type",
  "duplicate-type",
  "invalid-utf8",
  "crlf",
  "padded",
  "junk",
  "glued",
);

const record = fc.oneof(
  { weight: 4, arbitrary: assistant },
  { weight: 2, arbitrary: attachment },
  { weight: 1, arbitrary: other },
);

const line = fc.tuple(record, spelling, fc.nat(600)).map(
  ([record, how, pad]): Uint8Array => {
    let text = JSON.stringify(record);
    const isObject = text.startsWith("{");
    switch (how) {
      case "escaped-type": // no literal left: only the escapes can make it a candidate
        text = text.replaceAll('"assistant"', '"\\u0061ssistant"')
          .replaceAll('"attachment"', '"\\u0061ttachment"')
          .replaceAll('"modelId"', '"\\u006DodelId"');
        break;
      case "duplicate-type":
        if (isObject) text = '{"type":"user",' + text.slice(1);
        break;
      case "invalid-utf8":
        if (isObject) {
          const at = encoder.encode('{"note":"');
          const rest = encoder.encode('",' + text.slice(1));
          const out = new Uint8Array(at.length + 3 + rest.length);
          out.set(at);
          out.set([0xff, 0xe2, 0x82], at.length);
          out.set(rest, at.length + 3);
          return out;
        }
        break;
      case "crlf":
        text += "\r";
        break;
      case "padded":
        if (isObject) text = `{"pad":"${"é".repeat(pad)}",` + text.slice(1);
        break;
      case "junk":
        text = text.slice(0, Math.max(1, text.length >> 1));
        break;
      case "glued":
        text += text;
        break;
    }
    return encoder.encode(text);
  },
);

const transcript = fc.record({
  lines: fc.array(line, { maxLength: 30 }),
  bom: fc.boolean(),
  finalNewline: fc.boolean(),
});

function join(lines: Uint8Array[], bom: boolean, finalNewline: boolean): Uint8Array {
  const parts: Uint8Array[] = bom ? [new Uint8Array([0xef, 0xbb, 0xbf])] : [];
  lines.forEach((line, i) => {
    parts.push(line);
    if (i < lines.length - 1 || finalNewline) parts.push(new Uint8Array([10]));
  });
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

Deno.test("TranscriptReader: incremental reads agree with one-shot and naive reads", async () => {
  const dir = await Deno.makeTempDir({ prefix: "reader_property_" });
  let run = 0;
  const noise = `${dir}/noise.jsonl`;
  await Deno.writeTextFile(noise, "x\n".repeat(300));
  try {
    await fc.assert(
      fc.asyncProperty(
        transcript,
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { maxLength: 20 }),
        fc.constantFrom(40, 150, 400, 64 << 20, 64 << 20),
        fc.constantFrom(3, 16, 100, 1 << 20, 1 << 20, 1 << 20),
        fc.constantFrom(0, LATIN1_SCAN_BYTES),
        async ({ lines, bom, finalNewline }, fractions, maxLineBytes, bufferBytes, latin1Bytes) => {
          const bytes = join(lines, bom, finalNewline);
          const cuts = [...new Set(fractions.map((f) => Math.floor(f * bytes.length)))]
            .sort((a, b) => a - b);
          cuts.push(bytes.length);
          const path = `${dir}/run_${run++}.jsonl`;
          await Deno.writeFile(path, new Uint8Array(0));
          const options = {
            maxLineBytes,
            [READ_BUFFER_BYTES_OPTION]: bufferBytes,
            // Both ways of searching: Latin-1 strings (0: every scan) and the bytes themselves.
            [LATIN1_SCAN_BYTES_OPTION]: latin1Bytes,
          };
          const reader = new TranscriptReader(path, options);
          let written = 0;
          for (const cut of cuts) {
            await Deno.writeFile(path, bytes.subarray(written, cut), { append: true });
            written = cut;
            // Another reader's scan in between leaves newlines in the shared read buffers.
            await new TranscriptReader(noise, options).refresh();
            const result = await reader.refresh();
            assert.equal(result.error, undefined);
            assert.deepEqual(result.facts, naiveFacts(bytes.subarray(0, cut), maxLineBytes));
          }
          const oneShot = await new TranscriptReader(path, { maxLineBytes }).refresh();
          assert.deepEqual((await reader.refresh()).facts, oneShot.facts);
          await Deno.remove(path);
        },
      ),
      { numRuns: 150 },
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
