// Copyright 2026 the brigade authors. MIT license.

// The follow's table of ids (under SeenEvents): what it holds it finds, whatever the hashes,
// through its growth and after a clear.

import assert from "node:assert/strict";
import { idHash, idSeed, IdTable } from "./_id_table.ts";

Deno.test("IdTable finds every id it holds and no other, ids of one hash included, as it grows", () => {
  const table = new IdTable();
  const seed = idSeed();
  // Ids that collide (one hash for all, as a server guessing the seed could aim for) and ids
  // that do not: many more than the first slots, so the table grows with both kinds in it.
  for (let n = 0; n < 500; n++) {
    table.add(`same_${n}`, 7);
    table.add(`sevt_${n}`, idHash(`sevt_${n}`, seed));
    assert.equal(table.size, 2 * (n + 1));
  }
  for (let n = 0; n < 500; n++) {
    assert.ok(table.has(`same_${n}`, 7), `same_${n}`);
    assert.ok(table.has(`sevt_${n}`, idHash(`sevt_${n}`, seed)), `sevt_${n}`);
  }
  assert.ok(!table.has("same_500", 7));
  assert.ok(!table.has("sevt_500", idHash("sevt_500", seed)));
  // The same text under another hash is another id: a table asks only with the one hash.
  assert.ok(!table.has("same_1", 8));
  table.clear();
  assert.equal(table.size, 0);
  assert.ok(!table.has("same_1", 7));
  table.add("same_1", 7);
  assert.ok(table.has("same_1", 7));
  assert.ok(!table.has("same_2", 7));
});

Deno.test("idHash() reads every unit of an id, and its seed", () => {
  assert.equal(idHash("sevt_1", 1), idHash("sevt_1", 1));
  assert.notEqual(idHash("sevt_1", 1), idHash("sevt_2", 1));
  assert.notEqual(idHash("sevt_1", 1), idHash("sevt_1", 2));
  assert.notEqual(idHash("a\u{1F600}", 1), idHash("a\u{1F601}", 1));
  assert.ok(Number.isInteger(idHash("", 0)));
});
