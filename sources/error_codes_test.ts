// Copyright 2026 the brigade authors. MIT license.

// Each source sets the code of the error it throws: a caller decides on the
// code, never on the message.

import assert from "node:assert/strict";
import {
  type EventLog,
  EventSourceError,
  type EventSourceErrorCode,
  fromClaudeCode,
  fromEntries,
  fromEventLog,
  fromManagedAgents,
  fromNdjson,
  type LogEntry,
  ManagedAgentsError,
  type ManagedAgentsOptions,
} from "../mod.ts";
import { entries, user } from "../tests/_entries.ts";

function stream(text: string): ReadableStream<Uint8Array> {
  return ReadableStream.from([new TextEncoder().encode(text)]);
}

/** The error `promise` rejects with, checked to be an EventSourceError. */
async function failure(promise: Promise<unknown>): Promise<EventSourceError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof EventSourceError, `not an EventSourceError: ${error}`);
    return error;
  }
  assert.fail("it did not fail");
}

/** Asserts that `promise` rejects with an EventSourceError of `code` and `message`. */
async function rejectsWithCode(
  promise: Promise<unknown>,
  code: EventSourceErrorCode,
  message: RegExp,
): Promise<EventSourceError> {
  const error = await failure(promise);
  assert.equal(error.code, code, error.message);
  assert.match(error.message, message);
  return error;
}

const EVENT = '{"id":"sevt_1","type":"user.message","content":"hi"}';

Deno.test("fromEntries() fails on a malformed entry with code invalid_entry", async () => {
  const good = entries([user("a")])[0]!;
  await rejectsWithCode(
    Array.fromAsync(fromEntries([good, null as unknown as LogEntry])),
    "invalid_entry",
    /^entries:2: Cannot read entry: /,
  );
});

Deno.test("fromNdjson() fails on a bad line with code invalid_entry", async (t) => {
  const cases: Array<[string, RegExp]> = [
    ["not json", /^stream:2: Cannot parse the line as JSON: /],
    ["[]", /^stream:2: Cannot read the line as an event: /],
    [
      '{"seq":1,"event":{"type":"user.message"}}',
      /^stream:2: Cannot read the line as a log entry: /,
    ],
  ];
  for (const [line, message] of cases) {
    await t.step(line, async () => {
      const error = await rejectsWithCode(
        Array.fromAsync(fromNdjson(stream(`${EVENT}\n${line}\n`))),
        "invalid_entry",
        message,
      );
      assert.equal(error.line, 2);
    });
  }
});

Deno.test("fromNdjson() fails on a line over maxLineBytes with code line_too_long", async () => {
  const long = `{"id":"sevt_2","type":"user.message","content":"${"x".repeat(200)}"}`;
  const error = await rejectsWithCode(
    Array.fromAsync(fromNdjson(stream(`${EVENT}\n${long}\n`), { maxLineBytes: 100 })),
    "line_too_long",
    /^stream:2: the line is over the 100-byte cap$/,
  );
  assert.equal(error.line, 2);
});

