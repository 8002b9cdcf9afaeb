// Copyright 2026 the brigade authors. MIT license.

import assert from "node:assert/strict";
import {
  conversation,
  EventSourceError,
  fromEntries,
  fromNdjson,
  GRADER_ITEM_BUDGET,
  GRADER_TRANSCRIPT_BUDGET,
  joinWithinBudget,
  type LogEntry,
  renderGrader,
  type SessionEvent,
  streamGrader,
} from "../../mod.ts";
import { agent, deepFreeze, end, entries, id, start, user } from "../../tests/_entries.ts";
import { renderBounded } from "../../tests/_bounded.ts";
import { parseGrader } from "../../tests/_transcript_parse.ts";
import { framedItemBody } from "../../kit/framed_item.ts";
import { asEvent } from "../../events/fields.ts";

const FIXTURES = new URL("../../fixtures/", import.meta.url);
const utf8 = (text: string): number => new TextEncoder().encode(text).length;

/** The labels of a grader transcript, in order. */
function labels(text: string): string[] {
  return parseGrader(text).items.map((item) => item.label);
}

Deno.test("renderGrader() matches the golden transcript of each fixture", async (t) => {
  for (const name of ["single_agent", "coordinator_all_threads", "coordinator_primary_only"]) {
    await t.step(name, async (t) => {
      const text = await renderGrader(fromNdjson(new URL(`${name}.ndjson`, FIXTURES)));
      await t.assertSnapshot(text);
    });
  }
});

Deno.test("renderGrader() renders a single-agent session's calls, results, errors and search results", async () => {
  const text = await renderGrader(fromNdjson(new URL("single_agent.ndjson", FIXTURES)));
  assert.match(text, /^\[tool bash → agent, error\]\n {2}grep: .*No such file/m);
  assert.match(
    text,
    /\[tool web_search → agent\]\n {2}Runtime 1\.32 release notes\n {2}https:\/\/example\.org/,
  );
  assert.match(text, /^\[session error\]\n {2}model_overloaded_error: /m);
  assert.doesNotMatch(text, /span|thinking|usage|status/);
});

Deno.test("renderGrader() cuts an item's body at GRADER_ITEM_BUDGET bytes on a code point boundary", async (t) => {
  for (const unit of ["a", "é", "€", "😀"]) {
    await t.step(`of ${utf8(unit)}-byte characters`, async () => {
      const body = unit.repeat(5_000);
      const text = await renderGrader(entries([asEvent({ ...agent(""), content: body })]));
      const match = text.match(/^\[agent\]\n {2}([^]*)\n\[cut: (\d+) more bytes\]\n$/);
      assert.ok(match, text.slice(-200));
      const kept = match[1]!;
      // The body's indent counts in the item budget.
      assert.ok(utf8(kept) + 2 <= GRADER_ITEM_BUDGET);
      assert.ok(utf8(kept) + 2 > GRADER_ITEM_BUDGET - utf8(unit), "the cut keeps all that fits");
      assert.equal(kept, unit.repeat(kept.length / unit.length), "no character is split");
      assert.equal(Number(match[2]), utf8(body) - utf8(kept));
    });
  }
});

Deno.test("renderGrader() keeps a body of exactly the item budget whole, its indent counted", async () => {
  const text = await renderGrader(entries([agent("x".repeat(98))]), { itemBudget: 100 });
  assert.equal(text, `[agent]\n  ${"x".repeat(98)}\n`);
  const cut = await renderGrader(entries([agent("x".repeat(99))]), { itemBudget: 100 });
  assert.equal(cut, `[agent]\n  ${"x".repeat(98)}\n[cut: 1 more bytes]\n`);
});

/** A session of `n` user/agent turns with numbered, multi-byte text. */
function* longSession(n: number, counter?: { pulled: number }): Generator<LogEntry> {
  for (let i = 1; i <= n; i++) {
    if (counter) counter.pulled++;
    const event: SessionEvent = i % 2
      ? user(`question ${i}: ¿qué pasó con el build? 🚧`)
      : agent(`answer ${i}: the build is green ✅`);
    yield { seq: i, session_id: "sesn_long", thread_id: null, event };
  }
}

