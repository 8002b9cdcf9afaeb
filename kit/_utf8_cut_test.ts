// Copyright 2026 the brigade authors. MIT license.

import assert from "node:assert/strict";
import fc from "fast-check";
import { utf8HeadCut } from "./_utf8_cut.ts";

/** The head the native encoder finds in a buffer of `budget` bytes: its units and its size. */
function encoderHead(text: string, budget: number): { units: number; bytes: number } {
  const { read, written } = new TextEncoder().encodeInto(text, new Uint8Array(budget));
  return { units: read, bytes: written };
}

/**
 * Runs of ASCII and of 2-, 3- and 4-byte characters and lone surrogates, short or long, the
 * units at each size's bounds among them.
 */
const text = fc.array(
  fc.tuple(
    fc.constantFrom(
      ...["a", "\x7f", "\n", "\x80", "é", "\u07ff", "\u0800", "€", "中", "\uffff", "😀"],
      ...["\ud800", "\udbff", "\udc00", "\udfff", "\ud800a", "\udbff\udfff", "a\u0800"],
    ),
    fc.integer({ min: 0, max: 40 }),
  ).map(([unit, times]) => unit.repeat(times)),
  { maxLength: 12 },
).map((runs) => runs.join(""));

Deno.test("utf8HeadCut() finds the head the encoder writes within a budget, and its size", () => {
  fc.assert(
    fc.property(text, fc.integer({ min: 0, max: 3_000 }), (s, budget) => {
      assert.deepEqual(utf8HeadCut(s, budget), encoderHead(s, budget));
    }),
    { numRuns: 2_000 },
  );
});

Deno.test("utf8HeadCut() never splits a surrogate pair, wherever the budget ends around it", () => {
  for (const lead of ["", "a", "é", "€"]) {
    const s = `${lead}😀😀b\ud800`;
    for (let budget = 0; budget <= 16; budget++) {
      assert.deepEqual(
        utf8HeadCut(s, budget),
        encoderHead(s, budget),
        JSON.stringify({ lead, budget }),
      );
    }
  }
});

Deno.test("utf8HeadCut() finds the same head in text of many short runs, walked a unit at a time", () => {
  for (const pattern of ["a\u00e9", "ab\u4e2d", "a\u0800", "a\ud83d\ude00", "\u07ffz\udbff"]) {
    const s = pattern.repeat(500);
    for (const budget of [0, 1, 2, 3, 4, 5, 99, 100, 101, 1_000, 1_001, 1_499, 4_000, 10_000]) {
      assert.deepEqual(
        utf8HeadCut(s, budget),
        encoderHead(s, budget),
        JSON.stringify({ pattern, budget }),
      );
    }
  }
});
