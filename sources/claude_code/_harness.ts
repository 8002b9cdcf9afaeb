// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// What Claude Code's own records say, as events: `system` records (an API error, a recap, a
// notice, a hook that failed) and hook attachments. Each keeps the words it carries; a record
// that carries none gives undefined, and the mapper counts it as not rendered.

import type { SessionEvent } from "../../events/types.ts";

type Json = Record<string, unknown>;
type At = { processed_at?: string };

/**
 * Who added a `system.message` that `fromClaudeCode` writes for Claude Code's
 * harness, in its `source` member (see `SystemMessageEvent.source`).
 */
export type HarnessSource =
  | "context"
  | "hook"
  | "recap"
  | "notice"
  | "command"
  | "shell"
  | "shell_output"
  | "shell_error";

/** A system message added by the harness, marked with who added it. */
export function harnessMessage(
  id: string,
  at: At,
  source: HarnessSource,
  content: string,
  extra: Json = {},
): SessionEvent {
  return { id, type: "system.message", ...at, content, source, ...extra } as SessionEvent;
}

/** The event of a `system` record, or undefined when it carries no words shown. */
export function systemEvent(record: Json, id: string, at: At): SessionEvent | undefined {
  switch (record.subtype) {
    case "api_error":
      return apiError(record, id, at);
    case "away_summary": {
      const text = words(record.content);
      return text === undefined ? undefined : harnessMessage(id, at, "recap", text);
    }
    case "informational": {
      const text = words(record.content);
      return text === undefined ? undefined : harnessMessage(id, at, "notice", text);
    }
    case "stop_hook_summary":
      return stopHooks(record, id, at);
    default:
      return undefined;
  }
}

/** An API error Claude Code met (and maybe retries) as a `session.error`. */
function apiError(record: Json, id: string, at: At): SessionEvent {
  const cause = isObject(record.error) ? record.error : {};
  const status = typeof cause.status === "number" ? cause.status : undefined;
  const inner = isObject(cause.error) && isObject(cause.error.error) ? cause.error.error : {};
  const said = words(record.content) ?? words(inner.message) ?? words(cause.message);
  const type = status === 529 || inner.type === "overloaded_error"
    ? "model_overloaded_error"
    : status === 429
    ? "model_rate_limited_error"
    : "model_request_failed_error";
  const parts = [status === undefined ? "API error" : `API error ${status}`];
  if (said !== undefined) parts.push(said);
  const attempt = typeof record.retryAttempt === "number" ? record.retryAttempt : undefined;
  const max = typeof record.maxRetries === "number" ? record.maxRetries : undefined;
  if (attempt !== undefined) {
    parts.push(`attempt ${attempt}${max === undefined ? "" : ` of ${max}`}`);
  }
  const retrying = typeof record.retryInMs === "number";
  return {
    id,
    type: "session.error",
    ...at,
    error: {
      type,
      message: parts.join(": "),
      retry_status: { type: retrying ? "retrying" : "terminal" },
    },
  };
}

/** A stop hook's summary, when a hook failed or stopped the session; else undefined. */
function stopHooks(record: Json, id: string, at: At): SessionEvent | undefined {
  const errors = Array.isArray(record.hookErrors)
    ? record.hookErrors.map((e) => words(e)).filter((e) => e !== undefined)
    : [];
  const reason = record.preventedContinuation === true ? words(record.stopReason) : undefined;
  if (errors.length === 0 && reason === undefined) return undefined;
  const lines = errors.map((e) => `Stop hook error: ${e}`);
  if (reason !== undefined) lines.push(`Stop hook stopped the session: ${reason}`);
  return harnessMessage(id, at, "hook", lines.join("\n"));
}

/** What each hook attachment is called in the text it gives. */
const HOOK_ATTACHMENTS: Readonly<Record<string, string>> = {
  hook_additional_context: "additional context",
  hook_success: "output",
  hook_non_blocking_error: "non-blocking error",
  hook_blocking_error: "blocking error",
  hook_error_during_execution: "error",
  hook_system_message: "message",
  hook_stopped_continuation: "stopped the session",
};

/**
 * The hook item of a hook attachment (`hook_additional_context`, which the
 * model reads, and the other `hook_*` ones that carry words), or undefined.
 */
export function hookEvent(attachment: Json, id: string, at: At): SessionEvent | undefined {
  const what = HOOK_ATTACHMENTS[String(attachment.type)];
  if (what === undefined) return undefined;
  const blocking = isObject(attachment.blockingError) ? attachment.blockingError : {};
  const text = words(attachment.content) ?? words(attachment.stdout) ??
    words(blocking.blockingError) ?? words(attachment.stderr) ?? words(attachment.message);
  if (text === undefined) return undefined;
  const name = words(attachment.hookName) ?? words(attachment.hookEvent) ?? "A";
  const command = words(blocking.command) ?? words(attachment.command);
  const from = command === undefined ? "" : ` (command: ${command})`;
  return harnessMessage(id, at, "hook", `${name} hook ${what}${from}:\n${text}`);
}

/** The words of a string, or of an array of strings and text blocks; undefined when blank. */
export function words(value: unknown): string | undefined {
  let text: string | undefined;
  if (typeof value === "string") text = value;
  else if (Array.isArray(value)) {
    text = value.map((part) =>
      typeof part === "string"
        ? part
        : isObject(part) && typeof part.text === "string"
        ? part.text
        : ""
    ).filter((part) => part.trim() !== "").join("\n");
  }
  return text === undefined || text.trim() === "" ? undefined : text.trim();
}

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
