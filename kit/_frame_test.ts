// Copyright 2026 the brigade authors. MIT license.

import assert from "node:assert/strict";
import { frameBody, frameBodySize } from "./_frame.ts";
import { utf8Length } from "./utf8.ts";
import { makeRandom } from "../tests/_random.ts";

Deno.test("frameBodySize() counts exactly what frameBody() writes and cuts, for every line break and budget", () => {
  const random = makeRandom(22);
  const asciiParts = ["a", "word ", "\n", "\n\n", "$&", "  ", "x".repeat(30)];
  const parts = [
    "a",
    "word ",
    "é",
    "日本",
    "🚀",
    "\n",
    "\n\n",
    "\r",
    "\r\n",
    "\v",
    "\f",
    "\x85",
    "\u2028",
    "\u2029",
    "\ud800",
    "\udc00",
    "$&",
    "  ",
  ];
  for (let round = 0; round < 3_000; round++) {
    let body = "";
    const pieces = Math.floor(random() * 40);
    // Every other body is ASCII broken by LF alone, which is counted another way.
    const from = round % 2 === 0 ? parts : asciiParts;
    for (let i = 0; i < pieces; i++) body += from[Math.floor(random() * from.length)];
    const budget = Math.floor(random() * 3 * (utf8Length(body) + 8));
    for (const indent of ["  ", "    "]) {
      const framed = frameBody(body, indent, budget);
      assert.deepEqual(
        frameBodySize(body, indent, budget),
        { bytes: utf8Length(framed.text), cutBytes: framed.cutBytes },
        JSON.stringify({ body, indent, budget }),
      );
    }
  }
});

Deno.test("frameBodySize() counts exactly what frameBody() writes and cuts for a non-ASCII body broken by LF alone", () => {
  const random = makeRandom(23);
  const parts = ["a", "word ", "é", "日本", "🚀", "\n", "\n\n", "\ud800", "\udc00", "  "];
  for (let round = 0; round < 3_000; round++) {
    let body = "é";
    const pieces = Math.floor(random() * 40);
    for (let i = 0; i < pieces; i++) body += parts[Math.floor(random() * parts.length)];
    const budget = Math.floor(random() * 2 * (utf8Length(body) + 8));
    for (const indent of ["  ", "    ", "→ "]) {
      const framed = frameBody(body, indent, budget);
      assert.deepEqual(
        frameBodySize(body, indent, budget),
        { bytes: utf8Length(framed.text), cutBytes: framed.cutBytes },
        JSON.stringify({ body, indent, budget }),
      );
    }
  }
});

Deno.test("frameBodySize() counts exactly what frameBody() writes and cuts for a head its indents push over the budget", () => {
  // The dream's case: an item's text cut to the item budget, then framed: the indents push it
  // over by a few lines, and the cut falls near its end (or, with many short lines, earlier).
  const random = makeRandom(24);
  const parts = [
    "a",
    "word ",
    "é",
    "日本",
    "🚀",
    "\n",
    "\n\n",
    "\ud800",
    "\udc00",
    "  ",
    "x".repeat(40),
  ];
  for (let round = 0; round < 2_000; round++) {
    let body = "é";
    const pieces = 1 + Math.floor(random() * 120);
    for (let i = 0; i < pieces; i++) body += parts[Math.floor(random() * parts.length)];
    const size = utf8Length(body);
    for (const budget of [size, size - 1, size - 7, Math.floor(size * 0.6), Math.floor(size / 2)]) {
      if (budget < 0) continue;
      for (const indent of ["    ", "→ "]) {
        const framed = frameBody(body, indent, budget);
        assert.deepEqual(
          frameBodySize(body, indent, budget),
          { bytes: utf8Length(framed.text), cutBytes: framed.cutBytes },
          JSON.stringify({ body, indent, budget }),
        );
      }
    }
  }
});
