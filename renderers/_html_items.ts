// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// TEMPORARY: the grader's view of a session as page items, until the renderer
// kit's `conversation()` lands; then this file goes and html.ts reads the kit.

import type { LogEntry } from "../events/types.ts";
import { consumptionOrder, type OrderedItem } from "./_consumption.ts";
import { GraderClassifier } from "./_grader_classify.ts";
import { ItemRenderer } from "./_items.ts";
import { ThreadBook } from "./_threads.ts";
import type { PageItem, PageItemKind } from "./_html_page.ts";

const KINDS: Record<string, PageItemKind> = {
  "user.message": "message",
  "agent.message": "message",
  "system.message": "system",
  "agent.tool_use": "tool_call",
  "agent.mcp_tool_use": "tool_call",
  "agent.custom_tool_use": "tool_call",
  "agent.tool_result": "tool_result",
  "agent.mcp_tool_result": "tool_result",
  "user.custom_tool_result": "tool_result",
  "user.tool_result": "tool_result",
  "agent.thread_message_sent": "thread_message",
  "agent.thread_message_received": "thread_message",
  "session.error": "error",
};

/** The grader's items of a session's entries, as the page reads them. */
export async function* pageItems(
  entries: AsyncIterable<LogEntry>,
): AsyncGenerator<PageItem, void, undefined> {
  const book = new ThreadBook();
  const items = new ItemRenderer(book);
  for await (const { entry } of consumptionOrder(classified(entries, book))) {
    const { label, body } = items.render(entry);
    const event = entry.event as Record<string, unknown>;
    const kind = KINDS[String(event.type)] ?? "message";
    const [from = label, to = ""] = label.replace(/, error$/, "").split(" → ");
    const crossPosted = typeof event.session_thread_id === "string"
      ? event.session_thread_id
      : null;
    yield {
      kind,
      from,
      to,
      label,
      text: body,
      tool: typeof event.name === "string" ? event.name : undefined,
      isError: event.is_error === true || kind === "error",
      thread: entry.thread_id ?? crossPosted,
      seq: entry.seq,
      processedAt: typeof event.processed_at === "string" ? event.processed_at : null,
    };
  }
}

async function* classified(
  entries: AsyncIterable<LogEntry>,
  book: ThreadBook,
): AsyncGenerator<OrderedItem, void, undefined> {
  const classifier = new GraderClassifier(book);
  for await (const entry of entries) {
    book.learn(entry);
    const role = classifier.classify(entry);
    if (role !== "drop") yield { entry, movable: role === "movable" };
  }
}
