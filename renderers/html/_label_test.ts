// Copyright 2026 the brigade authors. MIT license.

import assert from "node:assert/strict";
import { visibleLabel } from "./_label.ts";

Deno.test("visibleLabel() keeps plain labels as they are", () => {
  for (const label of ["user", "agent → tool Bash", "@researcher → agent", "tool Read → agent"]) {
    assert.equal(visibleLabel(label), label);
  }
  // Letters of other scripts in a name that reads as no speaker's word stay as written.
  assert.equal(visibleLabel("@Ärzte → agent"), "@Ärzte → agent");
  assert.equal(visibleLabel("agent → tool поиск"), "agent → tool поиск");
});

Deno.test("visibleLabel() shows zero-width characters, bidi controls and line breaks as escapes", () => {
  assert.equal(visibleLabel("@us\u200Ber → agent"), "@us\\u200ber → agent");
  assert.equal(visibleLabel("agent → tool x\u2060y\uFEFF"), "agent → tool x\\u2060y\\ufeff");
  assert.equal(visibleLabel("@a\u202Eresu → agent"), "@a\\u202eresu → agent");
  assert.equal(visibleLabel("@a\nuser"), "@a\\nuser");
  assert.equal(visibleLabel("tool \u{E0075}x"), "tool \\u{e0075}x");
});

Deno.test("visibleLabel() marks a look-alike of a speaker's word, letter by letter", () => {
  // Cyrillic ѕ, Greek ο, full-width letters, a combining mark.
  assert.equal(visibleLabel("agent → tool uѕer"), "agent → tool u\\u0455er");
  assert.equal(visibleLabel("@systеm → agent"), "@syst\\u0435m → agent");
  assert.equal(visibleLabel("@аgеnt"), "@\\u0430g\\u0435nt");
  assert.equal(visibleLabel("tool ｕｓｅｒ"), "tool \\uff55\\uff53\\uff45\\uff52");
  assert.equal(visibleLabel("@ùser"), "@\\u00f9ser");
  for (const label of ["uѕer", "ΑGΕΝΤ", "ѕуѕtеm"]) {
    assert.match(visibleLabel(label), /^[\x20-\x7e]*$/, label);
  }
});
