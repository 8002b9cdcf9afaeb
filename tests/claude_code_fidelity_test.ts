// Copyright 2026 the brigade authors. MIT license.

import assert from "node:assert/strict";
import { fromClaudeCode, type LogEntry, renderDream, renderGrader, renderHtml } from "../mod.ts";

const FIXTURES = new URL("../fixtures/claude_code/", import.meta.url);
const SUBAGENT = new URL("subagent.jsonl", FIXTURES);
const COMMANDS = new URL("commands.jsonl", FIXTURES);
const COMPACTION = new URL("compaction.jsonl", FIXTURES);
const REVIEWER = "general-purpose (Reviewer checking PR #102)";

type Fields = Record<string, unknown>;

function fields(entry: LogEntry): Fields {
  return entry.event as unknown as Fields;
}

async function read(
  input: URL | string,
): Promise<{ entries: LogEntry[]; invalid: [number, string][] }> {
  const invalid: [number, string][] = [];
  const source = typeof input === "string"
    ? fromClaudeCode(ReadableStream.from([new TextEncoder().encode(input)]), {
      onInvalid: (line, reason) => invalid.push([line, reason]),
    })
    : fromClaudeCode(input, { onInvalid: (line, reason) => invalid.push([line, reason]) });
  return { entries: await Array.fromAsync(source), invalid };
}

function lines(...records: unknown[]): string {
  return records.map((r) => typeof r === "string" ? r : JSON.stringify(r)).join("\n") + "\n";
}

Deno.test("fromClaudeCode() puts a subagent's progress records on its own named thread", async (t) => {
  const { entries, invalid } = await read(SUBAGENT);
  const thread = "sidechain:a102bdd";
  // Its events, the spans of its responses' usage aside.
  const child = entries.filter((e) => e.thread_id === thread && !e.event.type.startsWith("span."));

  await t.step(
    "a thread_created names the thread after the Task call, before its first event",
    () => {
      assert.deepEqual(invalid, []);
      const created = entries.findIndex((e) => e.event.type === "session.thread_created");
      assert.ok(created >= 0);
      assert.equal(entries[created]!.thread_id, null);
      assert.deepEqual(
        [fields(entries[created]!).session_thread_id, fields(entries[created]!).agent_name],
        [thread, REVIEWER],
      );
      assert.equal(entries[created + 1]!.thread_id, thread);
      assert.equal(entries.filter((e) => e.event.type === "session.thread_created").length, 1);
    },
  );

  await t.step("each subagent record once, though the file repeats one", () => {
    const text = Deno.readTextFileSync(SUBAGENT).split("\n").filter((l) => l !== "");
    const inner = text.map((l) => JSON.parse(l)).filter((r) => r.data?.type === "agent_progress");
    const uuids = new Set(inner.map((r) => r.data.message.uuid));
    assert.ok(uuids.size < inner.length, "the fixture repeats a progress record");
    // Each of these records holds one block, so one event each; the task the subagent was
    // given is not repeated: its Task call carries it.
    assert.equal(child.length, uuids.size - 1);
    assert.equal(new Set(child.map((e) => e.event.id)).size, child.length);
  });

  await t.step("its calls and results are linked on its thread", () => {
    const calls = new Set(
      child.filter((e) => e.event.type === "agent.tool_use").map((e) => e.event.id),
    );
    const results = child.filter((e) => e.event.type === "agent.tool_result");
    assert.ok(calls.size === 3 && results.length === 2);
    for (const result of results) assert.ok(calls.has(fields(result).tool_use_id as string));
  });

  await t.step("the grader shows the subagent's work by its name", async () => {
    const text = await renderGrader(fromClaudeCode(SUBAGENT));
    assert.ok(!text.includes("[user →"), "no subagent prompt reads as the person's");
    assert.equal(text.split("Read and follow the instructions").length, 2, "its task, once");
    assert.ok(text.includes(`[agent → tool Task]\n  {"subagent_type":"general-purpose"`));
    assert.ok(text.includes(`[@${REVIEWER} → tool Bash]\n  {"command":"gh pr view 102"`));
    assert.ok(text.includes(`[tool Bash → @${REVIEWER}]\n  title:\tfixed a bug`));
    assert.ok(text.includes("[tool Task → agent]\n  I have completed the code review"));
    assert.ok(!text.includes("sidechain"));
  });

  await t.step("the dream reads the delegated task as the report that came back", async () => {
    const dream = await renderDream(fromClaudeCode(SUBAGENT));
    assert.ok(!dream.text.includes("@general-purpose"));
    assert.ok(dream.text.includes("### tool Task → agent\n\n    I have completed the code review"));
  });
});

