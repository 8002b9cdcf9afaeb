// Copyright 2026 the brigade authors. MIT license.

// `deno task render --unrendered FILE|FOLDER`: what Claude Code wrote that the mapping reads and
// does not render, counted by record type and subtype, with the first place each was seen, so
// a person (or a test over their own ~/.claude/projects) sees what a new version added.

import { stat } from "node:fs/promises";
import { fromClaudeCode } from "../sources/claude_code/mod.ts";
import { inputsIn } from "./_walk.ts";
import { counted } from "./_plural.ts";

/** One kind of thing not rendered: how many, and where the first was. */
interface Tally {
  type: string;
  subtype: string;
  count: number;
  path: string;
  line: number;
}

/** Where the report goes: a line of the table, and a problem with an input. */
export interface UnrenderedReport {
  line(text: string): void;
  problem(text: string): void;
}

/**
 * Reads every Claude Code transcript of the inputs (files, and the
 * `*.jsonl` files of folders, as the site finds them) and prints what the
 * mapping did not render: one line a type and subtype, most frequent first,
 * with the count and the first file and line. Returns the exit code: 0, or 1
 * when an input could not be read.
 */
export async function printUnrendered(
  inputs: readonly string[],
  report: UnrenderedReport,
): Promise<number> {
  const tallies = new Map<string, Tally>();
  let failed = false;
  const files: string[] = [];
  for (const input of inputs) {
    const info = await stat(input).catch(() => undefined);
    if (info?.isDirectory()) {
      const found = await inputsIn(input, {
        failed: (message) => {
          failed = true;
          report.problem(message);
        },
        note: () => {},
      });
      files.push(...found.map((f) => f.path).filter((p) => p.endsWith(".jsonl")));
    } else {
      files.push(input);
    }
  }
  for (const path of files) {
    try {
      const entries = fromClaudeCode(path, {
        onUnrendered: (line, type, subtype) => {
          const key = `${type}\u0000${subtype}`;
          const known = tallies.get(key);
          if (known !== undefined) known.count++;
          else tallies.set(key, { type, subtype, count: 1, path, line });
        },
      });
      for await (const _ of entries) { /* the counts are what is wanted */ }
    } catch (error) {
      failed = true;
      report.problem(error instanceof Error ? error.message : String(error));
    }
  }
  for (const text of table([...tallies.values()], files.length)) report.line(text);
  return failed ? 1 : 0;
}

/** The report's lines: a summary, a header, then one row a kind, most frequent first. */
function table(tallies: Tally[], files: number): string[] {
  const read = counted(files, "transcript");
  if (tallies.length === 0) return [`Everything in ${read} is rendered.`];
  tallies.sort((a, b) =>
    b.count - a.count || (a.type < b.type ? -1 : a.type > b.type ? 1 : 0) ||
    (a.subtype < b.subtype ? -1 : a.subtype > b.subtype ? 1 : 0)
  );
  const rows = [
    ["type", "subtype", "count", "first seen"],
    ...tallies.map((t) => [t.type, t.subtype || "-", String(t.count), `${t.path}:${t.line}`]),
  ];
  const widths = [0, 1, 2].map((c) => Math.max(...rows.map((r) => r[c]!.length)));
  const lines = rows.map((r) =>
    [r[0]!.padEnd(widths[0]!), r[1]!.padEnd(widths[1]!), r[2]!.padStart(widths[2]!), r[3]!]
      .join("  ")
  );
  return [`Not rendered in ${read}: ${counted(tallies.length, "kind")}`, ...lines];
}
