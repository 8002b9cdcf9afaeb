// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

import type { EntryIterable, LogEntry } from "../../events/types.ts";
import {
  checkBudget,
  conversation,
  cutBodyParts,
  redact as redactSecrets,
  sessionTitle,
} from "../../kit/mod.ts";
import {
  PageBuilder,
  type PageFolder,
  type RewoundItem,
  type ThinkingItem,
  type Usage,
  type UsageItem,
} from "./_page.ts";
import type { PageOrigin, Renderer } from "../registry.ts";
import { htmlFolderIndex } from "./html_index.ts";
import * as bodies from "./_body.ts";
import {
  HTML_ITEM_BUDGET,
  HTML_RENDERER_FACTS,
  HTML_TRANSCRIPT_BUDGET,
  type HtmlOptions,
} from "./options.ts";

/** What a bad option stops, in its error. */
const WHAT = "render the html page";

/**
 * Renders one session as a self-contained HTML page for people to read: a
 * header with the session id, start time, turns and threads; then each
 * conversation item in the grader's order (every thread, messages where the
 * model read them), numbered by entry seq (`#N` links to its anchor `item-N`), labelled
 * with its speaker, its time (and date, when the day changes), threads told
 * apart by colour and by name, errors marked (and unfolded).
 *
 * Messages are Markdown (CommonMark with GitHub's tables, task lists and
 * strikethrough): raw HTML in them is shown as text, a `javascript:` or
 * `data:` link is not a link, an image is named and never loaded, fenced code
 * sits in a monospace block labelled with its language. Tool calls and
 * results fold into `<details>` with the tool, a preview and their size in
 * the summary: an `Edit` or `MultiEdit` (Claude Code's) as a unified diff of
 * its old and new text (a contiguous head when cut, with the count of lines
 * left out), a `Write` as the file's content under its path, a `Bash` call as
 * its command line, a `TodoWrite` as a checklist, a `Task`/`Agent` prompt,
 * an `ExitPlanMode` plan and a subagent's report as Markdown, a `Read` by its
 * path and its result's line numbers, `Grep`/`Glob` by their pattern,
 * `WebFetch`/`WebSearch` by their URL or query, a `NotebookEdit` as a cell
 * diff, any other input as key–value text; other results in monospace. A
 * subagent's items fold, named, right after the call that started it. The agent's thinking, where the log records its text, is folded
 * where it happened; a compaction's summary is folded; an empty reply is left
 * out. A model request's tokens (input, output, cache read, cache write),
 * where the log records them (a `span.model_request_end`'s `model_usage`; a
 * Claude Code transcript's `message.usage`, once a response), are shown in
 * small type after the reply the request produced, each figure also a
 * `<data value>`, with the model that answered where the log names it (a
 * `span.model_request_end`'s `model`); the header sums those of the requests
 * on the page and names the models, each thread with its latest (the
 * session's agent's, a `session.updated`'s `agent.model`, for the primary).
 *
 * Safe to share and to open: secrets are redacted unless `redact: false`;
 * every text from the log is escaped (the page is built only through an
 * escaping template), with control characters made visible; the page's
 * Content-Security-Policy allows its one script and its stylesheet by hash and
 * forbids every other script and every remote load, so a `<script>`, an
 * `<img onerror>` or a `javascript:` link in a message stays inert. Its style
 * is inline and uses system fonts: the page
 * reads the same offline. The Markdown parser and the diff library come with
 * this module (`@brigade/transcript/html`); `.`'s {@linkcode renderHtml} is
 * this renderer, loading them with the first page it renders.
 *
 * Find and filter: a table of contents lists the person's prompts, each a
 * link to its item; a search bar (shown by the page's one script, which
 * reads the items' text and only hides and shows them) hides the items
 * without the words typed, and the kinds (prompts, replies, tool calls,
 * results, thinking, events, subagents) or threads unticked. With scripts
 * off, everything is shown and the bar is not.
 *
 * The page carries its header facts as JSON in a
 * `<meta name="brigade-transcript-session">`, for a folder index to read back.
 *
 * @param source The session's entries (one session).
 * @param options Budgets, redaction, thinking and a signal.
 * @returns The page.
 * @throws {EventSourceError} When an entry is malformed (code `invalid_entry`) or a second
 * session appears (`second_session`).
 * @throws {RangeError} When a budget is not a positive integer.
 *
 * @example Usage
 * ```ts
 * import { renderHtml } from "@brigade/transcript/html";
 * import assert from "node:assert/strict";
 *
 * const page = await renderHtml([{
 *   seq: 1,
 *   session_id: "sesn_1",
 *   thread_id: null,
 *   event: { id: "sevt_1", type: "user.message", content: "<script>alert(1)</script>" },
 * }]);
 * assert.match(page, /^<!DOCTYPE html>/);
 * assert.match(page, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
 * // One script, the page's own (find and filter), which its policy names by hash.
 * assert.equal(page.match(/<script/g)?.length, 1);
 * assert.match(page, /script-src 'sha256-[^']+'/);
 * ```
 */
