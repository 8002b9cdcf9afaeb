// Copyright 2026 the brigade authors. MIT license.

import assert from "node:assert/strict";
import { FactsState } from "./_facts.ts";
import { isLent, lendBuffer, returnBuffer } from "./_pair_search.ts";
import { LineScanner, type ReadAt } from "./_scanner.ts";

const encoder = new TextEncoder();

/** An in-memory file that grows, counting the bytes read from it. */
class GrowingFile implements ReadAt {
  bytes = new Uint8Array(0);
  bytesRead = 0;
  largestRead = 0;

  append(text: string): void {
    const more = encoder.encode(text);
    const next = new Uint8Array(this.bytes.length + more.length);
    next.set(this.bytes);
    next.set(more, this.bytes.length);
    this.bytes = next;
  }

  readAt(into: Uint8Array, position: number): Promise<number> {
    const chunk = this.bytes.subarray(position, position + into.length);
    into.set(chunk);
    this.bytesRead += chunk.length;
    this.largestRead = Math.max(this.largestRead, into.length);
    return Promise.resolve(chunk.length);
  }
}

function turn(model: string, input: number, pad = ""): string {
  return JSON.stringify({
    type: "assistant",
    message: { model, usage: { input_tokens: input } },
    pad,
  }) +
    "\n";
}

Deno.test("LineScanner reads each byte once while a line over the cap grows", async () => {
  const file = new GrowingFile();
  const scanner = new LineScanner(1_000, 256);
  const state = new FactsState();
  file.append(turn("a", 1));
  await scanner.scan(file, file.bytes.length, state);
  const runaway = turn("runaway", 9, "x".repeat(50_000));
  for (let at = 0; at < runaway.length - 1; at += 3_000) {
    file.append(runaway.slice(at, Math.min(at + 3_000, runaway.length - 1)));
    await scanner.scan(file, file.bytes.length, state);
    assert.equal(file.bytesRead, file.bytes.length, "nothing is read twice");
    assert.equal(scanner.offset, turn("a", 1).length, "the offset waits at the long line");
  }
  file.append("\n" + turn("b", 2));
  await scanner.scan(file, file.bytes.length, state);
  assert.equal(file.bytesRead, file.bytes.length);
  assert.equal(file.largestRead, 256, "every read goes into the one buffer");
  assert.equal(scanner.offset, file.bytes.length);
  assert.deepEqual(state.facts(), {
    model: "b",
    contextUsedTokens: 2,
    hasContext: true,
    compactedSinceUsage: false,
  });
});

Deno.test("LineScanner reads a long line again only when it may matter", async (t) => {
  await t.step("a long line that is no candidate is read once", async () => {
    const file = new GrowingFile();
    const scanner = new LineScanner(1 << 20, 256);
    const state = new FactsState();
    file.append(
      JSON.stringify({ type: "user", content: "y".repeat(10_000) }) + "\n" + turn("a", 1),
    );
    await scanner.scan(file, file.bytes.length, state);
    assert.equal(file.bytesRead, file.bytes.length);
    assert.deepEqual(state.facts(), {
      model: "a",
      contextUsedTokens: 1,
      hasContext: true,
      compactedSinceUsage: false,
    });
  });
  await t.step("a long candidate line is read once more, alone", async () => {
    const file = new GrowingFile();
    const scanner = new LineScanner(1 << 20, 256);
    const state = new FactsState();
    const long = turn("long", 3, "z".repeat(10_000));
    file.append(long);
    await scanner.scan(file, file.bytes.length, state);
    assert.equal(file.bytesRead, file.bytes.length + long.length - 1);
    assert.deepEqual(state.facts(), {
      model: "long",
      contextUsedTokens: 3,
      hasContext: true,
      compactedSinceUsage: false,
    });
  });
});

Deno.test("LineScanner re-reads an unterminated short line, never a consumed one", async () => {
  const file = new GrowingFile();
  const scanner = new LineScanner(1 << 20, 1 << 16);
  const state = new FactsState();
  const first = turn("a", 1);
  const second = turn("b", 2);
  file.append(first + second.slice(0, 10));
  await scanner.scan(file, file.bytes.length, state);
  assert.equal(scanner.offset, first.length);
  file.append(second.slice(10));
  const before = file.bytesRead;
  await scanner.scan(file, file.bytes.length, state);
  assert.equal(file.bytesRead - before, second.length, "only the pending line is read again");
  assert.deepEqual(state.facts(), {
    model: "b",
    contextUsedTokens: 2,
    hasContext: true,
    compactedSinceUsage: false,
  });
});

Deno.test("LineScanner never reads a newline left in a reused buffer by another scan", async (t) => {
  // Both ways of searching: UTF-8 text, and Latin-1 strings of the whole buffer (0: every scan).
  for (const latin1Bytes of [undefined, 0]) {
    await t.step(latin1Bytes === 0 ? "Latin-1 strings" : "UTF-8 text", async () => {
      const lines = new GrowingFile();
      const long = new GrowingFile();
      const a = new LineScanner(100, 256, latin1Bytes);
      const b = new LineScanner(100, 256, latin1Bytes);
      const state = new FactsState();
      long.append(turn("a", 1) + "y".repeat(300)); // a line over the cap, still growing
      await b.scan(long, long.bytes.length, state);
      lines.append("x\n".repeat(1_000)); // fills the shared buffer with newlines
      await a.scan(lines, lines.bytes.length, new FactsState());
      long.append("y".repeat(10));
      await b.scan(long, long.bytes.length, state);
      assert.equal(b.offset, turn("a", 1).length, "still at the start of the long line");
      long.append("\n" + turn("b", 2));
      await b.scan(long, long.bytes.length, state);
      assert.equal(b.offset, long.bytes.length);
      assert.deepEqual(state.facts(), {
        model: "b",
        contextUsedTokens: 2,
        hasContext: true,
        compactedSinceUsage: false,
      });
    });
  }
});

