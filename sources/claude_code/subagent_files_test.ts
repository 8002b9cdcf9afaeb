// Copyright 2026 the brigade authors. MIT license.

import assert from "node:assert/strict";
import { join } from "node:path";
import { fromClaudeCode, type LogEntry, renderDream, renderGrader, renderJson } from "../../mod.ts";
import { fieldsOf } from "../../events/fields.ts";

const PROJECT = new URL("../../fixtures/claude_code/current/home-dev-app/", import.meta.url);
const SESSION_ID = "7f3c2a10-5b8e-4d21-9c6a-2e4f8b1d0a93";
const SESSION = new URL(`${SESSION_ID}.jsonl`, PROJECT);
const SUBAGENTS = new URL(`${SESSION_ID}/subagents/`, PROJECT);

/** The subagents of the fixture: agent id, the call that started it, its thread's name. */
const AGENTS = [
  { id: "a11f00dcafe0001", call: "toolu_01AgentA", name: "Explore (Find the config loader)" },
  { id: "c33d00dfeed0003", call: "toolu_01AgentC", name: "general-purpose (Read the loader)" },
  // No meta file: joined by the agent id its result names, named after the call.
  { id: "b22c0dedeed0002", call: "toolu_01AgentB", name: "general-purpose (Check test coverage)" },
];

interface Read {
  calls: string[];
  results: string[];
  texts: string[];
}

/** A subagent file's tool calls, results and texts, read from the JSONL alone (not the mapping). */
function readFile(path: URL): Read {
  const read: Read = { calls: [], results: [], texts: [] };
  const lines = Deno.readTextFileSync(path).split("\n").filter((l) => l !== "");
  for (const [index, line] of lines.entries()) {
    const content = JSON.parse(line).message.content;
    // The first record is the task its call carries as its prompt.
    if (index === 0 || typeof content === "string") continue;
    for (const block of content) {
      if (block.type === "tool_use") read.calls.push(block.id);
      if (block.type === "tool_result") read.results.push(block.tool_use_id);
      if (block.type === "text") read.texts.push(block.text);
    }
  }
  return read;
}

function fields(entry: LogEntry): Record<string, unknown> {
  return fieldsOf(entry.event);
}

Deno.test("fromClaudeCode() reads each subagent from its own file, on its own thread, between its call and its result", async (t) => {
  const invalid: [number, string][] = [];
  const entries = await Array.fromAsync(
    fromClaudeCode(SESSION, { onInvalid: (line, reason) => invalid.push([line, reason]) }),
  );
  assert.deepEqual(invalid, []);
  const callAt = (id: string): number =>
    entries.findIndex((e) => e.event.type === "agent.tool_use" && e.event.id === id);
  const resultAt = (id: string): number =>
    entries.findIndex((e) => e.event.type === "agent.tool_result" && fields(e).tool_use_id === id);

  for (const agent of AGENTS) {
    await t.step(`${agent.name}: every call, result and text, in order`, () => {
      const thread = `sidechain:${agent.id}`;
      const own = entries.filter((e) => e.thread_id === thread);
      const expected = readFile(new URL(`agent-${agent.id}.jsonl`, SUBAGENTS));
      assert.deepEqual(
        own.filter((e) => e.event.type === "agent.tool_use").map((e) => e.event.id),
        expected.calls,
      );
      assert.deepEqual(
        own.filter((e) => e.event.type === "agent.tool_result").map((e) => fields(e).tool_use_id),
        expected.results,
      );
      assert.deepEqual(
        own.filter((e) => e.event.type === "agent.message").map((e) =>
          (fields(e).content as { text: string }[])[0]!.text
        ),
        expected.texts,
      );
      const first = entries.indexOf(own[0]!);
      const last = entries.indexOf(own.at(-1)!);
      assert.ok(callAt(agent.call) < first && last < resultAt(agent.call));
    });

    await t.step(`${agent.name}: named before its first event`, () => {
      const created = entries.findIndex((e) =>
        e.event.type === "session.thread_created" &&
        fields(e).session_thread_id === `sidechain:${agent.id}`
      );
      assert.equal(fields(entries[created]!).agent_name, agent.name);
      assert.equal(entries[created + 1]!.thread_id, `sidechain:${agent.id}`);
    });
  }

  await t.step("a file joined to no call (a compaction agent's) is not read", () => {
    assert.ok(!entries.some((e) => e.thread_id?.includes("acompact")));
    assert.ok(!JSON.stringify(entries).includes("COMPACTION SUMMARY TEXT"));
  });

  await t.step("the task each was given is its call's, not a message of its own", () => {
    assert.ok(entries.every((e) => e.thread_id === null || e.event.type !== "user.message"));
    assert.ok(!entries.some((e) => e.event.type === "agent.thread_message_received"));
  });
});

