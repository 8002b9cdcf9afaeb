// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// The lines of an edit's unified diff. The lines both texts begin and end with are matched
// first (linear in time and memory, so an append or a prepend is its added lines whatever its
// size); the `diff` library's Myers aligns what lies between, with a bound on its work; past
// the bound the middle shows as its old lines removed, then its new added (same output on
// every machine, memory linear in the texts).

import { diffArrays } from "../../deps/diff.ts";

/**
 * The most lines added and removed the library aligns between the common
 * head and tail: a worst case (8 kB of short lines, all different) takes some
 * 10 ms here, against more than a second at 4,000.
 */
export const MAX_EDIT_LENGTH = 200;

/** Lines of context around each change. */
const CONTEXT = 3;

/** One line of a diff: kept, removed or added. */
interface Op {
  kind: " " | "-" | "+";
  line: string;
}

/**
 * The unified diff of two texts, as lines: a `@@ -a,b +c,d @@` header before
 * each hunk, then ` `, `-` and `+` lines; a first header line saying so when
 * the middle was too far apart to align.
 *
 * @param before The old text.
 * @param after The new text.
 * @returns The diff's lines (none when the texts are equal).
 */
export function diffLines(before: string, after: string): string[] {
  const old = linesOf(before);
  const now = linesOf(after);
  let head = 0;
  while (head < old.length && head < now.length && old[head] === now[head]) head++;
  let tail = 0;
  while (
    tail < old.length - head && tail < now.length - head &&
    old[old.length - 1 - tail] === now[now.length - 1 - tail]
  ) tail++;
  const oldMiddle = old.slice(head, old.length - tail);
  const newMiddle = now.slice(head, now.length - tail);
  const aligned = oldMiddle.length === 0 || newMiddle.length === 0
    ? undefined
    : diffArrays(oldMiddle, newMiddle, { maxEditLength: MAX_EDIT_LENGTH });
  const ops: Op[] = old.slice(0, head).map((line) => ({ kind: " ", line }));
  const gaveUp = aligned === undefined && oldMiddle.length > 0 && newMiddle.length > 0;
  if (aligned === undefined) {
    for (const line of oldMiddle) ops.push({ kind: "-", line });
    for (const line of newMiddle) ops.push({ kind: "+", line });
  } else {
    for (const change of aligned) {
      const kind = change.added ? "+" : change.removed ? "-" : " ";
      for (const line of change.value) ops.push({ kind, line });
    }
  }
  for (const line of old.slice(old.length - tail)) ops.push({ kind: " ", line });
  const lines = hunks(ops);
  return gaveUp && lines.length > 0
    ? ["@@ (too many changes to align: the old text, then the new) @@", ...lines]
    : lines;
}

/** A text's lines; a final line end ends the last line, it does not start another. */
function linesOf(text: string): string[] {
  if (text === "") return [];
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** The changes with their context, in hunks, each under its header. */
function hunks(ops: readonly Op[]): string[] {
  const out: string[] = [];
  let i = 0;
  // Line numbers (from 1) of ops[i] in the old and the new text.
  let oldLine = 1;
  let newLine = 1;
  const advance = (op: Op): void => {
    if (op.kind !== "+") oldLine++;
    if (op.kind !== "-") newLine++;
  };
  while (i < ops.length) {
    let change = i;
    while (change < ops.length && ops[change]!.kind === " ") change++;
    if (change === ops.length) break;
    let start = Math.max(i, change - CONTEXT);
    for (; i < start; i++) advance(ops[i]!);
    // The hunk runs on while the next change is at most twice the context away.
    let end = change;
    let quiet = 0;
    while (end < ops.length && quiet <= 2 * CONTEXT) {
      quiet = ops[end]!.kind === " " ? quiet + 1 : 0;
      end++;
    }
    end -= Math.max(0, quiet - CONTEXT);
    const body = ops.slice(start, end);
    const oldCount = body.filter((op) => op.kind !== "+").length;
    const newCount = body.filter((op) => op.kind !== "-").length;
    out.push(
      `@@ -${oldCount === 0 ? oldLine - 1 : oldLine},${oldCount} +${
        newCount === 0 ? newLine - 1 : newLine
      },${newCount} @@`,
    );
    for (const op of body) {
      out.push(`${op.kind}${op.line}`);
      advance(op);
    }
    i = end;
    start = end;
  }
  return out;
}
