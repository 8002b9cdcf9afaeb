// Copyright 2026 the brigade authors. MIT license.

import assert from "node:assert/strict";
import { contentText, flattenBlocks } from "../mod.ts";

Deno.test("contentText() accepts a string, a block array, a single block, or nothing", () => {
  assert.equal(contentText("plain"), "plain");
  assert.equal(contentText([{ type: "text", text: "a" }, { type: "text", text: "b" }]), "a\nb");
  assert.equal(contentText({ type: "text", text: "solo" }), "solo");
  assert.equal(contentText(undefined), "");
  assert.equal(contentText(null), "");
  assert.equal(contentText(12), "12");
});

Deno.test("flattenBlocks() keeps a search result's title, source and nested text", () => {
  const { text, found } = flattenBlocks([
    { type: "text", text: "Results:" },
    {
      type: "search_result",
      source: "https://example.org/a",
      title: "A",
      content: [{ type: "text", text: "first" }, { type: "text", text: "second" }],
    },
  ]);
  assert.ok(found);
  assert.equal(text, "Results:\nA\nhttps://example.org/a\nfirst\nsecond");
});

Deno.test("flattenBlocks() gives placeholders for images, documents, redactions and unknown blocks", () => {
  const { text } = flattenBlocks([
    { type: "image", source: { type: "base64", data: "AAAA", media_type: "image/png" } },
    { type: "image", source: { type: "url", url: "https://x/y.png" } },
    { type: "document", source: { type: "file", file_id: "file_1" }, title: "Spec" },
    { type: "document", source: { type: "text", data: "inline text", media_type: "text/plain" } },
    { type: "redacted" },
    { type: "future_block", text: "has text" },
    { type: "future_block" },
  ]);
  assert.equal(
    text,
    "[image]\n[image: https://x/y.png]\n[document: Spec]\ninline text\n[redacted]\nhas text\n[future_block]",
  );
});

Deno.test("flattenBlocks() reports when nothing was found", () => {
  assert.deepEqual(flattenBlocks([]), { text: "", found: false });
  assert.deepEqual(flattenBlocks([{ type: "text", text: "" }, null, 3]), {
    text: "",
    found: false,
  });
});