Deno.test("fromNdjson() and fromClaudeCode() fail on an input they cannot open with code unreadable", async (t) => {
  const dir = await Deno.makeTempDir();
  try {
    const missing = `${dir}/missing.ndjson`;
    await t.step("no such file", async () => {
      await rejectsWithCode(
        Array.fromAsync(fromNdjson(missing)),
        "unreadable",
        /Cannot open the file: no such file$/,
      );
      await rejectsWithCode(
        Array.fromAsync(fromClaudeCode(missing)),
        "unreadable",
        /Cannot open the Claude Code transcript: no such file$/,
      );
    });
    await t.step("a directory", async () => {
      const error = await rejectsWithCode(
        Array.fromAsync(fromNdjson(dir)),
        "unreadable",
        /Cannot open the file: it is a directory$/,
      );
      assert.equal(error.source, dir);
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("fromNdjson() and fromClaudeCode() fail on a read that fails with code unreadable", async () => {
  const failing = (): ReadableStream<Uint8Array> =>
    new ReadableStream({
      pull(controller): void {
        controller.error(new Error("disk on fire"));
      },
    });
  const error = await rejectsWithCode(
    Array.fromAsync(fromNdjson(failing(), { name: "log.ndjson" })),
    "unreadable",
    /^log\.ndjson: Cannot read the input: Error: disk on fire$/,
  );
  assert.ok(error.cause instanceof Error);
  await rejectsWithCode(
    Array.fromAsync(fromClaudeCode(failing(), { name: "t.jsonl" })),
    "unreadable",
    /^t\.jsonl: Cannot read the input: /,
  );
});

/** An event log that answers every call with `page` (then nothing). */
function logOf(page: unknown): EventLog {
  let calls = 0;
  return { list: () => Promise.resolve((calls++ === 0 ? page : []) as LogEntry[]) };
}

Deno.test("fromEventLog() fails on a page that breaks its contract with the right code", async (t) => {
  const rows = entries([user("a"), user("b")], "sesn_1");
  const cases: Array<[string, unknown, EventSourceErrorCode, RegExp]> = [
    [
      "a page that is not an array",
      null,
      "invalid_page",
      /after seq 0 returned null, not an array$/,
    ],
    [
      "a row of another session",
      [rows[0], { ...rows[1]!, session_id: "sesn_2" }],
      "invalid_page",
      /row seq 2 belongs to session "sesn_2"$/,
    ],
    [
      "a row that is not a log entry",
      [rows[0], { ...rows[1]!, event: null }],
      "invalid_entry",
      /^session sesn_1: Cannot read a row after seq 1: /,
    ],
    [
      "a seq that does not increase",
      [rows[1], rows[0]],
      "out_of_order",
      /^session sesn_1: Cannot page the log: seq 1 does not increase after seq 2$/,
    ],
  ];
  for (const [name, page, code, message] of cases) {
    await t.step(name, async () => {
      await rejectsWithCode(
        Array.fromAsync(fromEventLog(logOf(page), { sessionId: "sesn_1" })),
        code,
        message,
      );
    });
  }
});

/** fromManagedAgents' options with a stand-in `fetch` and no waiting between attempts. */
function managed(
  fetch: typeof globalThis.fetch,
  options: Partial<ManagedAgentsOptions> = {},
): ManagedAgentsOptions {
  return { sessionId: "sesn_1", apiKey: "sk-test", fetch, retryBaseDelayMs: 0, ...options };
}

const NEVER: typeof fetch = () => Promise.reject(new Error("no request was expected"));

Deno.test("fromManagedAgents() fails on an invalid option with code invalid_option", async (t) => {
  const cases: Array<[string, Partial<ManagedAgentsOptions>, RegExp]> = [
    ["an empty session id", { sessionId: "" }, /"sessionId" must be a non-empty string/],
    ["no API key", { apiKey: "" }, /there is no API key/],
    ["a page size of 0", { pageSize: 0 }, /"pageSize" must be an integer >= 1/],
    ["a base URL that is not a URL", { baseUrl: "api" }, /"baseUrl" is not a URL/],
  ];
  for (const [name, override, message] of cases) {
    await t.step(name, () => {
      assert.throws(() => fromManagedAgents(managed(NEVER, override)), (error: unknown) => {
        assert.ok(error instanceof ManagedAgentsError, `not a ManagedAgentsError: ${error}`);
        assert.equal(error.code, "invalid_option");
        assert.match(error.message, message);
        assert.equal(error.status, undefined);
        return true;
      });
    });
  }
});

Deno.test("fromManagedAgents() fails on what the API answers, or on no answer, with code api", async (t) => {
  const cases: Array<[string, typeof fetch, RegExp, number | undefined]> = [
    [
      "a status that is not retried",
      () => Promise.resolve(new Response("{}", { status: 404 })),
      /the API answered 404 Not Found/,
      404,
    ],
    [
      "a page that is not JSON",
      () => Promise.resolve(new Response("<html>")),
      /the API answered with a page that is not JSON/,
      undefined,
    ],
    [
      "a page that is not the documented shape",
      () => Promise.resolve(Response.json({ data: "none" })),
      /the API answered with a page that is not \{data/,
      undefined,
    ],
    [
      "a network error on the last attempt",
      () => Promise.reject(new TypeError("connection refused")),
      /failed on each of 1 attempts: connection refused/,
      undefined,
    ],
  ];
  for (const [name, fetch, message, status] of cases) {
    await t.step(name, async () => {
      const error = await rejectsWithCode(
        Array.fromAsync(fromManagedAgents(managed(fetch, { maxRetries: 0 }))),
        "api",
        message,
      );
      assert.ok(error instanceof ManagedAgentsError);
      assert.equal(error.status, status);
      assert.equal(error.source, "sessions/sesn_1/events");
    });
  }
});