Deno.test("fromClaudeCode() names a subagent without a known call by its agent id", async () => {
  const progress = (uuid: string, text: string): unknown => ({
    type: "progress",
    uuid: `p-${uuid}`,
    parentToolUseID: "toolu_unknown",
    data: {
      type: "agent_progress",
      agentId: "ab12",
      message: { type: "assistant", uuid, message: { content: [{ type: "text", text }] } },
    },
  });
  const { entries } = await read(lines(progress("x1", "one"), progress("x2", "two")));
  assert.deepEqual(entries.map((e) => [e.thread_id, e.event.type]), [
    [null, "session.thread_created"],
    ["sidechain:ab12", "agent.message"],
    ["sidechain:ab12", "agent.message"],
  ]);
  assert.equal(fields(entries[0]!).agent_name, "subagent ab12");
});

Deno.test("fromClaudeCode() remembers a bounded number of subagent uuids", async () => {
  const record = (n: number): unknown => ({
    type: "user",
    uuid: `s${n}`,
    isSidechain: true,
    agentId: "a",
    message: { content: `m${n}` },
  });
  const records = Array.from({ length: 10_001 }, (_, n) => record(n));
  // The latest is still remembered and dropped; the first was forgotten and renders again.
  const { entries } = await read(lines(...records, record(10_000), record(0)));
  assert.equal(entries[0]!.event.type, "session.thread_created");
  assert.equal(entries.length, 1 + 10_002);
  assert.deepEqual(entries.slice(-2).map((e) => e.event.id), ["s10000", "s0"]);
});

Deno.test("fromClaudeCode() reads a slash command as one command line, its output as the command's", async (t) => {
  const { entries, invalid } = await read(COMMANDS);

  await t.step("one user.message per command, marked with `command`", () => {
    assert.deepEqual(invalid, []);
    const users = entries.filter((e) => e.event.type === "user.message");
    assert.deepEqual(users.map((e) => [fields(e).content, fields(e).command]), [
      ["/ide", "/ide"],
      ["/model", "/model"],
      ["/init", "/init"],
      ["/exit", "/exit"],
    ]);
  });

  await t.step(
    "each local output is one system message naming its command, styling removed",
    () => {
      // The harness's own system messages (caveats, the /init expansion) have a `source`.
      const outputs = entries.filter((e) =>
        e.event.type === "system.message" && fields(e).source === undefined
      );
      assert.deepEqual(outputs.map((e) => fields(e).content), [
        "Output of /ide:\nConnected to Visual Studio Code.",
        "Output of /model:\nSet model to Default (gpt-5.3-codex(medium))",
        "Output of /exit:\nBye!",
      ]);
    },
  );

  await t.step("the grader shows no wrapper tags", async () => {
    const text = await renderGrader(fromClaudeCode(COMMANDS));
    assert.ok(!/<\/?(command|local-command)-/.test(text), text);
    assert.ok(text.startsWith("[system, context]\n  Caveat: The messages below"));
    assert.ok(text.includes("\n\n[user]\n  /ide\n\n[system]\n  Output of /ide:\n"));
  });

  await t.step("arguments, a block-array command, stderr and an empty output", async () => {
    const { entries } = await read(lines(
      {
        type: "user",
        uuid: "c1",
        message: {
          content:
            "<command-name>/model</command-name>\n<command-message>model</command-message>\n" +
            "<command-args> opus </command-args>",
        },
      },
      {
        type: "user",
        uuid: "o1",
        message: {
          content: "<local-command-stderr>\x1b[31mNo such model\x1b[0m</local-command-stderr>",
        },
      },
      {
        type: "user",
        uuid: "c2",
        message: {
          content: [{
            type: "text",
            text: "<command-name>clear</command-name><command-args></command-args>",
          }],
        },
      },
      {
        type: "user",
        uuid: "o2",
        message: { content: "<local-command-stdout></local-command-stdout>" },
      },
    ));
    assert.deepEqual(entries.map((e) => [e.event.type, fields(e).content, fields(e).command]), [
      ["user.message", "/model opus", "/model"],
      ["system.message", "Error output of /model:\nNo such model", undefined],
      ["user.message", "/clear", "/clear"],
    ]);
  });
});

