// Copyright 2026 the brigade authors. MIT license.

import assert from "node:assert/strict";
import fc from "fast-check";
import { BatchSummary, type Classified, classifyRecord, FactsState } from "./_facts.ts";

Deno.test("classifyRecord() reads assistant records and model attachments", async (t) => {
  await t.step("an assistant record: bare id and usage sum", () => {
    assert.deepEqual(
      classifyRecord({
        type: "assistant",
        message: {
          model: "m",
          usage: { input_tokens: 1, cache_creation_input_tokens: 2, cache_read_input_tokens: 3 },
        },
      }),
      { kind: "assistant", model: "m", usage: 6 },
    );
  });
  await t.step("a model attachment: the full id", () => {
    assert.deepEqual(
      classifyRecord({
        type: "attachment",
        attachment: { type: "model", identity: { modelId: "m[1m]" } },
      }),
      { kind: "attachment", modelId: "m[1m]" },
    );
  });
  await t.step("a negative count voids the usage only; -0 is 0", () => {
    assert.deepEqual(
      classifyRecord({ type: "assistant", message: { model: "m", usage: { input_tokens: -2 } } }),
      { kind: "assistant", model: "m", usage: null },
    );
    const zero = classifyRecord({ type: "assistant", message: { usage: { input_tokens: -0 } } });
    assert.ok(zero?.kind === "assistant" && Object.is(zero.usage, 0));
  });
  await t.step("records that say nothing", () => {
    for (
      const value of [
        null,
        "assistant",
        [{ type: "assistant" }],
        { type: "user", message: { model: "m" } },
        { type: "assistant" },
        { type: "assistant", message: { model: "<synthetic>", usage: {} } },
        { type: "assistant", isSidechain: true, message: { model: "m" } },
        { type: "assistant", isSidechain: 1, message: { model: "m" } },
        { type: "assistant", message: { model: "m", usage: { input_tokens: 0.5 } } },
        { type: "assistant", message: { model: "m", usage: { cache_read_input_tokens: "1" } } },
        { type: "assistant", message: { model: "m", usage: 5 } },
        { type: "assistant", message: { model: ["m"] } },
        { type: "attachment", attachment: { type: "model", identity: { modelId: "" } } },
        { type: "attachment", attachment: { type: "file", identity: { modelId: "m" } } },
        { type: "attachment", attachment: { type: "model" } },
      ]
    ) {
      assert.equal(classifyRecord(value), null, JSON.stringify(value));
    }
  });
  await t.step("a compaction: compact_boundary and microcompact_boundary, not a sidechain", () => {
    for (const subtype of ["compact_boundary", "microcompact_boundary"]) {
      assert.deepEqual(classifyRecord({ type: "system", subtype }), { kind: "compaction" });
      assert.equal(classifyRecord({ type: "system", subtype, isSidechain: true }), null);
      assert.equal(classifyRecord({ type: "system", subtype, isSidechain: "no" }), null);
    }
    assert.equal(classifyRecord({ type: "system", subtype: "turn_duration" }), null);
    assert.equal(classifyRecord({ type: "user", subtype: "compact_boundary" }), null);
  });
  await t.step("lone surrogates become U+FFFD in the ids kept", () => {
    assert.deepEqual(classifyRecord({ type: "assistant", message: { model: "a\udc00b" } }), {
      kind: "assistant",
      model: "a\ufffdb",
      usage: null,
    });
  });
});

/** The rules stated forwards, one record at a time. */
function forward(records: (Classified | null)[]): ReturnType<FactsState["facts"]> {
  let attachment: string | null = null;
  let since: string | null = null;
  let bare: string | null = null;
  let context = 0;
  let hasContext = false;
  let compacted = false;
  for (const record of records) {
    if (record === null) continue;
    if (record.kind === "compaction") {
      compacted = true;
      continue;
    }
    if (record.kind === "attachment") {
      attachment = record.modelId;
      since = null;
      continue;
    }
    if (record.model !== null) bare = since = record.model;
    if (record.usage !== null) {
      context = record.usage;
      hasContext = true;
      compacted = false;
    }
  }
  const model = attachment === null
    ? bare ?? ""
    : since !== null && !attachment.startsWith(since)
    ? since
    : attachment;
  return { model, contextUsedTokens: context, hasContext, compactedSinceUsage: compacted };
}

const classified: fc.Arbitrary<Classified | null> = fc.oneof(
  fc.constant(null),
  fc.record({
    kind: fc.constant("attachment" as const),
    modelId: fc.constantFrom("opus-5[1m]", "sonnet-5[1m]", "haiku-5"),
  }),
  fc.record({
    kind: fc.constant("assistant" as const),
    model: fc.constantFrom(null, "opus-5", "sonnet-5", "haiku-5", "opus"),
    usage: fc.constantFrom(null, 0, 1, 2, 3),
  }),
  fc.constant({ kind: "compaction" as const }),
);

Deno.test("BatchSummary and FactsState: any split into backward batches equals a forward read", () => {
  fc.assert(
    fc.property(
      fc.array(classified, { maxLength: 40 }),
      fc.array(fc.nat(40)),
      (records, splits) => {
        const bounds = [
          ...new Set([0, ...splits.filter((s) => s < records.length), records.length]),
        ]
          .sort((a, b) => a - b);
        const state = new FactsState();
        const summary = new BatchSummary();
        for (let b = 0; b + 1 < bounds.length; b++) {
          summary.clear();
          for (let i = bounds[b + 1]! - 1; i >= bounds[b]!; i--) {
            summary.offer(records[i]!);
            if (summary.done) break;
          }
          state.merge(summary);
        }
        assert.deepEqual(state.facts(), forward(records));
      },
    ),
    { numRuns: 1000 },
  );
});

Deno.test("FactsState.reset() forgets everything", () => {
  const state = new FactsState();
  const summary = new BatchSummary();
  summary.offer({ kind: "assistant", model: "m", usage: 5 });
  state.merge(summary);
  assert.deepEqual(state.facts(), {
    model: "m",
    contextUsedTokens: 5,
    hasContext: true,
    compactedSinceUsage: false,
  });
  state.reset();
  assert.deepEqual(state.facts(), {
    model: "",
    contextUsedTokens: 0,
    hasContext: false,
    compactedSinceUsage: false,
  });
});
