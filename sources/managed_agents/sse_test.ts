// Copyright 2026 the brigade authors. MIT license.

// The server-sent event reader under the follow: line ends of every kind, split anywhere,
// comments and fields it ignores, the cap on a message and the deadline on silence.

import assert from "node:assert/strict";
import fc from "fast-check";
import { SseFailure, sseMessages } from "./_sse.ts";

function body(chunks: string[]): ReadableStream<Uint8Array> {
  return ReadableStream.from(chunks.map((chunk) => new TextEncoder().encode(chunk)));
}

const OPTIONS = { idleMs: 1_000, maxMessageBytes: 1_000 };

Deno.test("sseMessages() reads messages split anywhere, with LF, CRLF or CR line ends", async () => {
  const text =
    '\uFEFF: hello\nevent: a\ndata: {"x":1}\n\nid: 7\r\ndata: two\r\ndata: lines\r\n\r\n' +
    "event: ping\rdata:\r\rretry: 10\ndata:no space\n\n";
  const expected = [
    { event: "a", data: '{"x":1}', id: "" },
    { event: null, data: "two\nlines", id: "7" },
    { event: "ping", data: "", id: "7" },
    { event: null, data: "no space", id: "7" },
  ];
  for (const size of [1, 2, 3, 7, text.length]) {
    const chunks: string[] = [];
    for (let at = 0; at < text.length; at += size) chunks.push(text.slice(at, at + size));
    const messages = await Array.fromAsync(sseMessages(body(chunks), OPTIONS));
    assert.deepEqual(messages, expected, `chunks of ${size}`);
  }
});

Deno.test("sseMessages() stops at a message over the cap, and on silence past idleMs", async () => {
  await assert.rejects(
    Array.fromAsync(sseMessages(body([`data: ${"x".repeat(2_000)}`]), OPTIONS)),
    (error) => error instanceof SseFailure && error.kind === "too_large",
  );
  const silent = new ReadableStream<Uint8Array>({ pull: () => new Promise(() => {}) });
  await assert.rejects(
    Array.fromAsync(sseMessages(silent, { ...OPTIONS, idleMs: 20 })),
    (error) => error instanceof SseFailure && error.kind === "idle",
  );
});

Deno.test("sseMessages() fails on a message over the cap however it is split, after the messages before it", async () => {
  // Whole in one chunk with its blank line, the former reader let it through.
  const text = `data: first\n\ndata: ${"x".repeat(2_000)}\n\ndata: after\n\n`;
  for (const size of [text.length, 64, 7]) {
    const chunks: string[] = [];
    for (let at = 0; at < text.length; at += size) chunks.push(text.slice(at, at + size));
    const seen: string[] = [];
    await assert.rejects(
      (async () => {
        for await (const message of sseMessages(body(chunks), OPTIONS)) seen.push(message.data);
      })(),
      (error) => error instanceof SseFailure && error.kind === "too_large",
      `chunks of ${size}`,
    );
    assert.deepEqual(seen, ["first"], `chunks of ${size}`);
  }
});

/** The messages of a whole stream, read as the WHATWG rules say: the oracle of the property below. */
function messagesOf(bytes: Uint8Array): { event: string | null; data: string; id: string }[] {
  let text = new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
  if (text.startsWith("\uFEFF")) text = text.slice(1);
  const lines = text.split(/\r\n|\r|\n/);
  lines.pop(); // Not ended: not a line yet.
  const messages = [];
  let event: string | null = null;
  let data: string[] = [];
  let id = "";
  for (const line of lines) {
    if (line === "") {
      if (data.length > 0) messages.push({ event, data: data.join("\n"), id });
      event = null;
      data = [];
      continue;
    }
    const match = /^([^:]*)(?::( ?)(.*))?$/s.exec(line)!;
    const [, field, , value = ""] = match;
    if (field === "event") event = value;
    else if (field === "data") data.push(value);
    else if (field === "id" && !value.includes("\0")) id = value;
  }
  return messages;
}