Deno.test("fromClaudeCode() subagent files: the grader and json show their work by name, the dream the reports", async (t) => {
  const grader = await renderGrader(fromClaudeCode(SESSION));
  await t.step(
    "grader: each subagent's calls on its thread, nested after its caller's call",
    () => {
      const order = [
        '[agent → tool Agent]\n  {"description":"Find the config loader"',
        "[@Explore (Find the config loader) → tool Grep]",
        "[tool Grep → @Explore (Find the config loader)]",
        "[@Explore (Find the config loader) → tool Agent]",
        "[@general-purpose (Read the loader) → tool Read]",
        "[@general-purpose (Read the loader)]\n  loadConfig reads config.json",
        "[tool Agent → @Explore (Find the config loader)]",
        "[tool Agent → agent]\n  loadConfig in src/config.ts:12",
        "[@general-purpose (Check test coverage) → tool Bash]",
        "[tool Bash → @general-purpose (Check test coverage)]\n  ok | 3 passed",
        "[tool Agent → agent]\n  Three tests",
      ];
      let at = 0;
      for (const piece of order) {
        const found = grader.indexOf(piece, at);
        assert.ok(found >= 0, `${piece} after ${at} in\n${grader}`);
        at = found + piece.length;
      }
    },
  );

  await t.step("grader: every text and result of every subagent file, on its thread", () => {
    for (const agent of AGENTS) {
      const lines = Deno.readTextFileSync(new URL(`agent-${agent.id}.jsonl`, SUBAGENTS))
        .split("\n").filter((l) => l !== "").slice(1);
      for (const line of lines) {
        for (const block of JSON.parse(line).message.content) {
          const [label, body] = block.type === "text"
            ? [`[@${agent.name}]`, block.text]
            : block.type === "tool_use"
            ? [`[@${agent.name} → tool ${block.name}]`, JSON.stringify(block.input)]
            : [`→ @${agent.name}]`, typeof block.content === "string" ? block.content : ""];
          const framed = `${label}\n${String(body).replace(/^/gm, "  ")}`;
          assert.ok(grader.includes(framed), framed);
        }
      }
    }
  });

  await t.step("json: the subagents' items carry their thread", async () => {
    const items = (await renderJson(fromClaudeCode(SESSION))).trim().split("\n").map((l) =>
      JSON.parse(l)
    );
    const threads = new Set(items.map((i) => i.thread));
    assert.deepEqual(
      [...threads].sort(),
      [null, ...AGENTS.map((a) => `sidechain:${a.id}`)].sort((a, b) =>
        String(a).localeCompare(String(b))
      ),
    );
    const grep = items.find((i) => i.tool === "Grep" && i.kind === "tool_call");
    assert.equal(grep.thread, "sidechain:a11f00dcafe0001");
  });

  await t.step("dream: the primary view, a delegated task read as its report", async () => {
    const dream = await renderDream(fromClaudeCode(SESSION));
    assert.ok(!dream.text.includes("@"), dream.text);
    assert.ok(!dream.text.includes("tool Grep"));
    assert.equal(dream.text.split("### tool Agent → agent").length, 3);
    assert.equal(dream.turns, 1);
  });
});

Deno.test("fromClaudeCode() a stream has no subagent files: the parent's calls and results only", async () => {
  const bytes = await Deno.readFile(SESSION);
  const entries = await Array.fromAsync(fromClaudeCode(ReadableStream.from([bytes])));
  assert.ok(entries.every((e) => e.thread_id === null));
  assert.equal(entries.filter((e) => e.event.type === "agent.tool_result").length, 2);
});

/** Writes a session file and its subagents folder in a fresh temporary folder. */
async function session(
  records: unknown[],
  agents: Record<string, { records: unknown[]; meta?: unknown }>,
): Promise<{ path: string; dir: string }> {
  const dir = await Deno.makeTempDir();
  const path = join(dir, "s1.jsonl");
  await Deno.writeTextFile(path, records.map((r) => JSON.stringify(r)).join("\n") + "\n");
  await Deno.mkdir(join(dir, "s1", "subagents"), { recursive: true });
  for (const [id, { records, meta }] of Object.entries(agents)) {
    const file = join(dir, "s1", "subagents", `agent-${id}`);
    await Deno.writeTextFile(`${file}.jsonl`, records.map((r) => JSON.stringify(r)).join("\n"));
    if (meta !== undefined) await Deno.writeTextFile(`${file}.meta.json`, JSON.stringify(meta));
  }
  return { path, dir };
}

