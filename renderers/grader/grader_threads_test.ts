// Copyright 2026 the brigade authors. MIT license.

// The grader's scoping by thread: `thread: ID | NAME` and `threads: "each"`.

import assert from "node:assert/strict";
import { fromNdjson, type LogEntry, renderGrader, renderJson } from "../../mod.ts";
import { agent, end, entries, id, start, user } from "../../tests/_entries.ts";
import { parseGrader } from "../../tests/_transcript_parse.ts";
import type { SessionEvent } from "../../mod.ts";

const FIXTURES = new URL("../../fixtures/", import.meta.url);

/**
 * A coordinator and a worker: the worker is sent a task, and a user message reaches it while its
 * request is in flight (consumption order moves it after the reply it did not see).
 */
function workerSession(): LogEntry[] {
  const sent: SessionEvent = {
    id: id(),
    type: "agent.thread_message_sent",
    to_session_thread_id: "sthr_w",
    to_agent_name: "Worker",
    content: [{ type: "text", text: "Count the files." }],
  };
  const report: SessionEvent = {
    id: id(),
    type: "agent.thread_message_sent",
    to_session_thread_id: "sthr_p",
    content: [{ type: "text", text: "There are 3." }],
  };
  return entries([
    user("How many files?"),
    start("p1"),
    sent,
    ["sthr_w", start("w1")],
    ["sthr_w", user("Only count .ts files.")],
    ["sthr_w", agent("Counting all files.")],
    ["sthr_w", end("w1")],
    ["sthr_w", start("w2")],
    ["sthr_w", agent("Counting .ts files.")],
    ["sthr_w", end("w2")],
    ["sthr_w", report],
    end("p1"),
    agent("Waiting for the worker."),
    start("p2"),
    agent("There are 3 files."),
    end("p2"),
  ]);
}

async function fixture(name: string): Promise<LogEntry[]> {
  return await Array.fromAsync(fromNdjson(new URL(`${name}.ndjson`, FIXTURES)));
}

interface JsonItem {
  kind: string;
  from: string;
  to: string;
  label: string;
  text: string;
  thread: string | null;
  seq: number;
}

/** The whole session's items, in the grader's order, as json gives them. */
async function wholeItems(rows: LogEntry[]): Promise<JsonItem[]> {
  return (await renderJson(rows)).trimEnd().split("\n").map((line) => JSON.parse(line));
}

/** The items of a thread, worked out from the whole: its own, and the thread messages to or from it. */
function expected(items: JsonItem[], thread: string | null, speaker: string): string[] {
  return items.filter((item) =>
    item.thread === thread ||
    (item.kind === "thread_message" && (item.from === speaker || item.to === speaker))
  ).map((item) => `M${item.seq} · ${item.label}`);
}

function labels(text: string): string[] {
  return parseGrader(text).items.map((item) => item.label);
}

const SESSIONS: [string, () => Promise<LogEntry[]>, [string, string | null, string][]][] = [
  ["a worker whose message waits for its next request", () => Promise.resolve(workerSession()), [
    ["primary", null, "agent"],
    ["Worker", "sthr_w", "@Worker"],
  ]],
  ["coordinator_all_threads", () => fixture("coordinator_all_threads"), [
    ["primary", null, "agent"],
    ["Changelog reader", "sthr_01ChangelogKv3M", "@Changelog reader"],
    ["Test runner", "sthr_01TestsKv3M", "@Test runner"],
  ]],
];

Deno.test("renderGrader() with thread gives exactly that thread's items, in consumption order", async (t) => {
  for (const [name, load, threads] of SESSIONS) {
    await t.step(name, async () => {
      const rows = await load();
      const whole = await wholeItems(rows);
      for (const [wanted, thread, speaker] of threads) {
        const want = expected(whole, thread, speaker);
        assert.ok(want.length >= 2, wanted);
        const names = [wanted, ...(thread === null ? [] : [thread, `@${wanted}`])];
        for (const given of names) {
          const text = await renderGrader(rows, { thread: given, ids: true });
          assert.deepEqual(labels(text), want, `thread ${given}`);
        }
      }
    });
  }
});

Deno.test("renderGrader() with thread keeps the moved message where the worker read it", async () => {
  const text = await renderGrader(workerSession(), { thread: "Worker" });
  assert.equal(
    text,
    "[agent → @Worker]\n  Count the files.\n\n[@Worker]\n  Counting all files.\n\n" +
      "[user → @Worker]\n  Only count .ts files.\n\n[@Worker]\n  Counting .ts files.\n\n" +
      "[@Worker → agent]\n  There are 3.\n",
  );
});

Deno.test('renderGrader() with threads "each" gives each thread\'s items as a section, in order', async (t) => {
  for (const [name, load, threads] of SESSIONS) {
    await t.step(name, async () => {
      const rows = await load();
      const text = await renderGrader(rows, { threads: "each", ids: true });
      const sections = text.split(/^(?=\[thread )/m);
      assert.equal(sections.length, threads.length);
      for (const [i, [wanted, thread]] of threads.entries()) {
        const [heading, ...rest] = sections[i]!.split("\n");
        assert.equal(
          heading,
          thread === null ? "[thread agent]" : `[thread @${wanted} · ${thread}]`,
        );
        const alone = await renderGrader(rows, { thread: wanted, ids: true });
        const trim = (text: string): string => text.replace(/^\n+|\n+$/g, "");
        assert.equal(trim(rest.join("\n")), trim(alone));
      }
    });
  }
});

Deno.test("renderGrader() with a thread no entry names renders nothing", async () => {
  assert.equal(await renderGrader(workerSession(), { thread: "Nobody" }), "");
});

Deno.test("renderGrader() refuses thread options it cannot honour", () => {
  const rows = workerSession();
  assert.throws(() => renderGrader(rows, { threads: "all" as "each" }), RangeError);
  assert.throws(() => renderGrader(rows, { thread: "" }), RangeError);
  assert.throws(() => renderGrader(rows, { thread: "Worker", threads: "each" }), RangeError);
  assert.throws(() => renderGrader(rows, { threads: "each", keep: "ends" }), RangeError);
});

Deno.test('renderGrader() with threads "each" stays within the transcript budget', async () => {
  const rows = entries(
    Array.from({ length: 2_000 }, (_, i) => i % 2 ? agent(`a ${i}`) : user(`u ${i}`)),
  );
  const text = await renderGrader(rows, { threads: "each", transcriptBudget: 5_000 });
  assert.ok(new TextEncoder().encode(text).length <= 5_000);
  assert.match(text, /^\[thread agent\]\n/);
  assert.match(text, /\[transcript cut: the 5000-byte budget is reached/);
});
