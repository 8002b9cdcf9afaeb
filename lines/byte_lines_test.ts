// Copyright 2026 the brigade authors. MIT license.

import assert from "node:assert/strict";
import fc from "fast-check";
import { type ByteLine, byteLineBatches, releaseLine } from "./byte_lines.ts";

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

/**
 * Cuts `bytes` at the given offsets into a stream of chunks; a byte stream
 * (as a file gives) when `byob`, which the splitter reads into its own buffer.
 */
function chunked(bytes: Uint8Array, cuts: number[], byob = false): ReadableStream<Uint8Array> {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let from = 0;
  for (const point of [...points, bytes.length]) {
    chunks.push(bytes.slice(from, point));
    from = point;
  }
  if (!byob) return ReadableStream.from(chunks);
  const left = chunks.filter((chunk) => chunk.length > 0); // a byte stream enqueues none empty
  return new ReadableStream({
    type: "bytes",
    pull(controller): void {
      const chunk = left.shift();
      if (chunk !== undefined) return controller.enqueue(chunk);
      controller.close();
      controller.byobRequest?.respond(0); // a BYOB read pending at the end ends
    },
  });
}

Deno.test("byteLineBatches() splits any chunking like a split of the whole input", async () => {
  // Bytes drawn from "a", "\n", a multi-byte lead and "\r", so lines are short and many.
  await fc.assert(
    fc.asyncProperty(
      fc.uint8Array({ maxLength: 120 }).map((a) => a.map((b) => [0x61, 0x0a, 0xe2, 0x0d][b % 4]!)),
      fc.array(fc.nat(), { maxLength: 12 }),
      fc.integer({ min: 1, max: 12 }),
      fc.boolean(),
      async (bytes, cuts, max, byob) => {
        const got: string[] = [];
        const stream = chunked(bytes, cuts, byob);
        for await (
          const batch of byteLineBatches(stream, { maxLineBytes: max, name: "t", byob })
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

Deno.test("byteLineBatches() gathers a line of megabytes over chunks whole, and frees it on release", async () => {
  // Past 1 MiB a gathered line moves to a buffer that grows in place.
  const line = new Uint8Array(3 * 1024 * 1024 + 7).map((_, i) => 0x61 + (i % 26));
  const input = new Uint8Array([...new TextEncoder().encode("ab\n"), ...line, 0x0a, 0x63]);
  const cuts = [1, 5, 4_000, 70_000, 1_048_570, 1_048_600, 2_500_000, input.length - 1];
  const cases: [number, boolean][] = [[line.length, false], [4 << 20, true], [2 ** 40, true]];
  for (const [maxLineBytes, byob] of cases) {
    const got: ByteLine[] = [];
    const stream = chunked(input, cuts, byob);
    for await (const batch of byteLineBatches(stream, { maxLineBytes, name: "t", byob })) {
      // A view of a chunk is valid until the next read: keep a copy of it.
      for (const one of batch) {
        got.push(
          one.copied || one.bytes === undefined
            ? one
            : { line: one.line, bytes: one.bytes.slice() },
        );
      }
    }
    assert.deepEqual(got.map((one) => [one.line, one.bytes?.length]), [
      [1, 2],
      [2, line.length],
      [3, 1],
    ]);
    const long = got[1]!;
    assert.ok(long.copied);
    assert.deepEqual(long.bytes, line);
    releaseLine(long);
    assert.equal(long.bytes!.length, 0, "released");
  }
  const over: string[] = [];
  const options = { maxLineBytes: line.length - 1, name: "t" };
  for await (const batch of byteLineBatches(chunked(input, cuts), options)) {
    over.push(...batch.map(describe));
  }
  assert.deepEqual(over, ["1:97,98", "2:over", "3:99"]);
});

/** Lines of 127 `a`s, for 64 KiB: a read of a power of two of bytes ends a line. */
const PATTERN = new Uint8Array(64 * 1024).map((_, i) => i % 128 === 127 ? 0x0a : 0x61);

/**
 * A byte stream of `total` bytes (lines of 127 `a`s) answering BYOB reads,
 * that records the size each read asks for, with how many of `streams` were
 * open (started and not ended) then.
 */
function recorded(
  total: number,
  streams: { open: number },
  reads: { size: number; open: number; first: boolean }[],
): ReadableStream<Uint8Array> {
  let left = total;
  let started = false;
  return new ReadableStream({
    type: "bytes",
    pull(controller): void {
      const request = controller.byobRequest!;
      const view = request.view!;
      if (!started) streams.open++;
      reads.push({ size: view.byteLength, open: streams.open, first: !started });
      started = true;
      if (left === 0) {
        streams.open--;
        controller.close();
        return request.respond(0);
      }
      const size = Math.min(left, view.byteLength);
      new Uint8Array(view.buffer, view.byteOffset, size).set(PATTERN.subarray(0, size));
      left -= size;
      request.respond(size);
    },
  });
}

/** Drains each stream through a BYOB split, all at once; the lines of each. */
function splitAll(streams: ReadableStream<Uint8Array>[]): Promise<number[]> {
  return Promise.all(streams.map(async (stream) => {
    let lines = 0;
    const options = { maxLineBytes: 200, name: "t", byob: true };
    for await (const batch of byteLineBatches(stream, options)) lines += batch.length;
    return lines;
  }));
}

Deno.test("byteLineBatches() reads a byte stream 64 KiB at a time, and 32 KiB while a hundred are read at once", async () => {
  const alone: { size: number; open: number; first: boolean }[] = [];
  assert.deepEqual(await splitAll([recorded(1 << 20, { open: 0 }, alone)]), [1 << 13]);
  assert.deepEqual([...new Set(alone.map((read) => read.size))], [64 * 1024]);

  // All the streams' buffers at once within 8 MiB (READ_BUFFERS_BUDGET): two each.
  const many = { open: 0 };
  const reads: { size: number; open: number; first: boolean }[] = [];
  const lines = await splitAll(Array.from({ length: 100 }, () => recorded(1 << 18, many, reads)));
  assert.deepEqual([...new Set(lines)], [1 << 11]);
  // A stream's first read is sized when it opens, before the others may have.
  const whileAllOpen = reads.filter((read) => read.open === 100 && !read.first);
  assert.ok(whileAllOpen.length > 100, `only ${whileAllOpen.length} reads with all open`);
  assert.deepEqual([...new Set(whileAllOpen.map((read) => read.size))], [32 * 1024]);

  // Once they are closed, a stream alone reads 64 KiB again.
  const after: { size: number; open: number; first: boolean }[] = [];
  await splitAll([recorded(1 << 20, { open: 0 }, after)]);
  assert.deepEqual([...new Set(after.map((read) => read.size))], [64 * 1024]);
});
