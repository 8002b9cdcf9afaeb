// Copyright 2026 the brigade authors. MIT license.

import assert from "node:assert/strict";
import {
  conversation,
  type ConversationItem,
  forEachItem,
  fromNdjson,
  type LogEntry,
  renderDream,
  renderGrader,
} from "../mod.ts";
import { agent, end, entries, id, start, user } from "../tests/_entries.ts";
import { asEvent } from "../events/fields.ts";

const FIXTURES = new URL("../fixtures/", import.meta.url);
const NAMES = ["single_agent", "coordinator_all_threads", "coordinator_primary_only"];

/** The grader's text of items, formatted as the grader formats them (no budget). */
function asGrader(items: ConversationItem[]): string {
  return items.map(({ label, text }) => `[${label}]\n${indented(text)}\n`).join("\n");
}

/** The grader's body framing: every non-empty line behind two spaces. */
function indented(text: string): string {
  return text.split(/\r\n|[\n\r\v\f\x85\u2028\u2029]/).map((line) => line && `  ${line}`).join(
    "\n",
  );
}

Deno.test("conversation() yields the grader's items: formatted, they are the grader's text", async (t) => {
  for (const name of NAMES) {
    await t.step(name, async () => {
      const url = new URL(`${name}.ndjson`, FIXTURES);
      const items = await Array.fromAsync(conversation(fromNdjson(url)));
      assert.equal(asGrader(items), await renderGrader(fromNdjson(url)));
    });
  }
});

Deno.test("conversation() names kind, speakers, tool, error flag, thread and entry of each item", async () => {
  const child = "sthr_child";
  const log: LogEntry[] = entries([
    [null, {
      id: id(),
      type: "session.thread_created",
      session_thread_id: child,
      agent_name: "researcher",
    }],
    [null, { ...user("Find the bug."), processed_at: "2026-09-14T10:00:00Z" }],
    [null, {
      id: "sevt_sent",
      type: "agent.thread_message_sent",
      to_session_thread_id: child,
      content: "Look at the parser.",
    }],
    [child, { id: "sevt_call", type: "agent.tool_use", name: "bash", input: { cmd: "ls" } }],
    [child, {
      id: id(),
      type: "agent.tool_result",
      tool_use_id: "sevt_call",
      is_error: true,
      content: "denied",
    }],
    [null, { id: id(), type: "session.error", error: { type: "overloaded", message: "busy" } }],
    [null, { id: id(), type: "system.message", content: "Be brief." }],
  ]);
  const items = await Array.fromAsync(conversation(log));
  const shape = items.map(({ kind, from, to, label, tool, isError, thread, seq, processedAt }) => ({
    kind,
    from,
    to,
    label,
    tool,
    isError,
    thread,
    seq,
    processedAt,
  }));
  const none = { tool: undefined, isError: undefined, processedAt: null };
  assert.deepEqual(shape, [
    {
      ...none,
      kind: "message",
      from: "user",
      to: "agent",
      label: "user",
      thread: null,
      seq: 2,
      processedAt: "2026-09-14T10:00:00Z",
    },
    {
      ...none,
      kind: "thread_message",
      from: "agent",
      to: "@researcher",
      label: "agent → @researcher",
      thread: null,
      seq: 3,
    },
    {
      ...none,
      kind: "tool_call",
      from: "@researcher",
      to: "tool bash",
      label: "@researcher → tool bash",
      tool: "bash",
      thread: child,
      seq: 4,
    },
    {
      ...none,
      kind: "tool_result",
      from: "tool bash",
      to: "@researcher",
      label: "tool bash → @researcher, error",
      tool: "bash",
      isError: true,
      thread: child,
      seq: 5,
    },
    {
      ...none,
      kind: "error",
      from: "session",
      to: "agent",
      label: "session error",
      thread: null,
      seq: 6,
    },
    { ...none, kind: "system", from: "system", to: "agent", label: "system", thread: null, seq: 7 },
  ]);
  assert.equal(items[4]!.text, "overloaded: busy");
  assert.equal(items[2]!.text, '{"cmd":"ls"}');
  for (const item of items) assert.deepEqual(JSON.parse(JSON.stringify(item)), item);
});