Deno.test("renderGrader() keeps the head within GRADER_TRANSCRIPT_BUDGET bytes, note included", async () => {
  const whole = await renderGrader(longSession(20_000), { transcriptBudget: 10_000_000 });
  const text = await renderGrader(longSession(20_000));
  assert.ok(utf8(whole) > GRADER_TRANSCRIPT_BUDGET, "the session is longer than the budget");
  assert.ok(utf8(text) <= GRADER_TRANSCRIPT_BUDGET);
  assert.ok(utf8(text) > GRADER_TRANSCRIPT_BUDGET - 200, "the budget is used, not wasted");
  const note =
    "\n[transcript cut: the 200000-byte budget is reached; the rest of the session is not shown]\n";
  assert.ok(text.endsWith(note));
  assert.ok(whole.startsWith(text.slice(0, -note.length)), "the head is a prefix of the whole");
  assert.doesNotMatch(text, /\uFFFD/);
});

Deno.test("renderGrader() with transcriptBudget Infinity shows every item, as render --follow asks", async () => {
  const whole = await renderGrader(longSession(20_000), { transcriptBudget: 10_000_000 });
  assert.ok(utf8(whole) > GRADER_TRANSCRIPT_BUDGET);
  for (const keep of ["head", "ends"] as const) {
    assert.equal(
      await renderGrader(longSession(20_000), { transcriptBudget: Infinity, keep }),
      whole,
    );
    const chunks = streamGrader(longSession(20_000), { transcriptBudget: Infinity, keep });
    assert.equal((await Array.fromAsync(chunks)).join(""), whole);
  }
});

