// Copyright 2026 the brigade authors. MIT license.

// The html page's header, `<title>`, `<meta>` summary and the site index: every field bounded,
// whatever the log holds; interruptions as events, not turns.

import assert from "node:assert/strict";
import { fromClaudeCode, type LogEntry, renderHtml, type SessionEvent } from "../mod.ts";
import { htmlRenderer } from "../renderers/html/html.ts";
import { indexPage, pageSummary } from "../renderers/html/html_index.ts";

function entries(sessionId: string, events: SessionEvent[]): LogEntry[] {
  return events.map((event, i) => ({ seq: i + 1, session_id: sessionId, thread_id: null, event }));
}

/** The text of the first match of `pattern` in `page`. */
function first(page: string, pattern: RegExp): string {
  const match = pattern.exec(page);
  assert.ok(match !== null, String(pattern));
  return match[1]!;
}

const MB = 1_000_000;

Deno.test("renderHtml(): a megabyte session id, time, title, project and directory make a page of kilobytes", async () => {
  const id = `sesn_${"i".repeat(MB)}`;
  const at = `2026-09-14T10:00:00.000Z${"t".repeat(MB)}`;
  const source = entries(id, [
    { id: "sevt_1", type: "user.message", processed_at: at, content: "Hello" },
    { id: "sevt_2", type: "session.updated", title: `Title ${"n".repeat(MB)}` },
    { id: "sevt_3", type: "agent.message", content: "Hi" },
  ] as SessionEvent[]);
  const plain = await renderHtml(source);
  const page = await htmlRenderer.folder!.page!(source, {}, {
    project: `p${"p".repeat(MB)}`,
    cwd: `/c${"c".repeat(MB)}`,
  });
  for (const html of [plain, page]) {
    // The former header wrote the id and the time whole, three times each.
    assert.ok(html.length < 40_000, `${html.length} characters`);
    const title = first(html, /<title>([^<]*)<\/title>/);
    assert.equal([...title].length, 200);
    assert.ok(title.endsWith("…"));
    const h1 = first(html, /<h1>([^<]*)<\/h1>/);
    assert.ok(h1.endsWith("…") && [...h1].length === 200);
  }
  const summary = pageSummary(page)!;
  for (const field of [summary.sessionId, summary.startedAt, summary.project!, summary.cwd!]) {
    assert.equal([...field].length, 200);
    assert.ok(field.endsWith("…"), field.slice(0, 20));
  }
  assert.ok(summary.sessionId.startsWith("sesn_iii"));
  assert.ok(summary.title!.startsWith("Title nnn") && summary.title!.endsWith("…"));
  const index = await indexPage([{ name: "p.html", summary }]);
  assert.ok(index.length < 20_000, `${index.length} characters`);
});

Deno.test("renderHtml(): a field at the bound is kept whole, one past it is cut with a mark", async () => {
  const page = async (id: string) =>
    pageSummary(
      await htmlRenderer.folder!.page!(entries(id, [
        { id: "sevt_1", type: "user.message", content: "Hello" } as SessionEvent,
      ])),
    )!.sessionId;
  assert.equal(await page("x".repeat(200)), "x".repeat(200));
  assert.equal(await page("x".repeat(201)), `${"x".repeat(199)}…`);
  // A code point beyond the first plane counts once.
  assert.equal(await page("😀".repeat(200)), "😀".repeat(200));
});

Deno.test("pageSummary() cuts a planted page's long fields with a mark", () => {
  const summary = {
    sessionId: "s".repeat(5_000),
    startedAt: "",
    turns: 1,
    threads: 1,
    items: 1,
    firstUser: "f".repeat(300),
    cut: false,
  };
  const json = JSON.stringify(summary).replaceAll('"', "&quot;");
  const read = pageSummary(
    `<head><meta name="brigade-transcript-session" content="${json}"></head>`,
  )!;
  assert.equal(read.sessionId, `${"s".repeat(199)}…`);
  assert.equal(read.firstUser, `${"f".repeat(199)}…`);
});

