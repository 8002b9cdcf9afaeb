// Copyright 2026 the brigade authors. MIT license.

/**
 * A session's subagents read from their own files: current Claude Code writes
 * a subagent's whole run only to `<session>/subagents/agent-<id>.jsonl`,
 * beside `agent-<id>.meta.json` (`agentType`, `description`, `toolUseId`,
 * `spawnDepth`), and leaves the parent file without a trace of it but the
 * `Agent` (formerly `Task`) call and its result.
 *
 * @module
 */

import { jsonLineBatches } from "../../lines/json_lines.ts";
import { openFile } from "../../lines/file_source.ts";
import { isRegularFile } from "./_regular_file.ts";
import type { ClaudeCodeMapper, Mapped, SubagentFile } from "./_map.ts";

/** What reading a subagent gives: its events, or a line of its file that was unreadable. */
export type SubagentOut = { mapped: Mapped[] } | { line: number; reason: string };

/** How deep subagents started by subagents are followed (`spawnDepth`); deeper calls read as calls. */
export const SUBAGENT_DEPTH_MAX = 8;
/** How many `.meta.json` files of a session are read; a folder with more joins the rest by agent id. */
export const SUBAGENT_METAS_MAX = 10_000;
/** The largest `.meta.json` read: a few fields, never a payload. */
const META_BYTES_MAX = 64 * 1024;
/** How many subagent calls, and agents read, are remembered. */
const CALLS_KEPT = 10_000;

/** An agent id fit for a file name: no separator, no `..`; anything else is not joined. */
const SAFE_ID = /^[\w@.-]{1,200}$/;
/** The id a call's result names: `agentId: a102bdd (for resuming …)`. */
const RESULT_ID = /agentId:\s*([\w@.-]{1,200})/;

/** What a `.meta.json` tells: the agent its file holds, its thread's name. */
interface Meta {
  agentId: string;
  name: string | undefined;
}

/** One subagent to read now: its file's agent id, its call, its name. */
interface Join extends SubagentFile {
  call: string;
}

/** Where a suspended file's reading stopped: the record whose results start nested subagents. */
interface Suspended {
  line: number;
  value: unknown;
  joins: Join[];
}

/**
 * The subagents of one session file, read lazily: each one when the parent
 * reaches the result of the call that started it (so its work comes after
 * the call and before the result, as the model read it), one file open at a
 * time. A subagent that starts subagents has its file closed while they are
 * read, and reopened after (the lines read before are passed over).
 */
export class SubagentFiles {
  #folder: string;
  #beside: string;
  #options: { maxLineBytes: number; signal: AbortSignal | undefined };
  /** `toolUseId` → its meta, read on the first call seen. */
  #metas: Map<string, Meta> | undefined;
  /** Subagent calls seen whose subagent is not read yet, in order: id → whether a meta names it. */
  #calls = new Map<string, boolean>();
  #read = new Set<string>();

  /**
   * @param sessionPath The session's transcript path (`…/<session>.jsonl`).
   * @param options The line cap and the signal, as the session's.
   */
  constructor(
    sessionPath: string,
    options: { maxLineBytes: number; signal: AbortSignal | undefined },
  ) {
    const sep = sessionPath.includes("\\") && !sessionPath.includes("/") ? "\\" : "/";
    const stem = sessionPath.replace(/\.[^./\\]*$/, "");
    this.#folder = `${stem}${sep}subagents${sep}`;
    const cut = Math.max(sessionPath.lastIndexOf("/"), sessionPath.lastIndexOf("\\"));
    this.#beside = cut < 0 ? "" : sessionPath.slice(0, cut + 1);
    this.#options = options;
  }

