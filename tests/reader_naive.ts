// Copyright 2026 the brigade authors. MIT license.

/**
 * An independent, deliberately naive statement of the reader's rules, for tests to check the
 * reader against: the whole input in memory, split on newlines, every complete line decoded
 * and parsed, the records folded forwards one by one. It shares no code with `reader/`.
 *
 * @module
 */

/** The facts, as the reader reports them. */
export interface NaiveFacts {
  model: string;
  contextUsedTokens: number;
  hasContext: boolean;
  compactedSinceUsage: boolean;
}

function plainObject(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? value as Record<string, unknown>
    : undefined;
}

function wellFormed(text: string): string {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        out += text[i]! + text[i + 1]!;
        i++;
        continue;
      }
      out += "\ufffd";
    } else if (unit >= 0xdc00 && unit <= 0xdfff) {
      out += "\ufffd";
    } else {
      out += text[i]!;
    }
  }
  return out;
}

/** The facts of the complete lines of `bytes`, lines longer than `maxLineBytes` skipped. */
export function naiveFacts(bytes: Uint8Array, maxLineBytes: number = 64 << 20): NaiveFacts {
  let attachment: string | undefined;
  let bareAfter: string | undefined;
  let bare: string | undefined;
  let context = 0;
  let hasContext = false;
  let compacted = false;
  const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  let start = 0;
  for (let end = bytes.indexOf(10); end !== -1; start = end + 1, end = bytes.indexOf(10, start)) {
    if (end - start > maxLineBytes) continue;
    let text = decoder.decode(bytes.subarray(start, end));
    if (start === 0 && text.startsWith("\ufeff")) text = text.slice(1);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      continue;
    }
    const record = plainObject(value);
    if (record === undefined) continue;
    const side = record.isSidechain;
    if (side !== undefined && side !== null && side !== false) continue; // true or a wrong type
    if (record.type === "system") {
      if (record.subtype === "compact_boundary" || record.subtype === "microcompact_boundary") {
        compacted = true;
      }
      continue;
    }
    if (record.type === "attachment") {
      const inner = plainObject(record.attachment);
      if (inner?.type !== "model") continue;
      const id = plainObject(inner.identity)?.modelId;
      if (typeof id !== "string" || id.length === 0) continue;
      attachment = wellFormed(id);
      bareAfter = undefined;
      continue;
    }
    if (record.type !== "assistant") continue;
    const message = plainObject(record.message);
    if (message === undefined) continue;
    const model = message.model;
    if (model === "<synthetic>") continue;
    if (model !== undefined && model !== null && typeof model !== "string") continue;
    const usage = message.usage;
    let sum: number | undefined;
    if (usage !== undefined && usage !== null) {
      const counts = plainObject(usage);
      if (counts === undefined) continue;
      let negative = false;
      let wrong = false;
      sum = 0;
      for (
        const key of ["input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens"]
      ) {
        const count = counts[key];
        if (count === undefined || count === null) continue;
        if (typeof count !== "number" || !Number.isInteger(count)) wrong = true;
        else if (count < 0) negative = true;
        else sum += count;
      }
      if (wrong) continue;
      if (negative) sum = undefined;
      else if (sum > Number.MAX_SAFE_INTEGER) sum = Number.MAX_SAFE_INTEGER;
    }
    if (typeof model === "string" && model.length > 0) {
      bare = wellFormed(model);
      bareAfter = bare;
    }
    if (sum !== undefined) {
      context = sum === 0 ? 0 : sum;
      hasContext = true;
      compacted = false;
    }
  }
  let model = "";
  if (attachment !== undefined) {
    model = bareAfter !== undefined && !attachment.startsWith(bareAfter) ? bareAfter : attachment;
  } else if (bare !== undefined) {
    model = bare;
  }
  return { model, contextUsedTokens: context, hasContext, compactedSinceUsage: compacted };
}
