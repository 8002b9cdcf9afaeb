// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// Cursor paging over one list endpoint (`{data, next_page}`), one page in
// memory at a time.

import { getJson, type HttpContext, listError, type ListTarget } from "./_managed_agents_http.ts";

/** An item of a page; the checker has made sure of its shape. */
export type Item = Record<string, unknown>;

/** Says what is wrong with one item of `data`, or `undefined` when it is fine. */
export type ItemCheck = (item: unknown) => string | undefined;

/**
 * Yields every item of a list, fetching the next page only when the current
 * one is used up. Follows `next_page` until it is null; an empty cursor or an
 * empty page also ends the list, as in Anthropic's SDKs (a live session must
 * not page forever). A cursor that repeats the one just sent is an error.
 */
export async function* listItems(
  ctx: HttpContext,
  target: ListTarget,
  pageSize: number,
  check: ItemCheck,
): AsyncGenerator<Item> {
  let cursor: string | null = null;
  do {
    const params = new URLSearchParams({ limit: String(pageSize) });
    if (cursor !== null) params.set("page", cursor);
    const page = checkPage(ctx, target, await getJson(ctx, target, params), check);
    yield* page.data;
    if (page.data.length === 0 || page.next_page === "") break;
    if (page.next_page !== null && page.next_page === cursor) {
      throw listError(ctx, target, `the API sent the page cursor "${cursor}" twice in a row`);
    }
    cursor = page.next_page;
  } while (cursor !== null);
}

interface Page {
  data: Item[];
  next_page: string | null;
}

function checkPage(ctx: HttpContext, target: ListTarget, body: unknown, check: ItemCheck): Page {
  const fail = (what: string): never => {
    const shape = "{data: [...], next_page: string | null}";
    throw listError(ctx, target, `the API answered with a page that is not ${shape}: ${what}`);
  };
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return fail(`the body is ${describe(body)}`);
  }
  const { data, next_page } = body as Record<string, unknown>;
  if (!Array.isArray(data)) return fail(`"data" is ${describe(data)}`);
  if (next_page !== null && typeof next_page !== "string") {
    return fail(`"next_page" is ${describe(next_page)}`);
  }
  for (const [index, item] of data.entries()) {
    const problem = check(item);
    if (problem !== undefined) return fail(`data[${index}] ${problem}`);
  }
  return { data: data as Item[], next_page };
}

/** A short description of an unexpected value, never its full text. */
function describe(value: unknown): string {
  if (value === undefined) return "missing";
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return `the string ${JSON.stringify(value.slice(0, 40))}`;
  if (typeof value === "object") return "an object";
  return `the ${typeof value} ${String(value)}`;
}

/** The check for an event: an object with a string `type`. */
export function checkEvent(item: unknown): string | undefined {
  if (typeof item !== "object" || item === null || Array.isArray(item)) {
    return `is ${describe(item)}, not an event object`;
  }
  const { type } = item as Record<string, unknown>;
  return typeof type === "string" ? undefined : `has "type" ${describe(type)}, not a string`;
}

/** The check for a thread: an object with a non-empty string `id`. */
export function checkThread(item: unknown): string | undefined {
  if (typeof item !== "object" || item === null || Array.isArray(item)) {
    return `is ${describe(item)}, not a thread object`;
  }
  const { id, parent_thread_id: parent } = item as Record<string, unknown>;
  if (typeof id !== "string" || id === "") return `has "id" ${describe(id)}, not a thread id`;
  if (parent !== undefined && parent !== null && typeof parent !== "string") {
    return `has "parent_thread_id" ${describe(parent)}, not a string or null`;
  }
  return undefined;
}
