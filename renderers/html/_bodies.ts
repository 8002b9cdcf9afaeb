// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// What the page asks of its body builders (`_body.ts`), as types and the one constant the
// renderer reads of each entry: the page and the folder index are built without importing the
// builders, whose Markdown parser and diff library `.` does not load until a page is rendered.

import type { Html } from "./_html.ts";

/** What a body is built from, besides its text. */
export interface BodySettings {
  /** Whether secrets are redacted (the input of an edit is read whole, here). */
  redact: boolean;
  /** The most UTF-8 bytes of text an item shows. */
  itemBudget: number;
}

/** A body and how many bytes of its text were left out. */
export interface Body {
  html: Html;
  /** UTF-8 bytes of text left out by the item budget. */
  cutBytes: number;
  /** The size the summary of a folded block names (bytes of the shown text, lines). */
  bytes: number;
  lines: number;
  /** What the folded block's summary previews, when not the call's text (a path, a pattern). */
  preview?: string;
}

/** The body builders the page calls (`_body.ts` is one). */
export interface Bodies {
  /** Bytes and lines of a text. */
  sizeOf(text: string): { bytes: number; lines: number };
  /** A message as HTML (Markdown). */
  markdownHtml(text: string): Html;
  /** A tool call's body from its whole input (an object), for any tool. */
  toolCallBody(tool: string, input: unknown, settings: BodySettings): Body | undefined;
  /** A tool result's body, for the tools whose output reads better otherwise (Read, Agent). */
  toolResultBody(tool: string | undefined, text: string): Html | undefined;
  /** A tool call's input as the kit gives it (JSON), indented when it is whole JSON. */
  inputText(tool: string | undefined, text: string, whole: boolean): string;
  /** A monospace block of text. */
  codeBlock(text: string): Html;
}

/**
 * The tools `toolCallBody` has a body of its own for; any other tool's whole
 * input is shown as key–value text.
 */
export const WHOLE_INPUT_TOOLS: ReadonlySet<string> = new Set([
  "Edit",
  "MultiEdit",
  "Write",
  "TodoWrite",
  "Task",
  "Agent",
  "ExitPlanMode",
  "Read",
  "Grep",
  "Glob",
  "WebFetch",
  "WebSearch",
  "NotebookEdit",
]);
