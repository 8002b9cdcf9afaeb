// Copyright 2026 the brigade authors. MIT license.

import assert from "node:assert/strict";
import {
  DREAM_PAGE_SIZE,
  type EventLog,
  type EventLogQuery,
  EventSourceError,
  fromEntries,
  fromEventLog,
  fromNdjson,
  type LogEntry,
  splitSessions,
} from "../mod.ts";
import { entries, user } from "./_entries.ts";

function stream(text: string | Uint8Array): ReadableStream<Uint8Array> {
  return ReadableStream.from([typeof text === "string" ? new TextEncoder().encode(text) : text]);
}

async function rejectsWith(promise: Promise<unknown>, pattern: RegExp): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof EventSourceError, `not an EventSourceError: ${error}`);
    assert.match(error.message, pattern);
    return true;
  });
}

Deno.test("fromEntries() yields sync and async entries unchanged", async () => {
  const rows = entries([user("a"), user("b")]);
  assert.deepEqual(await Array.fromAsync(fromEntries(rows)), rows);
  async function* generate(): AsyncGenerator<LogEntry> {
    yield* rows;
  }
  const seen = await Array.fromAsync(fromEntries(generate()));
  assert.equal(seen[0], rows[0]);
});

Deno.test("fromEntries() names the position and field of a malformed entry", async (t) => {
  const good = entries([user("a")])[0]!;
  const cases: Array<[unknown, RegExp]> = [
    [null, /^entries:2: .*null, not an object/],
    [{ ...good, seq: "2" }, /^entries:2: .*"seq" is not a non-negative integer: "2"/],
    [{ ...good, session_id: 7 }, /"session_id" is not a string: 7/],
    [{ ...good, thread_id: 1 }, /"thread_id" is neither a string nor null/],
    [{ ...good, event: [] }, /the event is an array/],
    [{ ...good, event: { id: "x" } }, /no string member "type"/],
  ];
  for (const [bad, pattern] of cases) {
    await t.step(pattern.source, async () => {
      await rejectsWith(Array.fromAsync(fromEntries([good, bad as LogEntry])), pattern);
    });
  }
});

Deno.test("fromEntries() stops when its signal aborts", async () => {
  const controller = new AbortController();
  const source = fromEntries(entries([user("a"), user("b")]), { signal: controller.signal });
  const seen: number[] = [];
  await assert.rejects(async () => {
    for await (const entry of source) {
      seen.push(entry.seq);
      controller.abort(new Error("stop"));
    }
  }, /stop/);
  assert.deepEqual(seen, [1]);
});

/** An in-memory log that records every query. */
function memoryLog(rows: LogEntry[]): EventLog & { queries: EventLogQuery[] } {
  const queries: EventLogQuery[] = [];
  return {
    queries,
    list(query): Promise<LogEntry[]> {
      queries.push(query);
      return Promise.resolve(rows.filter((r) => r.seq > query.afterSeq).slice(0, query.limit));
    },
  };
}

Deno.test("fromEventLog() pages by keyset until a short page", async () => {
  const rows = entries(Array.from({ length: 5 }, (_, i) => user(`m${i}`)));
  const log = memoryLog(rows);
  const seen = await Array.fromAsync(fromEventLog(log, { sessionId: "sesn_test", pageSize: 2 }));
  assert.deepEqual(seen.map((e) => e.seq), [1, 2, 3, 4, 5]);
  assert.deepEqual(log.queries.map((q) => [q.afterSeq, q.limit, q.scope]), [
    [0, 2, "session"],
    [2, 2, "session"],
    [4, 2, "session"],
  ]);
});

Deno.test("fromEventLog() asks one more page after a full last page, and passes the scope", async () => {
  const log = memoryLog(entries([user("a"), user("b")]));
  await Array.fromAsync(fromEventLog(log, { sessionId: "sesn_test", pageSize: 2, scope: "all" }));
  assert.deepEqual(log.queries.map((q) => [q.afterSeq, q.scope]), [[0, "all"], [2, "all"]]);
});

Deno.test("fromEventLog() holds one page: the next is asked only when the last is used", async () => {
  const log = memoryLog(entries(Array.from({ length: 10 }, () => user("x"))));
  const source = fromEventLog(log, { sessionId: "sesn_test", pageSize: 3 });
  const iterator = source[Symbol.asyncIterator]();
  await iterator.next();
  assert.equal(log.queries.length, 1);
  await iterator.next();
  await iterator.next();
  assert.equal(log.queries.length, 1);
  await iterator.next();
  assert.equal(log.queries.length, 2);
  await iterator.return();
});

Deno.test("fromEventLog() defaults to DREAM_PAGE_SIZE rows a page", async () => {
  const log = memoryLog([]);
  await Array.fromAsync(fromEventLog(log, { sessionId: "sesn_test" }));
  assert.equal(log.queries[0]!.limit, DREAM_PAGE_SIZE);
  assert.equal(DREAM_PAGE_SIZE, 200);
});

Deno.test("fromEventLog() fails on a page that is out of order, of another session, or not a page", async (t) => {
  const [a, b] = entries([user("a"), user("b")]) as [LogEntry, LogEntry];
  const cases: Array<[string, unknown, RegExp]> = [
    ["seq not increasing", [b, a], /seq 1 does not increase after seq 2/],
    ["seq repeated", [a, a], /seq 1 does not increase after seq 1/],
    ["another session", [{ ...a, session_id: "sesn_other" }], /belongs to session "sesn_other"/],
    ["not an array", { data: [] }, /returned \{"data":\[\]\}, not an array/],
  ];
  for (const [name, page, pattern] of cases) {
    await t.step(name, async () => {
      const log: EventLog = { list: () => Promise.resolve(page as LogEntry[]) };
      await rejectsWith(Array.fromAsync(fromEventLog(log, { sessionId: "sesn_test" })), pattern);
    });
  }
  assert.throws(() => fromEventLog(memoryLog([]), { sessionId: "s", pageSize: 0 }), RangeError);
});