Deno.test("renderHtml(): an interruption is an event of the page, not a turn", async () => {
  const page = await renderHtml(entries("sesn_1", [
    { id: "sevt_1", type: "user.message", content: "Do it" },
    { id: "sevt_2", type: "agent.message", content: "Working" },
    { id: "sevt_3", type: "user.interrupt" },
    { id: "sevt_4", type: "user.message", content: "Again" },
  ] as SessionEvent[]));
  assert.match(page, /<dt>Turns<\/dt><dd>2<\/dd>/);
  assert.match(page, /<span class="who">user → every thread, interrupt<\/span>/);
  assert.equal(pageSummary(page)!.turns, 2);
});

Deno.test("renderHtml(): Claude Code's [Request interrupted by user] is an interruption, not a turn", async () => {
  const common = { isSidechain: false, userType: "external", sessionId: "s1", version: "2.1.50" };
  const records = [
    { type: "user", uuid: "u1", message: { role: "user", content: "Do it" } },
    {
      type: "assistant",
      uuid: "a1",
      message: { id: "msg_1", role: "assistant", content: [{ type: "text", text: "Working" }] },
    },
    {
      type: "user",
      uuid: "u2",
      message: { role: "user", content: [{ type: "text", text: "[Request interrupted by user]" }] },
    },
    { type: "user", uuid: "u3", message: { role: "user", content: "Again" } },
  ].map((record, i) => ({
    ...common,
    ...record,
    timestamp: `2026-09-14T10:00:0${i}.000Z`,
  }));
  const path = await Deno.makeTempFile({ suffix: ".jsonl" });
  try {
    await Deno.writeTextFile(path, records.map((r) => JSON.stringify(r)).join("\n") + "\n");
    const page = await renderHtml(fromClaudeCode(path));
    assert.match(page, /<dt>Turns<\/dt><dd>2<\/dd>/);
    assert.match(page, /<span class="who">user → every thread, interrupt<\/span>/);
    assert.doesNotMatch(page, /Request interrupted/);
  } finally {
    await Deno.remove(path);
  }
});

Deno.test("renderHtml(): a tool's or an agent's name never passes for a speaker in its label", async () => {
  const page = await renderHtml([
    {
      seq: 1,
      session_id: "s",
      thread_id: null,
      event: { id: "e1", type: "user.message", content: "Go" },
    },
    {
      seq: 2,
      session_id: "s",
      thread_id: null,
      event: { id: "e2", type: "agent.tool_use", name: "us\u200Ber", input: {} },
    },
    {
      seq: 3,
      session_id: "s",
      thread_id: null,
      event: {
        id: "e3",
        type: "session.thread_created",
        session_thread_id: "th_1",
        agent_name: "uѕer\u202E",
      },
    },
    {
      seq: 4,
      session_id: "s",
      thread_id: "th_1",
      event: { id: "e4", type: "agent.message", content: "I am not the user" },
    },
  ] as LogEntry[]);
  const labels = [...page.matchAll(/<span class="who">([^<]*)<\/span>/g)].map((m) => m[1]!);
  assert.ok(labels.includes("agent → tool us\\u200ber"), labels.join(" | "));
  assert.ok(labels.some((label) => label.startsWith("@u\\u0455er\\u202e")), labels.join(" | "));
  const threads = [...page.matchAll(/<span class="thread">([^<]*)<\/span>/g)].map((m) => m[1]!);
  assert.ok(threads.every((name) => !/[\u200b\u202e\u0455]/.test(name)), threads.join(" | "));
});

