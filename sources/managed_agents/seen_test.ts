// Copyright 2026 the brigade authors. MIT license.

// The follow's memory of the events it yielded: bounded, and still right about old events.

import assert from "node:assert/strict";
import { FOLLOW_MEMORY, SeenEvents } from "./_follow.ts";

const at = (n: number): string => new Date(Date.UTC(2026, 8, 14) + n * 1_000).toISOString();

Deno.test("SeenEvents knows each event once, by id, and past its memory by time", () => {
  const seen = new SeenEvents();
  const count = FOLLOW_MEMORY * 3;
  for (let n = 0; n < count; n++) {
    assert.equal(
      seen.check({ id: `sevt_${n}`, type: "agent.message", processed_at: at(n) }),
      false,
    );
  }
  // Remembered by id: the latest ones, even with no time.
  assert.equal(
    seen.check({ id: `sevt_${count - 1}`, type: "agent.message", processed_at: null }),
    true,
  );
  // Forgotten by id, but older than what was seen: a catch-up listing does not yield it again.
  assert.equal(seen.check({ id: "sevt_0", type: "agent.message", processed_at: at(0) }), true);
  // New: a later time, or no time and an id never seen.
  assert.equal(
    seen.check({ id: "sevt_new", type: "agent.message", processed_at: at(count) }),
    false,
  );
  assert.equal(seen.check({ id: "sevt_queued", type: "user.message", processed_at: null }), false);
  assert.equal(seen.check({ id: "sevt_queued", type: "user.message", processed_at: null }), true);
});
