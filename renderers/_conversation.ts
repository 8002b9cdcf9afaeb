// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

import type { LogEntry } from "../events/types.ts";
import { redact } from "../redact/mod.ts";
import { cutBodyParts, cutNote } from "./budget.ts";
import { ConsumptionOrder, type Prepared } from "./_consumption.ts";
import type { ConversationItem } from "./conversation.ts";
import { GraderClassifier } from "./_grader_classify.ts";
import { CONVERSATION_TYPES, type Item, ItemRenderer } from "./_items.ts";
import { ThreadBook } from "./_threads.ts";
import { utf8Length } from "./utf8.ts";

/** The conversation's options, resolved and checked. */
export interface Resolved {
  view: "grader" | "dream";
  itemBudget: number;
  transcriptBudget: number;
  redact: boolean;
}

/** The items of one session's checked entries, in the view asked for. */
export function conversationItems(
  entries: AsyncIterable<LogEntry>,
  options: Resolved,
): AsyncGenerator<ConversationItem, void, undefined> {
  return options.view === "dream" ? dreamView(entries, options) : graderView(entries, options);
}

async function* dreamView(
  entries: AsyncIterable<LogEntry>,
  options: Resolved,
): AsyncGenerator<ConversationItem, void, undefined> {
  const book = new ThreadBook();
  const items = new ItemRenderer(book);
  for await (const entry of entries) {
    if (entry.thread_id !== null) continue;
    book.learn(entry);
    if (!CONVERSATION_TYPES.has(entry.event.type)) continue;
    const { text, cutBytes } = prepare(items.text(entry), options);
    yield finish(items.render(entry, text), cutBytes, options);
  }
}

async function* graderView(
  entries: AsyncIterable<LogEntry>,
  options: Resolved,
): AsyncGenerator<ConversationItem, void, undefined> {
  const book = new ThreadBook();
  const items = new ItemRenderer(book);
  const classifier = new GraderClassifier(book);
  const order = new ConsumptionOrder(options.transcriptBudget);
  const out = (prepared: Prepared): ConversationItem => {
    const item = finish(items.render(prepared.entry, prepared.text), prepared.cutBytes, options);
    order.shown(utf8Length(item.label) + utf8Length(item.text));
    return item;
  };
  for await (const entry of entries) {
    book.learn(entry);
    const role = classifier.classify(entry);
    if (role === "drop") continue;
    if (role === "span") {
      for (const released of order.span(entry)) yield out(released);
      continue;
    }
    const prepared = { entry, ...prepare(items.text(entry), options) };
    if (role === "movable" && order.holds(entry)) {
      order.hold({ ...prepared, entry: withoutContent(entry) }, utf8Length(prepared.text));
    } else {
      yield out(prepared);
    }
  }
  for (const held of order.rest()) yield out(held);
}

/** An item's text, redacted if asked (before any cut) and cut to the item budget. */
function prepare(text: string, options: Resolved): { text: string; cutBytes: number } {
  const { head, cutBytes } = cutBodyParts(options.redact ? redact(text) : text, options.itemBudget);
  return { text: cutBytes === 0 ? head : head + cutNote(cutBytes), cutBytes };
}

function finish(item: Item, cutBytes: number, options: Resolved): ConversationItem {
  item.cutBytes = cutBytes;
  if (!options.redact) return item;
  item.from = redact(item.from);
  item.to = redact(item.to);
  item.label = redact(item.label);
  if (item.tool !== undefined) item.tool = redact(item.tool);
  if (item.thread !== null) item.thread = redact(item.thread);
  if (item.processedAt !== null) item.processedAt = redact(item.processedAt);
  return item;
}

/** A held message's entry: its text is worked out, so its content need not be kept. */
function withoutContent(entry: LogEntry): LogEntry {
  const { content: _, ...event } = entry.event as Record<string, unknown>;
  return { ...entry, event: event as LogEntry["event"] };
}
