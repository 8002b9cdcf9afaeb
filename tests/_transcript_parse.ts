// Copyright 2026 the brigade authors. MIT license.

// The grader's and the dream's texts read back as their readers read them, to check that what a
// body holds can never pass for something the renderer wrote.

import { micromark } from "micromark";

/** An item found in a grader's text: its label, its body unindented, the bytes its note says were cut. */
export interface ParsedItem {
  label: string;
  body: string;
  cutBytes: number;
}

/** A grader's text read back: its items, and the notes the renderer wrote between or after them. */
export interface ParsedGrader {
  items: ParsedItem[];
  notes: string[];
}

/** Every way a reader may end a line: LF, CR, CRLF, and VT, FF, NEL, LS, PS. */
const LINE_BREAK = /\r\n|[\n\r\v\f\x85\u2028\u2029]/;

/**
 * Reads a grader's text as a hostile-minded reader would, breaking lines at
 * every line terminator: a line at the margin in brackets is a label or a
 * note, an indented line belongs to the item above, a blank line separates.
 * Anything else at the margin means a body escaped its frame, and throws.
 */
export function parseGrader(text: string): ParsedGrader {
  const items: ParsedItem[] = [];
  const notes: string[] = [];
  let body: string[] | undefined;
  const close = (): void => {
    if (body === undefined) return;
    while (body.length > 0 && body.at(-1) === "") body.pop();
    items.at(-1)!.body = body.join("\n");
    body = undefined;
  };
  const lines = text.split(LINE_BREAK);
  if (lines.at(-1) === "") lines.pop();
  for (const line of lines) {
    if (line === "") {
      body?.push("");
    } else if (line.startsWith("  ")) {
      if (body === undefined) {
        // The tail after an elision may start inside an item whose label was elided.
        if (!notes.at(-1)?.startsWith("[…")) {
          throw new Error(`A body line with no item: ${JSON.stringify(line)}`);
        }
        continue;
      }
      body.push(line.slice(2));
    } else if (/^\[cut: \d+ more bytes\]$/.test(line)) {
      if (items.length === 0) throw new Error(`A cut note with no item: ${line}`);
      close();
      items.at(-1)!.cutBytes = Number(/\d+/.exec(line)![0]);
    } else if (/^\[transcript cut: .*\]$|^\[… \d+ bytes elided …\]$/.test(line)) {
      close();
      notes.push(line);
    } else if (/^\[.*\]$/.test(line)) {
      close();
      items.push({ label: line.slice(1, -1), body: "", cutBytes: 0 });
      body = [];
    } else {
      throw new Error(`A line at the margin the renderer did not write: ${JSON.stringify(line)}`);
    }
  }
  close();
  return { items, notes };
}

/**
 * The headings of a Markdown text as a CommonMark reader finds them: level
 * and text (entities decoded), in order.
 */
export function markdownHeadings(markdown: string): { level: number; text: string }[] {
  const html = micromark(markdown);
  const headings: { level: number; text: string }[] = [];
  for (const match of html.matchAll(/<h([1-6])>([\s\S]*?)<\/h\1>/g)) {
    headings.push({ level: Number(match[1]), text: decode(match[2]!) });
  }
  return headings;
}

function decode(html: string): string {
  return html.replace(
    /&(lt|gt|quot|amp|#39);/g,
    (_, name: string) => ({ lt: "<", gt: ">", quot: '"', amp: "&", "#39": "'" })[name]!,
  );
}

/**
 * A text split at its front matter (a dream's): the block between the first two `---` lines,
 * and the body after it; `frontMatter` is `""` when the text does not start with one.
 */
export function splitFrontMatter(text: string): { frontMatter: string; body: string } {
  if (!text.startsWith("---\n")) return { frontMatter: "", body: text };
  const end = text.indexOf("\n---\n");
  if (end === -1) return { frontMatter: "", body: text };
  return { frontMatter: text.slice(4, end + 1), body: text.slice(end + 5) };
}
