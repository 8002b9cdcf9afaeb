// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// Tool calls as they are meant to be read (Claude Code's tools): a to-do list as a checklist, a
// subagent's task and a plan as Markdown, a read file by its path and lines, a search by its
// pattern, a fetch by its URL, a notebook edit as a cell diff, and any other input as
// key–value text with real line breaks. Every text is redacted when the page is, its controls
// made visible and cut to the item budget; every value is escaped by `markup`.

import {
  cutBodyParts,
  redact as redactSecrets,
  utf8Length,
  visibleControls,
} from "../../kit/mod.ts";
import { type Html, markup } from "./_html.ts";
import type { Body, BodySettings } from "./_bodies.ts";

/** A text of the input as the page shows it: redacted, controls visible, within the budget. */
export interface Shown {
  text: string;
  cutBytes: number;
}

/** The body builders a tool body needs of `_body.ts` (passed in: no import circle). */
export interface ToolKit {
  markdown(text: string): Html;
  settings: BodySettings;
}

/** A string of the input as the page shows it; `""` for anything else. */
export function shownField(
  value: unknown,
  settings: BodySettings,
  budget = settings.itemBudget,
): Shown {
  const raw = typeof value === "string" ? value : "";
  const shown = visibleControls(
    (settings.redact ? redactSecrets(raw) : raw).replace(/\r\n?/g, "\n"),
  );
  const { head, cutBytes } = cutBodyParts(shown, budget);
  return { text: head, cutBytes };
}

/** The most bytes of a path, a pattern, a URL or a query on a call's first line. */
const NAME_BYTES = 1_000;

/** A text's bytes and lines. */
function measure(text: string): { bytes: number; lines: number } {
  return { bytes: utf8Length(text), lines: text === "" ? 0 : text.split("\n").length };
}

/** How a to-do's state reads: a mark and words, never colour alone. */
const TODO_STATES: Record<string, { mark: string; words: string }> = {
  pending: { mark: "☐", words: "pending" },
  in_progress: { mark: "◐", words: "in progress" },
  completed: { mark: "☑", words: "completed" },
};

/** `TodoWrite`: each to-do with its state, as a checklist. */
function todoBody(input: Record<string, unknown>, kit: ToolKit): Body | undefined {
  if (!Array.isArray(input.todos)) return undefined;
  let left = kit.settings.itemBudget;
  let cutBytes = 0;
  let bytes = 0;
  const counts = new Map<string, number>();
  const items: Html[] = [];
  for (const todo of input.todos) {
    const fields = typeof todo === "object" && todo !== null ? todo as Record<string, unknown> : {};
    const content = shownField(
      fields.content ?? fields.activeForm,
      kit.settings,
      Math.max(1, left),
    );
    const status = typeof fields.status === "string" ? fields.status : "";
    counts.set(status, (counts.get(status) ?? 0) + 1);
    if (left <= 0) {
      cutBytes += utf8Length(content.text) + content.cutBytes;
      continue;
    }
    left -= utf8Length(content.text);
    bytes += utf8Length(content.text);
    cutBytes += content.cutBytes;
    const state = TODO_STATES[status] ??
      { mark: "?", words: shownField(status, kit.settings, 80).text || "no state" };
    const css = status in TODO_STATES ? status.replace("_", "-") : "unknown";
    items.push(
      markup`<li class="todo s-${css}"><span class="mark" aria-hidden="true">${state.mark}</span> <span class="todo-text">${content.text}</span> <span class="state">(${state.words})</span></li>\n`,
    );
  }
  const done = counts.get("completed") ?? 0;
  const doing = counts.get("in_progress") ?? 0;
  const preview = `${input.todos.length} ${input.todos.length === 1 ? "to-do" : "to-dos"}: ` +
    `${done} completed, ${doing} in progress, ${input.todos.length - done - doing} pending`;
  const html = markup`<ul class="todos" aria-label="To-do list">\n${items}</ul>`;
  return { html, cutBytes, bytes, lines: input.todos.length, preview };
}

/** `Task`/`Agent`: who is asked (the subagent's type), what for, and the prompt as Markdown. */
function taskBody(input: Record<string, unknown>, kit: ToolKit): Body | undefined {
  if (typeof input.prompt !== "string") return undefined;
  const type = shownField(input.subagent_type, kit.settings, NAME_BYTES).text;
  const description = shownField(input.description, kit.settings, NAME_BYTES).text;
  const prompt = shownField(input.prompt, kit.settings);
  const head = [type, description].filter((part) => part !== "").join(": ");
  const html = markup`<div class="task-call">${
    head !== "" && markup`<p class="path">${head}</p>`
  }<div class="prose">${kit.markdown(prompt.text)}</div></div>`;
  return { html, cutBytes: prompt.cutBytes, ...measure(prompt.text), preview: head || prompt.text };
}

