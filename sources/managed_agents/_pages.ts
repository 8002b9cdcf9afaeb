// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// Cursor paging over one list endpoint (`{data, next_page}`), one page in
// memory at a time.

import { getJson, type HttpContext, listError, type ListTarget, quote } from "./_http.ts";
import { shouldRetry } from "./_retry.ts";

/** An item of a page; the checker has made sure of its shape. */
export type Item = Record<string, unknown>;

/** Quotes a string from the API for an error: scrubbed of the key, then cut. */
export type Quote = (value: string) => string;

/** Says what is wrong with one item of `data`, or `undefined` when it is fine. */
export type ItemCheck = (item: unknown, quote: Quote) => string | undefined;

/**
 * Where a list stands for a follow, for a list that takes no time (a child
 * thread's events): the `page` cursor that fetched the last page holding an
 * event (null: the first page's, which is fetched without one). The list is
 * the thread's events in the order they were stored, so a catch-up listed
 * from there gives that page again and all that came after it, and nothing
 * before it that the follow has not yielded.
 */
export class PageMark {
  /** The cursor of the last page listed that held an event; null for none or the first page. */
  cursor: string | null = null;
}

/**
 * Lists from `mark`'s cursor (`list(cursor)`), and from the start when the
 * API refuses that cursor (a status 400–499 that is not retried, before any
 * event of it came: a cursor gone stale), forgetting it. `list` moves the mark
 * page by page.
 */
export async function* listFromMark<T>(
  mark: PageMark,
  list: (cursor: string | null) => AsyncIterable<T>,
): AsyncGenerator<T> {
  const start = mark.cursor;
  if (start === null) return yield* list(null);
  let listed = false;
  try {
    for await (const item of list(start)) {
      listed = true;
      yield item;
    }
  } catch (error) {
    if (listed || !refusedCursor(error)) throw error;
    mark.cursor = null;
    yield* list(null);
  }
}

/** Whether a failure is the API's refusal of a request (a 4xx trying again cannot fix). */
function refusedCursor(error: unknown): boolean {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === "number" && status >= 400 && status < 500 &&
    status !== 401 && status !== 403 && !shouldRetry(status, undefined);
}

/**
 * Yields every item of a list, fetching the next page only when the current
 * one is used up. Follows `next_page` until it is null or absent; an empty
 * cursor or an empty page also ends the list, as in Anthropic's SDKs (a live session must
 * not page forever). A cursor sent before in the same list is an error: the
 * list would cycle (A → B → A) and never end. `filter` is sent with every
 * page (`created_at[gte]`). With `from`, the list starts at its `cursor`
 * and `mark` learns the cursor of each page that holds an event, before its
 * events are yielded.
 */
export async function* listItems(
  ctx: HttpContext,
  target: ListTarget,
  pageSize: number,
  check: ItemCheck,
  filter: Readonly<Record<string, string>> = {},
  from?: { cursor: string | null; mark: PageMark },
): AsyncGenerator<Item> {
  const seen = new Set<string>();
  let cursor: string | null = from?.cursor ?? null;
  if (cursor !== null) seen.add(await cursorKey(cursor));
  do {
    const params = new URLSearchParams({ limit: String(pageSize), ...filter });
    if (cursor !== null) params.set("page", cursor);
    const { body, requestId } = await getJson(ctx, target, params);
    const page = checkPage(ctx, target, body, requestId, check);
    if (from !== undefined && page.data.length > 0) from.mark.cursor = cursor;
    yield* page.data;
    if (page.data.length === 0 || page.next_page === "") break;
    cursor = page.next_page;
    if (cursor !== null) {
      const key = await cursorKey(cursor);
      if (seen.has(key)) {
        const pages = seen.size + 1;
        throw listError(
          ctx,
          target,
          `the API sent the page cursor ${quote(ctx, cursor)} again after ${pages} pages: ` +
            "the list would cycle",
          { requestId },
        );
      }
      seen.add(key);
    }
  } while (cursor !== null);
}

/**
 * What the set of cursors seen holds for a cursor: 128 bits of its SHA-256 as
 * 32 hex digits, so a list of many pages with long cursors holds 32
 * characters a page, whatever the API sends.
 */
export async function cursorKey(cursor: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(cursor));
  return [...new Uint8Array(digest, 0, 16)]
    .map((byte) => byte.toString(16).padStart(2, "0"))
    .join("");
}

interface Page {
  data: Item[];
  next_page: string | null;
}

function checkPage(
  ctx: HttpContext,
  target: ListTarget,
  body: unknown,
  requestId: string | undefined,
  check: ItemCheck,
): Page {
  const fail = (what: string): never => {
    const shape = "{data: [...], next_page?: string | null}";
    const detail = `the API answered with a page that is not ${shape}: ${what}`;
    throw listError(ctx, target, detail, { requestId });
  };
  const quoteValue: Quote = (value) => quote(ctx, value);
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return fail(`the body is ${describe(body, quoteValue)}`);
  }
  const { data, next_page = null } = body as Record<string, unknown>;
  if (!Array.isArray(data)) return fail(`"data" is ${describe(data, quoteValue)}`);
  if (next_page !== null && typeof next_page !== "string") {
    return fail(`"next_page" is ${describe(next_page, quoteValue)}`);
  }
  for (const [index, item] of data.entries()) {
    const problem = check(item, quoteValue);
    if (problem !== undefined) return fail(`data[${index}] ${problem}`);
  }
  return { data: data as Item[], next_page };
}

/** A short description of an unexpected value, never its full text. */
function describe(value: unknown, quote: Quote): string {
  if (value === undefined) return "missing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return `the string ${quote(value)}`;
  if (typeof value === "object") return "an object";
  return `the ${typeof value} ${String(value)}`;
}

/** The check for an event: an object with a string `type`. */
export function checkEvent(item: unknown, quote: Quote): string | undefined {
  if (typeof item !== "object" || item === null || Array.isArray(item)) {
    return `is ${describe(item, quote)}, not an event object`;
  }
  const { type } = item as Record<string, unknown>;
  return typeof type === "string" ? undefined : `has "type" ${describe(type, quote)}, not a string`;
}

/**
 * The check for a thread: an object with a non-empty string `id` that can be
 * a path segment (`.` and `..` would be read as steps of the path and send the
 * request elsewhere; encoding cannot help, as a URL reads `%2E` as `.`).
 */
export function checkThread(item: unknown, quote: Quote): string | undefined {
  if (typeof item !== "object" || item === null || Array.isArray(item)) {
    return `is ${describe(item, quote)}, not a thread object`;
  }
  const { id, parent_thread_id: parent } = item as Record<string, unknown>;
  if (typeof id !== "string" || id === "") {
    return `has "id" ${describe(id, quote)}, not a thread id`;
  }
  if (isDotSegment(id)) return `has "id" ${quote(id)}, which cannot be a path segment`;
  if (parent !== undefined && parent !== null && typeof parent !== "string") {
    return `has "parent_thread_id" ${describe(parent, quote)}, not a string or null`;
  }
  return undefined;
}

/** Whether an id would be a dot segment of a URL path, even encoded. */
export function isDotSegment(id: string): boolean {
  return id === "." || id === "..";
}
