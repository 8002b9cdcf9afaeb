// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// The grader's text, piece by piece: an item's label and framed body, and the thread sections.

import type { CappedText } from "../../kit/capped_text.ts";
import type { ConversationItem } from "../../kit/conversation_item.ts";
import { framedItemBody, framedItemBodySize } from "../../kit/framed_item.ts";
import type { SizedPiece } from "../../kit/stream.ts";
import { utf8Length } from "../../kit/utf8.ts";
import { visibleControls } from "../../redact/excerpt.ts";
import { itemThreads, sectionHeading, type ThreadNames } from "./_threads.ts";

/** What each line of an item's body is written behind, so none can read as a label or a note. */
export const BODY_INDENT = "  ";

/** One item's text: its label line, its framed body within `bodyBudget`, a line break. */
export function itemText(item: ConversationItem, bodyBudget: number, ids: boolean): string {
  const body = framedItemBody(item, BODY_INDENT, bodyBudget);
  return `${labelLine(item, ids)}\n${body}\n`;
}

/** An item's label in brackets, its controls made visible; `M<seq> · ` first with ids. */
export function labelLine(item: Pick<ConversationItem, "label" | "seq">, ids: boolean): string {
  return bracketed(visibleControls(item.label, { oneLine: true }), item.seq, ids);
}

/** A label's visible form in brackets, `M<seq> · ` first with ids. */
function bracketed(visible: string, seq: number, ids: boolean): string {
  return ids ? `[M${seq} · ${visible}]` : `[${visible}]`;
}

/**
 * The grader's text of items: each `[label]` alone on a line (`[M<seq> · label]`
 * with ids), then its body with every line indented by two spaces (so no line
 * of a body can read as a label or a note), then its cut note at the margin,
 * items separated by a blank line. The indent counts in the item budget.
 */
export async function* graderPieces(
  items: AsyncIterable<ConversationItem>,
  itemBudget: number,
  ids: boolean,
  drain?: { past: boolean },
): AsyncGenerator<string, void, undefined> {
  let first = true;
  for await (const item of items) {
    // Past what the text can show, the items are read for the facts they give, not written.
    if (drain?.past) continue;
    yield `${first ? "" : "\n"}${itemText(item, itemBudget, ids)}`;
    first = false;
  }
}

/**
 * {@linkcode graderPieces}' pieces, each given by its size and a way to build
 * it: with `keep: "ends"` the whole session is read, and past the head only
 * the pieces the tail still holds at the end are built, not every item's
 * framed body (each is measured, not written).
 */
export async function* graderSizedPieces(
  items: AsyncIterable<ConversationItem>,
  itemBudget: number,
  ids: boolean,
): AsyncGenerator<SizedPiece, void, undefined> {
  let first = true;
  for await (const item of items) {
    yield sizedPiece(item, first, itemBudget, ids);
    first = false;
  }
}

/** One item's piece of {@linkcode graderSizedPieces}: its size, and a way to build it. */
function sizedPiece(
  item: ConversationItem,
  first: boolean,
  itemBudget: number,
  ids: boolean,
): SizedPiece {
  const label = `${first ? "" : "\n"}${labelLine(item, ids)}\n`;
  const size = utf8Length(label) + framedItemBodySize(item, BODY_INDENT, itemBudget) + 1;
  return { size, build: () => `${label}${framedItemBody(item, BODY_INDENT, itemBudget)}\n` };
}

/** What {@linkcode EndsPieces} remembers of a label: its visible form's size, and a build. */
interface LabelPiece {
  /** The UTF-8 bytes of the label's visible form, brackets not included. */
  bytes: number;
  /** Builds the piece of an uncut item with this label past the first, from its text alone. */
  build: (text: string) => string;
  /** Builds the piece of any item with this label past the first, from what the tail keeps. */
  buildKept: (kept: KeptItem) => string;
}

/** What the tail keeps of an item with ids or a cut: the fields its piece is built from. */
interface KeptItem {
  text: string;
  seq: number;
  cutBytes: number;
}

/**
 * {@linkcode graderSizedPieces}' pieces pushed into a capped text as the
 * items come, with no generator between an item and its piece: built while
 * the head takes them, past it measured and built only if the tail holds
 * them at the end. A session repeats a few labels on every item: each
 * label's visible form is measured once, and its pieces share one build.
 * The tail holds an uncut item's text alone (with ids or a cut, its text,
 * seq and cut count), never the item: every item of a long session passes through
 * the tail, and what the tail holds when a collection comes survives it. V8
 * grows its young generation by what survives, and a young generation grown
 * past what a small old generation can take in is collected whole, never
 * scavenged (`--trace-gc-nvp`, 1M events under a 16 MB old generation).
 */
