// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// The bodies of a session page's items: Markdown for messages (CommonMark and
// GitHub's tables, task lists and strikethrough, through markdown-it with raw
// HTML off and its link check narrowed: only `http:`, `https:`, `mailto:` and
// in-page `#…` links are links, any other (`javascript:`, `data:image/*`,
// `blob:`, `file:`, a relative path) stays text; bare URLs are not made links), unified diffs for
// edits, code blocks for written files, monospace blocks for tool output. `.`'s
// html renderer loads this module (through `./html`) on first use, so `.` imports
// no third-party code until a page is rendered.

import { MarkdownIt } from "../../deps/markdown_it.ts";
import { utf8Length, visibleControls } from "../../kit/mod.ts";
import { diffLines } from "./_diff.ts";
import { otherBody, shownField, TOOL_BODIES } from "./_tools.ts";
import { type Html, markup, trusted } from "./_html.ts";
import { type Body, type BodySettings, WHOLE_INPUT_TOOLS } from "./_bodies.ts";

export { type Body, type BodySettings, WHOLE_INPUT_TOOLS };

// ---------------------------------------------------------------- Markdown

/**
 * Any of these means the text may hold Markdown: a character with a meaning,
 * a line that starts a list, a heading underline or a code block, an edge
 * space (a hard break), an autolink's start.
 */
