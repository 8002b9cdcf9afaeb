// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

/**
 * The two facts a Claude Code transcript yields, and the rules that derive them from its
 * records. Records are folded in batches: a batch is walked from its last line backwards
 * (only the latest attachment and the latest usable assistant record of a batch can matter),
 * then merged into the running state, so a batch's result is the same as reading its
 * records forwards one by one.
 *
 * @module
 */

/** The model in use and the context tokens in use, as a transcript read so far says. */
export interface Facts {
  /**
   * The model id as Claude Code wrote it: the latest model attachment's full id
   * (`"claude-opus-5[1m]"`), unless a later usable assistant record names a bare id that
   * the attachment's id does not begin with; the latest bare id when no attachment was seen;
   * `""` when neither was. Raw: sanitise it before printing or sending it.
   */
  model: string;
  /**
   * `input_tokens + cache_creation_input_tokens + cache_read_input_tokens` of the latest
   * usable assistant record with a valid usage; `0` until one is seen. Never negative;
   * saturates at `Number.MAX_SAFE_INTEGER`.
   */
  contextUsedTokens: number;
  /** Whether any valid usage was seen (an all-zero usage is a valid reading of 0). */
  hasContext: boolean;
  /**
   * Whether a compaction (a `system` record with `subtype` `"compact_boundary"` or
   * `"microcompact_boundary"`, not a sidechain) came after the latest valid usage: until the
   * next assistant reply, `contextUsedTokens` is then the count from before the compaction.
   */
  compactedSinceUsage: boolean;
}

/** The model id Claude Code writes for a turn the API refused; it says nothing. */
const SYNTHETIC = "<synthetic>";

/** What one record says, once classified. */
export type Classified =
  | { kind: "attachment"; modelId: string }
  | { kind: "assistant"; model: string | null; usage: number | null }
  | { kind: "compaction" };

/** The `subtype`s of a `system` record that mark a compaction of the context. */
const COMPACTIONS: ReadonlySet<unknown> = new Set(["compact_boundary", "microcompact_boundary"]);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `undefined` and `null` both mean absent, as a JSON decoder into typed fields reads them. */
function isAbsent(value: unknown): value is undefined | null {
  return value === undefined || value === null;
}

/** {@linkcode readCount}'s answer for a negative integer: it voids the usage. */
const NEGATIVE = -1;
/** {@linkcode readCount}'s answer for anything but an integer: it voids the record. */
const WRONG_TYPE = -2;

/** Reads one usage count: the count (absent is 0), {@linkcode NEGATIVE} or {@linkcode WRONG_TYPE}. */
function readCount(value: unknown): number {
  if (isAbsent(value)) return 0;
  if (typeof value !== "number" || !Number.isInteger(value)) return WRONG_TYPE;
  return value < 0 ? NEGATIVE : value;
}

/**
 * Classifies one decoded JSON value. Returns `null` for anything that says nothing about
 * the facts: not an object, another record type, a sidechain, a `"<synthetic>"` turn, a
 * member of the wrong type (which voids the whole record), a model attachment without an id.
 */
export function classifyRecord(value: unknown): Classified | null {
  if (!isObject(value)) return null;
  const type = value.type;
  if (type !== "assistant" && type !== "attachment" && type !== "system") return null;
  const sidechain = value.isSidechain;
  if (!isAbsent(sidechain) && typeof sidechain !== "boolean") return null;
  if (sidechain === true) return null;
  if (type === "system") return COMPACTIONS.has(value.subtype) ? { kind: "compaction" } : null;
  if (type === "attachment") {
    const attachment = value.attachment;
    if (!isObject(attachment) || attachment.type !== "model") return null;
    const identity = attachment.identity;
    if (!isObject(identity)) return null;
    const modelId = identity.modelId;
    if (typeof modelId !== "string" || modelId === "") return null;
    return { kind: "attachment", modelId: modelId.toWellFormed() };
  }
  const message = value.message;
  if (!isObject(message)) return null;
  const rawModel = message.model;
  let model: string | null = null;
  if (typeof rawModel === "string") {
    if (rawModel === SYNTHETIC) return null;
    if (rawModel !== "") model = rawModel.toWellFormed();
  } else if (!isAbsent(rawModel)) {
    return null;
  }
  const rawUsage = message.usage;
  let usage: number | null = null;
  if (isObject(rawUsage)) {
    const input = readCount(rawUsage.input_tokens);
    const creation = readCount(rawUsage.cache_creation_input_tokens);
    const read = readCount(rawUsage.cache_read_input_tokens);
    if (input === WRONG_TYPE || creation === WRONG_TYPE || read === WRONG_TYPE) return null;
    if (input !== NEGATIVE && creation !== NEGATIVE && read !== NEGATIVE) {
      // Adding 0 turns a -0 into 0; a sum past the safe range saturates there.
      usage = Math.min(input + creation + read, Number.MAX_SAFE_INTEGER) + 0;
    }
  } else if (!isAbsent(rawUsage)) {
    return null;
  }
  return { kind: "assistant", model, usage };
}

