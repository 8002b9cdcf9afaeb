// Copyright 2026 the brigade authors. MIT license.

import assert from "node:assert/strict";
import { EventSourceError, type EventSourceErrorCode, ManagedAgentsError } from "../mod.ts";

/** Every code, once: a code added to the type and not here is a type error. */
const CODES: Record<EventSourceErrorCode, true> = {
  invalid_entry: true,
  line_too_long: true,
  second_session: true,
  unreadable: true,
  out_of_order: true,
  invalid_page: true,
  invalid_option: true,
  api: true,
};

Deno.test("EventSourceError carries each code it is given, the message unchanged", () => {
  for (const code of Object.keys(CODES) as EventSourceErrorCode[]) {
    const error = new EventSourceError("Cannot read entry: null, not an object", {
      code,
      source: "entries",
      line: 2,
    });
    assert.equal(error.code, code);
    assert.equal(error.message, "entries:2: Cannot read entry: null, not an object");
    assert.equal(error.reason, "Cannot read entry: null, not an object");
    assert.equal(error.source, "entries");
    assert.equal(error.line, 2);
    assert.equal(error.name, "EventSourceError");
  }
});

Deno.test("EventSourceError keeps its cause next to its code", () => {
  const cause = new Error("disk on fire");
  const error = new EventSourceError("Cannot read the input: Error: disk on fire", {
    code: "unreadable",
    source: "log.ndjson",
    cause,
  });
  assert.equal(error.code, "unreadable");
  assert.equal(error.cause, cause);
  assert.equal(error.message, "log.ndjson: Cannot read the input: Error: disk on fire");
});

Deno.test("EventSourceError requires a code", () => {
  // @ts-expect-error: `code` is required, so that no throw site forgets one.
  const error = new EventSourceError("Cannot read entry", { source: "entries" });
  assert.equal(error.code, undefined);
});

Deno.test("ManagedAgentsError is an EventSourceError with a code and a status", () => {
  const error = new ManagedAgentsError(
    'Cannot list events of session "sesn_1": the API answered 503 Service Unavailable',
    { code: "api", source: "sessions/sesn_1/events", status: 503 },
  );
  assert.ok(error instanceof EventSourceError);
  assert.equal(error.code, "api");
  assert.equal(error.status, 503);
  assert.equal(error.name, "ManagedAgentsError");
  assert.equal(
    error.message,
    "sessions/sesn_1/events: " +
      'Cannot list events of session "sesn_1": the API answered 503 Service Unavailable',
  );
});
