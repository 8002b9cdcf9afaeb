// Copyright 2026 the brigade authors. MIT license.

// The official SDK's events, typed by the SDK, through the public API with no cast: every member
// of its union fits a log entry, and each renderer shows the conversation and control types and
// skips the bookkeeping ones (the rules the renderers guide's table lists).

import assert from "node:assert/strict";
import type { BetaManagedAgentsSessionEvent } from "@anthropic-ai/sdk/resources/beta/sessions/events";
import {
  conversation,
  type ConversationItem,
  type EventLog,
  fromEntries,
  fromEventLog,
  type LogEntry,
  registry,
  renderDream,
  renderGrader,
  renderHtml,
  renderIndex,
  renderJson,
  type SessionEvent,
  splitSessions,
} from "../mod.ts";
import { SDK_EVENTS, SDK_RULES, sdkEvents, type SdkEventType } from "./_sdk_events.ts";

/** A log entry of an SDK event: the event goes in as the SDK types it. */
function entry(
  event: BetaManagedAgentsSessionEvent,
  seq: number,
  thread: string | null = null,
): LogEntry {
  return { seq, session_id: "sesn_sdk", thread_id: thread, event };
}

/** The session: every SDK event once, on the primary thread. */
function session(): LogEntry[] {
  return sdkEvents().map((event, i) => entry(event, i + 1));
}

/** The event types a renderer's items came from. */
function typesOf(items: { seq: number }[]): Set<string> {
  const bySeq = new Map(session().map((e) => [e.seq, e.event.type]));
  return new Set(items.map((item) => bySeq.get(item.seq)!));
}

/** The types the renderers guide's rules say are shown. */
function shownTypes(): Set<string> {
  return new Set(
    (Object.keys(SDK_RULES) as SdkEventType[]).filter((type) => SDK_RULES[type] !== "bookkeeping"),
  );
}

Deno.test("every member of the SDK's event union is a SessionEvent, with no cast", () => {
  const events: SessionEvent[] = sdkEvents();
  assert.equal(events.length, 42);
  assert.equal(new Set(events.map((e) => e.type)).size, 42);
  // One member at a time, each as its own interface.
  const idle: SessionEvent = SDK_EVENTS["session.status_idle"];
  const error: SessionEvent = SDK_EVENTS["session.error"];
  const usage: LogEntry["event"] = SDK_EVENTS["session.usage"];
  const workflow: LogEntry["event"] = SDK_EVENTS["workflow_run.error"];
  assert.deepEqual([idle.type, error.type, usage.type, workflow.type], [
    "session.status_idle",
    "session.error",
    "session.usage",
    "workflow_run.error",
  ]);
  // Unknown future types stay accepted.
  const future: SessionEvent = { id: "sevt_f", type: "session.hologram", processed_at: null };
  assert.equal(future.type, "session.hologram");
});

