// Copyright 2026 the brigade authors. MIT license.

import assert from "node:assert/strict";
import fc from "fast-check";
import { cutBodyParts } from "./budget.ts";
import { utf8Head, utf8Length, utf8Tail } from "./utf8.ts";

const encoded = (text: string): number => new TextEncoder().encode(text).length;
/** Strings mixing ASCII, 2-, 3- and 4-byte characters and lone surrogates. */
const text = fc.array(
  fc.oneof(
    fc.constantFrom("a", "é", "€", "😀", "\ud800", "\udc00", "\n"),
    fc.string({ unit: "grapheme" }),
  ),
).map((parts) => parts.join(""));

Deno.test("utf8Length() equals the encoded size, a lone surrogate counting as U+FFFD", () => {
  fc.assert(fc.property(text, (s) => utf8Length(s) === encoded(s)), { numRuns: 300 });
});

Deno.test("utf8Length() of a long text equals its encoded size, wherever a pair or a lone surrogate falls", () => {
  for (const filler of ["a", "é", "€"]) {
    for (let at = 8180; at < 8200; at++) {
      for (const odd of ["😀", "\ud800", "\udc00", "\ud800a"]) {
        const long = filler.repeat(at) + odd + "b".repeat(9000) + odd;
        assert.equal(utf8Length(long), encoded(long), JSON.stringify({ filler, at, odd }));
      }
    }
  }
});

Deno.test("utf8Length() of long runs of ASCII and of other characters, sparse or dense, equals the encoded size", () => {
  const run = fc.tuple(
    fc.constantFrom("a", "\n", "é", "€", "中", "😀", "\ud800", "\udc00"),
    fc.integer({ min: 0, max: 3_000 }),
  ).map(([unit, times]) => unit.repeat(times));
  fc.assert(
    fc.property(fc.array(run, { maxLength: 12 }), (runs) => {
      const long = runs.join("");
      return utf8Length(long) === encoded(long);
    }),
    { numRuns: 200 },
  );
});

Deno.test("utf8Head() keeps the longest prefix within the budget, never splitting a character", () => {
  fc.assert(
    fc.property(text, fc.nat({ max: 64 }), (s, budget) => {
      const head = utf8Head(s, budget);
      assert.ok(s.startsWith(head));
      assert.ok(encoded(head) <= budget);
      const rest = s.slice(head.length);
      if (rest !== "") {
        const next = String.fromCodePoint(rest.codePointAt(0)!);
        assert.ok(encoded(head + next) > budget, "the next character would not fit");
      }
      assert.ok(!/[\ud800-\udbff]$/.test(head) || !/^[\udc00-\udfff]/.test(rest), "pair split");
    }),
    { numRuns: 300 },
  );
});

Deno.test("utf8Tail() keeps the longest suffix within the budget, never splitting a character", () => {
  fc.assert(
    fc.property(text, fc.nat({ max: 64 }), (s, budget) => {
      const tail = utf8Tail(s, budget);
      assert.ok(s.endsWith(tail));
      assert.ok(encoded(tail) <= budget);
      const rest = s.slice(0, s.length - tail.length);
      assert.ok(!/[\ud800-\udbff]$/.test(rest) || !/^[\udc00-\udfff]/.test(tail), "pair split");
    }),
    { numRuns: 300 },
  );
});

Deno.test("cutBodyParts() keeps utf8Head()'s prefix and tells the bytes cut, for a body of more units than its budget", () => {
  fc.assert(
    fc.property(text, fc.nat({ max: 64 }), (s, budget) => {
      const { head, cutBytes } = cutBodyParts(s, budget);
      if (encoded(s) <= budget) {
        assert.deepEqual({ head, cutBytes }, { head: s, cutBytes: 0 });
      } else {
        assert.equal(head, utf8Head(s, budget));
        assert.equal(cutBytes, encoded(s) - encoded(head));
      }
      // The size of a head just cut is remembered: asked again, it is the same.
      assert.equal(utf8Length(head), encoded(head));
    }),
    { numRuns: 500 },
  );
});
