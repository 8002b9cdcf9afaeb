// Copyright 2026 the brigade authors. MIT license.

import assert from "node:assert/strict";
import { keyValueText } from "./_tools.ts";

const settings = { redact: true, itemBudget: 8_000 };

Deno.test("keyValueText() writes an input as keys and values, line breaks real, nested indented", () => {
  const { text, cutBytes } = keyValueText({
    command: "select *\nfrom t",
    limit: 5,
    flags: ["-n", { deep: true }],
    none: [],
    empty: {},
    nothing: null,
  }, settings);
  assert.equal(
    text,
    "command:\n  select *\n  from t\nlimit: 5\nflags:\n  - -n\n  -\n    deep: true\nnone: (none)\nempty: (empty)\nnothing: null",
  );
  assert.equal(cutBytes, 0);
  assert.doesNotMatch(text, /\\n|[{}]/);
});

Deno.test("keyValueText() redacts each value and the assignments it writes, controls visible, within the budget", () => {
  const secret = "sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789";
  const shown = keyValueText(
    { key: secret, password: "hunter2-and-more", bell: "a\u0007\u202e" },
    settings,
  );
  assert.doesNotMatch(shown.text, /abcdefghijklmnopqrstuvwxyz|hunter2/);
  assert.match(shown.text, /\[REDACTED_SECRET\]/);
  assert.match(shown.text, /bell: a\\x07\\u202e/);
  const big = keyValueText({ text: "x".repeat(50_000) }, { redact: false, itemBudget: 1_000 });
  assert.ok(new TextEncoder().encode(big.text).length <= 1_000);
  assert.equal(big.cutBytes, 50_000 + "text: ".length - new TextEncoder().encode(big.text).length);
});
