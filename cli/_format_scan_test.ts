// Copyright 2026 the brigade authors. MIT license.

import assert from "node:assert/strict";
import fc from "fast-check";
import { topLevel } from "./_format_scan.ts";

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);

/** What `JSON.parse` says of the same members. */
function parsed(text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const { event, type } = value as { event?: unknown; type?: unknown };
  return {
    eventObject: typeof event === "object" && event !== null && !Array.isArray(event),
    type: typeof type === "string" && encode(type).length <= 200 ? type : undefined,
    typeHasDot: typeof type === "string" && type.includes("."),
  };
}

/** Records with and without `event` and `type`, of any JSON values, keys in any order. */
const records = fc.tuple(
  fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 3 }), { maxKeys: 6 }),
  fc.option(fc.jsonValue({ maxDepth: 2 })),
  fc.option(fc.oneof(fc.constantFrom("user", "agent.message", "a.b", "summary"), fc.string())),
  fc.boolean(),
).map(([members, event, type, eventFirst]) => {
  const record: Record<string, unknown> = {};
  if (eventFirst && event !== null) record.event = event;
  Object.assign(record, members);
  if (type !== null) record.type = type;
  if (!eventFirst && event !== null) record.event = event;
  return record;
});

Deno.test("topLevel() reads a record's event and type as JSON.parse does", () => {
  fc.assert(
    fc.property(records, fc.constantFrom(undefined, 2), fc.boolean(), (record, indent, ascii) => {
      let text = JSON.stringify(record, null, indent);
      // Escaped non-ASCII, as some writers do: `\u002e` is a dot too.
      if (ascii) {
        text = text.replace(
          /[^\x20-\x7e\n]/g,
          (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
        );
      }
      const found = topLevel(encode(` ${text}\n`));
      const expected = parsed(text) as { type?: string } | undefined;
      assert.ok(found !== undefined, text);
      assert.equal(found.eventObject, (expected as { eventObject: boolean }).eventObject, text);
      assert.equal(found.typeHasDot, (expected as { typeHasDot: boolean }).typeHasDot, text);
      if (expected?.type !== undefined) assert.equal(found.type, expected.type, text);
    }),
    { numRuns: 500 },
  );
});

Deno.test("topLevel() reads no member of what is not one JSON object", () => {
  for (
    const text of [
      "",
      "[1, 2]",
      '"type"',
      "42",
      '{"type": "user"',
      '{"type": "user"} {"event": {}}',
      '{"type" "user"}',
      '{"type": "user",}',
      '{"event": {"a": [1, 2}, "type": "user"',
      '{type: "user"}',
    ]
  ) {
    assert.equal(topLevel(encode(text)), undefined, text);
  }
  assert.deepEqual(topLevel(encode("{}")), {
    eventObject: false,
    type: undefined,
    typeHasDot: false,
  });
});

Deno.test("topLevel() tells a dot in a type however it is written, and however long", () => {
  const long = "x".repeat(1000);
  assert.equal(topLevel(encode(`{"type":"${long}.y"}`))?.typeHasDot, true);
  assert.equal(topLevel(encode(`{"type":"${long}\\u002Ey"}`))?.typeHasDot, true);
  assert.equal(topLevel(encode(`{"type":"${long}\\\\u002ey"}`))?.typeHasDot, false);
  assert.equal(
    topLevel(encode(`{"type":"${long}"}`))?.type,
    undefined,
    "a long type is none we seek",
  );
});
