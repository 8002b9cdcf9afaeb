// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

import type { EntryIterable, LogEntry } from "../events/types.ts";
import { redact } from "../redact/mod.ts";
import { cutBodyParts, cutNote } from "./budget.ts";
import { compact } from "./_compact.ts";
import { Redacted } from "./_redacted.ts";
import { ConsumptionOrder } from "./_consumption.ts";
import type { ConversationItem, ItemText } from "./conversation_item.ts";
import { GraderClassifier } from "./_grader_classify.ts";
import { isShown, type Item, ItemRenderer } from "./_items.ts";
import { ThreadBook } from "./_threads.ts";
import { SessionGate } from "./_session.ts";
import { utf8Length } from "./utf8.ts";
import { asEvent, fieldsOf } from "../events/fields.ts";
import { entryBatches } from "../events/entry_batches.ts";

/** The conversation's options, resolved and checked. */
export interface Resolved {
  view: "grader" | "dream";
  itemBudget: number;
  transcriptBudget: number;
  redact: boolean;
  /**
   * Called, when redacting, with each item's text once worked out (flattened
   * and redacted) and before it is cut: the dream reads its first prompt from
   * it, so a huge message is scanned for secrets once, and neither reader
   * copies it whole.
   */
  onText?: (entry: LogEntry, text: ItemText) => void;
  /** Told the `seq` of each held message the grader view drops. */
  onDropped?: (seq: number) => void;
  /**
   * Which part of the transcript the grader view's caller keeps: the head (held messages past
   * the budget are dropped as they come) or the ends (the oldest held are dropped).
   */
  keep: "head" | "ends";
  /** The renderer's name, for the error a second session raises. */
  renderer: string;
}

/**
 * The conversation as synchronous steps: each entry pushed adds the items it
 * completes to {@linkcode ConversationSteps.ready}, and {@linkcode
 * ConversationSteps.end} adds what is still held. A renderer reads its source
 * in one loop and runs these steps inside it, so that no generator stands
 * between an entry and its item.
 */
export class ConversationSteps {
  /** The items completed and not yet taken, in order; the caller empties it. */
  readonly ready: ConversationItem[] = [];
  #options: Resolved;
  #book = new ThreadBook();
  #items: ItemRenderer;
  #classifier: GraderClassifier | undefined;
  #order: ConsumptionOrder | undefined;
  #fields = new FieldRedactor();

  /** @param options The view, the budgets and redaction, resolved. */
  constructor(options: Resolved) {
    this.#options = options;
    this.#items = new ItemRenderer(this.#book);
    if (options.view === "grader") {
      this.#classifier = new GraderClassifier(this.#book);
      this.#order = new ConsumptionOrder(options.transcriptBudget, options.onDropped, options.keep);
    }
  }

