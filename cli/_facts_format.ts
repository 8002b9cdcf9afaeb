// Copyright 2026 the brigade authors. MIT license.

/**
 * How `deno task facts` prints the reader's facts: a human line, a JSON line, and the short
 * status line for Claude Code, with what Claude Code's status-line JSON sends besides (the
 * context window, the model's display name, the cost and the rate limits), read defensively.
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

/**
 * The JSON line of `--statusline --json`: the facts as {@linkcode jsonLine} prints them (the
 * model falling back to Claude Code's id), then the window the percentage is of, and what
 * Claude Code sent, each only when sent and valid: `displayName`, `costUsd`, and `rateLimits`
 * (`fiveHour`, `sevenDay`: `usedPercent`, and `resetsAt` as an ISO 8601 time in UTC).
 */
export function statusJsonLine(
  facts: Facts,
  fallbackModel: string,
  options: StatusLineOptions = {},
): string {
  const out: Record<string, unknown> = {
    ...facts,
    model: sanitizeModel(facts.model) || sanitizeModel(fallbackModel),
    contextWindowTokens: options.windowSize ?? windowOf(facts.model, fallbackModel),
  };
  const displayName = sanitizeModel(options.displayName ?? "");
  if (displayName !== "") out.displayName = displayName;
  if (options.costUsd !== undefined) out.costUsd = options.costUsd;
  const limits: Record<string, unknown> = {};
  for (const [, name] of RATE_WINDOWS) {
    const window = options.rateLimits?.[name];
    if (window === undefined) continue;
    limits[name] = window.resetsAt === undefined ? { usedPercent: window.usedPercent } : {
      usedPercent: window.usedPercent,
      resetsAt: new Date(window.resetsAt * 1000).toISOString(),
    };
  }
  if (Object.keys(limits).length > 0) out.rateLimits = limits;
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

/** What the status line shows besides the facts: what Claude Code sent on stdin. */
export interface StatusLineOptions {
  /**
   * Claude Code's `model.display_name`, shown in place of the model id when it has any
   * printable character.
   *
   * @default {""}
   */
  displayName?: string;
  /**
   * Claude Code's `context_window.context_window_size`: it wins over the window the model id
   * implies.
   *
   * @default {undefined}
   */
  windowSize?: number | undefined;
  /**
   * The session's cost in US dollars (`cost.total_cost_usd`), already checked.
   *
   * @default {undefined}
   */
  costUsd?: number | undefined;
  /**
   * The rate-limit windows Claude Code sent, already checked (see {@linkcode rateLimitsOf}).
   *
   * @default {{}}
   */
  rateLimits?: RateLimits;
  /**
   * Whether Claude Code sent no `transcript_path` (and no context usage): the line says
   * `no transcript` where the context goes.
   *
   * @default {false}
   */
  noTranscript?: boolean;
  /**
   * The time the line is printed at, in milliseconds since the epoch: a reset is shown as the
   * time left until it.
   *
   * @default {Date.now()}
   */
  now?: number;
}

/**
 * The status line: `claude-opus-5[1m] · 30.2k tokens (3% of 1M)`. `fallbackModel` is the
 * model id Claude Code passed on stdin, used when the transcript names none yet. After a
 * compaction, until the next reply brings a new count, the last count is stale (often near
 * 100%), so no percentage is shown: `claude-opus-5[1m] · context compacted (was 155k)`.
 * What Claude Code sent besides (its display name, window size, cost and rate limits) comes
 * in `options`: `Opus 5 · 30.2k tokens (3% of 1M) · $0.42 · 5h 23% (resets in 2h10m)`.
 */
export function statusLine(
  facts: Facts,
  fallbackModel: string,
  options: StatusLineOptions = {},
): string {
  const model = sanitizeModel(options.displayName ?? "") || sanitizeModel(facts.model) ||
    sanitizeModel(fallbackModel) || "unknown model";
  const context = options.noTranscript
    ? "no transcript"
    : contextPart(facts, fallbackModel, options.windowSize);
  const parts = [model, context];
  if (options.costUsd !== undefined) parts.push(`$${options.costUsd.toFixed(2)}`);
  const now = options.now ?? Date.now();
  for (const [label, window] of RATE_WINDOWS) {
    const sent = options.rateLimits?.[window];
    if (sent !== undefined) parts.push(ratePart(label, sent, now));
  }
  return parts.join(" · ");
}

function contextPart(facts: Facts, fallbackModel: string, windowSize?: number): string {
  if (facts.compactedSinceUsage) {
    return facts.hasContext
      ? `context compacted (was ${shortTokens(facts.contextUsedTokens)})`
      : "context compacted";
  }
  if (!facts.hasContext) return "no context yet";
  const window = windowSize ?? windowOf(facts.model, fallbackModel);
  const percent = Math.round((facts.contextUsedTokens / window) * 100);
  const tokens = counted(shortTokens(facts.contextUsedTokens), "token");
  return `${tokens} (${percent}% of ${shortTokens(window)})`;
}

/** `5h 23% (resets in 2h10m)`, or `5h 23%` when the reset time was not sent. */
function ratePart(label: string, window: RateWindow, now: number): string {
  const used = `${label} ${Math.round(window.usedPercent)}%`;
  return window.resetsAt === undefined
    ? used
    : `${used} (resets in ${timeLeft(window.resetsAt * 1000 - now)})`;
}

/**
 * A time to come in two units at most, rounded down: `3d4h`, `2h10m`, `45m`, `<1m`. Relative,
 * so it needs no time zone, and it costs no locale data.
 */
export function timeLeft(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return "<1m";
  const days = Math.floor(minutes / 1_440);
  const hours = Math.floor((minutes % 1_440) / 60);
  if (days > 0) return `${days}d${hours}h`;
  return hours > 0 ? `${hours}h${minutes % 60}m` : `${minutes}m`;
}

/** One rate-limit window Claude Code sent, checked. */
export interface RateWindow {
  /** `used_percentage`: how much of the window's limit is used, 0 and up (it may pass 100). */
  usedPercent: number;
  /** `resets_at`, in seconds since the epoch; undefined when it was not sent or not believable. */
  resetsAt: number | undefined;
}

/** The rate-limit windows of Claude Code's status-line JSON, each when sent and valid. */
export interface RateLimits {
  /** `rate_limits.five_hour`: the 5-hour window. */
  fiveHour?: RateWindow;
  /** `rate_limits.seven_day`: the 7-day window. */
  sevenDay?: RateWindow;
}

/** The windows in the order shown: their label, their key here, and Claude Code's name. */
const RATE_WINDOWS: readonly (readonly [string, keyof RateLimits, string])[] = [
  ["5h", "fiveHour", "five_hour"],
  ["7d", "sevenDay", "seven_day"],
];
/** The highest use believed, in percent: past 100 is real (use over the limit), 1e308 is not. */
const MAX_USED_PERCENT = 1_000;
/** The farthest reset believed: a 7-day window resets within a week; a month is slack enough. */
const MAX_RESET_AHEAD_MS = 31 * 24 * 60 * 60 * 1000;
/** The highest session cost believed, in US dollars. */
const MAX_COST_USD = 1_000_000;

/** A number Claude Code sent: finite, from 0 to `max`. */
function bounded(value: unknown, max: number): number | undefined {
  return typeof value === "number" && value >= 0 && value <= max ? value : undefined;
}

/**
 * The `rate_limits` object of Claude Code's status-line JSON, read defensively at `now` (ms):
 * a window is kept when its `used_percentage` is a number from 0 to 1,000, and dropped when
 * its `resets_at` has passed (its use belongs to a window that is over). A `resets_at` that is
 * not a number of seconds within a month from now is left out; the use is still shown.
 */
export function rateLimitsOf(status: Record<string, unknown>, now: number): RateLimits {
  const limits = status.rate_limits;
  const out: RateLimits = {};
  if (typeof limits !== "object" || limits === null) return out;
  for (const [, name, field] of RATE_WINDOWS) {
    const sent = (limits as Record<string, unknown>)[field];
    if (typeof sent !== "object" || sent === null) continue;
    const { used_percentage: used, resets_at: resets } = sent as Record<string, unknown>;
    const usedPercent = bounded(used, MAX_USED_PERCENT);
    if (usedPercent === undefined) continue;
    const resetsMs = typeof resets === "number" && Number.isFinite(resets)
      ? resets * 1000
      : undefined;
    if (resetsMs !== undefined && resetsMs <= now) continue;
    const believable = resetsMs !== undefined && resetsMs - now <= MAX_RESET_AHEAD_MS;
    out[name] = { usedPercent, resetsAt: believable ? resets as number : undefined };
  }
  return out;
}

/** `cost.total_cost_usd` of Claude Code's status-line JSON: a number from 0 to a million. */
export function costOf(status: Record<string, unknown>): number | undefined {
  const cost = status.cost;
  if (typeof cost !== "object" || cost === null) return undefined;
  return bounded((cost as Record<string, unknown>).total_cost_usd, MAX_COST_USD);
}

/** `model.id` and `model.display_name` of Claude Code's status-line JSON, raw; `""` when absent. */
export function modelOf(status: Record<string, unknown>): { id: string; displayName: string } {
  const model = status.model;
  if (typeof model !== "object" || model === null) return { id: "", displayName: "" };
  const { id, display_name: name } = model as Record<string, unknown>;
  return {
    id: typeof id === "string" ? id : "",
    displayName: typeof name === "string" ? name : "",
  };
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

/** What the status line takes from Claude Code's status-line JSON, read defensively. */
export interface SentStatus {
  /** `model.id`: the model named when the transcript names none; `""` when absent. */
  modelId: string;
  /**
   * The context of the latest request (`context_window.current_usage`), when sent: everything
   * the line shows is then on stdin, and the transcript is not read.
   */
  used: number | undefined;
  /** What the line shows besides the facts: display name, window size, cost, rate limits. */
  options: StatusLineOptions;
}

/**
 * What the status line takes from Claude Code's status-line JSON at `now` (ms): Claude Code's
 * own figures, when it sends them, win over a guess and over a read.
 */
export function sentStatus(status: Record<string, unknown>, now: number): SentStatus {
  const model = modelOf(status);
  const window = contextWindowOf(status);
  return {
    modelId: model.id,
    used: window.used,
    options: {
      displayName: model.displayName,
      windowSize: window.size,
      costUsd: costOf(status),
      rateLimits: rateLimitsOf(status, now),
      now,
    },
  };
}

/**
 * The line printed for `facts` (`json`: {@linkcode statusJsonLine}, else {@linkcode statusLine});
 * with no facts, those of the context Claude Code sent (`sent.used`).
 */
export function sentStatusLine(
  sent: SentStatus,
  json: boolean,
  facts: Facts = {
    model: "",
    contextUsedTokens: sent.used ?? 0,
    hasContext: true,
    compactedSinceUsage: false,
  },
): string {
  return (json ? statusJsonLine : statusLine)(facts, sent.modelId, sent.options);
}