const LINE_END = fc.constantFrom("\n", "\r\n", "\r");
const VALUE = fc.string({ unit: "grapheme", maxLength: 12 }).filter((value) =>
  !/[\r\n]/.test(value)
);
const LINE = fc.oneof(
  fc.constant(""),
  fc.constant(""),
  VALUE.map((value) => `data: ${value}`),
  VALUE.map((value) => `data:${value}`),
  fc.constant("data"),
  VALUE.map((value) => `event: ${value}`),
  VALUE.map((value) => `id: ${value}`),
  fc.constant("retry: 10"),
  VALUE.map((value) => `: ${value}`),
  VALUE.map((value) => `${value}: x`),
  // Names near the ones read, which are other fields.
  fc.constantFrom("dat: x", "datax: y", "data2", "Data: d", "events: e", "even: t", "i: z", "idx"),
);
const STREAM = fc.record({
  bom: fc.boolean(),
  lines: fc.array(fc.tuple(LINE, LINE_END), { maxLength: 30 }),
  tail: VALUE,
}).map(({ bom, lines, tail }) =>
  new TextEncoder().encode(
    (bom ? "\uFEFF" : "") + lines.map(([line, end]) => line + end).join("") + tail,
  )
);

function splitAt(bytes: Uint8Array, points: number[]): ReadableStream<Uint8Array> {
  const cuts = [...new Set(points.map((point) => point % (bytes.length + 1)))].sort((a, b) =>
    a - b
  );
  const chunks: Uint8Array[] = [];
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    // Copies, as a connection's chunks are: none shares a buffer with another.
    chunks.push(bytes.slice(from, cut));
    from = cut;
  }
  return ReadableStream.from(chunks);
}

Deno.test("sseMessages() gives the same messages however the bytes are split (inside a CRLF, inside a character)", async () => {
  const options = { idleMs: 1_000, maxMessageBytes: 1 << 20 };
  await fc.assert(
    fc.asyncProperty(STREAM, fc.array(fc.nat(), { maxLength: 40 }), async (bytes, points) => {
      const expected = messagesOf(bytes);
      const split = await Array.fromAsync(sseMessages(splitAt(bytes, points), options));
      assert.deepEqual(split, expected);
      const everyByte = Array.from({ length: bytes.length }, (_, index) => index);
      assert.deepEqual(
        await Array.fromAsync(sseMessages(splitAt(bytes, everyByte), options)),
        expected,
      );
    }),
    { numRuns: 300 },
  );
});

/** `bytes` with each of `inserts` (at a place, a byte that is no UTF-8 or part of one) put in. */
function withBytes(bytes: Uint8Array, inserts: [number, number][]): Uint8Array {
  const out = [...bytes];
  for (const [at, byte] of inserts) out.splice(at % (out.length + 1), 0, byte);
  return new Uint8Array(out);
}

Deno.test("sseMessages() gives the text of each value whether its chunk is ASCII, not, or has bytes that are no UTF-8", async () => {
  // The reader decodes an ASCII chunk once and slices its values, and decodes the values of
  // other chunks one by one (for a few chunks after one that is not ASCII): the texts must be
  // the same either way, chunks of each kind in turn, more of them than it skips.
  const options = { idleMs: 1_000, maxMessageBytes: 1 << 20 };
  const INVALID = fc.constantFrom(0x80, 0xbf, 0xc3, 0xe2, 0xf0, 0xff);
  await fc.assert(
    fc.asyncProperty(
      STREAM,
      fc.array(fc.tuple(fc.nat(), INVALID), { maxLength: 4 }),
      fc.array(fc.nat(), { maxLength: 40 }),
      async (stream, inserts, points) => {
        const ascii = new TextEncoder().encode("data: plain ascii value\n\n".repeat(12));
        const bytes = withBytes(new Uint8Array([...ascii, ...stream, ...ascii]), inserts);
        const expected = messagesOf(bytes);
        const lines = Array.from({ length: 40 }, (_, n) => ascii.length / 12 * n);
        for (const cuts of [points, lines]) {
          const split = await Array.fromAsync(sseMessages(splitAt(bytes, cuts), options));
          assert.deepEqual(split, expected);
        }
      },
    ),
    { numRuns: 300 },
  );
});