Deno.test("fromClaudeCode() renders a compaction as one item", async () => {
  const { entries, invalid } = await read(COMPACTION);
  assert.deepEqual(invalid, []);
  const system = entries.filter((e) => e.event.type === "system.message");
  assert.equal(system.length, 1);
  assert.match(fields(system[0]!).content as string, /^Compaction summary:\nThis session is being/);
  const text = await renderGrader(fromClaudeCode(COMPACTION));
  assert.equal(text.split("[system]").length, 2);
  assert.ok(!text.includes("[compaction summary]"));
  assert.ok(text.includes("[system]\n  Compaction summary:\n  This session is being continued"));
});

Deno.test("fromClaudeCode() drops nothing in silence", async (t) => {
  await t.step("records without uuid render, with an id from their line number", async () => {
    const { entries, invalid } = await read(lines(
      { type: "user", message: { content: "First prompt." } },
      { type: "assistant", message: { content: [{ type: "text", text: "A reply." }] } },
    ));
    assert.deepEqual(invalid, []);
    assert.deepEqual(entries.map((e) => [e.event.id, e.event.type]), [
      ["line-1", "user.message"],
      ["line-2", "agent.message"],
    ]);
    const text = await renderGrader(fromClaudeCode(ReadableStream.from([
      new TextEncoder().encode(lines({ type: "user", message: { content: "Hello." } })),
    ])));
    assert.equal(text, "[user]\n  Hello.\n");
  });

  await t.step(
    "every bad line is reported with its number; records skipped on purpose are not",
    async () => {
      const { entries, invalid } = await read(
        lines(
          { type: "file-history-snapshot", messageId: "m" },
          "{not json",
          "[1,2]",
          { type: "progress", uuid: "h", data: { type: "hook_progress" } },
          { type: "system", subtype: "turn_duration", uuid: "t" },
          { type: "user", uuid: "m1", isMeta: true, message: { content: "meta" } },
          { type: "user", uuid: "u1", message: { content: "x".repeat(70_000) } },
          { type: "user", uuid: "u2", message: { content: "kept" } },
          '"a string"',
        ),
      );
      assert.deepEqual(entries.map((e) => e.event.id), ["u1", "u2"]);
      assert.deepEqual(invalid.map(([n]) => n), [2, 3, 9]);
    },
  );

  await t.step("a line over the cap is reported, the next read", async () => {
    const invalid: number[] = [];
    const text = lines(
      { type: "user", uuid: "big", message: { content: "y".repeat(5_000) } },
      { type: "user", uuid: "after", message: { content: "after" } },
    );
    const entries = await Array.fromAsync(
      fromClaudeCode(ReadableStream.from([new TextEncoder().encode(text)]), {
        maxLineBytes: 1_000,
        onInvalid: (line) => invalid.push(line),
      }),
    );
    assert.deepEqual(entries.map((e) => e.event.id), ["after"]);
    assert.deepEqual(invalid, [1]);
  });
});

Deno.test("fromClaudeCode() gives a subagent's task to no one but the subagent: turns are the person's", async () => {
  const { entries } = await read(SUBAGENT);
  const prompts = entries.filter((e) => e.event.type === "user.message" && e.thread_id === null);
  assert.ok(entries.every((e) => e.thread_id === null || e.event.type !== "user.message"));
  const dream = await renderDream(fromClaudeCode(SUBAGENT));
  assert.equal(dream.turns, prompts.length);
  const page = await renderHtml(fromClaudeCode(SUBAGENT));
  const turns = /<dt>Turns<\/dt><dd>(\d+)<\/dd>/.exec(page)?.[1];
  assert.equal(Number(turns), prompts.length);
});

