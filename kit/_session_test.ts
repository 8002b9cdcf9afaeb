// Copyright 2026 the brigade authors. MIT license.

import assert from "node:assert/strict";
import {
  EventSourceError,
  fromNdjson,
  type LogEntry,
  renderDream,
  renderGrader,
  renderHtml,
} from "../mod.ts";
import { conversation } from "./mod.ts";
import { entries, user } from "../tests/_entries.ts";

Deno.test("each renderer of one session fails on a second session with code second_session", async (t) => {
  const rows = (): LogEntry[] => [
    ...entries([user("a")], "sesn_a"),
    ...entries([user("b"), user("c")], "sesn_b"),
  ];
  const renderers: Record<string, (rows: LogEntry[]) => Promise<unknown>> = {
    grader: (rows) => renderGrader(rows),
    dream: (rows) => renderDream(rows),
    html: (rows) => renderHtml(rows),
    conversation: (rows) => Array.fromAsync(conversation(rows)),
  };
  for (const [name, render] of Object.entries(renderers)) {
    await t.step(name, async () => {
      await assert.rejects(render(rows()), (error: unknown) => {
        assert.ok(error instanceof EventSourceError, `not an EventSourceError: ${error}`);
        assert.equal(error.code, "second_session");
        assert.equal(error.source, "seq 1");
        assert.match(error.message, new RegExp(`the ${name} renderer: "sesn_a" and "sesn_b"`));
        return true;
      });
    });
  }
});

/** A stream of `lines`, one NDJSON line each. */
function ndjson(lines: unknown[]): ReadableStream<Uint8Array> {
  const text = lines.map((line) => JSON.stringify(line) + "\n").join("");
  return ReadableStream.from([new TextEncoder().encode(text)]);
}

/** Whether `error` is the gate's invalid_entry error for the entry at `line`, of `message`. */
function isInvalidEntry(error: unknown, line: number, message: string): boolean {
  assert.ok(error instanceof EventSourceError, `not an EventSourceError: ${error}`);
  assert.equal(error.code, "invalid_entry");
  assert.equal(error.source, "entries");
  assert.equal(error.line, line);
  assert.equal(error.message, `entries:${line}: ${message}`);
  return true;
}

Deno.test("the renderers check each entry of a caller's own iterable", async (t) => {
  const bad = { seq: -1, session_id: "sesn_a", thread_id: null, event: user("a") };
  const message = `Cannot read entry: the entry's "seq" is not a non-negative integer: -1`;
  const sources: Record<string, () => Iterable<unknown> | AsyncIterable<unknown>> = {
    array: () => [...entries([user("a")], "sesn_a"), bad],
    "async generator": async function* (): AsyncGenerator<unknown> {
      yield* entries([user("a")], "sesn_a");
      yield bad;
    },
  };
  for (const [name, source] of Object.entries(sources)) {
    await t.step(name, async () => {
      for (const render of [renderDream, renderGrader]) {
        await assert.rejects(
          render(source() as Iterable<LogEntry>),
          (error) => isInvalidEntry(error, 2, message),
        );
      }
    });
  }
});

Deno.test("fromNdjson()'s entries, read by a renderer, fail as they always have", async (t) => {
  await t.step("a bad line fails in fromNdjson(), with its name and line", async () => {
    const source = fromNdjson(ndjson([user("a"), { type: 5 }]), { name: "log.ndjson" });
    await assert.rejects(renderDream(source), (error) => {
      assert.ok(error instanceof EventSourceError);
      assert.equal(error.code, "invalid_entry");
      assert.equal(error.source, "log.ndjson");
      assert.equal(error.line, 2);
      assert.match(error.message, /^log\.ndjson:2: Cannot read the line as an event: /);
      return true;
    });
  });
  await t.step("a sessionId option that is not a string fails in the renderer", async () => {
    // Typed callers cannot give one; an untyped caller's entries are checked by the renderer (a
    // renderer that trusted fromNdjson()'s own checks would let this one through).
    const options = { sessionId: 5 as unknown as string };
    for (const render of [renderDream, renderGrader]) {
      await assert.rejects(
        render(fromNdjson(ndjson([user("a")]), options)),
        (error) =>
          isInvalidEntry(
            error,
            1,
            `Cannot read entry: the entry's "session_id" is not a string: 5`,
          ),
      );
    }
  });
  await t.step("valid lines render as the same entries given as an array", async () => {
    const rows = entries([user("a"), user("b")], "sesn_a");
    const fromFile = await renderDream(fromNdjson(ndjson(rows)));
    assert.deepEqual(fromFile, await renderDream(rows));
  });
});
