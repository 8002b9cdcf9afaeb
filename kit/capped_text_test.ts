// Copyright 2026 the brigade authors. MIT license.

import assert from "node:assert/strict";
import fc from "fast-check";
import { CappedText } from "./capped_text.ts";
import { utf8Head } from "./utf8.ts";

/** Pushes `count` pieces of `size` bytes; the most bytes the buffers held at once. */
function peak(cap: number, count: number, size: number): number {
  const text = new CappedText(cap);
  let most = 0;
  for (let i = 0; i < count; i++) {
    text.push(String(i % 10).repeat(size));
    most = Math.max(most, text.heldBytes);
  }
  return most;
}

Deno.test("CappedText holds at most the cap plus one piece, however much is pushed", () => {
  const piece = 2_100;
  const short = peak(24 * 1024, 20, piece);
  const long = peak(24 * 1024, 20_000, piece);
  assert.ok(long <= 24 * 1024 + piece, `held ${long} bytes`);
  assert.equal(long, short, "a thousand times more input holds no more");
});

Deno.test("CappedText's buffers shrink with a lowered cap", () => {
  const big = new CappedText(24 * 1024);
  const small = new CappedText(4 * 1024);
  assert.ok(small.half < big.half);
  assert.ok(peak(4 * 1024, 5_000, 500) <= 4 * 1024 + 500);
});

Deno.test("CappedText.capped() makes room for what closeHead writes, within the cap, counted as elided", () => {
  const text = new CappedText(1_024);
  for (let i = 0; i < 200; i++) text.push(`line ${i}\n`);
  const plain = text.capped();
  const closed = text.capped({ closeHead: (head) => head.endsWith("<") ? "" : "<" });
  assert.ok(new TextEncoder().encode(closed.text).length <= 1_024);
  assert.equal(closed.elidedBytes, plain.elidedBytes + 1);
  assert.match(closed.text, /<\n\n\[… \d+ bytes elided …\]/);
  assert.equal(closed.text.length, plain.text.length, "one byte taken from the head, one written");
  assert.equal(text.text(), plain.text);
});

Deno.test("CappedText.capped({ cap }) keeps a true head and tail within a cap lowered at the end", () => {
  const lines = Array.from({ length: 300 }, (_, i) => `line ${i}\n`);
  const whole = lines.join("");
  const encoder = new TextEncoder();
  for (const count of [60, 120, 300]) {
    const text = new CappedText(2_048);
    for (const line of lines.slice(0, count)) text.push(line);
    const input = lines.slice(0, count).join("");
    for (const cap of [2_048, 1_500, 1_024, 200]) {
      const { text: out, elidedBytes } = text.capped({ cap, cutAt: "line" });
      assert.ok(encoder.encode(out).length <= cap, `${count} lines within ${cap}`);
      if (elidedBytes === 0) {
        assert.equal(out, input);
        continue;
      }
      const [head, tail] = out.split(/\n\n\[… \d+ bytes elided …\]\n\n/);
      assert.ok(whole.startsWith(head!) && input.endsWith(tail!), `${count} lines at ${cap}`);
      assert.equal(
        encoder.encode(head! + tail!).length + elidedBytes,
        encoder.encode(input).length,
      );
    }
  }
  const text = new CappedText(1_024);
  assert.throws(() => text.capped({ cap: 1_025 }), RangeError);
  assert.throws(() => text.capped({ cap: 10 }), RangeError);
});

/** Whether `index` of `text` starts a line: its start, or after a break (not between CR and LF). */
function startsLine(text: string, index: number): boolean {
  if (index === 0) return true;
  const before = text[index - 1]!;
  return /[\n\r\v\f\x85\u2028\u2029]/.test(before) && !(before === "\r" && text[index] === "\n");
}

