// Copyright 2026 the brigade authors. MIT license.

import assert from "node:assert/strict";
import fc from "fast-check";
import {
  ASSISTANT,
  ByteText,
  collectCompactions,
  collectSpecialLines,
  LineFlags,
  textOf,
} from "./_prefilter.ts";
import { classifyRecord } from "./_facts.ts";
import { lendBuffer, returnBuffer } from "./_pair_search.ts";

/** The lines either search collects (special lines, then compactions), once each, in file order. */
function special(text: string): [string, number, number][] {
  const lines = new Map<number, [string, number, number]>();
  const out: number[] = [];
  for (
    const collect of [
      collectSpecialLines,
      (text: string, out: number[]) => collectCompactions(text, 0, out),
    ]
  ) {
    collect(text, out);
    for (let i = 0; i < out.length; i += 2) {
      lines.set(out[i]!, [text.slice(out[i]!, out[i + 1]!), out[i]!, out[i + 1]!]);
    }
  }
  return [...lines.values()].sort((a, b) => a[1] - b[1]);
}

Deno.test("collectSpecialLines() finds model attachments and letter escapes, line by line", () => {
  const lines = [
    '{"type":"user","text":"\\u001b[31m red"}',
    '{"type":"attachment","attachment":{"type":"hook_success"}}',
    '{"type":"attachment","attachment":{"type":"model","identity":{"modelId":"m"}}}',
    '{"type":"\\u0061ssistant"}',
    '{"type":"attachment","x":"\\u004D"}',
    '{"type":"assistant"}',
    '{"type":"system","subtype":"compact_boundary","compactMetadata":{"preTokens":155068}}',
    '{"type":"system","subtype":"turn_duration"}',
    '{"type":"system","subtype":"microcompact_boundary","x":"\u0041"}',
  ];
  const text = lines.join("\n") + "\n";
  assert.deepEqual(special(text).map(([line]) => line), [
    lines[2],
    lines[3],
    lines[4],
    lines[6],
    lines[8],
  ]);
  const [, start, end] = special(text)[0]!;
  assert.equal(text[start - 1], "\n");
  assert.equal(text[end], "\n");
});

Deno.test("collectSpecialLines() gives each line once, in file order, whatever its escapes", () => {
  const lines = [
    '{"x":"\\u0074"}',
    '{"type":"attachment","attachment":{"type":"model","identity":{"modelId":"m"}}}',
    '{"x":"\\u0061","y":"\\u0041","z":"\\u0061"}',
    '{"type":"system","subtype":"compact_boundary"}',
    '{"x":"\\u0051","y":"\\\\u0041"}',
    '{"type":"user","x":"\\u0004\\u0030\\u001b00400"}',
    '{"type":"attachment","attachment":{"type":"model","identity":{"modelId":"\\u006D"}}}',
  ];
  const text = lines.join("\n") + "\n";
  assert.deepEqual(special(text).map(([line]) => line), [
    lines[0],
    lines[1],
    lines[2],
    lines[3],
    lines[4],
    lines[6],
  ]);
});

Deno.test("collectCompactions() finds the compaction lines from a position on, in file order", () => {
  const lines = [
    '{"type":"system","subtype":"compact_boundary"}',
    '{"type":"assistant","message":{"usage":{"input_tokens":1}}}',
    '{"type":"user","text":"summary"}',
    '{"type":"system","subtype":"microcompact_boundary","x":"compact_boundary"}',
  ];
  const text = lines.join("\n") + "\n";
  const found = (from: number): string[] => {
    const out: number[] = [];
    collectCompactions(text, from, out);
    const at: string[] = [];
    for (let i = 0; i < out.length; i += 2) at.push(text.slice(out[i]!, out[i + 1]!));
    return at;
  };
  assert.deepEqual(found(0), [lines[0], lines[3]]);
  // From the end of the usage line on: the compaction before it is not collected.
  assert.deepEqual(found(text.indexOf(lines[2]!)), [lines[3]]);
  assert.deepEqual(found(text.length), []);
});

Deno.test("textOf() decodes as a line is decoded: ASCII kept, invalid UTF-8 as U+FFFD", () => {
  const bytes = new Uint8Array([0x7b, 0xe2, 0x82, 0x0a, 0xc3, 0xa9, 0xff, 0x22, 0x7d]);
  assert.equal(textOf(bytes, 0, bytes.length), '{\ufffd\n\u00e9\ufffd"}');
  assert.equal(textOf(bytes, 4, 6), "\u00e9");
  // A byte order mark is kept (only the file's first line skips it, when it is parsed).
  assert.equal(textOf(new Uint8Array([0xef, 0xbb, 0xbf, 0x31]), 0, 4), "\ufeff1");
});

