// Copyright 2026 the brigade authors. MIT license.

// The defaults of `fromManagedAgents` are the fields of MANAGED_AGENTS_DEFAULTS: each test below
// leaves an option out and checks what the source did against the object, never a literal.

import assert from "node:assert/strict";
import * as root from "@brigade/transcript";
import {
  fromManagedAgents,
  MANAGED_AGENTS_DEFAULTS,
  ManagedAgentsError,
} from "@brigade/transcript/managed-agents";

const KEY = "sk-ant-api03-test-key-0123456789abcdef";

/** A stand-in `fetch` that records each URL it is asked for and answers with `answer`. */
function recordingFetch(answer: (url: URL) => Response): { fetch: typeof fetch; urls: string[] } {
  const urls: string[] = [];
  const fetchPage: typeof fetch = (input) => {
    const url = new URL(String(input));
    urls.push(url.href);
    return Promise.resolve(answer(url));
  };
  return { fetch: fetchPage, urls };
}

async function failure(promise: Promise<unknown>): Promise<ManagedAgentsError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof ManagedAgentsError, `not a ManagedAgentsError: ${error}`);
    return error;
  }
  assert.fail("the listing did not fail");
}

Deno.test("MANAGED_AGENTS_DEFAULTS is one frozen object, exported from . and ./managed-agents", () => {
  assert.equal(root.MANAGED_AGENTS_DEFAULTS, MANAGED_AGENTS_DEFAULTS);
  assert.ok(Object.isFrozen(MANAGED_AGENTS_DEFAULTS));
  assert.throws(() => {
    (MANAGED_AGENTS_DEFAULTS as { pageSize: number }).pageSize = 1;
  }, TypeError);
  assert.deepEqual(Object.keys(MANAGED_AGENTS_DEFAULTS), [
    "baseUrl",
    "apiVersion",
    "pageSize",
    "scope",
    "maxRetries",
    "retryBaseDelayMs",
    "timeoutMs",
    "maxPageBytes",
    "follow",
    "stopAt",
    "settleTries",
    "settleDelayMs",
  ]);
});

Deno.test("fromManagedAgents() lists from the default base URL, scope and page size", async (t) => {
  const { baseUrl, pageSize } = MANAGED_AGENTS_DEFAULTS;
  const event = { id: "sevt_1", type: "agent.message", processed_at: null };

  await t.step("the session's events, and nothing else, when no scope is given", async () => {
    const api = recordingFetch(() => Response.json({ data: [event], next_page: null }));
    const entries = await Array.fromAsync(
      fromManagedAgents({ sessionId: "sesn_1", apiKey: KEY, fetch: api.fetch }),
    );
    assert.deepEqual(api.urls, [`${baseUrl}/v1/sessions/sesn_1/events?limit=${pageSize}`]);
    assert.equal(MANAGED_AGENTS_DEFAULTS.scope, "session");
    assert.deepEqual(entries.map((entry) => entry.thread_id), [null]);
  });

  await t.step("every list of scope all, each with the default limit", async () => {
    const threads = [
      { id: "sthr_p", parent_thread_id: null },
      { id: "sthr_c", parent_thread_id: "sthr_p" },
    ];
    const api = recordingFetch((url) =>
      Response.json({
        data: url.pathname.endsWith("/threads") ? threads : [event],
        next_page: null,
      })
    );
    await Array.fromAsync(
      fromManagedAgents({ sessionId: "sesn_1", apiKey: KEY, fetch: api.fetch, scope: "all" }),
    );
    assert.deepEqual(api.urls, [
      `${baseUrl}/v1/sessions/sesn_1/threads?limit=${pageSize}`,
      `${baseUrl}/v1/sessions/sesn_1/events?limit=${pageSize}`,
      `${baseUrl}/v1/sessions/sesn_1/threads/sthr_c/events?limit=${pageSize}`,
    ]);
  });
});