/**
 * What one batch of consecutive lines says, found by offering its records from the LAST
 * one backwards. Once {@linkcode BatchSummary.needsAssistant} and
 * {@linkcode BatchSummary.needsAttachment} are both false, earlier records in the batch
 * cannot change the result.
 */
export class BatchSummary {
  /** The latest model attachment's id in the batch. */
  attachment: string | null = null;
  /** The latest usable assistant's bare id in the batch, after its latest attachment. */
  bare: string | null = null;
  /** The latest valid usage sum in the batch. */
  usage: number | null = null;
  /** Whether a compaction in the batch comes after its latest valid usage (or it has none). */
  compacted = false;

  /** Whether an earlier assistant record could still change the result. */
  get needsAssistant(): boolean {
    return this.usage === null || (this.bare === null && this.attachment === null);
  }

  /** Whether an earlier attachment record could still change the result. */
  get needsAttachment(): boolean {
    return this.attachment === null;
  }

  /** Whether nothing earlier in the batch can change the result. */
  get done(): boolean {
    return !this.needsAssistant && !this.needsAttachment;
  }

  /** Offers the record that precedes every record offered so far. */
  offer(record: Classified | null): void {
    if (record === null) return;
    if (record.kind === "compaction") {
      if (this.usage === null) this.compacted = true;
      return;
    }
    if (record.kind === "attachment") {
      if (this.attachment === null) this.attachment = record.modelId;
      return;
    }
    if (record.model !== null && this.bare === null && this.attachment === null) {
      this.bare = record.model;
    }
    if (record.usage !== null && this.usage === null) this.usage = record.usage;
  }

  /** Empties the summary for the next batch. */
  clear(): void {
    this.attachment = null;
    this.bare = null;
    this.usage = null;
    this.compacted = false;
  }
}

/**
 * What a reader remembers of the records read, as plain data in a saved
 * reader state: model ids and counts, never other transcript text.
 */
export interface SavedFacts {
  /** The latest model attachment's id. */
  attachment: string | null;
  /** The latest usable assistant's bare id since that attachment. */
  bareSinceAttachment: string | null;
  /** The latest usable assistant's bare id. */
  lastBare: string | null;
  /** The latest valid usage sum. */
  contextUsedTokens: number;
  /** Whether a valid usage was seen. */
  hasContext: boolean;
  /** Whether a compaction came after the latest valid usage. */
  compactedSinceUsage: boolean;
}

function isIdOrNull(value: unknown): value is string | null {
  return value === null || (typeof value === "string" && value !== "" && value.isWellFormed());
}

/** Whether `value` is a {@linkcode SavedFacts} the rules could have produced. */
export function isSavedFacts(value: unknown): value is SavedFacts {
  if (!isObject(value)) return false;
  const { contextUsedTokens: context, hasContext } = value;
  return isIdOrNull(value.attachment) && isIdOrNull(value.bareSinceAttachment) &&
    isIdOrNull(value.lastBare) && typeof hasContext === "boolean" &&
    typeof value.compactedSinceUsage === "boolean" && Number.isSafeInteger(context) &&
    (context as number) >= 0 && (hasContext || context === 0) &&
    (value.bareSinceAttachment === null || value.lastBare !== null);
}

/** The facts of every line consumed so far, folded batch by batch in file order. */
export class FactsState {
  #memory: SavedFacts = FactsState.#empty();

  static #empty(): SavedFacts {
    return {
      attachment: null,
      bareSinceAttachment: null,
      lastBare: null,
      contextUsedTokens: 0,
      hasContext: false,
      compactedSinceUsage: false,
    };
  }

  /** Merges the summary of the batch that follows every batch merged so far. */
  merge(batch: BatchSummary): void {
    const memory = this.#memory;
    if (batch.attachment !== null) {
      memory.attachment = batch.attachment;
      memory.bareSinceAttachment = batch.bare;
    } else if (batch.bare !== null) {
      memory.bareSinceAttachment = batch.bare;
    }
    if (batch.bare !== null) memory.lastBare = batch.bare;
    if (batch.usage !== null) {
      memory.contextUsedTokens = batch.usage;
      memory.hasContext = true;
      memory.compactedSinceUsage = batch.compacted;
    } else if (batch.compacted) {
      memory.compactedSinceUsage = true;
    }
  }

  /** Forgets everything (the file was truncated or replaced). */
  reset(): void {
    this.#memory = FactsState.#empty();
  }

  /** What is remembered, as a new object. */
  save(): SavedFacts {
    return { ...this.#memory };
  }

  /** Takes over what a {@linkcode FactsState.save} returned (checked by the caller). */
  restore(memory: SavedFacts): void {
    this.#memory = { ...memory };
  }

  /** The facts so far, as a new object. */
  facts(): Facts {
    const { attachment, bareSinceAttachment: bare, lastBare } = this.#memory;
    let model = "";
    if (attachment !== null) {
      model = bare !== null && !attachment.startsWith(bare) ? bare : attachment;
    } else if (lastBare !== null) {
      model = lastBare;
    }
    const { contextUsedTokens, hasContext, compactedSinceUsage } = this.#memory;
    return { model, contextUsedTokens, hasContext, compactedSinceUsage };
  }
}
