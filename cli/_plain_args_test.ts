// Copyright 2026 the brigade authors. MIT license.

import assert from "node:assert/strict";
import { parseArgs, type ParseArgsOptionsConfig } from "node:util";
import fc from "fast-check";
import { plainArgs, type PlainOption } from "./_plain_args.ts";

const OPTIONS: Record<string, PlainOption> & ParseArgsOptionsConfig = {
  renderer: { type: "string", short: "r" },
  out: { type: "string", short: "o" },
  follow: { type: "boolean", short: "f" },
  force: { type: "boolean" },
  "no-thinking": { type: "boolean" },
  keep: { type: "string" },
  help: { type: "boolean", short: "h" },
};

/** Arguments of every shape: plain ones, and the ones parseArgs must decide. */
const WORDS = [
  ...["--renderer", "-r", "--out", "-o", "--keep", "--keep=ends", "--out=", "--out=-x"],
  ...["--follow", "-f", "--force", "--no-thinking", "-h", "--help"],
  ...["dream", "out/", "a.jsonl", "-", "", "ends", "=", "x=y"],
  ...["--", "--unknown", "-x", "-fh", "-rdream", "--force=1", "--=x", "---", "--__proto__"],
  ...["--constructor", "-", "-1", "--toString"],
];

/** What node:util's parseArgs gives, as plain data; undefined when it refuses the line. */
function nodeParse(args: string[]): { values: unknown; positionals: string[] } | undefined {
  try {
    const { values, positionals, tokens } = parseArgs({
      args,
      options: OPTIONS,
      allowPositionals: true,
      strict: true,
      tokens: true,
    });
    const strings = (tokens ?? []).flatMap((t) =>
      t.kind === "option" && OPTIONS[t.name]?.type === "string" ? [t.name] : []
    );
    // _args.ts refuses a value option given twice.
    if (new Set(strings).size < strings.length) return undefined;
    return { values: { ...values }, positionals };
  } catch {
    return undefined;
  }
}

Deno.test("plainArgs() reads a line as node:util's parseArgs does, or leaves it to it", () => {
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...WORDS), { maxLength: 8 }), (args) => {
      const plain = plainArgs(args, OPTIONS);
      if (plain === undefined) return;
      assert.deepEqual(plain, nodeParse(args), JSON.stringify(args));
    }),
    { numRuns: 5000 },
  );
});

Deno.test("plainArgs() reads the common calls itself", () => {
  const lines = [
    ["a.jsonl"],
    ["-r", "dream", "--out", "dreams/", "logs/"],
    ["--renderer=html", "-o", "site/", "--force", "-"],
    ["--keep", "ends", "--no-thinking", "-f", "x.ndjson"],
  ];
  for (const args of lines) assert.deepEqual(plainArgs(args, OPTIONS), nodeParse(args));
});

Deno.test("plainArgs() leaves to parseArgs every line it would refuse or word", () => {
  const lines = [["--unknown"], ["-fh"], ["--", "x"], ["--out"], ["--out", "-x"], ["--force=1"]];
  for (const args of [...lines, ["-o", "a", "-o", "b"]]) {
    assert.equal(plainArgs(args, OPTIONS), undefined, JSON.stringify(args));
  }
});