Deno.test("fromManagedAgents() tries a failing request 1 + the default maxRetries times", async () => {
  const { maxRetries } = MANAGED_AGENTS_DEFAULTS;
  // `retry-after-ms: 0` asks for no wait, so the default backoff is not waited out here.
  const api = recordingFetch(() =>
    new Response("", { status: 503, headers: { "retry-after-ms": "0" } })
  );
  const error = await failure(
    Array.fromAsync(fromManagedAgents({ sessionId: "sesn_1", apiKey: KEY, fetch: api.fetch })),
  );
  assert.equal(api.urls.length, maxRetries + 1);
  assert.equal(error.status, 503);
  assert.equal(
    error.message,
    'sessions/sesn_1/events: Cannot list events of session "sesn_1": ' +
      `the API answered 503 Service Unavailable on each of ${maxRetries + 1} attempts`,
  );
});

Deno.test("fromManagedAgents() gives each attempt the default timeoutMs and waits the default retryBaseDelayMs", async () => {
  const { retryBaseDelayMs, timeoutMs } = MANAGED_AGENTS_DEFAULTS;
  const delays: (number | undefined)[] = [];
  const { setTimeout: realSetTimeout } = globalThis;
  const realRandom = Math.random;
  let calls = 0;
  const api = recordingFetch(() =>
    ++calls === 1 ? new Response("", { status: 503 }) : Response.json({ data: [], next_page: null })
  );
  globalThis.setTimeout = ((...args: Parameters<typeof setTimeout>) => {
    delays.push(args[1]);
    return realSetTimeout(...args);
  }) as typeof setTimeout;
  // No jitter: the first wait is then exactly the base delay.
  Math.random = () => 0;
  try {
    await Array.fromAsync(
      fromManagedAgents({ sessionId: "sesn_1", apiKey: KEY, fetch: api.fetch }),
    );
  } finally {
    globalThis.setTimeout = realSetTimeout;
    Math.random = realRandom;
  }
  assert.equal(api.urls.length, 2);
  // The first attempt's deadline, the wait before the retry, the second attempt's deadline.
  assert.deepEqual(delays, [timeoutMs, retryBaseDelayMs, timeoutMs]);
});

Deno.test("fromManagedAgents() stops a page at the default maxPageBytes", async () => {
  const { maxPageBytes } = MANAGED_AGENTS_DEFAULTS;
  const chunkBytes = 1024 * 1024;
  // A body that never ends, made a MiB at a time as it is read.
  const endless = (): ReadableStream<Uint8Array> =>
    new ReadableStream({
      pull(controller): void {
        controller.enqueue(new Uint8Array(chunkBytes).fill(0x20));
      },
    });
  const api = recordingFetch(() => new Response(endless()));
  const error = await failure(
    Array.fromAsync(fromManagedAgents({ sessionId: "sesn_1", apiKey: KEY, fetch: api.fetch })),
  );
  const stoppedAt = (Math.floor(maxPageBytes / chunkBytes) + 1) * chunkBytes;
  assert.equal(
    error.message,
    'sessions/sesn_1/events: Cannot list events of session "sesn_1": ' +
      `the API answered with a page over the ${maxPageBytes}-byte cap ("maxPageBytes"); ` +
      `reading stopped at ${stoppedAt} bytes`,
  );
  assert.equal(api.urls.length, 1, "not retried");
});

Deno.test("ManagedAgentsOptions documents each default as its field of MANAGED_AGENTS_DEFAULTS", async () => {
  const source = await Deno.readTextFile(new URL("./_options.ts", import.meta.url));
  const options = source.slice(source.indexOf("export interface ManagedAgentsOptions {"));
  const named = [...options.matchAll(/@default \{MANAGED_AGENTS_DEFAULTS\.(\w+)\}/g)]
    .map((match) => match[1]);
  assert.deepEqual(named, Object.keys(MANAGED_AGENTS_DEFAULTS));
});
