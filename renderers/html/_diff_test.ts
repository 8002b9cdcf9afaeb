// Copyright 2026 the brigade authors. MIT license.

import assert from "node:assert/strict";
import fc from "fast-check";
import { diffLines } from "./_diff.ts";

/** The new text, rebuilt from the old one and the diff's hunks: the diff tells the whole truth. */
function applied(before: string, lines: string[]): string {
  const old = before === "" ? [] : before.replace(/\n$/, "").split("\n");
  const out: string[] = [];
  let at = 0;
  for (const line of lines) {
    const header = /^@@ -(\d+),(\d+) \+\d+,\d+ @@$/.exec(line);
    if (header !== null) {
      const start = Number(header[2]) === 0 ? Number(header[1]) : Number(header[1]) - 1;
      while (at < start) out.push(old[at++]!);
      continue;
    }
    if (line.startsWith("@@")) continue;
    if (line[0] === " ") assert.equal(old[at++], line.slice(1));
    else if (line[0] === "-") assert.equal(old[at++], line.slice(1));
    else out.push(line.slice(1));
    if (line[0] === " ") out.push(line.slice(1));
  }
  while (at < old.length) out.push(old[at++]!);
  return out.join("\n");
}

Deno.test("diffLines() gives hunks that rebuild the new text from the old", () => {
  const text = fc.array(fc.constantFrom("a", "b", "c", "d", ""), { maxLength: 40 }).map((l) =>
    l.join("\n")
  );
  fc.assert(
    fc.property(text, text, (before, after) => {
      assert.equal(applied(before, diffLines(before, after)), after.replace(/\n$/, ""));
    }),
    { numRuns: 300 },
  );
});

Deno.test("diffLines() shows an append or a prepend of any size as its added lines only", () => {
  const base = Array.from({ length: 50 }, (_, i) => `base ${i}`).join("\n") + "\n";
  const more = Array.from({ length: 300 }, (_, i) => `more ${i}`).join("\n") + "\n";
  for (const after of [base + more, more + base]) {
    const lines = diffLines(base, after);
    assert.equal(lines.filter((l) => l.startsWith("+")).length, 300);
    assert.equal(lines.filter((l) => l.startsWith("-")).length, 0);
  }
  assert.deepEqual(diffLines(base, base + more).slice(0, 2), ["@@ -48,3 +48,303 @@", " base 47"]);
});

Deno.test("diffLines() gives up aligning past its bound: the old lines removed, then the new", () => {
  const lines = (n: number, c: string): string =>
    Array.from({ length: n }, (_, i) => `${c}${i % 7}`).join("\n");
  const diff = diffLines(`keep\n${lines(500, "a")}\nend`, `keep\n${lines(500, "b")}\nend`);
  assert.match(diff[0]!, /too many changes to align/);
  assert.equal(diff.filter((l) => l.startsWith("-")).length, 500);
  assert.equal(diff.filter((l) => l.startsWith("+")).length, 500);
  assert.equal(diff.filter((l) => l === " keep" || l === " end").length, 2);
});
