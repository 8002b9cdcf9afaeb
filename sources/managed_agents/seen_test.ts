// Copyright 2026 the brigade authors. MIT license.

// The follow's memory of the events it yielded: bounded, and still right about old events.

import assert from "node:assert/strict";
import fc from "fast-check";
import { compareKeys, type TimeKey, timeKey } from "./_merge.ts";
import { FOLLOW_MEMORY, latestKey, SeenEvents } from "./_seen.ts";

const at = (n: number): string => new Date(Date.UTC(2026, 8, 14) + n * 1_000).toISOString();

Deno.test("SeenEvents knows each event once, by id, and past its memory by time", () => {
  const seen = new SeenEvents();
  const count = FOLLOW_MEMORY * 3;
  for (let n = 0; n < count; n++) {
    assert.equal(
      seen.listed({ id: `sevt_${n}`, type: "agent.message", processed_at: at(n) }),
      false,
    );
  }
  // Remembered by id: the latest ones, even with no time.
  assert.equal(
    seen.listed({ id: `sevt_${count - 1}`, type: "agent.message", processed_at: null }),
    true,
  );
  // Forgotten by id, but older than what was seen: a catch-up listing does not yield it again.
  assert.equal(seen.listed({ id: "sevt_0", type: "agent.message", processed_at: at(0) }), true);
  // New: a later time, or no time and an id never seen.
  assert.equal(
    seen.listed({ id: "sevt_new", type: "agent.message", processed_at: at(count) }),
    false,
  );
  assert.equal(seen.listed({ id: "sevt_queued", type: "user.message", processed_at: null }), false);
  assert.equal(seen.listed({ id: "sevt_queued", type: "user.message", processed_at: null }), true);
});

Deno.test("SeenEvents takes an event of the open stream as new unless its id is remembered", () => {
  const seen = new SeenEvents();
  // A far-future stamp first, then more events than the memory holds, each older than it.
  assert.equal(
    seen.streamed({ id: "sevt_future", type: "agent.message", processed_at: at(1e9) }),
    false,
  );
  for (let n = 0; n < FOLLOW_MEMORY * 2; n++) {
    const item = { id: `sevt_${n}`, type: "agent.message", processed_at: at(n) };
    assert.equal(seen.streamed(item), false, `sevt_${n}`);
  }
  // And a step back, past the memory: still new.
  assert.equal(
    seen.streamed({ id: "sevt_back", type: "agent.message", processed_at: at(-1) }),
    false,
  );
  // Each once: the same id again is seen, on the stream and in a listing.
  assert.equal(
    seen.streamed({ id: "sevt_back", type: "agent.message", processed_at: at(-1) }),
    true,
  );
  assert.equal(
    seen.listed({ id: `sevt_${FOLLOW_MEMORY * 2 - 1}`, type: "agent.message", processed_at: null }),
    true,
  );
});

Deno.test("SeenEvents, in a catch-up listing, knows the forgotten events by time and nothing newer", () => {
  const seen = new SeenEvents();
  const count = FOLLOW_MEMORY + 10;
  for (let n = 0; n < count; n++) {
    seen.streamed({ id: `sevt_${n}`, type: "agent.message", processed_at: at(n * 2) });
  }
  // The catch-up lists the whole history: the first ten (forgotten) are known by time, no later
  // than the newest forgotten; the others by id.
  for (let n = 0; n < count; n++) {
    const item = { id: `sevt_${n}`, type: "agent.message", processed_at: at(n * 2) };
    assert.equal(seen.listed(item), true, `sevt_${n}`);
  }
  // Stored while the stream was down: new, once, even one stamped before the newest remembered
  // (a step back), as it is newer than anything forgotten.
  const back = { id: "sevt_back", type: "agent.message", processed_at: at(count * 2 - 3) };
  const stored = { id: "sevt_stored", type: "agent.message", processed_at: at(count * 2) };
  assert.equal(seen.listed(back), false);
  assert.equal(seen.listed(stored), false);
  assert.equal(seen.listed(stored), true);
});

/** Stamps of the API's form and near it: days past the month's end, T24, fields out of range. */
const stamp = fc.oneof(
  fc.record({
    year: fc.constantFrom("2024", "2026", "2100", "0000"),
    month: fc.constantFrom("01", "02", "04", "09", "12", "13", "00"),
    day: fc.constantFrom("01", "09", "28", "29", "30", "31", "32", "00", "1a"),
    hour: fc.constantFrom("00", "10", "23", "24", "25", "/1"),
    minute: fc.constantFrom("00", "59", "60"),
    second: fc.constantFrom("00", "07", "59", "60"),
    fraction: fc.constantFrom("", ".0", ".000", ".999", ".5", ".12a"),
    zone: fc.constantFrom("Z", "Z", "Z", "z", "+02:00"),
  }).map((f) =>
    `${f.year}-${f.month}-${f.day}T${f.hour}:${f.minute}:${f.second}${f.fraction}${f.zone}`
  ),
  fc.constant(null),
  fc.string({ maxLength: 24 }),
);

Deno.test("latestKey() gives the latest time of the stamps, as timeKey() reads each", () => {
  const naive = (stamps: unknown[]): TimeKey | undefined => {
    let latest: TimeKey | undefined;
    for (const value of stamps) {
      const key = timeKey(value);
      if (key !== undefined && (latest === undefined || compareKeys(key, latest) > 0)) latest = key;
    }
    return latest;
  };
  fc.assert(
    fc.property(fc.array(stamp, { maxLength: 40 }), (stamps) => {
      assert.deepEqual(latestKey(stamps), naive(stamps));
    }),
    { numRuns: 5_000 },
  );
  // A day that rolls over is later than the next month's first day, though its text is not.
  assert.deepEqual(
    latestKey(["2026-03-01T00:00:00Z", "2026-02-31T00:00:00Z"]),
    timeKey("2026-03-03T00:00:00Z"),
  );
});

Deno.test("SeenEvents.since() starts a catch-up no later than any event listed() would take as new", () => {
  const seen = new SeenEvents();
  // Nothing forgotten yet: the whole list, since any event not remembered is new.
  for (let n = 0; n < FOLLOW_MEMORY; n++) seen.listed({ id: `sevt_${n}`, processed_at: at(n) });
  assert.equal(seen.since(), undefined);
  for (let n = FOLLOW_MEMORY; n < FOLLOW_MEMORY * 2; n++) {
    seen.listed({ id: `sevt_${n}`, processed_at: at(n) });
  }
  const since = seen.since();
  assert.equal(since, at(FOLLOW_MEMORY - 1));
  // Stored while the stream was down, stamped between the forgotten events and the earliest
  // one remembered (a stamp out of order): new, so the catch-up must reach it.
  const late = {
    id: "sevt_late",
    processed_at: new Date(Date.parse(at(FOLLOW_MEMORY - 1)) + 500).toISOString(),
  };
  assert.ok(late.processed_at >= since!, `${late.processed_at} before ${since}`);
  assert.equal(seen.listed(late), false);
});