export async function renderHtml(
  source: EntryIterable,
  options: HtmlOptions = {},
): Promise<string> {
  return await renderPage(source, options);
}

/** The page of {@linkcode renderHtml}; a page of a folder links to its index and carries its origin. */
async function renderPage(
  source: EntryIterable,
  options: HtmlOptions,
  folder?: PageFolder,
): Promise<string> {
  const itemBudget = checkBudget(WHAT, "itemBudget", options.itemBudget ?? HTML_ITEM_BUDGET);
  const transcriptBudget = checkBudget(
    WHAT,
    "transcriptBudget",
    options.transcriptBudget ?? HTML_TRANSCRIPT_BUDGET,
  );
  const redact = options.redact ?? true;
  const inputs = new Map<number, unknown>();
  // The seqs of the slash commands (a Claude Code source marks them) among the latest entries.
  const commands = new Set<number>();
  const page = new PageBuilder({
    transcriptBudget,
    itemBudget,
    redact,
    bodies,
    inputOf: (seq) => {
      const input = inputs.get(seq);
      inputs.delete(seq);
      return input;
    },
    isCommand: (seq) => commands.has(seq),
  });
  const session = { id: "", startedAt: "" };
  const showThinking = options.thinking ?? true;
  // Thinking and usage come from entries the kit makes no item of: each waits, in log order,
  // for the first item after it (a request's usage then follows the reply it produced).
  const asides: Aside[] = [];
  let full = false;
  const place = (aside: Aside): boolean =>
    aside.kind === "usage" ? page.addUsage(aside) : page.add(aside);
  // What the kit makes no item of is seen here, each entry once checked, before its items.
  const see = (entry: LogEntry): void => {
    const event = entry.event as {
      type: string;
      name?: unknown;
      input?: unknown;
      thinking?: unknown;
      rewound_text?: unknown;
      processed_at?: unknown;
      command?: unknown;
      model_usage?: unknown;
      session_thread_id?: unknown;
      agent_name?: unknown;
      model?: unknown;
    };
    const title = sessionTitle(entry.event);
    if (title !== undefined) page.title(title);
    if (event.type === "user.message" && typeof event.command === "string") {
      commands.add(entry.seq);
      // An item follows its entry closely (or waits with its thread): keep the latest ones.
      if (commands.size > COMMANDS_KEPT) commands.delete(commands.values().next().value!);
    }
    const aside = showThinking && event.type === "agent.thinking" &&
        typeof event.thinking === "string"
      ? thinkingItem(entry, event.thinking, itemBudget, redact)
      : event.type === "system.message" && typeof event.rewound_text === "string" &&
          event.rewound_text !== ""
      ? rewoundItem(entry, event.rewound_text, itemBudget, redact)
      : event.type === "span.model_request_end"
      ? usageItem(entry, event.model_usage, redact, modelOf(event.model, redact))
      : undefined;
    // The session's agent (a `session.updated`'s `agent.model`) answers on the primary thread.
    if (event.type === "session.updated") {
      const agent = (event as { agent?: { model?: unknown } }).agent;
      const model = modelOf(agent?.model, redact);
      if (model !== undefined) page.model(null, model);
    }
    if (aside !== undefined) {
      asides.push(aside);
      // No item came since: the oldest goes on the page now (a full page refuses it).
      if (asides.length > INPUTS_KEPT) {
        const oldest = asides.shift()!;
        if (!full) full = !place(oldest);
      }
      return;
    }
    if (
      event.type === "session.thread_created" && typeof event.session_thread_id === "string" &&
      typeof event.agent_name === "string"
    ) {
      const thread = redact ? redactSecrets(event.session_thread_id) : event.session_thread_id;
      page.threadStarted(thread, event.agent_name);
    }
    if (/tool_use$/.test(event.type) && typeof event.input === "object" && event.input !== null) {
      const name = subagentName(event.name, event.input as Record<string, unknown>);
      if (name !== undefined) page.subagentCall(entry.seq, name);
      inputs.set(entry.seq, event.input);
      // A call's item follows its entry closely: keep the latest few inputs only.
      if (inputs.size > INPUTS_KEPT) inputs.delete(inputs.keys().next().value!);
    }
  };
  // The kit redacts before it cuts, and drops what the transcript budget could never show.
  const items = conversation(source, {
    view: "grader",
    itemBudget,
    transcriptBudget,
    redact,
    onDropped: () => page.cutShort(),
    renderer: "html",
    signal: options.signal,
    onEntry: (entry) => {
      see(entry);
      noteSession(session, entry);
    },
  });
  for await (const item of items) {
    while (asides.length > 0 && asides[0]!.seq < item.seq && !full) {
      full = !place(asides.shift()!);
    }
    if (full || !page.add(item)) break; // leaving the loop stops the source too
  }
  while (asides.length > 0 && !full) full = !place(asides.shift()!);
  return await page.finish(session.id, session.startedAt, folder);
}