Deno.test("fromNdjson() reads log entry lines and bare event lines", async () => {
  const entry = JSON.stringify(entries([user("as entry")], "sesn_x")[0]);
  const bare = JSON.stringify({ id: "sevt_b", type: "agent.message", content: "bare" });
  const seen = await Array.fromAsync(
    fromNdjson(stream(`${entry}\n${bare}\n`), { sessionId: "sesn_y" }),
  );
  assert.deepEqual(seen.map((e) => [e.seq, e.session_id, e.thread_id, e.event.id]), [
    [1, "sesn_x", null, seen[0]!.event.id],
    [2, "sesn_y", null, "sevt_b"],
  ]);
});

Deno.test("fromNdjson() accepts a BOM, CRLF, blank lines and a last line without newline", async () => {
  const lines = [
    JSON.stringify({ id: "1", type: "user.message", content: "é" }),
    "",
    "   ",
    JSON.stringify({ id: "2", type: "agent.message", content: "ok" }),
  ];
  const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(lines.join("\r\n"))]);
  const seen = await Array.fromAsync(fromNdjson(stream(bytes)));
  assert.deepEqual(seen.map((e) => [e.seq, e.event.id]), [[1, "1"], [4, "2"]]);
  assert.equal(seen[0]!.session_id, "stream");
});

Deno.test("fromNdjson() splits lines across chunk boundaries, inside multi-byte characters", async () => {
  const text = [1, 2, 3].map((n) =>
    JSON.stringify({ id: `${n}`, type: "user.message", content: "😀é" })
  )
    .join("\n");
  const bytes = new TextEncoder().encode(text);
  const chunks = Array.from(bytes, (byte) => new Uint8Array([byte]));
  const seen = await Array.fromAsync(fromNdjson(ReadableStream.from(chunks)));
  assert.deepEqual(seen.map((e) => (e.event as { content?: unknown }).content), [
    "😀é",
    "😀é",
    "😀é",
  ]);
});

Deno.test("fromNdjson() names the file and line of a malformed line", async (t) => {
  const path = await Deno.makeTempFile({ suffix: ".ndjson" });
  try {
    const good = JSON.stringify({ id: "1", type: "user.message", content: "hi" });
    const cases: Array<[string, RegExp]> = [
      ["{not json", /:2: Cannot parse the line as JSON/],
      ["[1, 2]", /:2: Cannot read the line as an event: the event is an array/],
      [
        '{"id": "2"}',
        /:2: Cannot read the line as an event: the event has no string member "type"/,
      ],
      ['{"seq": "x", "event": {"type": "a"}}', /:2: Cannot read the line as a log entry: .*"seq"/],
    ];
    for (const [line, pattern] of cases) {
      await t.step(line, async () => {
        await Deno.writeTextFile(path, `${good}\n${line}\n${good}\n`);
        await rejectsWith(
          Array.fromAsync(fromNdjson(path)),
          new RegExp(`^${RegExp.escape(path)}${pattern.source}`),
        );
      });
    }
  } finally {
    await Deno.remove(path);
  }
});

Deno.test("fromNdjson() skips malformed lines under skipInvalid and reports each", async () => {
  const text =
    `{"id":"1","type":"user.message","content":"a"}\n{oops\n7\n{"id":"2","type":"agent.message"}\n`;
  const reported: Array<[number, string]> = [];
  const seen = await Array.fromAsync(
    fromNdjson(stream(text), {
      skipInvalid: true,
      onInvalid: (line, reason) => reported.push([line, reason]),
    }),
  );
  assert.deepEqual(seen.map((e) => e.seq), [1, 4]);
  assert.deepEqual(reported.map(([line]) => line), [2, 3]);
  assert.match(reported[0]![1], /Cannot parse the line as JSON/);
});

Deno.test("fromNdjson() names the session after the file and closes it when stopped early", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/sesn_from_name.ndjson`;
    const line = JSON.stringify({ id: "1", type: "user.message", content: "a" });
    await Deno.writeTextFile(path, `${line}\n`.repeat(50_000));
    for await (const entry of fromNdjson(path)) {
      assert.equal(entry.session_id, "sesn_from_name");
      break; // the resource sanitizer fails this test if the file stays open
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("fromNdjson() says plainly when the file cannot be opened", async () => {
  await rejectsWith(
    Array.fromAsync(fromNdjson("/nonexistent/log.ndjson")),
    /^\/nonexistent\/log\.ndjson: Cannot open the file: no such file$/,
  );
  await rejectsWith(
    Array.fromAsync(fromNdjson(Deno.cwd())),
    /: Cannot open the file: it is a directory$/,
  );
});

Deno.test("splitSessions() groups consecutive sessions and skips what a consumer leaves", async () => {
  const rows = [
    ...entries([user("a1"), user("a2"), user("a3")], "sesn_a"),
    ...entries([user("b1")], "sesn_b"),
  ];
  const seen: Array<[string, number]> = [];
  for await (const group of splitSessions(rows)) {
    for await (const entry of group.entries) {
      seen.push([group.sessionId, entry.seq]);
      break; // take only the first entry of each session
    }
  }
  assert.deepEqual(seen, [["sesn_a", 1], ["sesn_b", 1]]);
});
