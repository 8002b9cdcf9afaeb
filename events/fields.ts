// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

/**
 * The bridge between the typed event model and an event's fields as data. A
 * {@linkcode SessionEvent} declares no index signature (so that the official
 * SDK's event interfaces are assignable to it); the code that reads fields of
 * any event by name reads them through this view.
 *
 * @module
 */

import type { SessionEvent } from "./types.ts";

/** An event's fields by name (the same object, not a copy). */
export function fieldsOf(event: SessionEvent): Record<string, unknown> {
  return event as unknown as Record<string, unknown>;
}

/** An object of fields as an event (the same object; its `id` and `type` are the caller's to check). */
export function asEvent(fields: Record<string, unknown>): SessionEvent {
  return fields as unknown as SessionEvent;
}
