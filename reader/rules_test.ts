// Copyright 2026 the brigade authors. MIT license.

// Each rule of the reader, with its own fixture. Every fixture is read four ways: in one
// refresh, with a tiny read buffer (every line takes the long-line path), in appends of a
// few bytes with a refresh after each, and by the naive statement of the rules.

import assert from "node:assert/strict";
import { type Facts, TranscriptReader } from "@brigade/transcript/reader";
import { READ_BUFFER_BYTES_OPTION } from "./_scanner.ts";
import { naiveFacts } from "../tests/reader_naive.ts";

const encoder = new TextEncoder();
type Line = string | Uint8Array | Record<string, unknown>;

function usage(input?: unknown, creation?: unknown, read?: unknown): Record<string, unknown> {
  const counts: Record<string, unknown> = { output_tokens: 12 };
  if (input !== undefined) counts.input_tokens = input;
  if (creation !== undefined) counts.cache_creation_input_tokens = creation;
  if (read !== undefined) counts.cache_read_input_tokens = read;
  return counts;
}

function assistant(
  model: unknown,
  counts?: unknown,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  const message: Record<string, unknown> = { role: "assistant", content: [] };
  if (model !== undefined) message.model = model;
  if (counts !== undefined) message.usage = counts;
  return { isSidechain: false, type: "assistant", message, uuid: crypto.randomUUID(), ...extra };
}

function attachment(
  modelId: unknown,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    isSidechain: false,
    type: "attachment",
    attachment: { type: "model", identity: { modelId, marketingName: null } },
    ...extra,
  };
}

const USER = { type: "user", message: { role: "user", content: "hello" } };

function facts(model: string, contextUsedTokens = 0, hasContext = contextUsedTokens > 0): Facts {
  return { model, contextUsedTokens, hasContext, compactedSinceUsage: false };
}

function bytesOf(lines: Line[], finalNewline = true): Uint8Array {
  const parts = lines.map((line) =>
    line instanceof Uint8Array
      ? line
      : encoder.encode(typeof line === "string" ? line : JSON.stringify(line))
  );
  const total = parts.reduce((sum, part) => sum + part.length + 1, 0);
  const out = new Uint8Array(total - (finalNewline ? 0 : 1));
  let at = 0;
  parts.forEach((part, i) => {
    out.set(part, at);
    at += part.length;
    if (i < parts.length - 1 || finalNewline) out[at++] = 10;
  });
  return out;
}

