// Copyright 2026 the brigade authors. MIT license.

import assert from "node:assert/strict";
import {
  DREAM_PAGE_SIZE,
  type EventLog,
  type EventLogQuery,
  fromEventLog,
  type LogEntry,
} from "../mod.ts";
import { entries, user } from "../tests/_entries.ts";
import { rejectsWith } from "../tests/_source_errors.ts";

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
