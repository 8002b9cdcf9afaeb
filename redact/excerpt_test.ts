// Copyright 2026 the brigade authors. MIT license.

import assert from "node:assert/strict";
import { excerpt, visibleControls } from "./excerpt.ts";

Deno.test("visibleControls() escapes C0, DEL, C1 and bidi controls, keeps newline and tab", () => {
  assert.equal(
    visibleControls("a\x1b]0;pwned\x07b\x7f\x9b\u202egnp.exe\tc\nd"),
    "a\\x1b]0;pwned\\x07b\\x7f\\x9b\\u202egnp.exe\tc\nd",
  );
  assert.equal(visibleControls("plain — text ✓"), "plain — text ✓");
});

Deno.test("visibleControls() with oneLine escapes line breaks and tabs too", () => {
  assert.equal(
    visibleControls("a\nb\r\tc\u2028d", { oneLine: true }),
    "a\\nb\\r\\tc\\u2028d",
  );
});

Deno.test("excerpt() redacts before it cuts, so no part of a secret is quoted", () => {
  const key = "sk-proj-Q7xv2LmN9pR4sT8wZ1bC5dF3";
  const quoted = excerpt(`${"x".repeat(50)} ${key}`, { maxCodePoints: 60 });
  assert.ok(!quoted.includes("sk-p"), quoted);
  assert.equal(excerpt("password=hunter2abc"), "password=[REDACTED_SECRET]");
});

Deno.test("excerpt() cuts at a code point, says so, and puts the text on one line", () => {
  assert.equal(excerpt("😀".repeat(70), { maxCodePoints: 3 }), "😀😀😀…");
  assert.equal(excerpt("two\nlines\x1b[2J"), "two\\nlines\\x1b[2J");
});

Deno.test("excerpt() of a huge text reads a bounded window and still redacts at its edge", () => {
  const secret = `token=${"A1b2".repeat(2_000)}`; // straddles the 4 KiB window
  const quoted = excerpt(`${"y".repeat(4_090)}${secret}`, { maxCodePoints: 5_000 });
  assert.ok(!quoted.includes("A1b2A1b2"), quoted.slice(-80));
  assert.ok(quoted.endsWith("…"));
});