/** Thinking as the page shows it: redacted when the page is, cut to the item budget. */
function thinkingItem(
  entry: LogEntry,
  text: string,
  itemBudget: number,
  redact: boolean,
): ThinkingItem {
  const { head, cutBytes } = cutBodyParts(redact ? redactSecrets(text) : text, itemBudget);
  const at = (entry.event as { processed_at?: unknown }).processed_at;
  const thread = threadShown(entry, redact);
  return {
    kind: "thinking",
    from: "agent",
    to: "agent",
    label: "agent thinking",
    text: head,
    cutBytes,
    thread,
    seq: entry.seq,
    processedAt: typeof at === "string" ? (redact ? redactSecrets(at) : at) : null,
  };
}

/**
 * A rewound branch as the page shows it, from its note's `rewound_text` (a
 * Claude Code source writes it): folded after the note, redacted when the page is.
 */
function rewoundItem(
  entry: LogEntry,
  text: string,
  itemBudget: number,
  redact: boolean,
): RewoundItem {
  const item = thinkingItem(entry, text, itemBudget, redact);
  return { ...item, kind: "rewound", from: "system", label: "rewound branch" };
}

/** What the page shows of entries the kit makes no item of. */
type Aside = ThinkingItem | RewoundItem | UsageItem;

/**
 * A request's usage as the page shows it, from its `span.model_request_end`;
 * undefined when the span records none. A count that is not a whole number of
 * tokens counts as 0.
 */
function usageItem(
  entry: LogEntry,
  recorded: unknown,
  redact: boolean,
  model: string | undefined,
): UsageItem | undefined {
  if (typeof recorded !== "object" || recorded === null) return undefined;
  const fields = recorded as Record<string, unknown>;
  const count = (key: string): number => {
    const value = fields[key];
    return typeof value === "number" && Number.isSafeInteger(value) && value >= 0 ? value : 0;
  };
  const usage: Usage = {
    input: count("input_tokens"),
    output: count("output_tokens"),
    cacheRead: count("cache_read_input_tokens"),
    cacheWrite: count("cache_creation_input_tokens"),
  };
  const thread = threadShown(entry, redact);
  return {
    kind: "usage",
    seq: entry.seq,
    thread,
    usage,
    ...(model === undefined ? {} : { model }),
  };
}

/**
 * A model as a log names it (a string, or an object with a string `id`, as
 * the dream reads it), redacted when the page is; undefined for anything else.
 */
function modelOf(value: unknown, redact: boolean): string | undefined {
  const id = typeof value === "object" && value !== null ? (value as { id?: unknown }).id : value;
  if (typeof id !== "string" || id.trim() === "") return undefined;
  // Only a head: the page shows at most 80 code points of it.
  const head = id.slice(0, 1_024);
  return redact ? redactSecrets(head) : head;
}

/** An entry's thread as the kit's items name it: redacted when the page is. */
function threadShown(entry: LogEntry, redact: boolean): string | null {
  if (entry.thread_id === null) return null;
  return redact ? redactSecrets(entry.thread_id) : entry.thread_id;
}

/**
 * The thread a subagent call starts is named, as the Claude Code source names
 * it: `<subagent_type> (<description>)`, or either alone; undefined for
 * another tool.
 */
function subagentName(tool: unknown, input: Record<string, unknown>): string | undefined {
  const type = typeof input.subagent_type === "string" ? input.subagent_type.trim() : "";
  const description = typeof input.description === "string" ? input.description.trim() : "";
  if (type === "" && tool !== "Task" && tool !== "Agent") return undefined;
  return type !== "" && description !== ""
    ? `${type} (${description})`
    : type || description || "subagent";
}

/** How many slash commands' seqs are remembered until their item comes. */
const COMMANDS_KEPT = 1_024;

/** How many whole tool inputs (edits, writes) wait for their item. */
const INPUTS_KEPT = 16;

/** Notes the session id and the first time stamp seen. */
function noteSession(session: { id: string; startedAt: string }, entry: LogEntry): void {
  session.id = entry.session_id;
  const at = (entry.event as { processed_at?: unknown }).processed_at;
  if (session.startedAt === "" && typeof at === "string") session.startedAt = at;
}

/**
 * The `html` renderer: {@linkcode renderHtml} under the registry's contract;
 * a folder of its pages gets an `index.html` of every page, grouped by
 * project (a page of a folder carries where its session came from, the
 * {@linkcode PageOrigin} the command gives it, and links back to the index).
 *
 * @example Usage
 * ```ts
 * import { htmlRenderer } from "@brigade/transcript/html";
 * import assert from "node:assert/strict";
 *
 * assert.equal(htmlRenderer.name, "html");
 * assert.equal(htmlRenderer.extension, ".html");
 * assert.equal(htmlRenderer.folder?.indexName, "index.html");
 * ```
 */
export const htmlRenderer: Renderer<HtmlOptions, "html"> = {
  ...HTML_RENDERER_FACTS,
  render: renderHtml,
  // In a folder, each page carries its summary in a <meta>, read back for index.html.
  folder: {
    ...htmlFolderIndex,
    page: (source: EntryIterable, options?: HtmlOptions, origin?: PageOrigin): Promise<string> =>
      renderPage(source, options ?? {}, {
        indexName: htmlFolderIndex.indexName,
        origin: origin ?? {},
      }),
  },
};