Deno.test("SDK values pass to the sources and renderers", async () => {
  const source = fromEntries(session());
  const items: ConversationItem[] = [];
  for await (const item of conversation(source)) items.push(item);
  assert.ok(items.length > 0);
  assert.equal(typeof await renderGrader(session()), "string");
  assert.equal((await renderDream(session())).sessionId, "sesn_sdk");
  assert.equal(await registry.render("grader", session()), await renderGrader(session()));
  assert.match(await renderIndex(session()), /^# Index\n/);
  const groups = [];
  for await (const group of splitSessions(session())) {
    groups.push([group.sessionId, (await Array.fromAsync(group.entries)).length]);
  }
  assert.deepEqual(groups, [["sesn_sdk", 42]]);
  // A store of the caller's that holds the SDK's events as they are.
  const rows = session();
  const log: EventLog = {
    list: ({ afterSeq, limit }) =>
      Promise.resolve(rows.filter((row) => row.seq > afterSeq).slice(0, limit)),
  };
  const paged = await Array.fromAsync(fromEventLog(log, { sessionId: "sesn_sdk", pageSize: 10 }));
  assert.deepEqual(paged, rows);
});

Deno.test("each renderer shows the conversation and control types and skips bookkeeping", async (t) => {
  await t.step("grader", async () => {
    const items: ConversationItem[] = [];
    for await (const item of conversation(session())) items.push(item);
    assert.deepEqual(typesOf(items), shownTypes());
    const text = await renderGrader(session());
    assert.match(text, /^\[user → agent, task\]\n {2}Ship the release notes for 1\.32\n/m);
    assert.match(text, /\n {2}Rubric:\n {2}Every KV change is listed with its version\.\n/);
    assert.match(text, /\[user → tool bash, denied\]\n {2}Not in my home folder, please\.\n/);
    assert.match(text, /\[user → every thread, interrupt\]\n {2}\(the user stopped every/);
    assert.match(text, /\[document context: written by the release team\]/);
    assert.match(text, /mcp_connection_failed_error \(MCP server github\): connection refused/);
    for (const hidden of ["needs_revision", "One entry is missing", "wfr_01", "the run took"]) {
      assert.ok(!text.includes(hidden), `bookkeeping shows ${hidden}`);
    }
  });
  await t.step("dream", async () => {
    const items: ConversationItem[] = [];
    for await (const item of conversation(session(), { view: "dream" })) items.push(item);
    assert.deepEqual(typesOf(items), shownTypes());
    const { text } = await renderDream(session());
    assert.match(text, /Ship the release notes for 1\.32/);
    assert.match(text, /Not in my home folder, please\./);
    assert.match(text, /the user stopped every thread/);
    assert.match(text, /document context: written by the release team/);
    assert.match(text, /MCP server github/);
    assert.ok(!text.includes("One entry is missing"));
  });
  await t.step("json", async () => {
    const lines = (await renderJson(session())).trimEnd().split("\n").map((line) =>
      JSON.parse(line) as ConversationItem
    );
    assert.deepEqual(typesOf(lines), shownTypes());
    const control = lines.filter((item) => item.kind === "control");
    assert.deepEqual(control.map((item) => [item.label, item.from, item.to]), [
      ["user → agent, task", "user", "agent"],
      ["user → tool bash, denied", "user", "tool bash"],
      ["user → every thread, interrupt", "user", "every thread"],
    ]);
    assert.equal(control[1]!.tool, "bash");
  });
  await t.step("html", async () => {
    const page = await renderHtml(session());
    assert.match(page, /k-control/);
    assert.match(page, /Ship the release notes for 1\.32/);
    assert.match(page, /Not in my home folder, please\./);
    assert.match(page, /document context: written by the release team/);
    assert.ok(!page.includes("One entry is missing"));
  });
});

Deno.test("an allowed tool confirmation is bookkeeping; a denial names its thread's tool", async () => {
  const allow: BetaManagedAgentsSessionEvent = {
    ...SDK_EVENTS["user.tool_confirmation"],
    result: "allow",
    deny_message: null,
  };
  const child = "sthr_01Child";
  const rows = [
    entry(SDK_EVENTS["session.thread_created"], 1),
    entry({ ...SDK_EVENTS["agent.tool_use"], session_thread_id: child }, 2),
    entry(allow, 3),
    entry(
      { ...SDK_EVENTS["user.tool_confirmation"], session_thread_id: child, deny_message: "" },
      4,
    ),
  ];
  const items: ConversationItem[] = [];
  for await (const item of conversation(rows)) items.push(item);
  assert.deepEqual(items.map((item) => [item.seq, item.label, item.thread, item.text]), [
    [2, "@Changelog reader → tool bash", child, '{"command":"ls"}'],
    [4, "user → tool bash, denied", child, "(denied, no reason given)"],
  ]);
});

Deno.test("an interrupt of one thread names it; a file rubric names the file", async () => {
  const rows = [
    entry(SDK_EVENTS["session.thread_created"], 1),
    entry({ ...SDK_EVENTS["user.interrupt"], session_thread_id: "sthr_01Child" }, 2),
    entry({
      ...SDK_EVENTS["user.define_outcome"],
      description: "",
      rubric: { type: "file", file_id: "file_01" },
      max_iterations: null,
    }, 3),
  ];
  const items: ConversationItem[] = [];
  for await (const item of conversation(rows)) items.push(item);
  assert.deepEqual(items.map((item) => [item.label, item.text]), [
    ["user → @Changelog reader, interrupt", "(the user stopped this thread's turn)"],
    ["user → agent, task", "[rubric: file file_01]"],
  ]);
});

Deno.test("the renderers guide's table gives every SDK event type its rule", async () => {
  const guide = await Deno.readTextFile(new URL("../docs/renderers.md", import.meta.url));
  const rows = [
    ...guide.matchAll(/^\| `([a-z_]+\.[a-z_]+)` +\| (conversation|control|bookkeeping) +\|/gm),
  ];
  assert.deepEqual(
    Object.fromEntries(rows.map(([, type, rule]) => [type, rule])),
    SDK_RULES,
  );
  assert.equal(rows.length, Object.keys(SDK_RULES).length);
});
