// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

import { EventSourceError } from "../events/errors.ts";
import type { EntryIterable, LogEntry } from "../events/types.ts";
import { checkedEntries } from "../events/validate.ts";

/**
 * Yields a source's entries, checked, and fails on the first entry of a
 * second session: the renderers of one session cannot mix two.
 */
export async function* oneSession(
  source: EntryIterable,
  renderer: string,
  signal?: AbortSignal,
): AsyncGenerator<LogEntry, void, undefined> {
  let sessionId: string | undefined;
  for await (const entry of checkedEntries(source, signal ? { signal } : {})) {
    sessionId ??= entry.session_id;
    if (entry.session_id !== sessionId) {
      throw new EventSourceError(
        `Cannot render two sessions with the ${renderer} renderer: "${sessionId}" and "${entry.session_id}" (render them one at a time, or split the input by session)`,
        { code: "second_session", source: `seq ${entry.seq}` },
      );
    }
    yield entry;
  }
}