const call = (id: string, prompt = "Do the task."): unknown => ({
  type: "assistant",
  uuid: `call-${id}`,
  message: {
    id: `msg-${id}`,
    content: [{ type: "tool_use", id, name: "Task", input: { subagent_type: "worker", prompt } }],
  },
});
const result = (id: string, text: string, extra: Record<string, unknown> = {}): unknown => ({
  type: "user",
  uuid: `result-${id}`,
  message: { content: [{ type: "tool_result", tool_use_id: id, content: text }] },
  ...extra,
});
const said = (uuid: string, text: string, extra: Record<string, unknown> = {}): unknown => ({
  type: "assistant",
  uuid,
  isSidechain: true,
  message: { content: [{ type: "text", text }] },
  ...extra,
});

Deno.test("fromClaudeCode() one subagent is one thread, however its records are split", async () => {
  // A version that wrote progress records into the parent and the agent's own file: each record
  // once, on one thread.
  const progress = {
    type: "progress",
    uuid: "p1",
    parentToolUseID: "toolu_1",
    data: { type: "agent_progress", agentId: "x1", message: said("s1", "First step.") },
  };
  const { path, dir } = await session(
    [call("toolu_1"), progress, result("toolu_1", "Done.", { toolUseResult: { agentId: "x1" } })],
    { x1: { records: [said("s1", "First step."), said("s2", "Second step.")] } },
  );
  try {
    const entries = await Array.fromAsync(fromClaudeCode(path));
    const own = entries.filter((e) => e.thread_id !== null);
    assert.deepEqual(own.map((e) => [e.thread_id, e.event.id]), [
      ["sidechain:x1", "s1"],
      ["sidechain:x1", "s2"],
    ]);
    assert.equal(entries.filter((e) => e.event.type === "session.thread_created").length, 1);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("fromClaudeCode() a subagent whose result never came is read at the end; unsafe ids are not", async () => {
  const { path, dir } = await session(
    [
      call("toolu_1"),
      call("toolu_2"),
      // Were the id taken as a path, it would name s1/escape.jsonl.
      result("toolu_2", "Done.", { toolUseResult: { agentId: "q/../../escape" } }),
    ],
    { run1: { records: [said("s1", "Still working.")], meta: { toolUseId: "toolu_1" } } },
  );
  await Deno.mkdir(join(dir, "s1", "subagents", "agent-q"));
  await Deno.writeTextFile(join(dir, "s1", "escape.jsonl"), JSON.stringify(said("e1", "ESCAPED")));
  try {
    const entries = await Array.fromAsync(fromClaudeCode(path, { usage: false }));
    assert.deepEqual(entries.map((e) => [e.thread_id, e.event.id]), [
      [null, "toolu_1"],
      [null, "toolu_2"],
      [null, "result-toolu_2"],
      [null, "s1:thread"],
      ["sidechain:run1", "s1"],
    ]);
    // A meta without a name: the thread is named after the call.
    assert.equal(fields(entries[3]!).agent_name, "worker");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("fromClaudeCode() stopping inside a subagent closes its file and the session's", async () => {
  // The resource sanitizer fails this test if either file is left open.
  const entries: LogEntry[] = [];
  for await (const entry of fromClaudeCode(SESSION)) {
    entries.push(entry);
    if (entry.thread_id === "sidechain:c33d00dfeed0003") break;
  }
  assert.equal(entries.at(-1)!.thread_id, "sidechain:c33d00dfeed0003");
});

Deno.test({
  name: "fromClaudeCode() a FIFO where a subagent's file would be is passed over, never waited on",
  ignore: Deno.build.os === "windows",
  async fn(): Promise<void> {
    const { path, dir } = await session(
      [call("toolu_1"), result("toolu_1", "Done.", { toolUseResult: { agentId: "f1" } })],
      {},
    );
    try {
      const fifo = join(dir, "s1", "subagents", "agent-f1.jsonl");
      assert.ok((await new Deno.Command("mkfifo", { args: [fifo] }).output()).success);
      const entries = await Array.fromAsync(fromClaudeCode(path, { usage: false }));
      assert.deepEqual(entries.map((e) => e.event.id), ["toolu_1", "result-toolu_1"]);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
