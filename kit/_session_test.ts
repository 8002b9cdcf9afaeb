// Copyright 2026 the brigade authors. MIT license.

import assert from "node:assert/strict";
import { EventSourceError, type LogEntry, renderDream, renderGrader, renderHtml } from "../mod.ts";
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