const SYNTAX_CHARS = /[\\*_#>[\]!<&|~=\t]|^```|\n```/;
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
 * The parser, made once: raw HTML off (shown as text), bare URLs not linked,
 * no typographic replacements; tables and strikethrough are built in.
 */
let parser: ReturnType<typeof MarkdownIt> | undefined;

/**
 * A message as HTML: Markdown through markdown-it (raw HTML shown as text,
 * only `http(s):`, `mailto:` and `#…` links links, images named and never loaded,
 * headings below the item's own), plain prose straight to paragraphs.
 *
 * @param text The message, redacted and its controls made visible.
 */
export function markdownHtml(text: string): Html {
  if (isPlainProse(text)) return plainParagraphs(text);
  const fast = proseAndFences(text);
  if (fast !== undefined) return fast;
  // The parser's time grows faster than the text with some runs (emphasis, link and
  // strikethrough marks): a text dense with them is shown as it is written.
  if (delimiters(text) > MAX_DELIMITERS) return markup`<p class="as-written">${text}</p>`;
  return parsedHtml(text);
}

/**
 * The most emphasis, link and strikethrough marks outside fenced code the
 * parser is given: 1,000 take it some 3 ms here, 2,000 about 14 ms.
 */
const MAX_DELIMITERS = 1_000;

/** The marks of a text whose parse time is not linear, fenced code left out. */
function delimiters(text: string): number {
  const outside = text.replace(/^(`{3,})[^`\n]*\n[\s\S]*?\n\1`*[ ]*$/gm, "");
  return outside.match(/[*_[\]~]/g)?.length ?? 0;
}

/**
 * The links a page makes: web addresses, mail addresses and its own anchors.
 * markdown-it's own check lets `data:image/…` and `blob:` through; here
 * anything else (a scheme, a relative path, a protocol-relative `//host`) stays
 * the text it was written as.
 */
const LINKABLE = /^(?:https?:|mailto:|#)/i;

/** The parser with the page's link policy (an image's address is checked the same way). */
function markdownParser(): ReturnType<typeof MarkdownIt> {
  const md = new MarkdownIt("default", { html: false, linkify: false, typographer: false });
  md.validateLink = (url: string): boolean => LINKABLE.test(url.trim());
  return md;
}

/** Which way {@linkcode markdownHtml} takes for a text: a fast path, or the parser. */
export function markdownPath(text: string): "plain" | "fences" | "parser" {
  return isPlainProse(text) ? "plain" : proseAndFences(text) !== undefined ? "fences" : "parser";
}

/** A message through the parser, whatever it holds (the fast paths give the same). */
export function parsedHtml(text: string): Html {
  parser ??= markdownParser();
  // markdown-it escapes every text it writes, so its own tags are the only `<` in its output.
  return trusted(tidy(parser.render(text)));
}

/**
 * Plain prose around fenced code blocks (an opening fence of backticks at a
 * line's start, a language, the code, a closing fence), as
 * the parser writes it; undefined when anything else needs the parser.
 */
function proseAndFences(text: string): Html | undefined {
  const lines = text.split("\n");
  const blocks: Html[] = [];
  let prose: string[] = [];
  const flush = (): boolean => {
    let first = 0;
    let last = prose.length;
    while (first < last && prose[first] === "") first++;
    while (last > first && prose[last - 1] === "") last--;
    prose = prose.slice(first, last);
    if (prose.length === 0) return true;
    const paragraphs = prose.join("\n");
    prose = [];
    if (!isPlainProse(paragraphs)) return false;
    blocks.push(plainParagraphs(paragraphs));
    return true;
  };
  for (let i = 0; i < lines.length;) {
    const open = /^(`{3,})([^`]*)$/.exec(lines[i]!);
    if (open === null) {
      prose.push(lines[i++]!);
      continue;
    }
    if (!flush()) return undefined;
    const info = open[2]!.trim();
    // An escape or a character reference in the info string is decoded by the parser.
    if (/[\\&]/.test(info)) return undefined;
    const fence = open[1]!.length;
    let close = i + 1;
    while (close < lines.length) {
      const run = /^ {0,3}(`+)[ \t]*$/.exec(lines[close]!);
      if (run !== null && run[1]!.length >= fence) break;
      close++;
    }
    // A fence left open runs to the end, where the parser has its own ways: leave it the parser.
    if (close === lines.length) return undefined;
    const code = lines.slice(i + 1, close);
    const body = code.length === 0 ? "" : `${code.join("\n")}\n`;
    const lang = info.split(/[ \t]/, 1)[0]!;
    blocks.push(
      lang === ""
        ? markup`<pre class="code"><code>${body}</code></pre>`
        : markup`<div class="fenced"><p class="lang">${lang}</p><pre class="code"><code>${body}</code></pre></div>`,
    );
    i = close + 1;
  }
  if (!flush()) return undefined;
  return markup`${blocks.map((block, i) => markup`${i > 0 ? "\n" : ""}${block}`)}`;
}

/** Paragraphs split on blank lines, escaped, their code spans made, as the parser writes them. */
function plainParagraphs(text: string): Html {
  const paragraphs = text.split("\n\n").filter((p) => p !== "");
  return markup`${
    paragraphs.map((p, i) =>
      markup`${i > 0 ? "\n" : ""}<p>${p.includes("`") ? codeSpans(p) : p}</p>`
    )
  }`;
}

/**
 * A paragraph's code spans, as CommonMark reads them: a run of backticks
 * opens a span that the next run of the same length closes (else it is
 * text); inside, line ends are spaces, and one space is taken off each end
 * when both ends have one and the span is not all spaces.
 */
function codeSpans(paragraph: string): Html[] {
  const parts: Html[] = [];
  let text = 0;
  let at = paragraph.indexOf("`");
  while (at !== -1) {
    let end = at;
    while (paragraph[end] === "`") end++;
    const run = end - at;
    let close = paragraph.indexOf("`", end);
    while (close !== -1) {
      let closeEnd = close;
      while (paragraph[closeEnd] === "`") closeEnd++;
      if (closeEnd - close === run) break;
      close = paragraph.indexOf("`", closeEnd);
    }
    if (close === -1) {
      at = paragraph.indexOf("`", end);
      continue;
    }
    let code = paragraph.slice(end, close).replaceAll("\n", " ");
    if (code.length > 1 && code.startsWith(" ") && code.endsWith(" ") && code.trim() !== "") {
      code = code.slice(1, -1);
    }
    parts.push(markup`${paragraph.slice(text, at)}<code>${code}</code>`);
    text = close + run;
    at = paragraph.indexOf("`", text);
  }
  parts.push(markup`${paragraph.slice(text)}`);
  return parts;
}

/**
 * The parser's output made fit for the page: headings start below the item's
 * `<h2>`, an image is named but never loaded, a table's alignment is a class
 * (the policy refuses `style=""`), a task box (`[x]` opening a list item) is a
 * symbol, fenced code is labelled with its language.
 */
function tidy(out: string): string {
  return out
    .replace(
      /<(\/?)h([1-6])>/g,
      (_, close: string, level: string) => `<${close}h${Math.min(6, Number(level) + 2)}>`,
    )
    .replace(
      /<img src="[^"]*" alt="([^"]*)"(?: title="[^"]*")?>/g,
      '<span class="image">[image: $1]</span>',
    )
    .replace(/ style="text-align:(left|right|center)"/g, ' class="align-$1"')
    .replace(
      /(<li>(?:\n?<p>)?)\[([ xX])\] /g,
      (_, open: string, box: string) =>
        box === " "
          ? `${open}<span class="task" role="img" aria-label="not done">☐</span> `
          : `${open}<span class="task" role="img" aria-label="done">☑</span> `,
    )
    .replace(
      /<pre><code class="language-([^"]*)">([\s\S]*?)<\/code><\/pre>/g,
      '<div class="fenced"><p class="lang">$1</p><pre class="code"><code>$2</code></pre></div>',
    )
    .replace(/<pre><code>/g, '<pre class="code"><code>')
    .trimEnd();
}

// ---------------------------------------------------------------- tools

/** An edit's or a write's text, redacted when the page is, controls visible, within a budget. */
function field(value: unknown, settings: BodySettings, budget = settings.itemBudget): {
  text: string;
  cutBytes: number;
} {
  return shownField(value, settings, budget);
}

/**
 * `Edit` and `MultiEdit` inputs as one unified diff per edit. A diff longer
 * than the item budget keeps its head, whole lines up to the budget, and
 * ends with a line saying how many lines of it were left out.
 */
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
  let cutLines = 0;
  let bytes = 0;
  let lines = 0;
  const hunks: Html[] = [];
  const window = settings.itemBudget * COMPARED_BUDGETS;
  let beyond = false;
  for (const edit of edits) {
    // The texts are compared as far as many budgets, so that the count of the lines left out is
    // the diff's own; past that, a note says the rest was not compared.
    const before = field(edit.old_string, settings, window);
    const after = field(edit.new_string, settings, window);
    cutBytes += before.cutBytes + after.cutBytes;
    beyond ||= before.cutBytes + after.cutBytes > 0;
    for (const line of diffLines(before.text, after.text)) {
      const size = utf8Length(line) + 1;
      // Once a line does not fit, the diff stops: the head stays whole, the rest is counted.
      if (cutLines > 0 || left - size < 0) {
        cutBytes += size;
        cutLines++;
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
  const rest = cutLines > 0 &&
    markup`<span class="diff-cut">[diff cut here: ${cutLines} more ${
      cutLines === 1 ? "line" : "lines"
    } of it left out${beyond && `, and the texts past their first ${window} bytes`}]</span>\n`;
  const html =
    markup`<div class="diff"><p class="path">${path}</p><pre class="code"><code>${hunks}${rest}</code></pre></div>`;
  return { html, cutBytes, bytes, lines, preview: path };
}

/** How many item budgets of an edit's old and new text are compared (the rest is counted in bytes). */
const COMPARED_BUDGETS = 64;

/** A `Write`: the file's content in a code block named by its path. */
function writeBody(input: Record<string, unknown>, settings: BodySettings): Body | undefined {
  if (typeof input.content !== "string") return undefined;
  const path = field(input.file_path, settings, 1_000).text;
  const content = field(input.content, settings);
  const html = markup`<div class="file"><p class="path">${path}</p>${
    codeBlock(content.text)
  }</div>`;
  // Folded, a write is named by its path, as an edit is, not by its input's JSON.
  return { html, cutBytes: content.cutBytes, ...sizeOf(content.text), preview: path };
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
 * A tool call's body from its whole input: an edit as a diff, a write as the
 * file, Claude Code's other tools as they read best (see `_tools.ts`), any
 * other tool's input as key–value text. Undefined when the input is not an
 * object, or a known tool's input lacks what its body shows (the kit's JSON
 * is shown then), and for `Bash` (its command line, by {@linkcode inputText}).
 *
 * @param tool The tool's name (Claude Code's: `Edit`, `MultiEdit`, `Write`, `TodoWrite`…).
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
  if (tool === "Bash" && typeof fields.command === "string") return undefined;
  const kit = { markdown: markdownHtml, settings };
  const own = TOOL_BODIES.get(tool);
  if (own !== undefined) return own(fields, kit);
  return otherBody(fields, kit);
}

/** A `Read` result line as Claude Code writes it (`cat -n`): the number, an arrow or a tab, the line. */
const NUMBERED = /^ *(\d+)(?:\u2192|\t)(.*)$/;

/**
 * A tool result's body when it reads better than monospace: a `Read`'s
 * numbered lines with their numbers in a column of their own, aligned; a
 * subagent's report (`Agent`, `Task`) as Markdown. Undefined otherwise.
 *
 * @param tool The tool of the call the result answers.
 * @param text The result's text as the page shows it.
 */
export function toolResultBody(tool: string | undefined, text: string): Html | undefined {
  if (tool === "Agent" || tool === "Task") {
    return markup`<div class="report">${markdownHtml(text)}</div>`;
  }
  if (tool !== "Read") return undefined;
  const lines = text.split("\n");
  const numbered = lines.map((line) => NUMBERED.exec(line));
  const count = numbered.filter((match) => match !== null).length;
  // A result of other lines (an error, a note) among the numbered ones stays as it is.
  if (count === 0 || count < lines.length - 2) return undefined;
  let width = 0;
  for (const match of numbered) width = Math.max(width, match?.[1]?.length ?? 0);
  const rows = lines.map((line, i) => {
    const match = numbered[i];
    if (match === null || match === undefined) {
      return markup`<span class="ln" aria-hidden="true">${" ".repeat(width)}</span> ${line}\n`;
    }
    return markup`<span class="ln">${match[1]!.padStart(width)}</span> ${match[2]}\n`;
  });
  return markup`<pre class="code numbered"><code>${rows}</code></pre>`;
}

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