/** The real transcripts: the copies in fixtures, and the shared set beside the checkout. */
async function realTranscripts(): Promise<URL[]> {
  const folders = [
    new URL("real/", FIXTURES),
    new URL("current_voices/", FIXTURES),
    new URL("../../shared/data/claude-code-real/", import.meta.url),
    // A folder of a user's own (one project's transcripts) joins with TRANSCRIPT_REAL_DIR.
    ...[Deno.env.get("TRANSCRIPT_REAL_DIR")].filter((d) => d !== undefined && d !== "").map((d) =>
      new URL(`file://${d!.endsWith("/") ? d : `${d}/`}`)
    ),
  ];
  const found = new Map<string, URL>();
  for (const folder of folders) {
    try {
      for await (const entry of Deno.readDir(folder)) {
        if (entry.isFile && entry.name.endsWith(".jsonl") && !found.has(entry.name)) {
          found.set(entry.name, new URL(entry.name, folder));
        }
      }
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
  }
  return [...found.values()];
}

// deno-lint-ignore no-control-regex -- terminal styling is what is removed
const STYLING = /\x1b\[[0-9;?]*[ -/]*[@-~]/g;
const TAG = /<\/?[a-z][a-z_-]*>/g;

/**
 * What the model read of a transcript, taken from the JSONL by this test
 * alone (not by the mapping): the lines of every user text (wrappers taken
 * off, a command's name and arguments, a local command's output), every
 * assistant text, every tool call's input as JSON, a command's expansion, every tool result's text,
 * every queued message a request took and every hook context. A line is
 * what is compared: the grader frames bodies line by line.
 */
function readByTheModel(text: string): { lines: string[]; inputs: string[] } {
  const lines: string[] = [];
  const inputs: string[] = [];
  const add = (value: string): void => {
    for (const line of value.replace(STYLING, "").replace(TAG, "\n").split("\n")) {
      const trimmed = line.trim();
      if (trimmed !== "" && !/^\[Request interrupted by user/.test(trimmed)) lines.push(trimmed);
    }
  };
  const texts = (content: unknown): string[] =>
    typeof content === "string"
      ? [content]
      : Array.isArray(content)
      ? content.flatMap((b) =>
        typeof b === "string"
          ? [b]
          : b?.type === "text" && typeof b.text === "string"
          ? [b.text]
          : []
      )
      : [];
  const message = (record: Fields): void => {
    const content = (record.message as Fields | undefined)?.content;
    if (record.type === "assistant") {
      if ((record.message as Fields).model === "<synthetic>") return;
      texts(content).forEach(add);
      for (const block of Array.isArray(content) ? content : []) {
        if (block?.type === "tool_use") inputs.push(JSON.stringify(block.input));
      }
      return;
    }
    // An isMeta record is read too when it is a caveat, or the expansion of the command before it.
    const meta = record.isMeta === true && !afterCommand;
    afterCommand = texts(content).some((value) => value.includes("<command-name>"));
    for (const value of texts(content)) {
      if (!meta || value.includes("Caveat: The messages below")) add(value);
    }
    for (const block of Array.isArray(content) ? content : []) {
      if (block?.type === "tool_result") texts(block.content).forEach(add);
    }
  };
  let afterCommand = false;
  const pending: string[] = [];
  for (const raw of text.split("\n")) {
    let record: Fields;
    try {
      record = JSON.parse(raw);
    } catch {
      continue;
    }
    if (typeof record !== "object" || record === null) continue;
    if (record.type === "user" || record.type === "assistant") message(record);
    const data = record.data as Fields | undefined;
    if (record.type === "progress" && data?.type === "agent_progress") {
      message((data.message ?? {}) as Fields);
    }
    if (record.type === "queue-operation") {
      if (record.operation === "enqueue") pending.push(...texts(record.content));
      if (record.operation === "dequeue" || record.operation === "remove") {
        const taken = pending.shift();
        if (taken !== undefined) add(taken);
      }
      if (record.operation === "popAll") pending.length = 0;
    }
    const attachment = record.attachment as Fields | undefined;
    if (record.type === "attachment" && attachment?.type === "hook_additional_context") {
      texts(attachment.content).forEach(add);
    }
  }
  return { lines, inputs };
}

Deno.test("fromClaudeCode() gives the grader every word the model read of a real transcript", async (t) => {
  const files = await realTranscripts();
  assert.ok(files.length >= 5);
  for (const file of files) {
    await t.step(file.pathname.split("/").pop()!, async () => {
      const text = await renderGrader(fromClaudeCode(file), {
        itemBudget: 100_000_000,
        transcriptBudget: 1_000_000_000,
      });
      // The grader indents each body line; a subagent's task is in its call's input, as JSON.
      const plain = text.replaceAll("\n  ", "\n");
      const { lines, inputs } = readByTheModel(await Deno.readTextFile(file));
      assert.ok(lines.length > 0);
      const missing = lines.filter((line) =>
        !plain.includes(line) && !plain.includes(JSON.stringify(line).slice(1, -1))
      );
      assert.deepEqual(missing, []);
      assert.deepEqual(inputs.filter((input) => !plain.includes(input)), []);
    });
  }
});
