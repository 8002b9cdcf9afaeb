// Copyright 2026 the brigade authors. MIT license.

import assert from "node:assert/strict";
import { KeyTable } from "./_key_table.ts";
import { makeRandom } from "../tests/_random.ts";

/** A Map whose oldest key is deleted when a new one takes it past `limit`: what KeyTable must match. */
class BoundedMap<V> {
  map: Map<string, V> = new Map();
  constructor(readonly limit: number) {}
  set(key: string, value: V): void {
    this.map.set(key, value);
    if (this.map.size > this.limit) this.map.delete(this.map.keys().next().value!);
  }
}

function randomKey(random: () => number): string {
  const pick = random();
  if (pick < 0.6) return `toolu_${Math.floor(random() * 300).toString(36)}`;
  if (pick < 0.7) return "";
  if (pick < 0.8) return `ÿ${Math.floor(random() * 50)}\u00fe\u00ff`;
  if (pick < 0.9) return `日本${Math.floor(random() * 50)}🚀\u0000`;
  return "x".repeat(Math.floor(random() * 400)) + String(Math.floor(random() * 20));
}

Deno.test("KeyTable finds what a Map bounded to its limit finds, through sets, deletes and evictions", () => {
  for (const limit of [1, 2, 7, 64]) {
    const random = makeRandom(limit);
    const table = new KeyTable<number>(limit);
    const expected = new BoundedMap<number>(limit);
    for (let step = 0; step < 20_000; step++) {
      const key = randomKey(random);
      const act = random();
      if (act < 0.55) {
        table.set(key, step);
        expected.set(key, step);
      } else if (act < 0.75) {
        assert.equal(table.delete(key), expected.map.delete(key), `delete ${key} at ${step}`);
      } else if (act < 0.85) {
        // The grader's increment: delete, then set (the key comes last).
        table.delete(key);
        expected.map.delete(key);
        table.set(key, step);
        expected.set(key, step);
      }
      assert.equal(table.get(key), expected.map.get(key), `get ${key} at ${step}`);
      assert.equal(table.size, expected.map.size);
    }
    for (const [key, value] of expected.map) assert.equal(table.get(key), value);
  }
});

Deno.test("KeyTable tells apart keys that differ only past a byte, in a wide unit, or in length", () => {
  const table = new KeyTable<string>(16);
  const keys = [
    "a",
    "a\u0000",
    "\u00ff",
    "\u00ff\u0000",
    "\u0100",
    "\uff00",
    "\u00ffa",
    "ÿ",
    "",
    "ab",
  ];
  for (const key of keys) table.set(key, JSON.stringify(key));
  for (const key of keys) assert.equal(table.get(key), JSON.stringify(key));
  assert.equal(table.get("b"), undefined);
  assert.equal(table.get("a\u0000\u0000"), undefined);
  // "\u0100" is held as the bytes ff 01 00: the three units ff, 01, 00 are another key.
  assert.equal(table.get("\u00ff\u0001\u0000"), undefined);
});

Deno.test("KeyTable holds the kit's 4,096 tool-call ids in at most 224 KiB of typed arrays", () => {
  // The bound a dream's tool table keeps (a hundred dreams in one process hold a hundred):
  // 30-byte ids, as a session's `toolu_…` ids are; its index takes two bytes a place.
  const table = new KeyTable<number>(4_096);
  for (let call = 0; call < 20_000; call++) {
    table.set(`toolu_${call.toString(36).padStart(24, "0")}`, call);
  }
  assert.equal(table.size, 4_096);
  assert.ok(table.heldBytes <= 224 * 1024, `${table.heldBytes} bytes held`);
  assert.equal(table.get(`toolu_${(19_999).toString(36).padStart(24, "0")}`), 19_999);
  assert.equal(table.get(`toolu_${(15_903).toString(36).padStart(24, "0")}`), undefined);
});

Deno.test("KeyTable finds its keys with more slots than a two-byte index place can name, and with as many as it can", () => {
  // 58,252 keys take 65,534 slots: the largest place a two-byte index writes. 70,000 take more.
  for (const limit of [58_252, 70_000]) {
    const table = new KeyTable<number>(limit);
    const keys = limit + 10_000;
    for (let i = 0; i < keys; i++) table.set(`k${i}`, i);
    assert.equal(table.size, limit);
    for (let i = 0; i < keys; i++) {
      assert.equal(table.get(`k${i}`), i < keys - limit ? undefined : i, `limit ${limit}, k${i}`);
    }
  }
});

Deno.test("KeyTable gives back each key's very value: -0 and 0, NaN, and more distinct values than slots", () => {
  const table = new KeyTable<number>(8);
  table.set("zero", 0);
  table.set("minus", -0);
  table.set("nan", NaN);
  assert.ok(Object.is(table.get("zero"), 0));
  assert.ok(Object.is(table.get("minus"), -0));
  assert.ok(Number.isNaN(table.get("nan")));
  // Distinct values, more than the slots: the live keys keep theirs.
  for (let i = 0; i < 1_000; i++) table.set(`k${i % 20}`, i);
  for (let i = 980; i < 1_000; i++) {
    assert.equal(table.get(`k${i % 20}`), i >= 992 ? i : undefined, `k${i % 20}`);
  }
  const objects = Array.from({ length: 50 }, (_, i) => ({ i }));
  const shared = new KeyTable<{ i: number }>(4);
  for (let i = 0; i < 50; i++) shared.set(`o${i}`, objects[i]!);
  for (let i = 46; i < 50; i++) assert.equal(shared.get(`o${i}`), objects[i]);
});

Deno.test("KeyTable holds 4,096 of a Managed Agents log's 17-byte ids in at most 128 KiB of typed arrays", () => {
  // One byte a slot for a key's size, where four took 144 KiB: a hundred dreams' tables hold
  // about 12.5 MiB.
  const table = new KeyTable<number>(4_096);
  for (let call = 0; call < 20_000; call++) {
    table.set(`sevt_01B${call.toString(16).toUpperCase().padStart(9, "0")}`, call % 7);
  }
  assert.equal(table.size, 4_096);
  assert.ok(table.heldBytes <= 128 * 1024, `${table.heldBytes} bytes held`);
});

Deno.test("KeyTable finds its short keys and its long ones after a key past 127 bytes widens its sizes", () => {
  const table = new KeyTable<number>(64);
  const keys = Array.from(
    { length: 80 },
    (_, i) => i % 10 === 9 ? `${"y".repeat(120 + i)}${i}` : `k${i}`,
  );
  for (let i = 0; i < keys.length; i++) {
    table.set(keys[i]!, i);
    if (i % 13 === 0) table.delete(keys[Math.max(0, i - 3)]!);
  }
  const expected = new BoundedMap<number>(64);
  for (let i = 0; i < keys.length; i++) {
    expected.set(keys[i]!, i);
    if (i % 13 === 0) expected.map.delete(keys[Math.max(0, i - 3)]!);
  }
  for (const key of keys) assert.equal(table.get(key), expected.map.get(key), key.slice(0, 8));
  assert.equal(table.size, expected.map.size);
});