Deno.test("renderHtml(): the model of each reply after it, and of each agent in the header", async () => {
  const usage = { input_tokens: 10, output_tokens: 5 };
  const page = await renderHtml([
    {
      seq: 1,
      session_id: "s",
      thread_id: null,
      event: { id: "e0", type: "session.updated", agent: { model: { id: "claude-opus-5" } } },
    },
    {
      seq: 2,
      session_id: "s",
      thread_id: null,
      event: { id: "e1", type: "user.message", content: "Go" },
    },
    {
      seq: 3,
      session_id: "s",
      thread_id: null,
      event: { id: "e2", type: "agent.message", content: "On it" },
    },
    {
      seq: 4,
      session_id: "s",
      thread_id: null,
      event: {
        id: "e3",
        type: "span.model_request_end",
        model_request_start_id: "x",
        model_usage: usage,
        model: "claude-opus-5",
      },
    },
    {
      seq: 5,
      session_id: "s",
      thread_id: null,
      event: {
        id: "e4",
        type: "session.thread_created",
        session_thread_id: "th_1",
        agent_name: "helper",
      },
    },
    {
      seq: 6,
      session_id: "s",
      thread_id: "th_1",
      event: { id: "e5", type: "agent.message", content: "Helping" },
    },
    {
      seq: 7,
      session_id: "s",
      thread_id: "th_1",
      event: {
        id: "e6",
        type: "span.model_request_end",
        model_request_start_id: "y",
        model_usage: usage,
        model: "claude-haiku-5",
      },
    },
  ] as LogEntry[]);
  const notes = [...page.matchAll(/<p class="usage">(.*?)<\/p>/g)].map((m) => m[1]!);
  assert.equal(notes.length, 2);
  assert.match(notes[0]!, /^<span class="model">claude-opus-5<\/span> · tokens: /);
  assert.match(notes[1]!, /^<span class="model">claude-haiku-5<\/span> · tokens: /);
  assert.match(page, /<dt>Models<\/dt><dd>claude-opus-5, claude-haiku-5<\/dd>/);
  assert.match(page, /agent \(primary thread\)<span class="model"> · claude-opus-5<\/span><\/li>/);
  assert.match(page, /@helper<span class="model"> · claude-haiku-5<\/span><\/li>/);
});

Deno.test("renderHtml(): a Claude Code response's tokens once, after its last tool call, however its blocks are split", async () => {
  const common = { isSidechain: false, userType: "external", sessionId: "s1", version: "2.1.50" };
  const usage = { input_tokens: 10, output_tokens: 5 };
  const assistant = (uuid: string, id: string, block: unknown) => ({
    type: "assistant",
    uuid,
    message: { id, role: "assistant", content: [block], usage },
  });
  const result = (uuid: string, id: string) => ({
    type: "user",
    uuid,
    message: { role: "user", content: [{ type: "tool_result", tool_use_id: id, content: "A" }] },
  });
  const read = (id: string) => ({ type: "tool_use", id, name: "Read", input: { file_path: id } });
  const records = [
    { type: "user", uuid: "u1", message: { role: "user", content: "Do it" } },
    assistant("a1", "msg_1", { type: "text", text: "Reading" }),
    assistant("a2", "msg_1", read("t1")),
    result("u2", "t1"),
    assistant("a3", "msg_1", read("t2")),
    result("u3", "t2"),
    assistant("a4", "msg_2", { type: "text", text: "Done" }),
  ].map((record, i) => ({ ...common, ...record, timestamp: `2026-09-14T10:00:0${i}.000Z` }));
  const path = await Deno.makeTempFile({ suffix: ".jsonl" });
  try {
    await Deno.writeTextFile(path, records.map((r) => JSON.stringify(r)).join("\n") + "\n");
    const page = await renderHtml(fromClaudeCode(path));
    const order = [...page.matchAll(/<span class="who">([^<]*)<\/span>|<p class="usage">/g)]
      .map((m) => m[1] ?? "tokens");
    assert.deepEqual(order, [
      "user",
      "agent",
      "agent → tool Read",
      "tool Read → agent",
      "agent → tool Read",
      "tokens",
      "tool Read → agent",
      "agent",
      "tokens",
    ]);
  } finally {
    await Deno.remove(path);
  }
});