  /**
   * The subagents a record's results close, read before the record: its
   * `tool_result` blocks answering a subagent call. Also notes the subagent
   * calls an assistant record makes.
   */
  async *before(
    record: unknown,
    mapper: ClaudeCodeMapper,
    depth = 0,
  ): AsyncGenerator<SubagentOut, void, undefined> {
    await this.#noteCalls(record);
    for (const join of this.#joins(record)) yield* this.#agent(join, mapper, depth);
  }

  /** The subagents whose call was seen and whose result never came (the session ended first). */
  async *rest(mapper: ClaudeCodeMapper): AsyncGenerator<SubagentOut, void, undefined> {
    for (const [call, named] of [...this.#calls]) {
      const meta = named ? this.#metas?.get(call) : undefined;
      if (meta === undefined) continue;
      yield* this.#agent({ agentId: meta.agentId, call, name: meta.name }, mapper, 0);
    }
  }

  /** Remembers the subagent calls of an assistant record; reads the metas at the first. */
  async #noteCalls(record: unknown): Promise<void> {
    if (!isObject(record) || record.type !== "assistant") return;
    const content = isObject(record.message) ? record.message.content : undefined;
    if (!Array.isArray(content)) return;
    for (const block of content) {
      if (!isObject(block) || block.type !== "tool_use" || typeof block.id !== "string") continue;
      const input = isObject(block.input) ? block.input : {};
      const named = (this.#metas ??= await this.#readMetas()).has(block.id);
      const delegates = block.name === "Agent" || block.name === "Task" ||
        typeof input.subagent_type === "string";
      if (!named && !delegates) continue;
      this.#calls.set(block.id, named);
      if (this.#calls.size > CALLS_KEPT) this.#calls.delete(this.#calls.keys().next().value!);
    }
  }

  /** The subagents a user record's results answer, not read yet. */
  #joins(record: unknown): Join[] {
    if (!isObject(record) || record.type !== "user" || this.#calls.size === 0) return [];
    const content = isObject(record.message) ? record.message.content : undefined;
    if (!Array.isArray(content)) return [];
    const results = content.filter((b) =>
      isObject(b) && b.type === "tool_result" && typeof b.tool_use_id === "string"
    ) as Record<string, unknown>[];
    const joins: Join[] = [];
    for (const block of results) {
      const call = block.tool_use_id as string;
      if (!this.#calls.has(call)) continue;
      this.#calls.delete(call);
      const meta = this.#metas?.get(call);
      const agentId = meta?.agentId ?? resultAgentId(record, block, results.length);
      if (agentId === undefined || this.#read.has(agentId)) continue;
      joins.push({ agentId, call, name: meta?.name });
    }
    return joins;
  }

  /** One subagent's events, its file read to the end (nested subagents at their results). */
  async *#agent(
    join: Join,
    mapper: ClaudeCodeMapper,
    depth: number,
  ): AsyncGenerator<SubagentOut, void, undefined> {
    if (this.#read.has(join.agentId)) return;
    this.#read.add(join.agentId);
    if (this.#read.size > CALLS_KEPT) this.#read.delete(this.#read.values().next().value!);
    const paths = [`${this.#folder}agent-${join.agentId}.jsonl`];
    // The 2.0 layout kept a subagent's file beside its parent's.
    if (depth === 0) paths.push(`${this.#beside}agent-${join.agentId}.jsonl`);
    for (const path of paths) {
      let after = 0;
      for (;;) {
        const stop = yield* this.#pass(path, join, mapper, depth, after);
        if (stop === "missing") break;
        if (stop === undefined) {
          const spans = mapper.finishAgent(join.agentId);
          if (spans.length > 0) yield { mapped: spans };
          return;
        }
        for (const nested of stop.joins) yield* this.#agent(nested, mapper, depth + 1);
        yield* this.#record(stop.value, stop.line, join, mapper, path);
        after = stop.line;
      }
    }
  }

  /**
   * Reads a subagent's file past line `after`, up to its end (undefined), or
   * up to a record whose results start nested subagents (the file is closed
   * then: one file open at a time); `"missing"` when it cannot be opened.
   */
  async *#pass(
    path: string,
    join: Join,
    mapper: ClaudeCodeMapper,
    depth: number,
    after: number,
  ): AsyncGenerator<SubagentOut, Suspended | "missing" | undefined, undefined> {
    // A FIFO or a device in a session's folder is no subagent's file: reading it could wait forever.
    if (!(await isRegularFile(path))) return "missing";
    let stream;
    try {
      stream = await openFile(path, path, "Claude Code subagent transcript");
    } catch {
      return "missing";
    }
    const { maxLineBytes, signal } = this.#options;
    const lines = jsonLineBatches(stream, { maxLineBytes, name: path, signal, byob: true });
    for await (const batch of lines) {
      for (const { line, value, reason } of batch) {
        if (line <= after) continue;
        if (reason !== undefined) {
          yield { line, reason: `${fileName(path)}: ${reason}` };
          continue;
        }
        await this.#noteCalls(value);
        const joins = depth + 1 <= SUBAGENT_DEPTH_MAX ? this.#joins(value) : [];
        if (joins.length > 0) return { line, value, joins };
        yield* this.#record(value, line, join, mapper, path);
      }
    }
    return undefined;
  }

  /** One record of a subagent's file, mapped on its thread. */
  *#record(
    value: unknown,
    line: number,
    join: Join,
    mapper: ClaudeCodeMapper,
    path: string,
  ): Generator<SubagentOut, void, undefined> {
    const mapped = mapper.map(value, line, join);
    if (typeof mapped === "string") yield { line, reason: `${fileName(path)}: ${mapped}` };
    else if (mapped.length > 0) yield { mapped };
  }

  /** The session's `agent-*.meta.json` files, by the call that started each (bounded). */
  async #readMetas(): Promise<Map<string, Meta>> {
    const metas = new Map<string, Meta>();
    let names: string[];
    try {
      names = await listFolder(this.#folder);
    } catch {
      return metas; // no subagents folder: an older layout, or none
    }
    for (const name of names.sort()) {
      const match = /^agent-(.+)\.meta\.json$/.exec(name);
      if (match === null || !SAFE_ID.test(match[1]!) || match[1]!.includes("..")) continue;
      if (metas.size >= SUBAGENT_METAS_MAX) break;
      const meta = await readMeta(`${this.#folder}${name}`);
      if (meta === undefined || typeof meta.toolUseId !== "string") continue;
      metas.set(meta.toolUseId, { agentId: match[1]!, name: metaName(meta) });
    }
    return metas;
  }
}

/** The agent id a subagent call's result names: `toolUseResult.agentId`, else its text. */
function resultAgentId(
  record: Record<string, unknown>,
  block: Record<string, unknown>,
  results: number,
): string | undefined {
  const extra = record.toolUseResult;
  let id = results === 1 && isObject(extra) && typeof extra.agentId === "string"
    ? extra.agentId
    : undefined;
  id ??= RESULT_ID.exec(blockText(block.content))?.[1];
  return id !== undefined && SAFE_ID.test(id) && !id.includes("..") ? id : undefined;
}

function blockText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((b) => isObject(b) && typeof b.text === "string" ? b.text : "").join("\n");
}

/** A thread's name from a meta: `agentType (description)`, or either alone. */
function metaName(meta: Record<string, unknown>): string | undefined {
  const type = typeof meta.agentType === "string" ? meta.agentType.trim() : "";
  const description = typeof meta.description === "string" ? meta.description.trim() : "";
  if (type !== "" && description !== "") return `${type} (${description})`;
  return type || description || undefined;
}

/** A meta file's object, or undefined when it is too big, unreadable or not an object. */
async function readMeta(path: string): Promise<Record<string, unknown> | undefined> {
  if (!(await isRegularFile(path))) return undefined;
  let stream;
  try {
    stream = await openFile(path, path, "Claude Code subagent meta");
  } catch {
    return undefined;
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for await (const chunk of stream) {
      size += chunk.length;
      if (size > META_BYTES_MAX) return undefined;
      chunks.push(chunk);
    }
  } catch {
    return undefined;
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) bytes.set(chunk, at), at += chunk.length;
  try {
    const value = JSON.parse(new TextDecoder().decode(bytes));
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The names in a folder: Deno's `readDir`, else `node:fs` (Node, Bun). */
async function listFolder(path: string): Promise<string[]> {
  const deno = (globalThis as {
    Deno?: { readDir(path: string): AsyncIterable<{ name: string; isFile: boolean }> };
  }).Deno;
  if (deno !== undefined) {
    const names: string[] = [];
    for await (const entry of deno.readDir(path)) if (entry.isFile) names.push(entry.name);
    return names;
  }
  const fs = await import("node:fs/promises");
  return await fs.readdir(path);
}

/** A path's last segment. */
function fileName(path: string): string {
  return path.slice(Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\")) + 1);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
