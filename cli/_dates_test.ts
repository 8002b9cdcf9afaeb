// Copyright 2026 the brigade authors. MIT license.

import assert from "node:assert/strict";
import type { LogEntry } from "../events/types.ts";
import { dateRange, withinRange } from "./_dates.ts";

Deno.test("dateRange() reads a day in UTC or a time with its zone, both bounds inclusive", () => {
  assert.equal(dateRange(undefined, undefined), undefined);
  assert.deepEqual(dateRange("2026-09-01", "2026-09-01"), {
    from: Date.UTC(2026, 8, 1),
    to: Date.UTC(2026, 8, 2),
  });
  assert.deepEqual(dateRange("2026-09-01T12:00+02:00", undefined), {
    from: Date.UTC(2026, 8, 1, 10),
    to: undefined,
  });
  assert.deepEqual(dateRange(undefined, "2026-09-01T10:00:00.5Z"), {
    from: undefined,
    to: Date.UTC(2026, 8, 1, 10, 0, 0, 501),
  });
  for (const bad of ["2026-9-1", "2026-02-29", "2026-09-01T24:00Z", "2026-09-01T10:00", "today"]) {
    assert.throws(
      () => dateRange(bad, undefined),
      (error: unknown) => error instanceof RangeError && error.message.endsWith(`: "${bad}"`),
      bad,
    );
  }
  assert.throws(() => dateRange("2026-09-02", "2026-09-01"), /the range ends before it starts/);
});

Deno.test("dateRange() takes a day as YYYYMMDD too, and its errors say a day is in UTC", () => {
  assert.deepEqual(dateRange("20260901", "20260901"), dateRange("2026-09-01", "2026-09-01"));
  assert.deepEqual(dateRange("20240229", undefined), {
    from: Date.UTC(2024, 1, 29),
    to: undefined,
  });
  for (const bad of ["2026091", "202609011", "20260229", "20261301", "2026-0901", "202609-01"]) {
    assert.throws(
      () => dateRange(undefined, bad),
      (error: unknown) =>
        error instanceof RangeError &&
        error.message ===
          `Option "--until" takes a day in UTC (2026-09-01 or 20260901) or a time with its zone (2026-09-01T10:00:00Z, 2026-09-01T12:00+02:00): "${bad}"`,
      bad,
    );
  }
});

function session(
  times: Array<string | null>,
): { entries: AsyncIterable<LogEntry>; closed: () => boolean } {
  let closed = false;
  async function* entries(): AsyncGenerator<LogEntry> {
    try {
      for (const [i, at] of times.entries()) {
        yield {
          seq: i + 1,
          session_id: "s",
          thread_id: null,
          event: { id: `e${i}`, type: "user.message", processed_at: at, content: "hi" },
        };
      }
    } finally {
      closed = true;
    }
  }
  return { entries: entries(), closed: () => closed };
}

Deno.test("withinRange() keeps a session by its first time, reading it again from its start", async () => {
  const range = dateRange("2026-09-01", "2026-09-02")!;
  const kept = session([null, "2026-09-02T23:59:59Z", "2026-09-05T00:00:00Z"]);
  const entries = await withinRange(kept.entries, range);
  assert.deepEqual((await Array.fromAsync(entries!)).map((e) => e.seq), [1, 2, 3]);
  assert.ok(kept.closed());
});

Deno.test("withinRange() leaves out, and stops reading, a session outside the range or with no time", async () => {
  const range = dateRange("2026-09-01", undefined)!;
  const early = session(["2026-08-31T23:59:59Z", "2026-09-03T00:00:00Z"]);
  assert.equal(await withinRange(early.entries, range), undefined);
  assert.ok(early.closed());
  const untimed = session(Array.from({ length: 100 }, () => null));
  assert.equal(await withinRange(untimed.entries, range), undefined);
  assert.ok(untimed.closed());
  // An empty session is passed on as empty: the command reports it holds nothing.
  const empty = await withinRange(session([]).entries, range);
  assert.deepEqual(await Array.fromAsync(empty!), []);
});
