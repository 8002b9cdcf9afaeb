// Copyright 2026 the brigade authors. MIT license.

import assert from "node:assert/strict";
import { isAscii, knownAscii, rememberAscii } from "./_ascii.ts";
import { frameBody, frameBodySize } from "./_frame.ts";
import { utf8Length } from "./utf8.ts";
import { makeRandom } from "../tests/_random.ts";

Deno.test("isAscii() remembers the last ASCII text of a few pages, and only that one", () => {
  const page = "a line of ASCII text\n".repeat(20);
  assert.ok(isAscii(page));
  assert.ok(knownAscii(page));
  // An equal text is the same text; another one, or one that is not ASCII, is not known.
  assert.ok(knownAscii(page.slice(0, -1) + "\n"));
  assert.ok(!knownAscii(page.replace("a", "b")));
  assert.ok(!isAscii(`${page}é`));
  assert.ok(knownAscii(page), "a text found not ASCII leaves the last ASCII one remembered");
  // Too short to be worth remembering, or too long to keep alive.
  assert.ok(isAscii("short"));
  assert.ok(!knownAscii("short"));
  const huge = "x".repeat(8193);
  assert.ok(isAscii(huge));
  assert.ok(!knownAscii(huge));
  const head = "y".repeat(300);
  rememberAscii(head);
  assert.ok(knownAscii(head));
  assert.ok(!knownAscii(page), "one text is remembered at a time");
});

Deno.test("frameBodySize() of a body known ASCII still finds every line break but LF", () => {
  const random = makeRandom(28);
  const parts = ["word ", "x".repeat(40), "\n", "\n\n", "\r", "\r\n", "\v", "\f", "$&", "  "];
  for (let round = 0; round < 1_000; round++) {
    let body = "x".repeat(256);
    const pieces = Math.floor(random() * 60);
    for (let i = 0; i < pieces; i++) body += parts[Math.floor(random() * parts.length)];
    const budget = Math.floor(random() * 2 * (utf8Length(body) + 8));
    for (const indent of ["  ", "    "]) {
      assert.ok(isAscii(body));
      assert.ok(knownAscii(body));
      const framed = frameBody(body, indent, budget);
      assert.deepEqual(
        frameBodySize(body, indent, budget),
        { bytes: utf8Length(framed.text), cutBytes: framed.cutBytes },
        JSON.stringify({ body, indent, budget }),
      );
    }
  }
});
