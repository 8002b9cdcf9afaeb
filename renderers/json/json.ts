// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

import type { EntryIterable } from "../../events/types.ts";
import {
  conversation,
  type ConversationItem,
  type ConversationOptions,
  GRADER_TRANSCRIPT_BUDGET,
  redact as redactSecrets,
  sessionTitle,
  utf8Length,
} from "../../kit/mod.ts";
import type { Renderer } from "../registry.ts";

/**
 * The smallest `transcriptBudget` {@linkcode renderJson} accepts: room for
 * its cut line.
 *
 * @example Usage
 * ```ts
 * import { JSON_MIN_BUDGET, renderJson } from "@brigade/transcript";
 * import assert from "node:assert/strict";
 *
 * await assert.rejects(() => renderJson([], { transcriptBudget: JSON_MIN_BUDGET - 1 }), RangeError);
 * ```
 */
export const JSON_MIN_BUDGET: number = 256;

/**
 * The last line of a `json` rendering cut at its budget.
 */
export interface JsonCutLine {
  /** Always `"cut"`: no item has this kind. */
  kind: "cut";
  /** The budget reached, in UTF-8 bytes of the whole output, this line included. */
  budget: number;
  /** How many item lines come before this one. */
  items: number;
  /** The `seq` of the entry of the first item not shown. */
  nextSeq: number;
}

/**
 * A line of a `json` rendering that names the session: written when the
 * session gets a title (a `session.updated` with `title`; for Claude Code, the
 * name it gives the session), before the next item, redacted when the items
 * are. The session's title is the last such line's; a session without one
 * has none.
 */
export interface JsonTitleLine {
  /** Always `"title"`: no item has this kind. */
  kind: "title";
  /** The title, whitespace collapsed. */
  title: string;
  /** The `seq` of the entry that gave it. */
  seq: number;
}

/**
 * Options for {@linkcode renderJson}: those of {@linkcode conversation}, where
 * `transcriptBudget` also bounds the output (whole lines, the cut line
 * included; at least {@linkcode JSON_MIN_BUDGET}).
 */
export type JsonOptions = ConversationOptions;

/**
 * Renders a session's conversation for machines: NDJSON, one
 * {@linkcode ConversationItem} a line, with its fields in this order: `kind`,
 * `from`, `to`, `label`, `text`, `cutBytes`, `tool` (calls and results whose
 * call is known), `isError` (results), `thread`, `seq`, `processedAt`. By
 * default the grader's view under the grader's budgets: texts cut at
 * `GRADER_ITEM_BUDGET` bytes, not redacted, and the output within
 * `GRADER_TRANSCRIPT_BUDGET` bytes. The budget counts whole lines: when the
 * next line does not fit, the output ends with one {@linkcode JsonCutLine}
 * (`{"kind":"cut","budget":…,"items":…,"nextSeq":…}`) and the source is
 * not pulled further.
 *
 * A session that has a title (a `session.updated` with `title`) gets a
 * {@linkcode JsonTitleLine} (`{"kind":"title","title":…,"seq":…}`) before
 * the first item after it, each time the title changes; a session without
 * one gets none. Each item line parses back to exactly the item
 * {@linkcode conversation} yields with the same options, and `[label]\ntext\n` of each, joined by blank
 * lines, is the grader's text.
 *
 * @param source One session's entries.
 * @param options The view, the budgets, redaction and a signal.
 * @returns The NDJSON text; `""` for an empty source.
 * @throws {RangeError} When a budget is out of range.
 *
 * @example Usage
 * ```ts
 * import { renderJson } from "@brigade/transcript";
 * import assert from "node:assert/strict";
 *
 * const text = await renderJson([{
 *   seq: 1,
 *   session_id: "sesn_1",
 *   thread_id: null,
 *   event: { id: "sevt_1", type: "user.message", content: "Hi" },
 * }]);
 * assert.equal(
 *   text,
 *   '{"kind":"message","from":"user","to":"agent","label":"user","text":"Hi","cutBytes":0,"thread":null,"seq":1,"processedAt":null}\n',
 * );
 * ```
 */
export async function renderJson(
  source: EntryIterable,
  options: JsonOptions = {},
): Promise<string> {
  const budget = jsonBudget(options);
  const lines: Line[] = [];
  let used = 0;
  const iterator = jsonLines(source, options)[Symbol.asyncIterator]();
  while (true) {
    const next = await iterator.next();
    if (next.done) return lines.map((l) => l.text).join("");
    lines.push(next.value);
    used += utf8Length(next.value.text);
    if (used > budget) break;
  }
  await iterator.return(undefined);
  // Whole lines go from the end until the cut line fits after them.
  while (true) {
    const last = lines.pop()!;
    const cut = cutLine(budget, itemCount(lines), last.seq);
    used -= utf8Length(last.text);
    if (used + utf8Length(cut) <= budget) return lines.map((l) => l.text).join("") + cut;
  }
}

/** A line of the output: its text, the seq it came from, whether it is an item's. */
interface Line {
  text: string;
  seq: number;
  item: boolean;
}

function itemCount(lines: readonly Line[]): number {
  let count = 0;
  for (const line of lines) if (line.item) count++;
  return count;
}

/**
 * The output's lines, before budgets: an item's, and a title line before the
 * first item after a `session.updated` that named the session anew.
 */
