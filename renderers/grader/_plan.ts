// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// The grader's options checked and turned into a plan: the pieces of its text, the budget they
// are joined within, and what goes around them (the outcome block, the envelope).

// The kit's modules this uses, each one kit/mod.ts re-exports whole (as a team's renderer
// reaches them): kit/mod.ts itself would load all of the kit for the grader's start-up.
import { CAPPED_TEXT_MIN_CAP, CappedText } from "../../kit/capped_text.ts";
import { checkBudget } from "../../kit/check_budget.ts";
import { conversation, type ConversationOptions, forEachItem } from "../../kit/conversation.ts";
import type { ConversationItem } from "../../kit/conversation_item.ts";
import {
  cutNote,
  GRADER_ITEM_BUDGET,
  GRADER_TRANSCRIPT_BUDGET,
  joinWithinBudget,
} from "../../kit/budget.ts";
import { framedItemBody } from "../../kit/framed_item.ts";
import { type SizedPiece, streamCapped, streamWithinBudget } from "../../kit/stream.ts";
import { utf8Length } from "../../kit/utf8.ts";
import type { EntryIterable, LogEntry } from "../../events/types.ts";
import { CHUNK_MIN_BYTES, chunkPieces } from "./_chunks.ts";
import { envelope, ENVELOPE_BYTES } from "./_envelope.ts";
import { OUTCOME_LABEL, OutcomeFacts } from "./_outcome.ts";
import {
  BODY_INDENT,
  EndsPieces,
  filtered,
  graderPieces,
  graderSizedPieces,
  sectionPieces,
} from "./_pieces.ts";
import { inThread, ThreadNames } from "./_threads.ts";
import type { GraderKeep, GraderOptions } from "./options.ts";

/** The note that ends a transcript cut at its budget. */
function transcriptNote(budget: number): string {
  return `\n[transcript cut: the ${budget}-byte budget is reached; the rest of the session is not shown]\n`;
}

/** Room for the outcome block's label, cut note and line breaks. */
const OUTCOME_SLACK = 128;

/** What the grader renders, worked out from its options. */
export interface Plan {
  /** The items' text, piece by piece (with `keep: "ends"`, unused: see `sized`). */
  pieces: AsyncIterable<string>;
  /** With `keep: "ends"`: the pieces by size, built only if the capped text keeps them. */
  sized: AsyncIterable<SizedPiece> | undefined;
  /**
   * With `keep: "ends"`: reads the whole source in one loop, each item shown
   * given to `each` as it completes (the whole text's way; `sized` is the
   * stream's).
   */
  eachItem: ((each: (item: ConversationItem) => void) => Promise<void>) | undefined;
  /** The budget of the whole output. */
  budget: number;
  /** The budget of the pieces: the whole output's less the envelope's markers. */
  room: number;
  keep: GraderKeep;
  envelope: boolean;
  /** With `outcome`: the facts, learned as the source is read. */
  outcome: OutcomeFacts | undefined;
  /** Set once the pieces past the budget are to be read, not written (for the outcome). */
  drain: { past: boolean };
  /** The most bytes of the outcome block's body. */
  blockBudget: number;
  /** With `chunks`: the pieces are the chunks, joined whole. */
  chunked: boolean;
  /** The most bytes of an item's body. */
  itemBudget: number;
  /** Whether labels start with `M<seq> · `. */
  ids: boolean;
}