/** A {@linkcode GrowingFile} whose reads settle a few microtasks later, as a real one's do. */
class SlowFile extends GrowingFile {
  inFlight = 0;
  mostInFlight = 0;

  override async readAt(into: Uint8Array, position: number): Promise<number> {
    this.mostInFlight = Math.max(this.mostInFlight, ++this.inFlight);
    for (let i = 0; i < 3; i++) await null;
    this.inFlight--;
    return super.readAt(into, position);
  }
}

Deno.test("LineScanner makes one read at a time, a long line's included", async (t) => {
  for (const latin1Bytes of [0, Infinity]) {
    await t.step(latin1Bytes === 0 ? "Latin-1 strings" : "UTF-8 text", async () => {
      const file = new SlowFile();
      const scanner = new LineScanner(1 << 20, 256, latin1Bytes);
      const state = new FactsState();
      // Short lines, a long candidate line (read again alone) and a long one that is not.
      const long = turn("long", 3, "z".repeat(1_000));
      file.append(turn("a", 1).repeat(8) + long + "x".repeat(700) + "\n" + turn("b", 2).repeat(8));
      await scanner.scan(file, file.bytes.length, state);
      assert.equal(file.mostInFlight, 1, "never two reads at once");
      assert.equal(scanner.offset, file.bytes.length);
      assert.deepEqual(state.facts(), {
        model: "b",
        contextUsedTokens: 2,
        hasContext: true,
        compactedSinceUsage: false,
      });
    });
  }
});

Deno.test("LineScanner gives timers a turn on a long scan only when it has a signal", async () => {
  const file = new GrowingFile();
  file.bytes = encoder.encode(turn("a", 1).repeat(Math.ceil((17 << 20) / turn("a", 1).length)));
  const setTimeout = globalThis.setTimeout;
  let timers = 0;
  globalThis.setTimeout = ((...args: Parameters<typeof setTimeout>) => {
    timers++;
    return setTimeout(...args);
  }) as typeof setTimeout;
  try {
    // Without a signal, no timer: in a fresh process the first one loads Deno's timers.
    await new LineScanner(1 << 20).scan(file, file.bytes.length, new FactsState());
    assert.equal(timers, 0);
    const state = new FactsState();
    await new LineScanner(1 << 20).scan(
      file,
      file.bytes.length,
      state,
      new AbortController().signal,
    );
    assert.ok(timers > 0, "a signal's timer gets its turn");
    assert.equal(state.facts().contextUsedTokens, 1);
  } finally {
    globalThis.setTimeout = setTimeout;
  }
});

Deno.test({
  name:
    "LineScanner reads a small scan into the pair search's buffer, and gives it back however the scan ends",
  // Without WebAssembly (`--jitless`), every scan reads into a buffer of its own.
  ignore: typeof WebAssembly === "undefined",
  fn: async (t) => {
    const lines = turn("claude-opus-5", 7).repeat(200);
    const bytes = encoder.encode(lines);
    const free = (): boolean => {
      const buffer = lendBuffer(1);
      return buffer !== undefined && returnBuffer(buffer);
    };
    const scanning = (read: (into: Uint8Array, position: number) => Promise<number>) => ({
      lentSeen: false,
      readAt(into: Uint8Array, position: number): Promise<number> {
        this.lentSeen ||= isLent(into);
        return read(into, position);
      },
    });
    const whole = (into: Uint8Array, position: number): Promise<number> => {
      const chunk = bytes.subarray(position, position + into.length);
      into.set(chunk);
      return Promise.resolve(chunk.length);
    };
    await t.step("a scan to its end", async () => {
      const file = scanning(whole);
      const state = new FactsState();
      await new LineScanner(1 << 20, 1024).scan(file, bytes.length, state);
      assert.ok(file.lentSeen, "read into the lent buffer");
      assert.equal(state.facts().model, "claude-opus-5");
      assert.ok(free(), "given back");
    });
    await t.step("a scan whose read fails", async () => {
      let reads = 0;
      const file = scanning((into, position) =>
        ++reads === 2 ? Promise.reject(new Error("EIO")) : whole(into, position)
      );
      await assert.rejects(
        new LineScanner(1 << 20, 1024).scan(file, bytes.length, new FactsState()),
        /EIO/,
      );
      assert.ok(file.lentSeen && free(), "given back");
    });
    await t.step("a scan aborted", async () => {
      const stop = new AbortController();
      let reads = 0;
      const file = scanning((into, position) => {
        if (++reads === 2) stop.abort();
        return whole(into, position);
      });
      await new LineScanner(1 << 20, 1024).scan(file, bytes.length, new FactsState(), stop.signal)
        .catch(() => {});
      assert.ok(file.lentSeen && free(), "given back");
    });
  },
});