async function* jsonLines(source: EntryIterable, options: JsonOptions): AsyncGenerator<Line> {
  let title: { title: string; seq: number } | undefined;
  let written: string | undefined;
  const onEntry = options.onEntry;
  const items = conversation(source, {
    ...options,
    onEntry: (entry) => {
      const named = sessionTitle(entry.event);
      if (named !== undefined) {
        title = { title: options.redact ? redactSecrets(named) : named, seq: entry.seq };
      }
      onEntry?.(entry);
    },
  });
  const titleLine = function* (): Generator<Line> {
    if (title === undefined || title.title === written) return;
    written = title.title;
    const line: JsonTitleLine = { kind: "title", title: title.title, seq: title.seq };
    yield { text: `${JSON.stringify(line)}\n`, seq: title.seq, item: false };
  };
  for await (const item of items) {
    yield* titleLine();
    yield { text: itemLine(item), seq: item.seq, item: true };
  }
  yield* titleLine();
}

/**
 * Renders a session's conversation as {@linkcode renderJson} does, one
 * NDJSON line a chunk, each given out as soon as its item completes, for
 * following a live session (`| jq` as it runs). Joined, the chunks are
 * exactly {@linkcode renderJson}'s text for the same source and options: the
 * lines in the last bytes of the budget (where a cut line could replace
 * them) are held until it is known whether the budget is passed.
 *
 * @param source One session's entries, e.g. a followed session.
 * @param options The view, the budgets, redaction and a signal.
 * @returns The lines, one a chunk (the held ones and the cut line together).
 * @throws {RangeError} When a budget is out of range (when it is called).
 *
 * @example Usage
 * ```ts
 * import { renderJson, streamJson } from "@brigade/transcript";
 * import assert from "node:assert/strict";
 *
 * const entries = ["Hi", "Hello"].map((text, i) => ({
 *   seq: i + 1,
 *   session_id: "sesn_1",
 *   thread_id: null,
 *   event: { id: `sevt_${i}`, type: i === 0 ? "user.message" : "agent.message", content: text },
 * }));
 * const chunks = await Array.fromAsync(streamJson(entries));
 * assert.deepEqual(chunks.map((line) => JSON.parse(line).text), ["Hi", "Hello"]);
 * assert.equal(chunks.join(""), await renderJson(entries));
 * ```
 */
export function streamJson(
  source: EntryIterable,
  options: JsonOptions = {},
): AsyncIterable<string> {
  const budget = jsonBudget(options);
  return (async function* (): AsyncGenerator<string> {
    // A line whose end leaves room for the longest cut line can never be taken back.
    const safe = budget - MAX_CUT_LINE;
    const held: Line[] = [];
    let given = 0;
    let used = 0;
    let over = false;
    const iterator = jsonLines(source, options)[Symbol.asyncIterator]();
    try {
      while (true) {
        const next = await iterator.next();
        if (next.done) break;
        const line = next.value;
        used += utf8Length(line.text);
        if (held.length === 0 && used <= safe) {
          if (line.item) given++;
          yield line.text;
          continue;
        }
        held.push(line);
        if (used > budget) {
          over = true;
          break;
        }
      }
    } finally {
      await iterator.return(undefined);
    }
    if (!over) {
      if (held.length > 0) yield held.map((l) => l.text).join("");
      return;
    }
    // Whole lines go from the end until the cut line fits after them, as in renderJson.
    while (true) {
      const last = held.pop()!;
      const cut = cutLine(budget, given + itemCount(held), last.seq);
      used -= utf8Length(last.text);
      if (used + utf8Length(cut) <= budget) {
        yield held.map((l) => l.text).join("") + cut;
        return;
      }
    }
  })();
}

/** The longest cut line: every number at its widest. */
const MAX_CUT_LINE = utf8Length(
  cutLine(Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER),
);

/** The checked `transcriptBudget`. */
function jsonBudget(options: JsonOptions): number {
  const budget = options.transcriptBudget ?? GRADER_TRANSCRIPT_BUDGET;
  if (budget !== Infinity && !(Number.isSafeInteger(budget) && budget >= JSON_MIN_BUDGET)) {
    throw new RangeError(
      `Cannot render json: transcriptBudget must be an integer of at least ${JSON_MIN_BUDGET} or Infinity: ${budget}`,
    );
  }
  return budget;
}

/** An item's line: its fields in a fixed order. */
function itemLine(item: ConversationItem): string {
  const { kind, from, to, label, text, cutBytes, tool, isError, thread, seq, processedAt } = item;
  const fields: Record<string, unknown> = { kind, from, to, label, text, cutBytes };
  if (tool !== undefined) fields.tool = tool;
  if (isError !== undefined) fields.isError = isError;
  Object.assign(fields, { thread, seq, processedAt });
  return `${JSON.stringify(fields)}\n`;
}

function cutLine(budget: number, items: number, nextSeq: number): string {
  const line: JsonCutLine = { kind: "cut", budget, items, nextSeq };
  return `${JSON.stringify(line)}\n`;
}

/**
 * The `json` renderer: {@linkcode renderJson} under the registry's contract.
 *
 * @example Usage
 * ```ts
 * import { jsonRenderer } from "@brigade/transcript";
 * import assert from "node:assert/strict";
 *
 * assert.equal(jsonRenderer.name, "json");
 * assert.equal(await jsonRenderer.render([]), "");
 * ```
 */
export const jsonRenderer: Renderer<JsonOptions, "json"> = {
  name: "json",
  optionNames: ["view", "itemBudget", "transcriptBudget", "redact"],
  description: "The conversation as NDJSON items for machines (grader view and budgets)",
  extension: ".ndjson",
  render: renderJson,
  stream: streamJson,
};