/** The options checked (a `RangeError` names what cannot be done) and the plan of the text. */
export function graderPlan(source: EntryIterable, options: GraderOptions, what: string): Plan {
  const chunks = chunkBytes(options, what);
  if (chunks !== undefined) return chunkPlan(source, options, chunks, what);
  const itemBudget = checkBudget(what, "itemBudget", options.itemBudget ?? GRADER_ITEM_BUDGET);
  const given = options.transcriptBudget ?? GRADER_TRANSCRIPT_BUDGET;
  // Infinity, as `render --follow` passes it: every item is shown, nothing is cut.
  const budget = given === Infinity ? Infinity : checkBudget(what, "transcriptBudget", given);
  const asked = options.keep ?? "head";
  if (asked !== "head" && asked !== "ends") {
    throw new RangeError(`Cannot ${what}: keep must be "head" or "ends": ${String(asked)}`);
  }
  // Without a budget there is no middle to elide: the head is the whole.
  const keep = budget === Infinity ? "head" : asked;
  const wrapped = flag(options.envelope, "envelope", what);
  const outcome = flag(options.outcome, "outcome", what) ? new OutcomeFacts() : undefined;
  const room = budget - (wrapped ? ENVELOPE_BYTES : 0);
  const blockBudget = Math.min(itemBudget, Math.floor(room / 2));
  const least = (keep === "ends" ? CAPPED_TEXT_MIN_CAP : utf8Length(transcriptNote(budget))) +
    (wrapped ? ENVELOPE_BYTES : 0);
  const leastOf = outcome === undefined ? least : 2 * least + OUTCOME_SLACK;
  if (budget < leastOf) {
    throw new RangeError(
      `Cannot ${what}: transcriptBudget must leave room for its cut note${
        wrapped ? ", its markers" : ""
      }${
        outcome === undefined ? "" : " and its outcome block"
      }, at least ${leastOf} bytes: ${budget}`,
    );
  }
  const scope = threadScope(options, keep, what);
  const names = new ThreadNames();
  const observe = scope === undefined && outcome === undefined ? undefined : (entry: LogEntry) => {
    if (scope !== undefined) names.learn(entry);
    outcome?.learn(entry);
  };
  const read: ConversationOptions = {
    view: "grader",
    itemBudget,
    // Scoped, the items of other threads are not shown: what the budget holds cannot be told
    // while they are held, so none is dropped.
    transcriptBudget: scope === undefined ? budget : Infinity,
    redact: false,
    keep,
    renderer: "grader",
    signal: options.signal,
    ...(observe === undefined ? {} : { onEntry: observe }),
  };
  const items = conversation(source, read);
  const ids = flag(options.ids, "ids", what);
  const drain = { past: false };
  const inScope = scope === undefined || scope === "each"
    ? undefined
    : (item: ConversationItem) => inThread(item, scope, names);
  const see = outcome === undefined ? undefined : (item: ConversationItem) => outcome.item(item);
  const shown = see === undefined && inScope === undefined
    ? items
    : filtered(items, inScope ?? (() => true), see);
  // With keep "ends" the whole session is read: past the head, a piece is measured and built
  // only if the tail holds it at the end.
  const sized = keep === "ends" ? graderSizedPieces(shown, itemBudget, ids) : undefined;
  const pieces = sized !== undefined
    ? builtPieces(sized)
    : scope === "each"
    ? sectionPieces(shown, names, itemBudget, ids, room, outcome !== undefined)
    : graderPieces(shown, itemBudget, ids, drain);
  const eachItem = keep !== "ends"
    ? undefined
    : (each: (item: ConversationItem) => void) =>
      forEachItem(source, (item) => {
        see?.(item);
        if (inScope === undefined || inScope(item)) each(item);
      }, read);
  return {
    pieces,
    sized,
    eachItem,
    budget,
    room,
    keep,
    envelope: wrapped,
    outcome,
    drain,
    blockBudget,
    chunked: false,
    itemBudget,
    ids,
  };
}