function concat(...parts: (string | Uint8Array)[]): Uint8Array {
  const bytes = parts.map((part) => typeof part === "string" ? encoder.encode(part) : part);
  const out = new Uint8Array(bytes.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of bytes) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** An assistant record of exactly `length` bytes, padded. */
function sized(length: number, model: string, input: number): string {
  const head =
    `{"type":"assistant","message":{"model":"${model}","usage":{"input_tokens":${input}}},"pad":"`;
  return head + "x".repeat(length - head.length - 2) + '"}';
}

interface Case {
  name: string;
  lines: Line[];
  expected: Facts;
  maxLineBytes?: number;
}

const MAX = Number.MAX_SAFE_INTEGER;

const CASES: Case[] = [
  {
    name: "a model attachment, then a switch it missed: the bare id wins",
    lines: [
      attachment("claude-opus-5[1m]"),
      assistant("claude-opus-5", usage(1, 2, 3)),
      assistant("claude-sonnet-5", usage(10, 0, 0)),
    ],
    expected: facts("claude-sonnet-5", 10),
  },
  {
    name: "a model attachment with matching bare ids: the full id wins",
    lines: [
      USER,
      attachment("claude-opus-5[1m]"),
      assistant("claude-opus-5", usage(5, 100, 1000)),
      assistant("claude-opus-5", usage(5, 100, 2000)),
    ],
    expected: facts("claude-opus-5[1m]", 2105),
  },
  {
    name: "a switch back to the attachment's model: the full id again",
    lines: [
      attachment("claude-opus-5[1m]"),
      assistant("claude-sonnet-5", usage(1)),
      assistant("claude-opus-5", usage(2)),
    ],
    expected: facts("claude-opus-5[1m]", 2),
  },
  {
    name: "a later attachment replaces an earlier switch",
    lines: [
      attachment("claude-opus-5[1m]"),
      assistant("claude-sonnet-5", usage(1)),
      attachment("claude-haiku-5"),
    ],
    expected: facts("claude-haiku-5", 1),
  },
  {
    name: "an attachment alone",
    lines: [USER, attachment("glm-5.3-flash[1m]")],
    expected: facts("glm-5.3-flash[1m]"),
  },
  {
    name: "no attachment: the latest bare id",
    lines: [assistant("claude-opus-4-5", usage(1)), assistant("claude-sonnet-4-5", usage(2))],
    expected: facts("claude-sonnet-4-5", 2),
  },
  {
    name: "neither an attachment nor an assistant record: no facts",
    lines: [USER, { type: "progress", data: {} }, { type: "summary", summary: "assistant" }],
    expected: facts(""),
  },
  {
    name: "a synthetic record last says nothing",
    lines: [
      assistant("claude-opus-4-5", usage(3, 40, 500)),
      assistant("<synthetic>", usage(0, 0, 0)),
    ],
    expected: facts("claude-opus-4-5", 543),
  },
  {
    name: "a sidechain record last says nothing",
    lines: [
      assistant("claude-opus-4-5", usage(3, 40, 500)),
      assistant("claude-haiku-4-5", usage(9, 9, 9), { isSidechain: true }),
    ],
    expected: facts("claude-opus-4-5", 543),
  },
  {
    name: "a sidechain model attachment says nothing",
    lines: [attachment("claude-opus-5[1m]"), attachment("claude-haiku-5", { isSidechain: true })],
    expected: facts("claude-opus-5[1m]"),
  },
  {
    name: "an isSidechain of the wrong type voids the record",
    lines: [assistant("a", usage(1)), assistant("b", usage(2), { isSidechain: "no" })],
    expected: facts("a", 1),
  },
  {
    name: "a negative count voids the usage but the record still names its model",
    lines: [
      assistant("claude-opus-4-5", usage(100)),
      assistant("claude-sonnet-4-5", usage(5, -1, 7)),
    ],
    expected: facts("claude-sonnet-4-5", 100),
  },
  {
    name: "a negative count only: the model without a context",
    lines: [assistant("claude-opus-4-5", usage(-3))],
    expected: facts("claude-opus-4-5", 0, false),
  },
  {
    name: "counts whose sum overflows saturate at the largest safe integer",
    lines: [assistant("m", usage(MAX, MAX, 1e300))],
    expected: facts("m", MAX),
  },
  {
    name: "a sum just past the safe range saturates too",
    lines: [assistant("m", usage(MAX - 1, 1, 1))],
    expected: facts("m", MAX),
  },
  {
    name: "a count given as a string voids the whole record",
    lines: [assistant("a", usage(7)), assistant("b", usage("5", 1, 1))],
    expected: facts("a", 7),
  },
  {
    name: "a fractional count voids the whole record",
    lines: [assistant("a", usage(7)), assistant("b", usage(1, 2.5, 1))],
    expected: facts("a", 7),
  },
  {
    name: "a count that is not a finite number voids the whole record",
    lines: [
      assistant("a", usage(7)),
      '{"type":"assistant","message":{"model":"b","usage":{"input_tokens":1e400}}}',
    ],
    expected: facts("a", 7),
  },
  {
    name: "a model of the wrong type voids the whole record",
    lines: [assistant("a", usage(7)), assistant(42, usage(9))],
    expected: facts("a", 7),
  },
  {
    name: "a usage of the wrong type voids the whole record",
    lines: [assistant("a", usage(7)), assistant("b", "none"), assistant("c", [1, 2])],
    expected: facts("a", 7),
  },
  {
    name: "a message of the wrong type voids the record",
    lines: [assistant("a", usage(7)), { type: "assistant", message: "claude-opus-5" }],
    expected: facts("a", 7),
  },
  {
    name: "absent counts are 0 and an all-zero usage is a valid reading of 0",
    lines: [
      assistant("a", usage(50)),
      assistant("gpt-5.3-codex", { input_tokens: 0, output_tokens: 0 }),
    ],
    expected: facts("gpt-5.3-codex", 0, true),
  },
  {
    name: "an empty usage is a valid reading of 0",
    lines: [assistant("a", usage(50)), assistant("b", {})],
    expected: facts("b", 0, true),
  },
  {
    name: "null members read as absent",
    lines: [
      assistant("a", usage(50)),
      assistant("b", usage(null, 4, null)),
      assistant(null, null, { isSidechain: null }),
    ],
    expected: facts("b", 4),
  },
  {
    name: "a record without usage names the model and keeps the context",
    lines: [assistant("a", usage(50)), assistant("b")],
    expected: facts("b", 50),
  },
  {
    name: "a record without model sets the context and keeps the model",
    lines: [assistant("a", usage(50)), assistant(undefined, usage(60))],
    expected: facts("a", 60),
  },
  {
    name: "an empty model id names no model",
    lines: [assistant("a", usage(50)), assistant("", usage(60)), attachment("")],
    expected: facts("a", 60),
  },
  {
    name: "an attachment of another type says nothing",
    lines: [
      attachment("claude-opus-5[1m]"),
      { type: "attachment", attachment: { type: "hook_success", content: "modelId" } },
      { type: "attachment", attachment: { type: "model", identity: "claude-haiku-5" } },
      { type: "attachment", attachment: { type: "model", identity: { modelId: 5 } } },
    ],
    expected: facts("claude-opus-5[1m]"),
  },
  {
    name: "lines that are not JSON, not objects or of unknown types are skipped",
    lines: [
      assistant("a", usage(1)),
      "not json at all",
      '{"type":"assistant","message":{"model":"half',
      "[1,2,3]",
      "42",
      "null",
      '"assistant"',
      "",
      "   ",
      { type: 5, message: { model: "x" } },
      { type: "queue-operation", operation: "enqueue" },
      { type: "Assistant", message: { model: "x", usage: usage(9) } },
    ],
    expected: facts("a", 1),
  },
  {
    name: "two records glued on one line are not JSON and are skipped",
    lines: [
      assistant("a", usage(1)),
      JSON.stringify(assistant("b", usage(2))) + JSON.stringify({ type: "summary" }),
    ],
    expected: facts("a", 1),
  },
  {
    name: "a duplicated member takes its last value",
    lines: [
      '{"type":"user","type":"assistant","message":{"model":"x","model":"claude-opus-4-6",' +
      '"usage":{"input_tokens":"bad","input_tokens":2,"cache_read_input_tokens":3}}}',
      '{"type":"assistant","type":"user","message":{"model":"y","usage":{"input_tokens":99}}}',
    ],
    expected: facts("claude-opus-4-6", 5),
  },
  {
    name: "invalid UTF-8 in a model id decodes as U+FFFD",
    lines: [
      concat(
        '{"type":"assistant","message":{"model":"claude-',
        new Uint8Array([0xff, 0xc3]),
        '-x",',
        '"usage":{"input_tokens":8}}}',
      ),
    ],
    expected: facts("claude-\ufffd\ufffd-x", 8),
  },
  {
    name: "invalid UTF-8 elsewhere in a record does not void it",
    lines: [
      concat(
        '{"type":"attachment","note":"',
        new Uint8Array([0xe2, 0x82]),
        '","attachment":{"type":"model","identity":{"modelId":"claude-opus-5[1m]"}}}',
      ),
    ],
    expected: facts("claude-opus-5[1m]"),
  },
  {
    name: "a lone surrogate escape in a model id decodes as U+FFFD",
    lines: [
      '{"type":"attachment","attachment":{"type":"model","identity":{"modelId":"opus-\\ud800[1m]"}}}',
      '{"type":"assistant","message":{"model":"son\\udc00net","usage":{"input_tokens":1}}}',
    ],
    expected: facts("son\ufffdnet", 1),
  },
  {
    name: "a paired surrogate escape is kept",
    lines: ['{"type":"assistant","message":{"model":"m-\\ud83d\\ude80","usage":{}}}'],
    expected: facts("m-\u{1f680}", 0, true),
  },
  {
    name: "an escaped record type is still read (the prefilter is exact)",
    lines: [
      assistant("a", usage(1)),
      '{"type":"\\u0061ssistant","message":{"model":"b","usage":{"input_tokens":2}}}',
      '{"type":"\\u0061ttachment","attachment":{"type":"model","identity":{"modelId":"c"}}}',
    ],
    expected: facts("c", 2),
  },
  {
    name: "an escaped modelId member is still read",
    lines: [
      '{"type":"attachment","attachment":{"type":"model","identity":{"\\u006DodelId":"claude-x"}}}',
    ],
    expected: facts("claude-x"),
  },
  {
    name: "colour escapes do not make a line a candidate and do not hide one",
    lines: [
      assistant("a", usage(1), { note: "\u001b[32mok\u001b[0m" }),
      { type: "user", message: { content: "\u001b[31massistant\u001b[0m" } },
    ],
    expected: facts("a", 1),
  },
  {
    name: "a byte order mark at the start of the file is skipped",
    lines: [concat(new Uint8Array([0xef, 0xbb, 0xbf]), JSON.stringify(assistant("a", usage(3))))],
    expected: facts("a", 3),
  },
  {
    name: "CRLF line endings are read",
    lines: [
      JSON.stringify(attachment("m[1m]")) + "\r",
      JSON.stringify(assistant("m", usage(4))) + "\r",
    ],
    expected: facts("m[1m]", 4),
  },
  {
    name: "a line over maxLineBytes is skipped whole; one at the cap is read",
    maxLineBytes: 120,
    lines: [sized(100, "a", 1), sized(121, "b", 2), sized(120, "c", 3), sized(500, "d", 4)],
    expected: facts("c", 3),
  },
];

async function readAll(path: string, options: Record<string | symbol, number>): Promise<Facts> {
  const { facts, error } = await new TranscriptReader(path, options).refresh();
  assert.equal(error, undefined);
  return facts;
}

Deno.test("TranscriptReader applies each rule of the facts", async (t) => {
  const dir = await Deno.makeTempDir();
  try {
    for (const [i, { name, lines, expected, maxLineBytes }] of CASES.entries()) {
      await t.step(name, async () => {
        const bytes = bytesOf(lines);
        const path = `${dir}/case_${i}.jsonl`;
        await Deno.writeFile(path, bytes);
        const options: Record<string | symbol, number> = {};
        if (maxLineBytes !== undefined) options.maxLineBytes = maxLineBytes;
        assert.deepEqual(naiveFacts(bytes, maxLineBytes), expected, "naive");
        assert.deepEqual(await readAll(path, options), expected, "one refresh");
        assert.deepEqual(
          await readAll(path, { ...options, [READ_BUFFER_BYTES_OPTION]: 7 }),
          expected,
          "tiny read buffer",
        );
        const growing = `${dir}/case_${i}_growing.jsonl`;
        await Deno.writeFile(growing, new Uint8Array(0));
        const reader = new TranscriptReader(growing, options);
        for (let at = 0; at < bytes.length; at += 5) {
          await Deno.writeFile(growing, bytes.subarray(at, at + 5), { append: true });
          const result = await reader.refresh();
          assert.equal(result.error, undefined);
          const written = bytes.subarray(0, Math.min(at + 5, bytes.length));
          assert.deepEqual(
            result.facts,
            naiveFacts(written, maxLineBytes),
            `after ${at + 5} bytes`,
          );
        }
      });
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
