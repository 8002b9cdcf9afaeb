// Copyright 2026 the brigade authors. MIT license.

/**
 * The record types of a Claude Code transcript, by which a record read as an event is told apart
 * from a Managed Agents event: kept apart from the format's peek (`_format.ts`, and the line
 * splitter it reads with), which a render of the bundled example never needs.
 *
 * @module
 */

/** The record types of a Claude Code transcript (its bookkeeping ones included). */
export const CLAUDE_CODE_TYPES: ReadonlySet<string> = new Set([
  "user",
  "assistant",
  "system",
  "summary",
  "progress",
  "attachment",
  "file-history-snapshot",
  "queue-operation",
  "custom-title",
  "tag",
  // Newer Claude Code versions' (reference/claude-code-transcripts.md): one may come first.
  "ai-title",
  "agent-name",
  "last-prompt",
  "mode",
  "permission-mode",
  "agent-setting",
  "bridge-session",
  "worktree-state",
  "continued-in",
]);

/**
 * The type of a Claude Code record read as an event (`user`, `assistant`…),
 * undefined for anything else: no Managed Agents event type lacks a dot.
 */
export function claudeCodeType(event: unknown): string | undefined {
  const type = (event as { type?: unknown } | null)?.type;
  return typeof type === "string" && CLAUDE_CODE_TYPES.has(type) ? type : undefined;
}