Deno.test("conversation() yields items in consumption order", async () => {
  const items = await Array.fromAsync(conversation(entries([
    user("first"),
    start("r1"),
    user("while in flight"),
    agent("reply to first"),
    end("r1"),
    start("r2"),
    agent("reply to both"),
    end("r2"),
  ])));
  assert.deepEqual(items.map((item) => item.text), [
    "first",
    "reply to first",
    "while in flight",
    "reply to both",
  ]);
});

Deno.test("conversation() keeps a primary request apart from a child's whose thread and id spell its id", async () => {
  // The primary's requests are keyed by their ids: one whose id holds a NUL must still not meet
  // the request "X" of child thread "sthr_T" (`sthr_T NUL X`), or its end would close the other.
  const items = await Array.fromAsync(conversation(entries([
    ["sthr_T", start("X")],
    start("sthr_T\u0000X"),
    ["sthr_T", end("X")],
    user("while in flight"),
    agent("reply"),
    start("r2"),
  ])));
  assert.deepEqual(items.map((item) => item.text), ["reply", "while in flight"]);
});

Deno.test("conversation() in the dream view reads the primary thread in log order, redacted", async () => {
  const secret = "sk-proj-Q7xv2LmN9pR4sT8wZ1bC5dF3";
  const log = entries([
    [null, start("r1")],
    [null, user(`deploy with ${secret}`)],
    ["sthr_c", agent("child work")],
    [null, agent("done")],
  ]);
  const items = await Array.fromAsync(conversation(log, { view: "dream" }));
  assert.deepEqual(items.map((item) => [item.label, item.text]), [
    ["user", "deploy with [REDACTED_SECRET]"],
    ["agent", "done"],
  ]);
  const dream = await renderDream(log);
  // The dream shows each item's text as an indented code block.
  for (const item of items) {
    assert.ok(dream.text.includes(`### ${item.label}\n\n    ${item.text}\n`));
  }
});

Deno.test("conversation() cuts texts to the item budget and says how much it cut", async () => {
  const [item] = await Array.fromAsync(
    conversation(entries([agent("é".repeat(10))]), { itemBudget: 5 }),
  );
  assert.equal(item!.text, "éé\n[cut: 16 more bytes]");
  assert.equal(item!.cutBytes, 16);
  const [whole] = await Array.fromAsync(
    conversation(entries([agent("x".repeat(10_000))]), { itemBudget: Infinity }),
  );
  assert.equal(whole!.text.length, 10_000);
  assert.equal(whole!.cutBytes, 0);
});

Deno.test("conversation() stops pulling the source when the consumer stops", async () => {
  let pulled = 0;
  let closed = false;
  async function* source(): AsyncGenerator<LogEntry> {
    try {
      for (let seq = 1; seq <= 1_000_000; seq++, pulled++) {
        yield { seq, session_id: "sesn_1", thread_id: null, event: agent(`reply ${seq}`) };
      }
    } finally {
      closed = true;
    }
  }
  let seen = 0;
  for await (const _ of conversation(source())) if (++seen === 3) break;
  assert.ok(pulled <= 4, `pulled ${pulled}`);
  assert.ok(closed, "the source was closed");
});

Deno.test("conversation() refuses a budget that is not a positive integer or Infinity", () => {
  for (const itemBudget of [0, -1, 1.5, NaN]) {
    assert.throws(() => conversation([], { itemBudget }), RangeError);
  }
  assert.throws(() => conversation([], { transcriptBudget: 0 }), /transcriptBudget/);
});

Deno.test("conversation() drops held messages its transcriptBudget could no longer show, and says which", async () => {
  const log = entries([
    start("r1"),
    ...Array.from({ length: 50 }, (_, i) => user(`held ${i} ${"x".repeat(100)}`)),
    agent("reply"),
  ]);
  const dropped: number[] = [];
  const items = await Array.fromAsync(
    conversation(log, { transcriptBudget: 1_000, onDropped: (seq) => dropped.push(seq) }),
  );
  assert.deepEqual(items.map((item) => item.seq), [
    52,
    ...Array.from({ length: 9 }, (_, i) => i + 2),
  ]);
  assert.deepEqual(dropped, Array.from({ length: 41 }, (_, i) => i + 11));
  const all = await Array.fromAsync(conversation(log, { transcriptBudget: Infinity }));
  assert.equal(all.length, 51);
});

