// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// A thread's events through the caller's client, a page at a time, so that a
// follow knows the cursor of each page (PageMark): the SDK's list is also a
// promise of its first page (`{data, next_page}`), and the next is asked for
// with `page`. A client whose list is only an iterable of items (or a promise
// of something else than a page) is read as one, and its mark learns nothing.

import {
  type ClientContext,
  clientError,
  clientItems,
  type ManagedAgentsRequestOptions,
} from "./_client.ts";
import { ManagedAgentsError } from "./_error.ts";
import type { ListTarget } from "./_http.ts";
import { checkEvent, cursorKey, type Item, type PageMark } from "./_pages.ts";
import { excerpt } from "../../redact/excerpt.ts";

/** Lists a thread's events from `page` null or a cursor, through the caller's client. */
export type PagedList = (
  cursor: string | null,
  options: ManagedAgentsRequestOptions,
) => AsyncIterable<unknown>;

/**
 * Yields the events of `list` from `from.cursor`, page by page, `from.mark`
 * learning the cursor of each page that holds an event before its events are
 * yielded. Ends as {@linkcode listItems} does: at a null, absent or empty
 * `next_page` or an empty page; a cursor sent again is an error (a cycle).
 */
export async function* clientPages(
  ctx: ClientContext,
  target: ListTarget,
  list: PagedList,
  from: { cursor: string | null; mark: PageMark },
): AsyncGenerator<Item> {
  const options: ManagedAgentsRequestOptions = ctx.signal === undefined
    ? {}
    : { signal: ctx.signal };
  let cursor = from.cursor;
  const sent = new Set<string>();
  // Before the request: its failure must find the promise awaited.
  if (cursor !== null) sent.add(await cursorKey(cursor));
  const first = call(target, list, cursor, options);
  if (!isThenable(first)) {
    yield* clientItems(ctx, target, () => first, checkEvent);
    return;
  }
  let body = await settle(ctx, target, first);
  // A promise of something else than a page: the list is read as the iterable it also is.
  if (!Array.isArray((body as { data?: unknown } | null)?.data)) {
    yield* clientItems(ctx, target, () => first, checkEvent);
    return;
  }
  for (;;) {
    const page = checkPage(target, body);
    if (page.data.length > 0) from.mark.cursor = cursor;
    for (const item of page.data) {
      ctx.signal?.throwIfAborted();
      yield item;
    }
    if (page.data.length === 0 || page.next_page === null || page.next_page === "") return;
    cursor = page.next_page;
    const key = await cursorKey(cursor);
    if (sent.has(key)) {
      throw new ManagedAgentsError(
        `Cannot list ${target.what}: the client gave the page cursor ` +
          `"${excerpt(cursor, { maxCodePoints: 40 })}" again: the list would cycle`,
        { code: "api", source: target.source },
      );
    }
    sent.add(key);
    const next = call(target, list, cursor, options);
    body = isThenable(next) ? await settle(ctx, target, next) : undefined;
  }
}

/** Calls `list`, a throw of its own made a client failure. */
function call(
  target: ListTarget,
  list: PagedList,
  cursor: string | null,
  options: ManagedAgentsRequestOptions,
): AsyncIterable<unknown> {
  try {
    return list(cursor, options);
  } catch (error) {
    throw clientError(target, error);
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === "function";
}

/** The page a promise resolves to; its rejection made a client failure, an abort its reason. */
async function settle(
  ctx: ClientContext,
  target: ListTarget,
  pending: PromiseLike<unknown>,
): Promise<unknown> {
  try {
    return await pending;
  } catch (error) {
    ctx.signal?.throwIfAborted();
    throw clientError(target, error);
  }
}

interface Page {
  data: Item[];
  next_page: string | null;
}

/** The page the client gave, checked: `data` of events, `next_page` a string or null. */
function checkPage(target: ListTarget, body: unknown): Page {
  const fail = (what: string): never => {
    throw new ManagedAgentsError(
      `Cannot list ${target.what}: the client gave a page that is not ` +
        `{data: [...], next_page?: string | null}: ${what}`,
      { code: "api", source: target.source },
    );
  };
  if (typeof body !== "object" || body === null) return fail("it is not an object");
  const { data, next_page = null } = body as Record<string, unknown>;
  if (!Array.isArray(data)) return fail(`"data" is not an array`);
  if (next_page !== null && typeof next_page !== "string") return fail(`"next_page" is no string`);
  const quote = (value: string): string => `"${excerpt(value, { maxCodePoints: 40 })}"`;
  for (const [index, item] of data.entries()) {
    const problem = checkEvent(item, quote);
    if (problem !== undefined) return fail(`item ${index} ${problem}`);
  }
  return { data: data as Item[], next_page };
}
