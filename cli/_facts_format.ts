// Copyright 2026 the brigade authors. MIT license.

/**
 * How `deno task facts` prints the reader's facts: a human line, a JSON line, and the short
 * status line for Claude Code.
 *
 * @module
 */

import type { Facts } from "../reader/mod.ts";
import { counted } from "./_plural.ts";

/** The context window of a model whose id carries `[1m]`. */
export const WINDOW_1M = 1_000_000;
/** The context window of any other model. */
export const WINDOW_DEFAULT = 200_000;
/** The longest model id printed, in code points; a longer one is cut with an ellipsis. */
const MAX_MODEL_CHARS = 80;

/**
 * Control characters (C0, DEL, C1: `\p{Cc}`, spelled as ranges, since a Unicode property
 * costs a status-line process milliseconds to compile) and the invisible bidirectional
 * controls, which could rewrite what a terminal shows.
 */
// deno-lint-ignore no-control-regex -- control characters are what it matches
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** A model id safe to print: control characters stripped, cut to a sane length. */
export function sanitizeModel(model: string): string {
  const clean = model.replace(CONTROLS, "").trim();
  const chars = [...clean];
  return chars.length > MAX_MODEL_CHARS
    ? chars.slice(0, MAX_MODEL_CHARS - 1).join("") + "…"
    : clean;
}

/**
 * The human line: `claude-opus-5[1m] · 30,179 context tokens`, with
 * `(before a compaction)` after the count when a compaction came after it.
 */
export function humanLine(facts: Facts): string {
  const model = sanitizeModel(facts.model) || "unknown model";
  let context = facts.hasContext
    ? counted(thousands(facts.contextUsedTokens), "context token")
    : "no context reading yet";
  if (facts.compactedSinceUsage) {
    context = facts.hasContext ? `${context} (before a compaction)` : "context compacted";
  }
  return `${model} · ${context}`;
}

/** The JSON line: the facts (model sanitised), and the error code when there is one. */
export function jsonLine(facts: Facts, error?: string): string {
  const out: Record<string, unknown> = { ...facts, model: sanitizeModel(facts.model) };
  if (error !== undefined) out.error = error;
  return JSON.stringify(out);
}

/** `30179` as `30,179`: `toLocaleString` would cost a process tens of ms of locale data. */
function thousands(count: number): string {
  return String(count).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** Tokens in a few characters: `950`, `30.2k`, `1.25M`. */
export function shortTokens(tokens: number): string {
  if (tokens < 1_000) return String(tokens);
  if (tokens < 1_000_000) return `${(tokens / 1_000).toFixed(1).replace(/\.0$/, "")}k`;
  return `${(tokens / 1_000_000).toFixed(2).replace(/\.?0+$/, "")}M`;
}

/** The window a model id implies: 1M when it carries `[1m]`, else 200k. */
export function windowOf(...modelIds: string[]): number {
  return modelIds.some((id) => /\[1m\]/i.test(id)) ? WINDOW_1M : WINDOW_DEFAULT;
}

/**
 * The status line: `claude-opus-5[1m] · 30.2k tokens (3% of 1M)`. `fallbackModel` is the
 * model id Claude Code passed on stdin, used when the transcript names none yet. After a
 * compaction, until the next reply brings a new count, the last count is stale (often near
 * 100%), so no percentage is shown: `claude-opus-5[1m] · context compacted (was 155k)`.
 * `windowSize`, when Claude Code sent one, wins over the window the model id implies.
 */
export function statusLine(facts: Facts, fallbackModel: string, windowSize?: number): string {
  const model = sanitizeModel(facts.model) || sanitizeModel(fallbackModel) || "unknown model";
  if (facts.compactedSinceUsage) {
    return facts.hasContext
      ? `${model} · context compacted (was ${shortTokens(facts.contextUsedTokens)})`
      : `${model} · context compacted`;
  }
  if (!facts.hasContext) return `${model} · no context yet`;
  const window = windowSize ?? windowOf(facts.model, fallbackModel);
  const percent = Math.round((facts.contextUsedTokens / window) * 100);
  const tokens = counted(shortTokens(facts.contextUsedTokens), "token");
  return `${model} · ${tokens} (${percent}% of ${shortTokens(window)})`;
}

/** What Claude Code's status-line JSON says of the context window, when it says it. */
export interface ClaudeContextWindow {
  /** `context_window.context_window_size`: the window of the session's model. */
  size: number | undefined;
  /**
   * The context of the latest request, from `context_window.current_usage`: its input,
   * cache-creation and cache-read tokens; undefined before the first request (`null`).
   */
  used: number | undefined;
}

/** A count Claude Code sent: a whole number, not negative. */
function count(value: unknown): number | undefined {
  return Number.isSafeInteger(value) && (value as number) >= 0 ? value as number : undefined;
}

/**
 * The `context_window` object of Claude Code's status-line JSON, read defensively: a field
 * missing or of another shape is undefined, and a window size must be positive.
 */
export function contextWindowOf(status: Record<string, unknown>): ClaudeContextWindow {
  const window = status.context_window;
  if (typeof window !== "object" || window === null) return { size: undefined, used: undefined };
  const { context_window_size: size, current_usage: usage } = window as Record<string, unknown>;
  let used: number | undefined;
  if (typeof usage === "object" && usage !== null) {
    const u = usage as Record<string, unknown>;
    const parts = [
      u.input_tokens,
      u.cache_creation_input_tokens ?? 0,
      u.cache_read_input_tokens ?? 0,
    ]
      .map(count);
    if (parts.every((part) => part !== undefined)) {
      used = parts.reduce((sum: number, part) => sum + part!, 0);
    }
  }
  const positive = count(size);
  return { size: positive === 0 ? undefined : positive, used };
}
