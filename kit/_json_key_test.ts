// Copyright 2026 the brigade authors. MIT license.

import assert from "node:assert/strict";
import { canonicalJson } from "./_canonical_json.ts";
import { JsonKeyer } from "./_json_key.ts";
import { makeRandom } from "../tests/_random.ts";

/** A random JSON value, as JSON.parse could give. */
function randomValue(random: () => number, depth = 0): unknown {
  const pick = Math.floor(random() * (depth > 3 ? 5 : 7));
  switch (pick) {
    case 0:
      return null;
    case 1:
      return random() < 0.5;
    case 2:
      return [0, -1, 2 ** 31, 0.5, -1e21, 7][Math.floor(random() * 6)];
    case 3:
      return ["", "a", "ab", "é", "😀", "a\u0000b", "\ud800"][Math.floor(random() * 7)];
    case 4:
      return "x".repeat(Math.floor(random() * 5));
    case 5:
      return Array.from({ length: Math.floor(random() * 4) }, () => randomValue(random, depth + 1));
    default: {
      const object: Record<string, unknown> = {};
      for (const name of ["a", "b", "10", "9", "type"]) {
        if (random() < 0.5) object[name] = randomValue(random, depth + 1);
      }
      return object;
    }
  }
}

/** The same value with every object's members in reverse order. */
function reversed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversed);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(Object.entries(value).reverse().map(([k, v]) => [k, reversed(v)]));
}

Deno.test("JsonKeyer gives two values one key exactly when their canonical JSON is one", () => {
  const random = makeRandom(28);
  const keyer = new JsonKeyer();
  const values = Array.from({ length: 400 }, () => randomValue(random));
  for (const value of values) {
    assert.equal(keyer.key(["t"], [value]), keyer.key(["t"], [reversed(value)]));
  }
  const byText = new Map<string, string>();
  const byKey = new Map<string, string>();
  for (const value of values) {
    const text = canonicalJson(value);
    const key = keyer.key(["t"], [value]);
    assert.equal(byText.get(text) ?? key, key, text);
    assert.equal(byKey.get(key) ?? text, text, text);
    byText.set(text, key);
    byKey.set(key, text);
  }
  assert.ok(byText.size > 100);
});

Deno.test("JsonKeyer keys what canonical JSON changes as canonical JSON writes it", () => {
  const keyer = new JsonKeyer();
  const same = (a: unknown, b: unknown): void => {
    assert.equal(canonicalJson(a), canonicalJson(b));
    assert.equal(keyer.key([], [a]), keyer.key([], [b]), canonicalJson(a));
  };
  same({ a: NaN, b: Infinity }, { a: null, b: null });
  same([-0], [0]);
  same({ a: 1, b: undefined, c: () => 1 }, { a: 1 });
  same([undefined, Symbol("s")], [null, null]);
  same({ at: new Date(0) }, { at: "1970-01-01T00:00:00.000Z" });
  same({ n: { toJSON: () => [1, 2] } }, { n: [1, 2] });
  // A `toJSON` the members do not list: an array's own, one not enumerable.
  same(Object.assign([1, 2], { toJSON: () => "else" }), "else");
  same(Object.defineProperty({ a: 1 }, "toJSON", { value: () => ({ b: 2 }) }), { b: 2 });
  assert.notEqual(
    keyer.key([], [Object.assign([1, 2], { toJSON: () => "else" })]),
    keyer.key([], [[1, 2]]),
  );
  same(new Map([["a", 1]]), {});
  // Where `__proto__` is the prototype's setter (a browser) canonical JSON drops the member; Deno
  // keeps it. Either way, what it writes is what is keyed.
  const proto = JSON.parse('{"__proto__":{"x":1},"y":2}');
  same(proto, JSON.parse('{"y":2,"__proto__":{"x":1}}'));
  assert.equal(
    keyer.key([], [proto]) === keyer.key([], [{ y: 2 }]),
    canonicalJson(proto) === canonicalJson({ y: 2 }),
  );
  let deep: unknown = "end";
  for (let i = 0; i < 200; i++) deep = { next: deep };
  same(deep, JSON.parse(JSON.stringify(deep)));
  assert.notEqual(keyer.key([], [deep]), keyer.key([], [{ next: "end" }]));
  assert.throws(() => keyer.key([], [{ n: 1n }]), TypeError);
});

Deno.test("JsonKeyer tells apart what canonical JSON tells apart", () => {
  const keyer = new JsonKeyer();
  const keys = [
    keyer.key([], [undefined]),
    keyer.key([], [null]),
    keyer.key([], ["undefined"]),
    keyer.key([], ["null"]),
    keyer.key([], [1]),
    keyer.key([], ["1"]),
    keyer.key([], [[]]),
    keyer.key([], [{}]),
    keyer.key([], [[1, 2]]),
    keyer.key([], [[2, 1]]),
    keyer.key([], [{ a: 1, b: 2 }]),
    keyer.key([], [{ a: 2, b: 1 }]),
    keyer.key([], [{ a: [1] }]),
    keyer.key([], [{ a: 1 }, [1]]),
    keyer.key(["ab", "c"], [1]),
    keyer.key(["a", "bc"], [1]),
    keyer.key(["abc"], [1]),
    keyer.key([], [1.5]),
    keyer.key([], [2 ** 40]),
  ];
  assert.equal(new Set(keys).size, keys.length);
  for (const key of keys) {
    assert.equal(key.length, 10);
    assert.ok([...key].every((unit) => unit.charCodeAt(0) < 0x80), "a one-byte key");
  }
});

Deno.test("JsonKeyer keys differ between keyers seeded apart, and agree within one", () => {
  const value = { command: "ls", env: ["A=1"] };
  assert.equal(new JsonKeyer(1).key(["t"], [value]), new JsonKeyer(1).key(["t"], [value]));
  assert.notEqual(new JsonKeyer(1).key(["t"], [value]), new JsonKeyer(2).key(["t"], [value]));
});
