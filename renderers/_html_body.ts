// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// The bodies of a session page's items: Markdown for messages (CommonMark and
// GitHub's tables, task lists, strikethrough and autolinks, through micromark
// with raw HTML off and unsafe link protocols dropped), unified diffs for
// edits, code blocks for written files, monospace blocks for tool output. The
// html renderer loads this module on first use, so `.` imports no third-party
// code until a page is rendered.

import { micromark } from "micromark";
import { gfm, gfmHtml } from "micromark-extension-gfm";
import { structuredPatch } from "diff";
import { redact as redactSecrets } from "../redact/mod.ts";
import { visibleControls } from "../redact/excerpt.ts";
import { cutBodyParts } from "./budget.ts";
import { utf8Length } from "./utf8.ts";
import { type Html, markup, trusted } from "./_html.ts";

/** What a body is built from, besides its text. */
export interface BodySettings {
  /** Whether secrets are redacted (the input of an edit is read whole, here). */
  redact: boolean;
  /** The most UTF-8 bytes of text an item shows. */
  itemBudget: number;
}

// ---------------------------------------------------------------- Markdown

/**
 * Any of these means the text may hold Markdown: a character with a meaning,
 * a line that starts a list, a heading underline or a code block, an edge
 * space (a hard break), an autolink's start.
 */
