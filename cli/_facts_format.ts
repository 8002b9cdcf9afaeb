// Copyright 2026 the brigade authors. MIT license.

/**
 * How `deno task facts` prints the reader's facts: a human line, a JSON line, and the short
 * status line for Claude Code.
 *
 * @module
 */

import type { Facts } from "../reader/mod.ts";

/** The context window of a model whose id carries `[1m]`. */
export const WINDOW_1M = 1_000_000;
/** The context window of any other model. */
export const WINDOW_DEFAULT = 200_000;
/** The longest model id printed, in code points; a longer one is cut with an ellipsis. */
const MAX_MODEL_CHARS = 80;

/**
 * Control characters (C0, DEL, C1) and the invisible bidirectional controls, which could
 * rewrite what a terminal shows.
 */
const CONTROLS = /[\p{Cc}\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

/** A model id safe to print: control characters stripped, cut to a sane length. */
export function sanitizeModel(model: string): string {
  const clean = model.replace(CONTROLS, "").trim();
  const chars = [...clean];
  return chars.length > MAX_MODEL_CHARS
    ? chars.slice(0, MAX_MODEL_CHARS - 1).join("") + "…"
    : clean;
}

/** The human line: `claude-opus-5[1m] · 30,179 context tokens`. */
export function humanLine(facts: Facts): string {
  const model = sanitizeModel(facts.model) || "unknown model";
  const context = facts.hasContext
    ? `${facts.contextUsedTokens.toLocaleString("en-US")} context tokens`
    : "no context reading yet";
  return `${model} · ${context}`;
}

/** The JSON line: the facts (model sanitised), and the error code when there is one. */
export function jsonLine(facts: Facts, error?: string): string {
  const out: Record<string, unknown> = { ...facts, model: sanitizeModel(facts.model) };
  if (error !== undefined) out.error = error;
  return JSON.stringify(out);
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
 * model id Claude Code passed on stdin, used when the transcript names none yet.
 */
export function statusLine(facts: Facts, fallbackModel: string): string {
  const model = sanitizeModel(facts.model) || sanitizeModel(fallbackModel) || "unknown model";
  if (!facts.hasContext) return `${model} · no context yet`;
  const window = windowOf(facts.model, fallbackModel);
  const percent = Math.round((facts.contextUsedTokens / window) * 100);
  return `${model} · ${shortTokens(facts.contextUsedTokens)} tokens (${percent}% of ${
    shortTokens(window)
  })`;
}