/** The `chunks` option checked: the chunks' size, or undefined. */
function chunkBytes(options: GraderOptions, what: string): number | undefined {
  const chunks = options.chunks;
  if (chunks === undefined) return undefined;
  const bytes = (chunks as { bytes?: unknown } | null)?.bytes;
  if (typeof bytes !== "number" || !Number.isSafeInteger(bytes) || bytes < CHUNK_MIN_BYTES) {
    throw new RangeError(
      `Cannot ${what}: chunks.bytes must be an integer of at least ${CHUNK_MIN_BYTES}: ${
        String(bytes)
      }`,
    );
  }
  const others: [string, boolean][] = [
    // Infinity, as `render --follow` gives it, is no budget.
    ["transcriptBudget", (options.transcriptBudget ?? Infinity) !== Infinity],
    ['keep "ends"', options.keep === "ends"],
    ["threads", options.threads !== undefined],
    ["outcome", options.outcome === true],
    ["envelope", options.envelope === true],
  ];
  for (const [name, given] of others) {
    if (given) {
      throw new RangeError(
        `Cannot ${what}: chunks render the whole session, one chunk at a time, not with ${name}`,
      );
    }
  }
  return bytes;
}

/** The plan of a session in chunks: every item, no transcript budget. */
function chunkPlan(
  source: EntryIterable,
  options: GraderOptions,
  bytes: number,
  what: string,
): Plan {
  const itemBudget = checkBudget(what, "itemBudget", options.itemBudget ?? GRADER_ITEM_BUDGET);
  const scope = threadScope(options, "head", what);
  const names = new ThreadNames();
  const items = conversation(source, {
    view: "grader",
    itemBudget,
    // Every item is shown: none held for consumption order is dropped.
    transcriptBudget: Infinity,
    redact: false,
    renderer: "grader",
    signal: options.signal,
    ...(scope === undefined ? {} : { onEntry: (entry: LogEntry) => names.learn(entry) }),
  });
  const shown = scope === undefined
    ? items
    : filtered(items, (item: ConversationItem) => inThread(item, scope, names));
  const ids = flag(options.ids, "ids", what);
  return {
    pieces: chunkPieces(shown, bytes, itemBudget, ids),
    sized: undefined,
    eachItem: undefined,
    budget: Infinity,
    room: Infinity,
    keep: "head",
    envelope: false,
    outcome: undefined,
    drain: { past: false },
    blockBudget: 0,
    chunked: true,
    itemBudget,
    ids,
  };
}

/** A boolean option checked. */
function flag(value: unknown, name: string, what: string): boolean {
  if (value === undefined || typeof value === "boolean") return value === true;
  throw new RangeError(`Cannot ${what}: ${name} must be true or false: ${String(value)}`);
}

/** The thread option checked: one thread's name, `"each"`, or undefined for the whole session. */
function threadScope(options: GraderOptions, keep: GraderKeep, what: string): string | undefined {
  const { thread, threads } = options;
  if (threads !== undefined && threads !== "each") {
    throw new RangeError(`Cannot ${what}: threads must be "each": ${String(threads)}`);
  }
  if (thread !== undefined && (typeof thread !== "string" || thread.trim() === "")) {
    throw new RangeError(`Cannot ${what}: thread must name a thread: ${JSON.stringify(thread)}`);
  }
  if (thread !== undefined && threads !== undefined) {
    throw new RangeError(`Cannot ${what}: thread and threads "each" are one or the other`);
  }
  if (threads === "each" && keep === "ends") {
    throw new RangeError(`Cannot ${what}: threads "each" keeps the head, not keep "ends"`);
  }
  return threads ?? thread?.trim();
}

/** The plan's whole text. */
export async function wholeText(plan: Plan): Promise<string> {
  if (plan.chunked) return (await Array.fromAsync(plan.pieces)).join("");
  const note = (): string => transcriptNote(plan.budget);
  let text: string;
  if (plan.outcome !== undefined) {
    text = await withOutcome(plan, plan.outcome, note);
  } else if (plan.keep === "head") {
    text = await joinWithinBudget(plan.pieces, plan.room, note, { cutAt: "line" });
  } else {
    text = await keepEnds(plan, plan.room);
  }
  return plan.envelope ? await envelope(text) : text;
}

/**
 * The plan's text in chunks: each item's as it completes, as `streamGrader`
 * documents; with the outcome block or the envelope, which only the end
 * tells, the whole text at the end.
 */