const SYNTAX_CHARS = /[\\`*_#>[\]!<&|~=\t]|https?:|www\.|@/;
/** A line that starts with a space, a list marker or a number and `.`; a trailing space; a third newline. */
const SYNTAX_LINES = /(?:^|\n)(?: |[-+]|\d+[.)])| (?:\n|$)|\n\n\n|^\n|\n$/;

/**
 * Whether `text` reads the same as plain paragraphs: no Markdown syntax, so
 * the parser can be skipped ({@linkcode markdownHtml} gives the same DOM).
 */
export function isPlainProse(text: string): boolean {
  return !SYNTAX_CHARS.test(text) && !SYNTAX_LINES.test(text);
}

/**
 * A message as HTML: Markdown through micromark (raw HTML shown as text,
 * `javascript:` and `data:` links not links, images named and never loaded,
 * headings below the item's own), plain prose straight to paragraphs.
 *
 * @param text The message, redacted and its controls made visible.
 * @param prefix What this item's footnote ids start with (unique on the page).
 */
export function markdownHtml(text: string, prefix: string): Html {
  if (isPlainProse(text)) return plainParagraphs(text);
  const out = micromark(text, {
    extensions: [gfm()],
    htmlExtensions: [gfmHtml({ clobberPrefix: prefix })],
  });
  // micromark escapes every text it writes, so its own tags are the only `<` in `out`.
  return trusted(tidy(out));
}

/** Paragraphs split on blank lines, escaped, as micromark writes them. */
function plainParagraphs(text: string): Html {
  const paragraphs = text.split("\n\n").filter((p) => p !== "");
  return markup`${paragraphs.map((p, i) => markup`${i > 0 ? "\n" : ""}<p>${p}</p>`)}`;
}

/**
 * micromark's output made fit for the page: headings start below the item's
 * `<h2>`, a link whose protocol was refused (`href=""`) is plain text, an
 * image is named but never loaded, a task box is a symbol rather than a
 * form control, and fenced code is labelled with its language.
 */
function tidy(out: string): string {
  return out
    .replace(
      /<(\/?)h([1-6])>/g,
      (_, close: string, level: string) => `<${close}h${Math.min(6, Number(level) + 2)}>`,
    )
    .replace(/<a href="">([\s\S]*?)<\/a>/g, '<span class="link-removed">$1</span>')
    .replace(
      /<img src="([^"]*)" alt="([^"]*)"(?: title="[^"]*")? \/>/g,
      '<span class="image">[image: $2]</span>',
    )
    .replace(
      /<input type="checkbox" disabled=""( checked="")? \/>/g,
      (_, checked?: string) =>
        checked
          ? '<span class="task" role="img" aria-label="done">☑</span>'
          : '<span class="task" role="img" aria-label="not done">☐</span>',
    )
    .replace(
      /<pre><code class="language-([^"]*)">([\s\S]*?)<\/code><\/pre>/g,
      '<div class="fenced"><p class="lang">$1</p><pre class="code"><code>$2</code></pre></div>',
    )
    .replace(/<pre><code>/g, '<pre class="code"><code>');
}

// ---------------------------------------------------------------- tools

/** An edit's or a write's text, redacted when the page is, controls visible, within a budget. */
function field(value: unknown, settings: BodySettings, budget = settings.itemBudget): {
  text: string;
  cutBytes: number;
} {
  const raw = typeof value === "string" ? value : "";
  const shown = visibleControls(
    (settings.redact ? redactSecrets(raw) : raw).replace(/\r\n?/g, "\n"),
  );
  const { head, cutBytes } = cutBodyParts(shown, budget);
  return { text: head, cutBytes };
}

/** A body and how many bytes of its text were left out. */
export interface Body {
  html: Html;
  /** UTF-8 bytes of text left out by the item budget. */
  cutBytes: number;
  /** The size the summary of a folded block names (bytes of the shown text, lines). */
  bytes: number;
  lines: number;
}

/** `Edit` and `MultiEdit` inputs as one unified diff per edit. */
function editBody(input: Record<string, unknown>, settings: BodySettings): Body | undefined {
  const edits = Array.isArray(input.edits)
    ? input.edits.filter((e): e is Record<string, unknown> => typeof e === "object" && e !== null)
    : [input];
  if (
    edits.length === 0 ||
    edits.some((e) => typeof e.old_string !== "string" || typeof e.new_string !== "string")
  ) {
    return undefined;
  }
  const path = field(input.file_path, settings, 1_000).text;
  let left = settings.itemBudget;
  let cutBytes = 0;
  let bytes = 0;
  let lines = 0;
  const hunks: Html[] = [];
  for (const edit of edits) {
    const before = field(edit.old_string, settings, Math.max(1, left));
    const after = field(edit.new_string, settings, Math.max(1, left));
    if (left <= 0) {
      cutBytes += utf8Length(before.text) + utf8Length(after.text) + before.cutBytes +
        after.cutBytes;
      continue;
    }
    cutBytes += before.cutBytes + after.cutBytes;
    const patch = structuredPatch(path, path, withEnd(before.text), withEnd(after.text), "", "", {
      context: 3,
      maxEditLength: 4_000,
    });
    const diffLines: string[] = patch === undefined
      ? [
        "@@ (too many changes to align: the old text, then the new) @@",
        ...before.text.split("\n").map((l) => `-${l}`),
        ...after.text.split("\n").map((l) => `+${l}`),
      ]
      : patch.hunks.flatMap((h) => [
        `@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`,
        ...h.lines.filter((l) => !l.startsWith("\\")),
      ]);
    for (const line of diffLines) {
      const size = utf8Length(line) + 1;
      if (left - size < 0) {
        cutBytes += size;
        continue;
      }
      left -= size;
      bytes += size;
      lines++;
      const kind = line.startsWith("@@")
        ? "hunk"
        : line.startsWith("+")
        ? "add"
        : line.startsWith("-")
        ? "del"
        : "ctx";
      hunks.push(markup`<span class="${kind}">${line}</span>\n`);
    }
  }
  const html =
    markup`<div class="diff"><p class="path">${path}</p><pre class="code"><code>${hunks}</code></pre></div>`;
  return { html, cutBytes, bytes, lines };
}

function withEnd(text: string): string {
  return text.endsWith("\n") ? text : `${text}\n`;
}

/** A `Write`: the file's content in a code block named by its path. */
function writeBody(input: Record<string, unknown>, settings: BodySettings): Body | undefined {
  if (typeof input.content !== "string") return undefined;
  const path = field(input.file_path, settings, 1_000).text;
  const content = field(input.content, settings);
  const html = markup`<div class="file"><p class="path">${path}</p>${
    codeBlock(content.text)
  }</div>`;
  return { html, cutBytes: content.cutBytes, ...sizeOf(content.text) };
}

/** A monospace block of text. */
export function codeBlock(text: string): Html {
  return markup`<pre class="code"><code>${text}</code></pre>`;
}

/** Bytes and lines of a text. */
export function sizeOf(text: string): { bytes: number; lines: number } {
  let lines = text === "" ? 0 : 1;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) lines++;
  return { bytes: utf8Length(text), lines };
}

/**
 * A tool call's body from its whole input, when the tool is one a person
 * reads better otherwise: an edit as a diff, a write as the file. Undefined
 * for any other tool (its input is shown as the kit's JSON).
 *
 * @param tool The tool's name (Claude Code's: `Edit`, `MultiEdit`, `Write`).
 * @param input The call's input, as the log has it.
 */
export function toolCallBody(
  tool: string,
  input: unknown,
  settings: BodySettings,
): Body | undefined {
  if (typeof input !== "object" || input === null || Array.isArray(input)) return undefined;
  const fields = input as Record<string, unknown>;
  if (tool === "Edit" || tool === "MultiEdit") return editBody(fields, settings);
  if (tool === "Write") return writeBody(fields, settings);
  return undefined;
}

/** The tools whose whole input {@linkcode toolCallBody} reads. */
export const WHOLE_INPUT_TOOLS: ReadonlySet<string> = new Set(["Edit", "MultiEdit", "Write"]);

/**
 * A tool call's input as the kit gives it (JSON), indented when it is whole
 * JSON, so its strings' line breaks read as lines: `Bash`'s command as a
 * shell line.
 */
export function inputText(tool: string | undefined, text: string, whole: boolean): string {
  if (!whole || !text.startsWith("{")) return text;
  // Parsing undoes the escapes that made controls visible: make them visible again.
  return visibleControls(indented(tool, text));
}

function indented(tool: string | undefined, text: string): string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return text;
  }
  const fields = value as Record<string, unknown>;
  if (tool === "Bash" && typeof fields.command === "string") {
    const note = typeof fields.description === "string" ? `\n# ${fields.description}` : "";
    return `$ ${fields.command}${note}`;
  }
  return JSON.stringify(value, null, 2);
}