Deno.test("CappedText cut at lines keeps whole lines at both ends, pieces pushed, built or built from a part, any cap", () => {
  const piece = fc.array(fc.constantFrom("ab", "### x", "\n", "\r", "\r\n", "\u2028", "é"), {
    maxLength: 12,
  }).map((parts) => parts.join(""));
  const encoder = new TextEncoder();
  fc.assert(
    fc.property(
      fc.array(fc.tuple(piece, fc.constantFrom("pushed", "built", "part")), { maxLength: 40 }),
      fc.integer({ min: 100, max: 300 }),
      fc.integer({ min: 0, max: 200 }),
      (pieces, cap, lower) => {
        const text = new CappedText(cap);
        for (const [part, how] of pieces) {
          const size = encoder.encode(part).length;
          if (how === "built") text.pushBuilt(size, () => part);
          // A part that is a string itself: the tail tells it from a piece built by its build.
          else if (how === "part") text.pushBuilt(size, (own: string) => own, part);
          else text.push(part);
        }
        const input = pieces.map(([part]) => part).join("");
        const smaller = Math.max(cap - lower, 60);
        const { text: out, elidedBytes } = text.capped({ cap: smaller, cutAt: "line" });
        assert.ok(encoder.encode(out).length <= smaller);
        if (elidedBytes === 0) return assert.equal(out, input);
        const [head, tail] = out.split(/\n\n\[… \d+ bytes elided …\]\n\n/) as [string, string];
        // The head ends at a line break (the LF of a CRLF it ends inside counts as elided).
        assert.ok(input.startsWith(head) && /(^|[\n\r\u2028])$/.test(head), JSON.stringify(head));
        const at = input.length - tail.length;
        assert.ok(
          input.endsWith(tail) && (tail === "" || startsLine(input, at)),
          JSON.stringify(tail),
        );
        assert.equal(
          encoder.encode(head + tail).length + elidedBytes,
          encoder.encode(input).length,
        );
      },
    ),
    { numRuns: 2_000 },
  );
});

Deno.test("CappedText: an empty piece built or built from a part is what an empty piece pushed is", () => {
  const line = fc.constantFrom("a", "\n", "b\n", "ba\r", "\r", "cd", "### x\n", "é\r\n");
  fc.assert(
    fc.property(
      fc.array(fc.tuple(line, fc.constantFrom("pushed", "built", "part")), { maxLength: 200 }),
      fc.integer({ min: 60, max: 120 }),
      (pieces, cap) => {
        const pushed = new CappedText(cap);
        const built = new CappedText(cap);
        for (const [piece, how] of pieces) {
          for (const text of [pushed, built]) text.push(piece);
          // An empty piece after each, the way the other text is given it.
          pushed.push("");
          if (how === "built") built.pushBuilt(0, () => "");
          else if (how === "part") built.pushBuilt(0, (own: string) => own, "");
          else built.push("");
        }
        assert.deepEqual(built.capped({ cutAt: "line" }), pushed.capped({ cutAt: "line" }));
      },
    ),
    { numRuns: 2_000 },
  );
});

Deno.test("CappedText gives back a head of wide text exactly: a byte-order mark first, emoji, CJK, accents, and a lone surrogate", () => {
  const heads = [
    "\ufeff# Session 日本語\n",
    "café 🚀 naïve ".repeat(40),
    "日本語のテキスト".repeat(60),
    `lone \ud800 surrogate 🚀 ${"é".repeat(300)}`,
    `ascii only ${"x".repeat(700)}`,
  ];
  for (const head of heads) {
    const capped = new CappedText(2_048);
    let all = "";
    for (const piece of [head, ...Array.from({ length: 200 }, (_, i) => `line ${i} ✓\n`)]) {
      capped.push(piece);
      all += piece;
    }
    const kept = utf8Head(all, capped.half);
    const text = capped.text();
    assert.equal(text.slice(0, kept.length), kept, JSON.stringify(head.slice(0, 20)));
    assert.ok(text.slice(kept.length).startsWith("\n\n[… "), JSON.stringify(head.slice(0, 20)));
    assert.ok(text.endsWith("line 199 ✓\n"));
  }
});

Deno.test("CappedText holds a full head of wide text out of the heap: a hundred in under 24 KiB of it each", async () => {
  // A dream's head is 12 KiB of UTF-8, pushed in pieces; with an emoji a piece, its string (a
  // rope of the pieces) took about 38 KiB of heap. Held as UTF-8 once full, a head takes 12 KiB
  // out of the heap; what is left is the tail's few pieces.
  const code = `
    import { CappedText } from ${JSON.stringify(new URL("./capped_text.ts", import.meta.url).href)};
    const texts = [];
    globalThis.gc();
    const before = Deno.memoryUsage().heapUsed;
    for (let t = 0; t < 100; t++) {
      const text = new CappedText(24 * 1024);
      // The head fills at 12 KiB; the tail then holds a few pieces.
      for (let i = 0; i < 900; i++) text.push("item " + t + " " + i + " 🚀\\n");
      texts.push(text);
    }
    globalThis.gc();
    console.log(Deno.memoryUsage().heapUsed - before);
    if (!texts[99].text().startsWith("item 99 0 🚀\\n")) throw new Error("a head lost");
  `;
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--v8-flags=--expose-gc", code],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  assert.ok(output.success, "the child failed");
  const grown = Number(new TextDecoder().decode(output.stdout).trim());
  assert.ok(grown < 100 * 24 * 1024, `a hundred texts took ${grown} bytes of heap`);
});