  /** Takes the next checked entry of the session. */
  push(whole: LogEntry): void {
    if (this.#order === undefined) this.#dream(whole);
    else this.#grader(whole, this.#order, this.#classifier!);
  }

  /** Ends the session: what the grader view still holds is ready, in arrival order. */
  end(): void {
    if (this.#order === undefined) return;
    for (const held of this.#order.rest()) this.#out(held.entry, held.text, held.cutBytes);
  }

  #dream(whole: LogEntry): void {
    if (whole.thread_id !== null) return;
    const entry = boundedIds(whole);
    this.#book.learn(entry);
    if (!isShown(entry.event)) return;
    const { text, cutBytes } = prepare(entry, this.#items.text(entry), this.#options);
    this.ready.push(finish(this.#items.render(entry, text), cutBytes, this.#options, this.#fields));
  }

  #grader(whole: LogEntry, order: ConsumptionOrder, classifier: GraderClassifier): void {
    const entry = boundedIds(whole);
    this.#book.learn(entry);
    const role = classifier.classify(entry);
    if (role === "drop") return;
    if (role === "span") {
      for (const released of order.span(entry)) {
        this.#out(released.entry, released.text, released.cutBytes);
      }
      return;
    }
    const { text, cutBytes } = prepare(entry, this.#items.text(entry), this.#options);
    if (role === "movable" && order.holds(entry)) {
      const held = slim(entry);
      order.hold({ entry: held, text, cutBytes }, renderedBytes(this.#items.render(held, text)));
    } else {
      this.#out(entry, text, cutBytes);
    }
  }

  #out(entry: LogEntry, text: string, cutBytes: number): void {
    const item = finish(this.#items.render(entry, text), cutBytes, this.#options, this.#fields);
    // Keeping the ends, what is shown does not bound what is held: it is not counted.
    if (this.#options.keep !== "ends") this.#order?.shown(renderedBytes(item));
    this.ready.push(item);
  }
}

/**
 * The items of one session's source: its entries checked (one session, each
 * a log entry) and turned into items in one loop, `observe` told of each
 * checked entry before its items are worked out.
 */
export async function* sessionItems(
  source: EntryIterable,
  options: Resolved,
  signal: AbortSignal | undefined,
  observe?: (entry: LogEntry) => void,
): AsyncGenerator<ConversationItem, void, undefined> {
  const gate = new SessionGate(options.renderer, signal);
  const steps = new ConversationSteps(options);
  const ready = steps.ready;
  for await (const raw of source) {
    const entry = gate.pass(raw);
    observe?.(entry);
    steps.push(entry);
    // Taken one by one: a consumer that stops leaves the rest untaken.
    while (ready.length > 0) yield ready.shift()!;
  }
  steps.end();
  while (ready.length > 0) yield ready.shift()!;
}

/**
 * {@linkcode sessionItems}, each item given to `each` as it completes: the
 * whole rendering is one loop over the source, with no generator at all.
 */
export async function forEachSessionItem(
  source: EntryIterable,
  options: Resolved,
  signal: AbortSignal | undefined,
  observe: ((entry: LogEntry) => void) | undefined,
  each: (item: ConversationItem) => void,
): Promise<void> {
  const gate = new SessionGate(options.renderer, signal);
  const steps = new ConversationSteps(options);
  const ready = steps.ready;
  const step = (raw: unknown): void => {
    const entry = gate.pass(raw);
    observe?.(entry);
    steps.push(entry);
    if (ready.length === 0) return;
    for (const item of ready) each(item);
    ready.length = 0;
  };
  // A source that gives its entries a read at a time is taken so: no await an entry.
  const batches = entryBatches(source);
  if (batches === undefined) {
    for await (const raw of source) step(raw);
  } else {
    for await (const batch of batches) for (const raw of batch) step(raw);
  }
  steps.end();
  for (const item of ready) each(item);
  ready.length = 0;
}

/**
 * An item's text, redacted if asked (before any cut) and cut to the item
 * budget. The redaction is read in part: only the kept head of a huge text is
 * built, the secrets being found (and the cut bytes counted) on the whole.
 */
function prepare(
  entry: LogEntry,
  text: string,
  options: Resolved,
): { text: string; cutBytes: number } {
  let cut;
  if (options.redact) {
    const clean = new Redacted(text);
    options.onText?.(entry, clean);
    cut = clean.cut(options.itemBudget);
  } else {
    options.onText?.(entry, { length: text.length, head: (units) => text.slice(0, units) });
    cut = cutBodyParts(text, options.itemBudget);
  }
  const { head, cutBytes } = cut;
  return { text: cutBytes === 0 ? head : head + cutNote(cutBytes), cutBytes };
}

function finish(
  item: Item,
  cutBytes: number,
  options: Resolved,
  fields: FieldRedactor,
): ConversationItem {
  item.cutBytes = cutBytes;
  if (!options.redact) return item;
  item.from = fields.redact(item.from);
  item.to = fields.redact(item.to);
  item.label = fields.redact(item.label);
  if (item.tool !== undefined) item.tool = fields.redact(item.tool);
  if (item.thread !== null) item.thread = fields.redact(item.thread);
  if (item.processedAt !== null) item.processedAt = redactTime(item.processedAt);
  return item;
}

/**
 * `redact` for a time: one written in digits, `-`, `:`, `.`, `+`, `T` and
 * `Z` alone (as every RFC 3339 time is) holds no shape's trigger, each of
 * which needs another letter or a `/`, `_` or `=`, so it is its own redaction
 * without a scan; any other is redacted.
 */
function redactTime(time: string): string {
  if (time.length > TIME_UNITS) return redact(time);
  for (let i = 0; i < time.length; i++) {
    const unit = time.charCodeAt(i);
    const plain = (unit >= 0x30 && unit <= 0x3a) || unit === 0x2d || unit === 0x2e ||
      unit === 0x2b || unit === 0x54 || unit === 0x5a;
    if (!plain) return redact(time);
  }
  return time;
}

/** The longest time read unit by unit: an RFC 3339 time with nanoseconds and an offset is 35. */
const TIME_UNITS = 64;

/**
 * `redact` for an item's speakers, label, tool and thread: a session repeats
 * a few of them on every item, so each short one is redacted once and
 * remembered (a bounded number of them, forgotten all at once when full).
 */
class FieldRedactor {
  #memo: Map<string, string> = new Map();

  redact(text: string): string {
    if (text.length > FIELD_UNITS_REMEMBERED) return redact(text);
    let clean = this.#memo.get(text);
    if (clean === undefined) {
      clean = redact(text);
      if (this.#memo.size >= FIELDS_REMEMBERED) this.#memo.clear();
      this.#memo.set(text, clean);
    }
    return clean;
  }
}

const FIELD_UNITS_REMEMBERED = 256;
const FIELDS_REMEMBERED = 1_024;

/**
 * The least any renderer writes for an item: its label and text, and the
 * grader's `[`, `]\n` and `\n` around them. Held messages are bounded by this,
 * so a message is dropped only when no rendering could show it.
 */
function renderedBytes(item: Item): number {
  return utf8Length(item.label) + utf8Length(item.text) + 3;
}

/** What a held message's entry keeps: what its label needs, not its content or its ids. */
function slim(entry: LogEntry): LogEntry {
  const { type, processed_at, from_session_thread_id } = fieldsOf(entry.event);
  const event: Record<string, unknown> = { type };
  if (processed_at !== undefined) event.processed_at = processed_at;
  if (from_session_thread_id !== undefined) event.from_session_thread_id = from_session_thread_id;
  return {
    seq: entry.seq,
    session_id: "",
    thread_id: entry.thread_id,
    event: asEvent(event),
  };
}

/**
 * Ids, names and timestamps are keys and labels, not payloads: one longer
 * than this many UTF-16 units is kept as its head, a digest and its length,
 * so that what the renderers remember of threads, requests and tool calls
 * stays bounded whatever a log holds.
 */
const ID_UNITS_KEPT = 256;

const ID_FIELDS = [
  "id",
  "session_thread_id",
  "to_session_thread_id",
  "from_session_thread_id",
  "tool_use_id",
  "mcp_tool_use_id",
  "custom_tool_use_id",
  "model_request_start_id",
  "name",
  "mcp_server_name",
  "processed_at",
];

/** Whether a field is a string longer than the ids kept. */
function long(value: unknown): boolean {
  return typeof value === "string" && value.length > ID_UNITS_KEPT;
}

/**
 * Whether any of {@linkcode ID_FIELDS} is too long: read by name, one load each
 * (a loop over the names would look each up by a key it knows only at run time).
 */
function anyLongId(event: Record<string, unknown>): boolean {
  return long(event.id) || long(event.session_thread_id) || long(event.to_session_thread_id) ||
    long(event.from_session_thread_id) || long(event.tool_use_id) ||
    long(event.mcp_tool_use_id) || long(event.custom_tool_use_id) ||
    long(event.model_request_start_id) || long(event.name) || long(event.mcp_server_name) ||
    long(event.processed_at);
}

/** The entry, or a copy of it with its over-long ids compacted (the caller's entry is never changed). */
function boundedIds(entry: LogEntry): LogEntry {
  const event = fieldsOf(entry.event);
  const thread = entry.thread_id;
  if (!anyLongId(event) && (thread === null || thread.length <= ID_UNITS_KEPT)) return entry;
  let copy: Record<string, unknown> | undefined;
  for (const field of ID_FIELDS) {
    const value = event[field];
    if (typeof value === "string" && value.length > ID_UNITS_KEPT) {
      (copy ??= { ...event })[field] = compact(value, ID_UNITS_KEPT);
    }
  }
  const longThread = thread !== null && thread.length > ID_UNITS_KEPT;
  if (copy === undefined && !longThread) return entry;
  return {
    ...entry,
    thread_id: longThread ? compact(thread, ID_UNITS_KEPT) : thread,
    event: asEvent(copy ?? event),
  };
}
