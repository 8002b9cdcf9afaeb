// Copyright 2026 the brigade authors. MIT license.

import assert from "node:assert/strict";
import { splitSessions } from "../mod.ts";
import { entries, user } from "../tests/_entries.ts";

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