export function streamText(plan: Plan): AsyncIterable<string> {
  if (plan.chunked) return plan.pieces;
  if (plan.outcome !== undefined || plan.envelope) {
    return (async function* (): AsyncGenerator<string, void, undefined> {
      yield await wholeText(plan);
    })();
  }
  const note = (): string => transcriptNote(plan.budget);
  if (plan.keep === "head") {
    return streamWithinBudget(plan.pieces, plan.room, note, { cutAt: "line" });
  }
  return streamCapped(plan.sized!, new CappedText(plan.room));
}

/** The pieces built, each as it comes. */
async function* builtPieces(
  sized: AsyncIterable<SizedPiece>,
): AsyncGenerator<string, void, undefined> {
  for await (const piece of sized) yield piece.build();
}

/** The head and the tail of the items' pieces within `budget` bytes, one elision note between them. */
async function keepEnds(plan: Plan, budget: number): Promise<string> {
  return (await endsOf(plan, budget)).text({ cutAt: "line" });
}

/** The items' pieces pushed into a capped text of `cap` bytes, in one loop over the source. */
async function endsOf(plan: Plan, cap: number): Promise<CappedText> {
  const text = new CappedText(cap);
  const pieces = new EndsPieces(text, plan.itemBudget, plan.ids);
  await plan.eachItem!((item) => pieces.push(item));
  return text;
}

/**
 * The outcome block, then the transcript within what the block leaves of the
 * budget. The source is read to its end; past the budget its items are read
 * for the facts and not kept.
 */
async function withOutcome(plan: Plan, facts: OutcomeFacts, note: () => string): Promise<string> {
  if (plan.keep === "ends") {
    // The block's room is kept aside first: the tail is known only at the end.
    const most = blockMost(plan);
    const capped = await endsOf(plan, plan.room - most);
    const { text, elidedBytes } = capped.capped({ cutAt: "line" });
    const cut = elidedBytes === 0
      ? undefined
      : `its middle elided (${elidedBytes} bytes) within the ${plan.budget}-byte budget`;
    return joined(block(plan, facts, cut), text);
  }
  const kept: string[] = [];
  let bytes = 0;
  for await (const piece of plan.pieces) {
    kept.push(piece);
    bytes += utf8Length(piece);
    if (bytes > plan.room) plan.drain.past = true;
  }
  const whole = block(plan, facts, undefined);
  if (bytes + utf8Length(whole) + 1 <= plan.room) return joined(whole, kept.join(""));
  const cutBlock = block(plan, facts, `cut at the ${plan.budget}-byte budget`);
  const left = plan.room - utf8Length(cutBlock) - 1;
  const body = await joinWithinBudget(fromArray(kept), left, note, { cutAt: "line" });
  return joined(cutBlock, body);
}

/** The block and the transcript after it, a blank line between. */
function joined(block: string, text: string): string {
  return text === "" ? block : `${block}\n${text}`;
}

/** The outcome block: its label at the margin, its facts framed as an item's body. */
function block(plan: Plan, facts: OutcomeFacts, cut: string | undefined): string {
  return blockOf(plan, facts.text(cut));
}

function blockOf(plan: Plan, text: string): string {
  const item: ConversationItem = {
    kind: "system",
    from: "session",
    to: "user",
    label: OUTCOME_LABEL,
    text,
    cutBytes: 0,
    thread: null,
    seq: 0,
    processedAt: null,
  };
  return `[${OUTCOME_LABEL}]\n${framedItemBody(item, BODY_INDENT, plan.blockBudget)}\n`;
}

/** The most bytes a block can take: its label, its body and widest cut note, a blank line. */
function blockMost(plan: Plan): number {
  const label = utf8Length(`[${OUTCOME_LABEL}]\n`);
  return label + plan.blockBudget + utf8Length(cutNote(Number.MAX_SAFE_INTEGER)) + 2;
}

async function* fromArray(pieces: string[]): AsyncGenerator<string, void, undefined> {
  yield* pieces;
}