/** `ExitPlanMode`: the plan, as Markdown. */
function planBody(input: Record<string, unknown>, kit: ToolKit): Body | undefined {
  if (typeof input.plan !== "string") return undefined;
  const plan = shownField(input.plan, kit.settings);
  const html = markup`<div class="plan"><p class="path">Plan</p><div class="prose">${
    kit.markdown(plan.text)
  }</div></div>`;
  return { html, cutBytes: plan.cutBytes, ...measure(plan.text), preview: plan.text };
}

/** A call named by one line (a path, a pattern, a URL, a query), its other fields below. */
function namedBody(
  name: Html,
  preview: string,
  rest: Record<string, unknown>,
  kit: ToolKit,
): Body {
  const others = Object.keys(rest).length === 0 ? undefined : keyValueText(rest, kit.settings);
  const html = markup`<div class="tool-call"><p class="path">${name}</p>${
    others !== undefined && markup`<pre class="code kv"><code>${others.text}</code></pre>`
  }</div>`;
  // The size the summary names is what the body shows: the name line and the fields below it.
  const shown = others === undefined ? preview : `${preview}\n${others.text}`;
  return { html, cutBytes: others?.cutBytes ?? 0, ...measure(shown), preview };
}

/** `Read`: the file's path, and the lines asked for. */
function readBody(input: Record<string, unknown>, kit: ToolKit): Body | undefined {
  if (typeof input.file_path !== "string") return undefined;
  const { file_path: _, offset, limit, ...rest } = input;
  const path = shownField(input.file_path, kit.settings, NAME_BYTES).text;
  const from = typeof offset === "number" ? offset : undefined;
  const count = typeof limit === "number" ? limit : undefined;
  const range = from === undefined && count === undefined
    ? ""
    : count === undefined
    ? ` · from line ${from}`
    : ` · lines ${from ?? 1}–${(from ?? 1) + count - 1}`;
  return namedBody(markup`${path}${range}`, `${path}${range}`, rest, kit);
}

/** `Grep`/`Glob`: the pattern, where it looks, and the search's options. */
function searchBody(input: Record<string, unknown>, kit: ToolKit): Body | undefined {
  if (typeof input.pattern !== "string") return undefined;
  const { pattern: _, path, ...rest } = input;
  const pattern = shownField(input.pattern, kit.settings, NAME_BYTES).text;
  const where = typeof path === "string" ? shownField(path, kit.settings, NAME_BYTES).text : "";
  return namedBody(
    markup`<code class="pattern">${pattern}</code>${where !== "" && markup` in ${where}`}`,
    where === "" ? pattern : `${pattern} in ${where}`,
    rest,
    kit,
  );
}

/** `WebFetch`: its URL (a link only for http and https), and what it asks of the page. */
function fetchBody(input: Record<string, unknown>, kit: ToolKit): Body | undefined {
  if (typeof input.url !== "string") return undefined;
  const { url: _, ...rest } = input;
  const url = shownField(input.url, kit.settings, NAME_BYTES).text;
  // A link is made only of a whole URL: a cut one, or one with controls made visible, stays text.
  const link = /^https?:\/\/[^\s\\]+$/i.test(url) && url === input.url
    ? markup`<a href="${url}" rel="noreferrer noopener nofollow">${url}</a>`
    : markup`${url}`;
  return namedBody(link, url, rest, kit);
}

/** `WebSearch`: its query and domains. */
function queryBody(input: Record<string, unknown>, kit: ToolKit): Body | undefined {
  if (typeof input.query !== "string") return undefined;
  const { query: _, ...rest } = input;
  const query = shownField(input.query, kit.settings, NAME_BYTES).text;
  return namedBody(markup`search: <q>${query}</q>`, query, rest, kit);
}