export class EndsPieces {
  #text: CappedText;
  #itemBudget: number;
  #ids: boolean;
  #first = true;
  #labels: Map<string, LabelPiece> = new Map();

  /**
   * @param text The capped text the pieces go to.
   * @param itemBudget The most bytes of an item's body.
   * @param ids Whether labels start with `M<seq> · `.
   */
  constructor(text: CappedText, itemBudget: number, ids: boolean) {
    this.#text = text;
    this.#itemBudget = itemBudget;
    this.#ids = ids;
  }

  /** Pushes one item's piece: its label line, its framed body, a line break. */
  push(item: ConversationItem): void {
    const first = this.#first;
    this.#first = false;
    const budget = this.#itemBudget;
    const label = this.#label(item.label);
    // `[label]`, or `[M<seq> · label]` (the dot is two bytes, the seq's digits ASCII).
    const labelBytes = this.#ids ? label.bytes + 7 + String(item.seq).length : label.bytes + 2;
    const size = (first ? 0 : 1) + labelBytes + 1 +
      framedItemBodySize(item, BODY_INDENT, budget) + 1;
    if (first) this.#pushFirst(item, size);
    else if (!this.#ids && item.cutBytes === 0) this.#text.pushBuilt(size, label.build, item.text);
    else {
      const { text, seq, cutBytes } = item;
      this.#text.pushBuilt(size, label.buildKept, { text, seq, cutBytes });
    }
  }

  /**
   * Pushes the first piece, with a build of its own (no line break before it). A method apart,
   * so that the closure's variables are not allocated on every push.
   */
  #pushFirst(item: ConversationItem, size: number): void {
    const ids = this.#ids;
    const budget = this.#itemBudget;
    const { label: name, seq, text, cutBytes } = item;
    this.#text.pushBuilt(size, () => {
      const line = labelLine({ label: name, seq }, ids);
      return `${line}\n${framedItemBody({ text, cutBytes }, BODY_INDENT, budget)}\n`;
    });
  }

  /** What is remembered of a label, worked out the first time it is seen. */
  #label(name: string): LabelPiece {
    let label = this.#labels.get(name);
    if (label === undefined) {
      const visible = visibleControls(name, { oneLine: true });
      const budget = this.#itemBudget;
      const ids = this.#ids;
      label = {
        bytes: utf8Length(visible),
        build: (text) =>
          `\n[${visible}]\n${framedItemBody({ text, cutBytes: 0 }, BODY_INDENT, budget)}\n`,
        buildKept: (kept) =>
          `\n${bracketed(visible, kept.seq, ids)}\n${framedItemBody(kept, BODY_INDENT, budget)}\n`,
      };
      if (this.#labels.size >= LABELS_MEASURED) this.#labels.clear();
      this.#labels.set(name, label);
    }
    return label;
  }
}

/** How many labels' sizes {@linkcode EndsPieces} remembers (forgotten all at once when full). */
const LABELS_MEASURED = 256;

/** The items for which `keep` holds, in order, each told to `see` first. */
export async function* filtered(
  items: AsyncIterable<ConversationItem>,
  keep: (item: ConversationItem) => boolean,
  see?: (item: ConversationItem) => void,
): AsyncGenerator<ConversationItem, void, undefined> {
  for await (const item of items) {
    see?.(item);
    if (keep(item)) yield item;
  }
}

/**
 * Each thread's items as a section of its own, `[thread agent]` or
 * `[thread @name · id]` at the margin then its items in consumption order,
 * the threads in the order they first spoke; a thread message is in the
 * sections of both its ends. The sections are known at the end: the items
 * are kept until then, and no longer pulled once they pass `budget` bytes
 * (what the transcript could show), unless `drain`: then the rest is read
 * and not kept.
 */
export async function* sectionPieces(
  items: AsyncIterable<ConversationItem>,
  names: ThreadNames,
  itemBudget: number,
  ids: boolean,
  budget: number,
  drain: boolean,
): AsyncGenerator<string, void, undefined> {
  const sections = new Map<string, string[]>();
  let bytes = 0;
  const iterator = items[Symbol.asyncIterator]();
  while (drain || bytes <= budget) {
    const next = await iterator.next();
    if (next.done) break;
    if (bytes > budget) continue;
    const text = itemText(next.value, itemBudget, ids);
    for (const key of itemThreads(next.value, names)) {
      let section = sections.get(key);
      if (section === undefined) sections.set(key, section = []);
      section.push(text);
      bytes += utf8Length(text) + 1;
    }
  }
  await iterator.return?.();
  let first = true;
  for (const [key, texts] of sections) {
    const heading = visibleControls(sectionHeading(key, names), { oneLine: true });
    yield `${first ? "" : "\n"}[thread ${heading}]\n`;
    first = false;
    for (const text of texts) yield `\n${text}`;
  }
}
