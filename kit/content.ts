// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

/** What {@linkcode flattenBlocks} returns. */
export interface FlattenedBlocks {
  /** The blocks' text, one block a paragraph. */
  text: string;
  /** Whether any block gave text or a placeholder. */
  found: boolean;
}

/**
 * Flattens a content field, a plain string or a block array, to plain text.
 * `null` and `undefined` give `""`; a single block object is read as a
 * one-block array; any other value is written as JSON, so odd content shows
 * rather than throws.
 *
 * @param content The content field.
 * @returns The text.
 *
 * @example Usage
 * ```ts
 * import { contentText } from "@brigade/transcript";
 * import assert from "node:assert/strict";
 *
 * assert.equal(contentText("plain"), "plain");
 * assert.equal(contentText([{ type: "text", text: "a" }, { type: "text", text: "b" }]), "a\nb");
 * assert.equal(contentText(null), "");
 * ```
 */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (content === null || content === undefined) return "";
  // One block (most content) is its own text: no list of parts to join.
  if (Array.isArray(content)) {
    return content.length === 1 ? blockText(content[0], 0) : flattenBlocks(content).text;
  }
  if (typeof content === "object") return flattenBlocks([content]).text;
  return JSON.stringify(content) ?? String(content);
}

/**
 * Renders a content-block array as plain text, one block a line: `text`
 * blocks give their text; a `search_result` gives its title, source and
 * nested text (so web search answers do not vanish; past 10 nested search
 * results, the deeper ones give one note, `[… nested N levels deeper not
 * shown]`, so no depth overflows the stack); `image`, `document` and
 * `redacted` blocks give a bracketed placeholder (a plain-text document its
 * title and text); a document's `context` follows as `[document context: …]`;
 * an unknown block its `text` when it has one, else its type in
 * brackets.
 *
 * @param blocks The blocks.
 * @returns The text, and whether any block gave something.
 *
 * @example Usage
 * ```ts
 * import { flattenBlocks } from "@brigade/transcript";
 * import assert from "node:assert/strict";
 *
 * const { text, found } = flattenBlocks([{
 *   type: "search_result",
 *   source: "https://example.org/notes",
 *   title: "Release notes",
 *   content: [{ type: "text", text: "Version 1.32 adds a KV store." }],
 * }]);
 * assert.ok(found);
 * assert.equal(text, "Release notes\nhttps://example.org/notes\nVersion 1.32 adds a KV store.");
 * ```
 */
export function flattenBlocks(blocks: readonly unknown[]): FlattenedBlocks {
  return flattenAt(blocks, 0);
}

/**
 * How many `search_result` blocks deep nested text is still shown; deeper
 * text is summarised by a note, so flattening never recurses further than
 * this, however deep the input.
 */
const MAX_NESTING = 10;

function flattenAt(blocks: readonly unknown[], depth: number): FlattenedBlocks {
  const parts: string[] = [];
  for (const block of blocks) {
    const text = blockText(block, depth);
    if (text !== "") parts.push(text);
  }
  return { text: parts.join("\n"), found: parts.length > 0 };
}

function blockText(block: unknown, depth: number): string {
  if (typeof block === "string") return block;
  if (typeof block !== "object" || block === null) return "";
  const fields = block as Record<string, unknown>;
  switch (fields.type) {
    case "text":
      return stringOr(fields.text, "");
    case "search_result":
      return searchResultText(fields, depth + 1);
    case "image":
      return placeholder("image", sourceUrl(fields.source));
    case "document":
      return documentText(fields);
    case "redacted":
      return "[redacted]";
    default:
      return typeof fields.text === "string"
        ? fields.text
        : placeholder(stringOr(fields.type, "block"), "");
  }
}

function searchResultText(fields: Record<string, unknown>, depth: number): string {
  if (depth > MAX_NESTING) {
    const levels = nestedDepth(fields).toLocaleString("en-US");
    return `[… nested ${levels} ${levels === "1" ? "level" : "levels"} deeper not shown]`;
  }
  const nested = Array.isArray(fields.content) ? flattenAt(fields.content, depth).text : "";
  return [stringOr(fields.title, ""), stringOr(fields.source, ""), nested]
    .filter((part) => part !== "")
    .join("\n");
}

/**
 * How many levels of `search_result` a block holds, itself included: found
 * with a stack of its own, not the call stack, so no depth overflows it.
 */
function nestedDepth(root: Record<string, unknown>): number {
  let deepest = 0;
  const seen = new Set<unknown>(); // entries built in memory may hold a cycle
  const stack: [unknown, number][] = [[root, 1]];
  while (stack.length > 0) {
    const [block, depth] = stack.pop()!;
    const fields = block as Record<string, unknown> | null;
    if (typeof fields !== "object" || fields === null || fields.type !== "search_result") continue;
    if (seen.has(fields)) continue;
    seen.add(fields);
    deepest = Math.max(deepest, depth);
    if (Array.isArray(fields.content)) {
      for (const child of fields.content) stack.push([child, depth + 1]);
    }
  }
  return deepest;
}

function documentText(fields: Record<string, unknown>): string {
  const source = fields.source as Record<string, unknown> | undefined;
  const title = stringOr(fields.title, "");
  const context = stringOr(fields.context, "").trim() === ""
    ? ""
    : `[document context: ${fields.context}]\n`;
  if (source?.type === "text" && typeof source.data === "string") {
    return `${title === "" ? "" : `${title}\n`}${context}${source.data}`;
  }
  const said = placeholder("document", title || sourceUrl(source));
  return context === "" ? said : `${said}\n${context.slice(0, -1)}`;
}

function sourceUrl(source: unknown): string {
  const url = (source as { url?: unknown } | null | undefined)?.url;
  return typeof url === "string" ? url : "";
}

function placeholder(kind: string, detail: string): string {
  return detail === "" ? `[${kind}]` : `[${kind}: ${detail}]`;
}

function stringOr(value: unknown, fallback: string): string {
  return typeof value === "string" ? value : fallback;
}
