// Copyright 2026 the brigade authors. MIT license.

import assert from "node:assert/strict";
import {
  contentText,
  flattenBlocks,
  fromNdjson,
  type LogEntry,
  renderDream,
  renderGrader,
} from "../mod.ts";

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

/** A `search_result` nested `levels` deep, each level's text naming its depth. */
function nested(levels: number): unknown {
  let block: unknown = { type: "text", text: "bottom" };
  for (let depth = levels; depth >= 1; depth--) {
    block = {
      type: "search_result",
      title: `level ${depth}`,
      source: "https://example.org",
      content: [{ type: "text", text: `text ${depth}` }, block],
    };
  }
  return block;
}

Deno.test("flattenBlocks() summarises search results nested past 10 levels, however deep", async (t) => {
  const deep = nested(100_000);
  await t.step("100,000 levels: no stack overflow, the first 10 shown, then one note", () => {
    const { text, found } = flattenBlocks([deep]);
    assert.ok(found);
    const lines = text.split("\n");
    assert.deepEqual(lines.slice(0, 4), ["level 1", "https://example.org", "text 1", "level 2"]);
    assert.ok(text.includes("text 10\n"));
    assert.ok(!text.includes("level 11"));
    assert.equal(lines.at(-1), "[… nested 99,990 levels deeper not shown]");
    assert.equal(contentText([deep]), text);
  });

  await t.step("exactly 10 levels are shown whole; 11 give a note of 1 level", () => {
    assert.ok(flattenBlocks([nested(10)]).text.endsWith("text 10\nbottom"));
    assert.ok(
      flattenBlocks([nested(11)]).text.endsWith("text 10\n[… nested 1 level deeper not shown]"),
    );
  });

  await t.step("the same from a parsed NDJSON line through the grader and the dream", async () => {
    const event = { id: "sevt_1", type: "user.message", content: [deep] };
    const line = JSON.stringify(event);
    const source = (): AsyncIterable<LogEntry> =>
      fromNdjson(ReadableStream.from([new TextEncoder().encode(line)]));
    assert.ok((await renderGrader(source())).includes("[… nested 99,990 levels deeper not shown]"));
    assert.ok((await renderDream(source())).text.includes("nested 99,990 levels deeper"));
  });

  await t.step("a cycle built in memory ends", () => {
    const loop: Record<string, unknown> = { type: "search_result", title: "loop", content: [] };
    (loop.content as unknown[]).push(loop);
    assert.match(flattenBlocks([loop]).text, /\[… nested 1 level deeper not shown\]$/);
  });
});