Deno.test("LineFlags finds a literal split across any two pieces", () => {
  for (const literal of [ASSISTANT, "\\u0061", '"attachment" "modelId"', '"compact_boundary"']) {
    const line = `{"pad":"xxxx",${literal},"more":1}`;
    for (let cut = 0; cut <= line.length; cut++) {
      const flags = new LineFlags();
      flags.scan(line.slice(0, cut));
      flags.scan(line.slice(cut));
      assert.ok(flags.candidate, `${literal} cut at ${cut}`);
    }
  }
  const flags = new LineFlags();
  flags.scan('{"type":"attachment","attachment":{"type":"hook"},"x":"\\u001b"}');
  assert.equal(flags.candidate, false);
});

/** Rewrites some letters inside JSON strings as `\u00XX` escapes: the same JSON value. */
function escapeLetters(json: string, picks: number[]): string {
  let out = "";
  let inString = false;
  let n = 0;
  for (let i = 0; i < json.length; i++) {
    const c = json[i]!;
    if (c === "\\") {
      out += c + json[++i];
      continue;
    }
    if (c === '"') inString = !inString;
    if (inString && /[a-zA-Z]/.test(c) && picks.includes(n++ % 64)) {
      out += "\\u00" + c.charCodeAt(0).toString(16).toUpperCase();
    } else {
      out += c;
    }
  }
  return out;
}

Deno.test("the prefilter is exact: no record that matters is ever ruled out", () => {
  const record = fc.record({
    type: fc.constantFrom("assistant", "attachment", "user", "system"),
    subtype: fc.constantFrom("compact_boundary", "microcompact_boundary", "turn_duration"),
    isSidechain: fc.constantFrom(false, true),
    message: fc.record({
      model: fc.constantFrom("claude-opus-5", "<synthetic>"),
      usage: fc.constant({ input_tokens: 1 }),
    }),
    attachment: fc.record({
      type: fc.constantFrom("model", "file"),
      identity: fc.record({ modelId: fc.constant("m[1m]") }),
    }),
  });
  fc.assert(
    fc.property(record, fc.array(fc.nat(63), { maxLength: 20 }), (value, picks) => {
      const line = escapeLetters(JSON.stringify(value), picks);
      assert.deepEqual(JSON.parse(line), JSON.parse(JSON.stringify(value)));
      if (classifyRecord(JSON.parse(line)) === null) return;
      const text = line + "\n";
      const flags = new LineFlags();
      flags.scan(text);
      assert.ok(text.includes(ASSISTANT) || special(text).length === 1, line);
      assert.ok(flags.candidate, line);
    }),
    { numRuns: 500 },
  );
});

/** The Latin-1 string of `bytes` (one character a byte), as the large reads search. */
function latin1Of(bytes: Uint8Array): string {
  let text = "";
  for (const byte of bytes) text += String.fromCharCode(byte);
  return text;
}

/** Bytes the searches care about, and others (a newline, escapes, non-ASCII, quotes). */
const searchedBytes = fc.constantFrom(
  ...new TextEncoder().encode('"assistnmoelIdyc_buprh\\0047\n x'),
  0xc3,
  0xa9,
  0xff,
);

/**
 * Every pair of anchors of `literal`: a pair's start at an even and one at an odd position, in
 * either order (the first is the one a search of the lent buffer goes from).
 */
function anchorPairs(literal: string): [number, number][] {
  const pairs: [number, number][] = [];
  for (let even = 0; even + 1 < literal.length; even += 2) {
    for (let odd = 1; odd + 1 < literal.length; odd += 2) pairs.push([even, odd], [odd, even]);
  }
  return pairs;
}

/** The positions just before, at and just after each occurrence of `literal` in `string`. */
function around(string: string, literal: string): number[] {
  const positions: number[] = [];
  for (let at = string.indexOf(literal); at !== -1; at = string.indexOf(literal, at + 1)) {
    positions.push(at - 1, at, at + 1);
  }
  return positions;
}

/**
 * Runs `check` on a buffer of `size` bytes of each kind a {@linkcode ByteText} searches: a
 * buffer of its own (searched by its even pairs) and the buffer the pair search lends.
 */
function inEachBuffer(size: number, check: (buffer: Uint8Array) => void): void {
  check(new Uint8Array(size));
  // Without WebAssembly (`--jitless`), the search has no buffer of its own to lend.
  if (typeof WebAssembly === "undefined") return;
  const lent = lendBuffer(size);
  assert.ok(lent !== undefined, "the pair search lends its buffer");
  try {
    check(lent);
  } finally {
    assert.ok(returnBuffer(lent));
  }
}