Deno.test("conversation() redacts a long name as a whole: no piece of a key survives its cut", async () => {
  const key = "sk-proj-Q7xv2LmN9pR4sT8wZ1bC5dF3abcdefgh";
  for (let pad = 150; pad <= 260; pad += 5) {
    const name = `${"n".repeat(pad)} ${key}`;
    const log = entries([
      { id: id(), type: "session.thread_created", session_thread_id: "sthr_1", agent_name: name },
      asEvent({
        id: id(),
        type: "agent.thread_message_sent",
        to_session_thread_id: "sthr_1",
        to_agent_name: name,
        content: "hi",
      }),
      asEvent({ id: id(), type: "agent.tool_use", name, input: {} }),
    ]);
    for (const view of ["grader", "dream"] as const) {
      const items = await Array.fromAsync(conversation(log, { view, redact: true }));
      const shown = JSON.stringify(items);
      assert.doesNotMatch(shown, /sk-p|Q7xv/, `a name of ${pad + 1 + key.length} units`);
    }
  }
});

Deno.test("conversation() drained in the grader view runs in a 12 MB old generation, its bookkeeping full", async () => {
  // 20,000 child tool calls never cross-posted and 20,000 thread messages never received, each
  // with a payload of its own: the grader's record of them is always full, and must stay small.
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-read",
      "--v8-flags=--max-old-space-size=12",
      new URL("../tests/_conversation_bounded_child.ts", import.meta.url).pathname,
      "20000",
    ],
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  assert.equal(code, 0, new TextDecoder().decode(stderr).slice(-2_000));
  assert.deepEqual(JSON.parse(new TextDecoder().decode(stdout)), {
    tool_call: 20_000,
    thread_message: 20_000,
  });
});

Deno.test("conversation() tells onEntry each checked entry before the items it completes", async () => {
  const seen: string[] = [];
  const source = entries([user("Hi"), start("r1"), agent("Hello"), end("r1")]);
  for await (
    const item of conversation(source, { onEntry: (entry) => seen.push(`entry ${entry.seq}`) })
  ) {
    seen.push(`item ${item.seq}`);
  }
  assert.deepEqual(seen, ["entry 1", "item 1", "entry 2", "entry 3", "item 3", "entry 4"]);
});

Deno.test("forEachItem() hands over conversation()'s items, in order, under the same options", async () => {
  const url = new URL("coordinator_all_threads.ndjson", FIXTURES);
  for (const view of ["grader", "dream"] as const) {
    const handed: ConversationItem[] = [];
    await forEachItem(fromNdjson(url), (item) => handed.push(item), { view, itemBudget: 50 });
    assert.deepEqual(
      handed,
      await Array.fromAsync(conversation(fromNdjson(url), { view, itemBudget: 50 })),
    );
  }
});

Deno.test("conversation() names the renderer given in the error a second session raises", async () => {
  const two: LogEntry[] = [
    {
      seq: 1,
      session_id: "a",
      thread_id: null,
      event: { id: "e1", type: "user.message", content: "x" },
    },
    {
      seq: 2,
      session_id: "b",
      thread_id: null,
      event: { id: "e2", type: "user.message", content: "y" },
    },
  ];
  await assert.rejects(() => Array.fromAsync(conversation(two)), /with the conversation renderer/);
  await assert.rejects(
    () => forEachItem(two, () => {}, { renderer: "team-md" }),
    /Cannot render two sessions with the team-md renderer: "a" and "b"/,
  );
});

Deno.test("conversation() tells onText each item's whole text before its cut, redacted in the dream view", async () => {
  const secret = "sk-proj-Q7xv2LmN9pR4sT8wZ1bC5dF3";
  const long = `${secret} ${"word ".repeat(1_000)}`;
  for (const view of ["grader", "dream"] as const) {
    const texts: [number, number, string][] = [];
    const [item] = await Array.fromAsync(conversation(entries([user(long)]), {
      view,
      itemBudget: 100,
      onText: (entry, text) => texts.push([entry.seq, text.length, text.head(12)]),
    }));
    assert.ok(item!.cutBytes > 0, "the item is cut");
    const whole = view === "dream" ? long.replace(secret, "[REDACTED_SECRET]") : long;
    assert.deepEqual(texts, [[1, whole.length, whole.slice(0, 12)]]);
  }
});

Deno.test("conversation() checks keep: the grader's two ways of keeping a transcript", () => {
  assert.throws(
    () => conversation([], { keep: "tail" as "head" }),
    {
      name: "RangeError",
      message: 'Cannot read a conversation: keep must be "head" or "ends": tail',
    },
  );
});
