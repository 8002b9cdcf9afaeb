// Copyright 2026 the brigade authors. MIT license.

import assert from "node:assert/strict";
import { EventSourceError } from "../mod.ts";

/** Fails unless `promise` rejects with an EventSourceError whose message matches `pattern`. */
export async function rejectsWith(promise: Promise<unknown>, pattern: RegExp): Promise<void> {
  await assert.rejects(promise, (error: unknown) => {
    assert.ok(error instanceof EventSourceError, `not an EventSourceError: ${error}`);
    assert.match(error.message, pattern);
    return true;
  });
}