Deno.test("ByteText answers as the string methods on the Latin-1 string of the same bytes", () => {
  const literals = [
    ASSISTANT,
    '"attachment"',
    '"modelId"',
    'Id"',
    "\\u00",
    'y"',
    "00",
    "\n",
    'compact_boundary"',
  ];
  fc.assert(
    fc.property(
      fc.array(searchedBytes, { maxLength: 80, size: "max" }),
      fc.nat(8),
      fc.nat(8),
      fc.array(fc.integer({ min: -3, max: 90 }), { minLength: 1, maxLength: 6 }),
      fc.nat(90),
      fc.nat(),
      (list, before, after, froms, limit, pick) =>
        inEachBuffer(before + list.length + after, (buffer) => {
          // The run sits inside a larger buffer, at an even or odd start, with bytes around it.
          const run = new Uint8Array(list);
          buffer.fill(0x22);
          buffer.set(run, before);
          const text = new ByteText(buffer, before, before + run.length);
          const string = latin1Of(run);
          assert.equal(text.length, string.length);
          for (const literal of literals) {
            assert.equal(text.indexOf(literal), string.indexOf(literal), literal);
            assert.equal(text.lastIndexOf(literal), string.lastIndexOf(literal), literal);
            for (const from of [...froms, ...around(string, literal)]) {
              assert.equal(text.indexOf(literal, from), string.indexOf(literal, from), literal);
              // Bounded, as a search within one line is: only what ends by the limit is found.
              assert.equal(
                text.indexOf(literal, from, [0, 1], limit),
                string.slice(0, limit).indexOf(literal, from),
                `${literal} from ${from} up to ${limit}`,
              );
              assert.equal(text.lastIndexOf(literal, from), string.lastIndexOf(literal, from));
              assert.equal(text.startsWith(literal, from), string.startsWith(literal, from));
              assert.deepEqual(text.charCodeAt(from), string.charCodeAt(from));
            }
          }
          // From other pairs of anchors, one at an even and one at an odd position of the
          // literal, as the searches of the prefilter go from the rarest of each: two a run.
          for (const literal of literals.filter((literal) => literal.length > 2)) {
            const pairs = anchorPairs(literal);
            for (
              const anchors of [pairs[pick % pairs.length]!, pairs[(pick + 1) % pairs.length]!]
            ) {
              for (const from of [...froms, ...around(string, literal)]) {
                const name = `${literal} from ${from}, anchors ${anchors}`;
                assert.equal(
                  text.indexOf(literal, from, anchors),
                  string.indexOf(literal, from),
                  name,
                );
                assert.equal(
                  text.indexOf(literal, from, anchors, limit),
                  string.slice(0, limit).indexOf(literal, from),
                  `${name} up to ${limit}`,
                );
                assert.equal(
                  text.lastIndexOf(literal, from, anchors),
                  string.lastIndexOf(literal, from),
                  name,
                );
              }
            }
          }
        }),
    ),
    { numRuns: 2_000 },
  );
});

Deno.test("the prefilter collects the same lines in bytes as in a Latin-1 string", () => {
  const line = fc.array(
    fc.oneof(
      { weight: 3, arbitrary: searchedBytes.map((byte) => latin1Of(new Uint8Array([byte]))) },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          '"assistant"',
          '"attachment"',
          '"modelId"',
          '"requestId"',
          "\\u0041",
          "\\u001b",
          "\\\\u0061",
          'compact_boundary"',
          "T18:00:00",
        ),
      },
    ),
    { maxLength: 12, size: "max" },
  ).map((parts) => parts.join(""));
  fc.assert(
    fc.property(fc.array(line, { maxLength: 8, size: "max" }), fc.nat(40), (lines, after) => {
      const string = lines.map((line) => line + "\n").join("");
      const bytes = Uint8Array.from(string, (c) => c.charCodeAt(0));
      for (const before of [0, 1]) {
        inEachBuffer(before + bytes.length, (buffer) => {
          buffer.set(bytes, before);
          const text = new ByteText(buffer, before, buffer.length);
          const inBytes: number[] = [];
          const inString: number[] = [];
          collectSpecialLines(text, inBytes);
          collectSpecialLines(string, inString);
          assert.deepEqual(inBytes, inString);
          collectCompactions(text, after, inBytes);
          collectCompactions(string, after, inString);
          assert.deepEqual(inBytes, inString);
        });
      }
    }),
    { numRuns: 1_000 },
  );
});
