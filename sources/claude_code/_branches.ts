// Copyright 2026 the brigade authors. MIT license.

/**
 * The branch of a Claude Code transcript the model read. Records form a tree
 * by `parentUuid` (`logicalParentUuid` across a compaction). A rewind or an
 * edited prompt forks it where the model answered on both sides; parallel
 * tool calls, their results, bash-mode, hook and progress records fork it
 * too, and are no rewind. The live branch is the path to the session's last
 * reply; a subtree hanging off it is abandoned when it holds a reply of a
 * response (`message.id`) the live path does not hold, and is kept otherwise.
 *
 * @module
 */

import { jsonLineBatches } from "../../lines/json_lines.ts";
import { openFile } from "../../lines/file_source.ts";
import { isRegularFile } from "./_regular_file.ts";

/**
 * The most uuid-bearing records whose place in the tree is kept (an index,
 * a parent index and a kind each: about 100 bytes a record). A transcript
 * with more is read in file order, with a note saying so.
 */
export const BRANCH_RECORDS_MAX = 200_000;

/** What the first pass found: the records of abandoned branches, by line. */
export interface BranchPlan {
  /** The line of each abandoned record → the line of its branch's first record. */
  abandoned: Map<number, number>;
  /** The first line of each abandoned branch → its last line (where the note goes). */
  ends: Map<number, number>;
  /** Whether the transcript had more records than {@linkcode BRANCH_RECORDS_MAX}: read in file order. */
  overflow: boolean;
}

const OTHER = 0;
const REPLY = 1;

/**
 * Reads a transcript once for its tree: only each record's uuid, parent,
 * kind and line are kept, then the branches off the path to the last reply
 * that hold another response are marked abandoned.
 */
export async function planBranches(
  path: string | URL,
  options: { name: string; maxLineBytes: number; signal: AbortSignal | undefined },
): Promise<BranchPlan | undefined> {
  // A FIFO or a device is read once (a first pass would drain it): in its order.
  if (!(await isRegularFile(path))) return undefined;
  const stream = await openFile(path, options.name, "Claude Code transcript");
  const lines = jsonLineBatches(stream, { ...options, byob: true });
  const index = new Map<string, number>();
  const responses = new Map<string, number>();
  let parent = new Int32Array(1024);
  let kind = new Uint8Array(1024);
  let response = new Int32Array(1024);
  let lineOf = new Int32Array(1024);
  let count = 0;
  let lastReply = -1;
  for await (const batch of lines) {
    for (const { line, value } of batch) {
      if (!isObject(value) || typeof value.uuid !== "string") continue;
      if (count === BRANCH_RECORDS_MAX) {
        await lines.return();
        return { abandoned: new Map(), ends: new Map(), overflow: true };
      }
      if (count === parent.length) {
        [parent, kind, response, lineOf] = [grow(parent), grow(kind), grow(response), grow(lineOf)];
      }
      const up = typeof value.parentUuid === "string" ? value.parentUuid : value.logicalParentUuid;
      parent[count] = typeof up === "string" ? index.get(up) ?? -1 : -1;
      kind[count] = kindOf(value);
      response[count] = kind[count] === REPLY ? responseOf(value, responses, count) : -1;
      lineOf[count] = line;
      if (kind[count] === REPLY) lastReply = count;
      index.set(value.uuid, count++);
    }
  }
  index.clear();
  return abandonedBranches({ parent, kind, response, lineOf, count, lastReply });
}

interface Tree {
  parent: Int32Array;
  kind: Uint8Array;
  response: Int32Array;
  lineOf: Int32Array;
  count: number;
  lastReply: number;
}

/** The branches off the live path that hold a response the live path does not. */
function abandonedBranches(tree: Tree): BranchPlan {
  const { parent, kind, response, lineOf, count, lastReply } = tree;
  const live = new Uint8Array(count);
  const liveResponses = new Set<number>();
  for (let at = lastReply; at >= 0; at = parent[at]!) {
    if (live[at] === 1) break; // a loop in a forged file
    live[at] = 1;
    if (response[at]! >= 0) liveResponses.add(response[at]!);
  }
  // Each record off the live path, by the first record of the subtree it hangs in (-1: none).
  const top = new Int32Array(count).fill(-1);
  const forks = new Map<number, { other: boolean; last: number }>();
  for (let at = 0; at < count; at++) {
    if (live[at] === 1) continue;
    const up = parent[at]!;
    const branch = up < 0 || up >= at ? -1 : live[up] === 1 ? at : top[up]!;
    top[at] = branch;
    if (branch < 0) continue;
    const fork = forks.get(branch) ?? { other: false, last: at };
    fork.last = at;
    if (kind[at] === REPLY && !liveResponses.has(response[at]!)) fork.other = true;
    forks.set(branch, fork);
  }
  const abandoned = new Map<number, number>();
  const ends = new Map<number, number>();
  for (const [branch, fork] of forks) {
    if (fork.other) ends.set(lineOf[branch]!, lineOf[fork.last]!);
  }
  if (ends.size === 0) return { abandoned, ends, overflow: false };
  for (let at = 0; at < count; at++) {
    const branch = top[at]!;
    if (branch >= 0 && ends.has(lineOf[branch]!)) abandoned.set(lineOf[at]!, lineOf[branch]!);
  }
  return { abandoned, ends, overflow: false };
}

/** A reply (a main-chain assistant record of a real model), or another record. */
function kindOf(record: Record<string, unknown>): number {
  if (record.type !== "assistant" || record.isSidechain === true) return OTHER;
  const message = isObject(record.message) ? record.message : {};
  return message.model === "<synthetic>" ? OTHER : REPLY;
}

/** A reply's response number, by its `message.id` (a reply without one is a response of its own). */
function responseOf(
  record: Record<string, unknown>,
  responses: Map<string, number>,
  at: number,
): number {
  const id = isObject(record.message) ? record.message.id : undefined;
  if (typeof id !== "string") return BRANCH_RECORDS_MAX + at;
  let known = responses.get(id);
  if (known === undefined) responses.set(id, known = responses.size);
  return known;
}

function grow<T extends Int32Array | Uint8Array>(array: T): T {
  const next = new (array.constructor as new (n: number) => T)(array.length * 2);
  next.set(array);
  return next;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
