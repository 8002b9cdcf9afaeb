// Copyright 2026 the brigade authors. MIT license.

import assert from "node:assert/strict";
import { EventSourceError, fromClaudeCode, fromNdjson, MAX_LINE_BYTES } from "../mod.ts";
import { MAX_LINE_BYTES as READER_MAX_LINE_BYTES } from "../reader/mod.ts";

const encoder = new TextEncoder();
const EVENT = '{"id":"sevt_1","type":"user.message","content":"hi"}';
const RECORD = '{"type":"user","uuid":"u1","message":{"content":"hi"}}';

/** A stream of `count` chunks of "x", counting the bytes it hands out. */
function endlessLine(count: number): { stream: ReadableStream<Uint8Array>; pulled: () => number } {
  const chunk = new Uint8Array(1024).fill(0x78);
  let pulled = 0;
  let left = count;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller): void {
      if (left-- === 0) {
        controller.close();
        return;
      }
      pulled += chunk.length;
      controller.enqueue(chunk);
    },
  });
  return { stream, pulled: () => pulled };
}

function stream(...parts: string[]): ReadableStream<Uint8Array> {
  return ReadableStream.from(parts.map((p) => encoder.encode(p)));
}

Deno.test("MAX_LINE_BYTES is one number, 64 MiB, for the sources and the reader", () => {
  assert.equal(MAX_LINE_BYTES, 64 << 20);
  assert.equal(READER_MAX_LINE_BYTES, MAX_LINE_BYTES);
});

Deno.test("fromNdjson() fails on a line over maxLineBytes as soon as it passes the cap", async (t) => {
  await t.step("the error names the input and line, and reading stops there", async () => {
    const { stream: line, pulled } = endlessLine(1_000_000); // 1 GB, never a newline
    const input = ReadableStream.from((async function* (): AsyncGenerator<Uint8Array> {
      yield encoder.encode(`${EVENT}\n`);
      yield* line;
    })());
    await assert.rejects(
      Array.fromAsync(fromNdjson(input, { name: "big.ndjson", maxLineBytes: 10_000 })),
      (error: unknown) => {
        assert.ok(error instanceof EventSourceError);
        assert.equal(error.message, "big.ndjson:2: the line is over the 10000-byte cap");
        assert.equal(error.code, "line_too_long");
        assert.equal(error.line, 2);
        return true;
      },
    );
    assert.ok(pulled() <= 10_000 + 2 * 1024, `read ${pulled()} bytes`);
  });

  await t.step("a line of exactly maxLineBytes is read", async () => {
    const entries = await Array.fromAsync(
      fromNdjson(stream(`${EVENT}\n`), { maxLineBytes: EVENT.length }),
    );
    assert.equal(entries.length, 1);
  });

  await t.step("a path names its file", async () => {
    const path = await Deno.makeTempFile({ suffix: ".ndjson" });
    try {
      await Deno.writeTextFile(path, `${EVENT}\n${EVENT}\n{"x":"${"y".repeat(5000)}"}\n`);
      await assert.rejects(
        Array.fromAsync(fromNdjson(path, { maxLineBytes: 1000 })),
        (error: unknown) =>
          error instanceof EventSourceError &&
          error.code === "line_too_long" &&
          error.message === `${path}:3: the line is over the 1000-byte cap`,
      );
    } finally {
      await Deno.remove(path);
    }
  });

  await t.step("a cap that is not a positive integer is a RangeError", async () => {
    for (const bad of [0, -1, 1.5, Number.NaN]) {
      await assert.rejects(fromNdjson(stream(EVENT), { maxLineBytes: bad }).next(), RangeError);
    }
  });
});

Deno.test("fromNdjson() with skipInvalid reports a line over the cap and reads on", async () => {
  const long = `{"id":"x","type":"user.message","content":"${"y".repeat(50_000)}"}`;
  const invalid: [number, string][] = [];
  const pieces = [EVENT, "\n", long.slice(0, 20_000), long.slice(20_000), "\r\n", EVENT, "\n"];
  const entries = await Array.fromAsync(
    fromNdjson(stream(...pieces), {
      maxLineBytes: 1000,
      skipInvalid: true,
      onInvalid: (line, reason) => invalid.push([line, reason]),
    }),
  );
  assert.deepEqual(entries.map((e) => e.seq), [1, 3]);
  assert.deepEqual(invalid, [[2, "the line is over the 1000-byte cap"]]);
});

Deno.test("fromClaudeCode() reports a line over the cap with its number and reads on", async () => {
  const long = `{"type":"user","uuid":"x","message":{"content":"${"y".repeat(50_000)}"}}`;
  const invalid: [number, string][] = [];
  const entries = await Array.fromAsync(
    fromClaudeCode(stream(RECORD, "\n", long, "\n", RECORD), {
      maxLineBytes: 1000,
      onInvalid: (line, reason) => invalid.push([line, reason]),
    }),
  );
  assert.deepEqual(entries.map((e) => e.event.id), ["u1", "u1"]);
  assert.deepEqual(invalid, [[2, "the line is over the 1000-byte cap"]]);
});

Deno.test("a read that fails is an EventSourceError naming the input", async () => {
  const failing = new ReadableStream<Uint8Array>({
    pull(controller): void {
      controller.error(new Error("disk on fire"));
    },
  });
  await assert.rejects(
    Array.fromAsync(fromNdjson(failing, { name: "log.ndjson" })),
    (error: unknown) =>
      error instanceof EventSourceError &&
      error.code === "unreadable" &&
      /^log\.ndjson: Cannot read the input/.test(error.message),
  );
});

/**
 * Runs tests/_long_line_child.ts with a 32 MB heap on a line of 400 MiB
 * (12.5x the heap): a source that held the line, as a string or as bytes,
 * could not finish or would show it in its peak memory.
 */
async function runChild(which: "ndjson" | "claude"): Promise<Record<string, unknown>> {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-read=/proc/self/status",
      "--v8-flags=--max-old-space-size=32",
      new URL("./_long_line_child.ts", import.meta.url).pathname,
      which,
      "400",
    ],
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  });
  const { code, stdout, stderr } = await child.output();
  assert.equal(code, 0, new TextDecoder().decode(stderr).slice(-2000));
  return JSON.parse(new TextDecoder().decode(stdout));
}

Deno.test("a 400 MiB line goes through a 32 MB heap: never held, reported, the next line read", async (t) => {
  await t.step("fromNdjson", async () => {
    const result = await runChild("ndjson");
    assert.deepEqual(result.ids, ["2 sevt_2"]);
    assert.deepEqual(result.invalid, [`1: the line is over the ${MAX_LINE_BYTES}-byte cap`]);
    assert.ok((result.peakMiB as number) < 200, `peak ${result.peakMiB} MiB`);
  });
  await t.step("fromClaudeCode", async () => {
    const result = await runChild("claude");
    assert.deepEqual(result.ids, ["1 u2"]);
    assert.deepEqual(result.invalid, [`1: the line is over the ${MAX_LINE_BYTES}-byte cap`]);
    assert.ok((result.peakMiB as number) < 200, `peak ${result.peakMiB} MiB`);
  });
});