/** `NotebookEdit`: the cell's new source as added lines (a deletion as the cell removed). */
function notebookBody(input: Record<string, unknown>, kit: ToolKit): Body | undefined {
  if (typeof input.notebook_path !== "string") return undefined;
  const path = shownField(input.notebook_path, kit.settings, NAME_BYTES).text;
  const mode = typeof input.edit_mode === "string" ? input.edit_mode : "replace";
  const cell = shownField(input.cell_id, kit.settings, 200).text;
  const type = shownField(input.cell_type, kit.settings, 40).text;
  const source = shownField(input.new_source, kit.settings);
  const what = `cell ${cell || "(first)"}${type !== "" ? ` (${type})` : ""}`;
  const header = mode === "delete"
    ? `@@ ${what} deleted @@`
    : mode === "insert"
    ? `@@ new ${what} inserted @@`
    : `@@ ${what}: its source replaced by @@`;
  const lines = mode === "delete" || source.text === "" ? [] : source.text.split("\n");
  const html =
    markup`<div class="diff"><p class="path">${path}</p><pre class="code"><code><span class="hunk">${header}</span>\n${
      lines.map((line) => markup`<span class="add">+${line}</span>\n`)
    }</code></pre></div>`;
  return {
    html,
    cutBytes: source.cutBytes,
    ...measure(source.text),
    preview: `${path} · ${what}, ${mode}`,
  };
}

/** The tools with a body of their own here (Edit, MultiEdit and Write are `_body.ts`'s). */
export const TOOL_BODIES: ReadonlyMap<
  string,
  (input: Record<string, unknown>, kit: ToolKit) => Body | undefined
> = new Map([
  ["TodoWrite", todoBody],
  ["Task", taskBody],
  ["Agent", taskBody],
  ["ExitPlanMode", planBody],
  ["Read", readBody],
  ["Grep", searchBody],
  ["Glob", searchBody],
  ["WebFetch", fetchBody],
  ["WebSearch", queryBody],
  ["NotebookEdit", notebookBody],
]);

/** Any other tool's input: one `key: value` a line, a multi-line value indented below its key. */
export function otherBody(input: Record<string, unknown>, kit: ToolKit): Body {
  const shown = keyValueText(input, kit.settings);
  const html = markup`<pre class="code kv"><code>${shown.text}</code></pre>`;
  return { html, cutBytes: shown.cutBytes, ...measure(shown.text), preview: shown.text };
}

/** How deep nested values are written out; deeper ones are written as compact JSON. */
const DEPTH_MAX = 6;

/**
 * An input as key–value text: redacted (each string whole, then the text,
 * so a secret assigned to a key is caught too), controls visible, cut to the budget.
 */
export function keyValueText(input: Record<string, unknown>, settings: BodySettings): Shown {
  const state = { cut: 0, budget: settings.itemBudget, redact: settings.redact };
  const raw = entries(input, "", 0, state).join("\n");
  const text = visibleControls(
    (settings.redact ? redactSecrets(raw) : raw).replace(/\r\n?/g, "\n"),
  );
  const { head, cutBytes } = cutBodyParts(text === "" ? "(no input)" : text, settings.itemBudget);
  return { text: head, cutBytes: cutBytes + state.cut };
}

interface KvState {
  cut: number;
  budget: number;
  redact: boolean;
}

function entries(
  value: Record<string, unknown>,
  indent: string,
  depth: number,
  state: KvState,
): string[] {
  const out: string[] = [];
  for (const [key, item] of Object.entries(value)) {
    out.push(...entry(`${indent}${key}:`, item, indent, depth, state));
  }
  return out;
}

function entry(
  head: string,
  value: unknown,
  indent: string,
  depth: number,
  state: KvState,
): string[] {
  const inner = `${indent}  `;
  if (typeof value === "string") {
    // A string is redacted whole and taken to the budget before it joins the text.
    const redacted = state.redact ? redactSecrets(value) : value;
    const kept = redacted.length > state.budget ? redacted.slice(0, state.budget) : redacted;
    if (kept.length < redacted.length) state.cut += utf8Length(redacted) - utf8Length(kept);
    if (!kept.includes("\n") && !kept.includes("\r")) return [`${head} ${kept}`];
    return [head, ...kept.split(/\r\n?|\n/).map((line) => `${inner}${line}`)];
  }
  if (typeof value !== "object" || value === null || depth >= DEPTH_MAX) {
    return [`${head} ${JSON.stringify(value) ?? String(value)}`];
  }
  if (Array.isArray(value)) {
    if (value.length === 0) return [`${head} (none)`];
    return [head, ...value.flatMap((item) => entry(`${inner}-`, item, inner, depth + 1, state))];
  }
  const fields = value as Record<string, unknown>;
  if (Object.keys(fields).length === 0) return [`${head} (empty)`];
  return [head, ...entries(fields, inner, depth + 1, state)];
}
