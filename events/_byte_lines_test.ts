// Copyright 2026 the brigade authors. MIT license.

import assert from "node:assert/strict";
import fc from "fast-check";
import { type ByteLine, byteLineBatches } from "./_byte_lines.ts";

/** What the splitter should give, from the whole input at once. */
function naive(bytes: Uint8Array, max: number): string[] {
  const out: string[] = [];
  let start = 0;
  let line = 0;
  while (start < bytes.length) {
    let end = bytes.indexOf(0x0a, start);
    const last = end === -1;
    if (last) end = bytes.length;
    line++;
    out.push(
      end - start > max ? `${line}:over` : `${line}:${bytes.subarray(start, end).join(",")}`,
    );
    start = end + 1;
  }
  return out;
}

function describe(line: ByteLine): string {
  return line.bytes === undefined ? `${line.line}:over` : `${line.line}:${line.bytes.join(",")}`;
}

/** Cuts `bytes` at the given offsets into a stream of chunks. */
function chunked(bytes: Uint8Array, cuts: number[]): ReadableStream<Uint8Array> {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let from = 0;
  for (const point of [...points, bytes.length]) {
    chunks.push(bytes.slice(from, point));
    from = point;
  }
  return ReadableStream.from(chunks);
}

Deno.test("byteLineBatches() splits any chunking like a split of the whole input", async () => {
  // Bytes drawn from "a", "\n", a multi-byte lead and "\r", so lines are short and many.
  await fc.assert(
    fc.asyncProperty(
      fc.uint8Array({ maxLength: 120 }).map((a) => a.map((b) => [0x61, 0x0a, 0xe2, 0x0d][b % 4]!)),
      fc.array(fc.nat(), { maxLength: 12 }),
      fc.integer({ min: 1, max: 12 }),
      async (bytes, cuts, max) => {
        const got: string[] = [];
        for await (
          const batch of byteLineBatches(chunked(bytes, cuts), { maxLineBytes: max, name: "t" })
        ) {
          // Views are valid until the next read: describe them now.
          got.push(...batch.map(describe));
        }
        assert.deepEqual(got, naive(bytes, max));
      },
    ),
    { numRuns: 300 },
  );
});

Deno.test("byteLineBatches() reports a line over the cap once, as soon as it passes it", async () => {
  let pulled = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller): void {
      pulled++;
      controller.enqueue(new Uint8Array(10).fill(0x61)); // never a newline
    },
  });
  for await (const batch of byteLineBatches(stream, { maxLineBytes: 25, name: "t" })) {
    assert.deepEqual(batch, [{ line: 1, overCap: true }]);
    break;
  }
  assert.ok(pulled <= 4, `pulled ${pulled} chunks`);
});