Deno.test("renderGrader() keeps a last item that fits the budget only without the note's room", async () => {
  const rows = entries([user("a".repeat(50)), agent("b".repeat(50))]);
  const exact = utf8(await renderGrader(rows));
  assert.equal(await renderGrader(rows, { transcriptBudget: exact }), await renderGrader(rows));
  const cut = await renderGrader(rows, { transcriptBudget: exact - 1 });
  assert.match(cut, /\[transcript cut: the \d+-byte budget is reached/);
  assert.ok(utf8(cut) <= exact - 1);
});

Deno.test("renderGrader() stops pulling from the source once the budget is full", async () => {
  const counter = { pulled: 0 };
  const text = await renderGrader(longSession(1_000_000, counter));
  const rendered = labels(text).length;
  assert.ok(
    counter.pulled <= rendered + 3,
    `pulled ${counter.pulled} entries for ${rendered} items`,
  );
});

Deno.test("renderGrader() renders messages in consumption order", async (t) => {
  await t.step(
    "a user message during an in-flight request moves before the next request",
    async () => {
      const text = await renderGrader(entries([
        user("first"),
        start("r1"),
        user("while in flight"),
        agent("reply to first"),
        end("r1"),
        start("r2"),
        agent("reply to both"),
        end("r2"),
      ]));
      assert.deepEqual(bodies(text), [
        "first",
        "reply to first",
        "while in flight",
        "reply to both",
      ]);
    },
  );
  await t.step("a user message after the request ended stays where it is", async () => {
    const text = await renderGrader(entries([
      start("r1"),
      agent("reply"),
      end("r1"),
      user("after"),
      start("r2"),
      agent("second reply"),
      end("r2"),
    ]));
    assert.deepEqual(bodies(text), ["reply", "after", "second reply"]);
  });
  await t.step(
    "held messages with no next request render at the end in arrival order",
    async () => {
      const text = await renderGrader(entries([
        start("r1"),
        user("one"),
        user("two"),
        agent("reply"),
        end("r1"),
        { id: id(), type: "session.status_idle" },
      ]));
      assert.deepEqual(bodies(text), ["reply", "one", "two"]);
    },
  );
  await t.step(
    "a later message of a thread that holds joins the hold, so the model's reading order stays",
    async () => {
      const text = await renderGrader(entries([
        start("r1"),
        user("during r1"),
        agent("reply to r1"),
        end("r1"),
        user("after r1, while the first is still held"),
        agent("idle note"),
        start("r2"),
        agent("reply to both"),
        end("r2"),
      ]));
      assert.deepEqual(bodies(text), [
        "reply to r1",
        "idle note",
        "during r1",
        "after r1, while the first is still held",
        "reply to both",
      ]);
    },
  );
  await t.step("a start never closed holds its thread's messages to the end", async () => {
    const text = await renderGrader(entries([start("r1"), user("held"), agent("reply")]));
    assert.deepEqual(bodies(text), ["reply", "held"]);
  });
  await t.step("an end with no matching start is ignored", async () => {
    const text = await renderGrader(entries([end("nowhere"), user("stays"), agent("reply")]));
    assert.deepEqual(bodies(text), ["stays", "reply"]);
  });
  await t.step("a child's request in flight never moves a primary-thread message", async () => {
    const text = await renderGrader(entries([
      [null, {
        id: id(),
        type: "session.thread_created",
        session_thread_id: "sthr_c",
        agent_name: "helper",
      }],
      ["sthr_c", start("c1")],
      [null, user("primary message")],
      ["sthr_c", agent("child reply")],
      ["sthr_c", end("c1")],
      [null, start("p1")],
      [null, agent("primary reply")],
      [null, end("p1")],
    ]));
    assert.deepEqual(labels(text), ["user", "@helper", "agent"]);
  });
  await t.step("two threads interleaved keep separate windows", async () => {
    const text = await renderGrader(entries([
      [null, start("p1")],
      ["sthr_c", start("c1")],
      [null, user("to primary, in flight")],
      ["sthr_c", { ...user("to child, in flight") }],
      [null, end("p1")],
      ["sthr_c", end("c1")],
      ["sthr_c", start("c2")],
      [null, agent("primary idle reply")],
      [null, start("p2")],
    ]));
    assert.deepEqual(bodies(text), [
      "to child, in flight",
      "primary idle reply",
      "to primary, in flight",
    ]);
  });
});

/** The bodies of a transcript's items, in order. */
function bodies(text: string): string[] {
  return parseGrader(text).items.map((item) => item.body);
}

Deno.test("renderGrader() renders each thread message once", async (t) => {
  const brief = [{ type: "text", text: "Read the changelog." }];
  const created: SessionEvent = {
    id: id(),
    type: "session.thread_created",
    session_thread_id: "sthr_c",
    agent_name: "Reader",
  };
  await t.step(
    "the sent half renders, naming both ends; the received half is skipped",
    async () => {
      const text = await renderGrader(entries([
        [null, created],
        [null, {
          id: id(),
          type: "agent.thread_message_sent",
          to_session_thread_id: "sthr_c",
          to_agent_name: "Reader",
          content: brief,
        }],
        ["sthr_c", {
          id: id(),
          type: "agent.thread_message_received",
          from_session_thread_id: "sthr_p",
          content: [...brief],
        }],
        ["sthr_c", {
          id: id(),
          type: "agent.thread_message_sent",
          to_session_thread_id: "sthr_p",
          content: "Done.",
        }],
        [null, {
          id: id(),
          type: "agent.thread_message_received",
          from_session_thread_id: "sthr_c",
          from_agent_name: "Reader",
          content: "Done.",
        }],
      ]));
      assert.equal(
        text,
        "[agent → @Reader]\n  Read the changelog.\n\n[@Reader → agent]\n  Done.\n",
      );
    },
  );
  await t.step("JSON-equal content matches whatever its key order", async () => {
    const text = await renderGrader(entries([
      [null, created],
      [null, {
        id: id(),
        type: "agent.thread_message_sent",
        to_session_thread_id: "sthr_c",
        content: [{ type: "text", text: "x" }],
      }],
      ["sthr_c", {
        id: id(),
        type: "agent.thread_message_received",
        from_session_thread_id: "sthr_p",
        content: [{ text: "x", type: "text" }],
      }],
    ]));
    assert.deepEqual(labels(text), ["agent → @Reader"]);
  });
  await t.step("each sent half matches one received half", async () => {
    const text = await renderGrader(entries([
      [null, created],
      [null, {
        id: id(),
        type: "agent.thread_message_sent",
        to_session_thread_id: "sthr_c",
        content: "again",
      }],
      ["sthr_c", {
        id: id(),
        type: "agent.thread_message_received",
        from_session_thread_id: "sthr_p",
        content: "again",
      }],
      ["sthr_c", {
        id: id(),
        type: "agent.thread_message_received",
        from_session_thread_id: "sthr_p",
        content: "again",
      }],
    ]));
    assert.deepEqual(labels(text), ["agent → @Reader", "agent → @Reader"]);
  });
  await t.step("a received half whose sender's rows are missing stands in, and moves", async () => {
    const text = await renderGrader(entries([
      [null, created],
      [null, start("p1")],
      [null, {
        id: id(),
        type: "agent.thread_message_received",
        from_session_thread_id: "sthr_c",
        from_agent_name: "Reader",
        content: "Report.",
      }],
      [null, agent("busy")],
      [null, end("p1")],
      [null, start("p2")],
    ]));
    assert.equal(text, "[agent]\n  busy\n\n[@Reader → agent]\n  Report.\n");
  });
  await t.step("a child unknown by name is named by its thread id", async () => {
    const text = await renderGrader(entries([
      ["sthr_anon", agent("hello")],
    ]));
    assert.deepEqual(labels(text), ["@sthr_anon"]);
  });
});

Deno.test("renderGrader() renders a tool call cross-posted to the primary once", async (t) => {
  const call = { type: "agent.custom_tool_use", name: "approve", input: { amount: 3 } } as const;
  await t.step("the copy is skipped after the child's own call", async () => {
    const text = await renderGrader(entries([
      ["sthr_c", { id: id(), ...call }],
      [null, { id: id(), ...call, input: { amount: 3 }, session_thread_id: "sthr_c" }],
    ]));
    assert.deepEqual(labels(text), ["@sthr_c → custom tool approve"]);
  });
  await t.step(
    "the copy renders, as the child's call, when the child's rows are missing",
    async () => {
      const text = await renderGrader(entries([
        [null, {
          id: id(),
          type: "session.thread_created",
          session_thread_id: "sthr_c",
          agent_name: "Buyer",
        }],
        [null, { id: id(), ...call, session_thread_id: "sthr_c" }],
      ]));
      assert.deepEqual(labels(text), ["@Buyer → custom tool approve"]);
    },
  );
  await t.step("a different input is a different call", async () => {
    const text = await renderGrader(entries([
      ["sthr_c", { id: id(), ...call }],
      [null, { id: id(), ...call, input: { amount: 4 }, session_thread_id: "sthr_c" }],
    ]));
    assert.equal(labels(text).length, 2);
  });
});

Deno.test("renderGrader() passes unknown event types and odd content without a throw", async () => {
  const odd: SessionEvent[] = ([
    { id: id(), type: "workflow_run.created", workflow_run_id: "wr_1" },
    { id: id(), type: "user.message", content: 42 },
    { id: id(), type: "agent.message", content: null },
    { id: id(), type: "agent.message", content: [{ type: "hologram" }, { type: "text" }, null, 7] },
    { id: id(), type: "agent.tool_use" },
    {
      id: id(),
      type: "agent.tool_result",
      tool_use_id: "nowhere",
      content: { type: "text", text: "solo" },
    },
    { id: id(), type: "session.error", error: "boom" },
    { id: id(), type: "agent.thread_message_received", content: "from nowhere" },
    {
      id: id(),
      type: "user.message",
      content: [{ type: "image", source: { type: "url", url: "https://x/y.png" } }],
    },
    { id: id(), type: "agent.message", content: [{ type: "redacted" }] },
  ] as Record<string, unknown>[]).map(asEvent);
  const text = await renderGrader(entries(odd));
  assert.deepEqual(labels(text), [
    "user",
    "agent",
    "agent",
    "agent → tool ?",
    "tool result → agent",
    "session error",
    "agent → agent",
    "user",
    "agent",
  ]);
  assert.match(text, /\[user\]\n {2}42\n/);
  assert.match(text, /\[hologram\]/);
  assert.match(text, /\[image: https:\/\/x\/y\.png\]/);
  assert.match(text, /\[redacted\]/);
});

Deno.test("renderGrader() neither mutates nor reorders the caller's entries", async () => {
  const rows = deepFreeze(entries([start("r1"), user("held"), agent("reply"), end("r1")]));
  const before = structuredClone(rows);
  await renderGrader(rows);
  assert.deepEqual(rows, before);
});

Deno.test("renderGrader() fails on a second session, naming both ids", async () => {
  const rows = [...entries([user("a")], "sesn_a"), ...entries([user("b")], "sesn_b")];
  await assert.rejects(() => renderGrader(rows), (error: unknown) => {
    assert.ok(error instanceof EventSourceError);
    assert.equal(error.code, "second_session");
    assert.match(error.message, /"sesn_a" and "sesn_b"/);
    return true;
  });
});

Deno.test("renderGrader() fails on a malformed entry with its position, not a bare TypeError", async () => {
  const rows = [...entries([user("a")]), {
    seq: 2,
    session_id: "sesn_test",
    thread_id: null,
    event: "?",
  }];
  await assert.rejects(
    () => renderGrader(fromEntries(rows as LogEntry[])),
    (error: unknown) =>
      error instanceof EventSourceError && error.code === "invalid_entry" &&
      /^entries:2: /.test(error.message),
  );
});

Deno.test("renderGrader() refuses a budget that is not a positive integer", () => {
  assert.throws(() => renderGrader([], { itemBudget: 0 }), RangeError);
  assert.throws(() => renderGrader([], { transcriptBudget: 1.5 }), RangeError);
});

Deno.test("renderGrader() holds no more than its budget: 160 MiB of held messages under a 16 MiB heap", async () => {
  // A request that never ends holds every later user message for consumption order.
  const run = await renderBounded("held", "grader", 160, 16);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.report!.streamedMiB, 160, "the whole log was read");
  assert.ok(run.report!.outputBytes <= GRADER_TRANSCRIPT_BUDGET);
  assert.match(run.report!.head, /^\[user\]\n {2}2 lorem ipsum/);
  assert.match(run.report!.tail, /\[transcript cut: the 200000-byte budget is reached/);
});

Deno.test("renderGrader() remembers a bounded number of threads, names and open requests", async () => {
  // Thread after thread with 500-character ids and names, a request open on each, a message held.
  const run = await renderBounded("threads", "grader", 240, 24);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.report!.streamedMiB, 240);
  assert.match(run.report!.head, /^\[user → @sthr_0_t+$/);
  assert.match(
    run.report!.tail,
    /t…[0-9a-f]{16}\/\d+\]\n {2}\d+\n/,
    "long ids compacted",
  );
  assert.match(run.report!.tail, /\[transcript cut: the 200000-byte budget is reached/);
});

Deno.test("renderGrader()'s bound on held messages changes nothing on one thread", async () => {
  const log = entries([
    user("before"),
    start("r1"),
    ...Array.from({ length: 400 }, (_, i) => user(`held ${i} ${"·".repeat(i * 7)}`)),
    agent("reply"),
  ]);
  const note = (b: number): string =>
    `\n[transcript cut: the ${b}-byte budget is reached; the rest of the session is not shown]\n`;
  async function* pieces(): AsyncGenerator<string> {
    let first = true;
    for await (const item of conversation(log, { transcriptBudget: Infinity })) {
      // The grader's framing, as it writes it: the indent counts in the item budget.
      yield `${first ? "" : "\n"}[${item.label}]\n${framedItemBody(item, "  ", 4_000)}\n`;
      first = false;
    }
  }
  for (const budget of [1_000, 20_000, 150_000]) {
    const unbounded = await joinWithinBudget(pieces(), budget, note, { cutAt: "line" });
    assert.equal(await renderGrader(log, { transcriptBudget: budget }), unbounded, `at ${budget}`);
  }
});

Deno.test('renderGrader() with keep "ends" shows how a long session ended, within the budget', async (t) => {
  const budget = 2_000;
  await t.step("the first and the last items, one elision note between, no fragment", async () => {
    const text = await renderGrader(longSession(2_000), { transcriptBudget: budget, keep: "ends" });
    assert.ok(utf8(text) <= budget, `${utf8(text)} bytes`);
    const parsed = parseGrader(text);
    assert.equal(parsed.notes.length, 1);
    assert.match(parsed.notes[0]!, /^\[… \d+ bytes elided …\]$/);
    assert.equal(parsed.items[0]!.body, "question 1: ¿qué pasó con el build? 🚧");
    assert.equal(parsed.items.at(-1)!.body, "answer 2000: the build is green ✅");
    assert.ok(text.endsWith("[agent]\n  answer 2000: the build is green ✅\n"));
  });
  await t.step("a session within the budget reads as with keep head", async () => {
    const log = [...longSession(10)];
    assert.equal(
      await renderGrader(log, { transcriptBudget: budget, keep: "ends" }),
      await renderGrader(log, { transcriptBudget: budget }),
    );
  });
  await t.step("a message held to the end by a request never closed still ends it", async () => {
    const log = entries([
      user("before"),
      start("r1"),
      ...Array.from({ length: 400 }, (_, i) => user(`held ${i} ${"·".repeat(50)}`)),
    ]);
    const text = await renderGrader(log, { transcriptBudget: budget, keep: "ends" });
    assert.ok(utf8(text) <= budget);
    assert.equal(parseGrader(text).items.at(-1)!.body, `held 399 ${"·".repeat(50)}`);
  });
  await t.step("an unknown keep and a budget without room for the note are refused", () => {
    assert.throws(
      () => renderGrader([], { keep: "tail" as "ends" }),
      /Cannot render with the grader: keep must be "head" or "ends": tail/,
    );
    assert.throws(
      () => renderGrader([], { transcriptBudget: 40, keep: "ends" }),
      /transcriptBudget must leave room for its cut note, at least \d+ bytes: 40/,
    );
    assert.throws(
      () => renderGrader([], { transcriptBudget: 60 }),
      /transcriptBudget must leave room for its cut note, at least \d+ bytes: 60/,
    );
  });
});

Deno.test('renderGrader() with keep "ends" holds no more than its budget: 160 MiB of held messages under a 16 MiB heap', async () => {
  const run = await renderBounded("held", "grader-ends", 160, 16);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.report!.streamedMiB, 160, "the whole log was read");
  assert.ok(run.report!.outputBytes <= GRADER_TRANSCRIPT_BUDGET);
  assert.match(run.report!.tail, /lorem ipsum[^\n]*\n$/);
});
