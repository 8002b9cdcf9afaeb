// Copyright 2026 the brigade authors. MIT license.

import assert from "node:assert/strict";
import {
  EventSourceError,
  fromClaudeCode,
  type LogEntry,
  redact,
  renderDream,
  renderGrader,
} from "../../mod.ts";
import { fieldsOf } from "../../events/fields.ts";

const REAL = new URL("../../fixtures/claude_code/real/", import.meta.url);

function realFiles(): URL[] {
  return [...Deno.readDirSync(REAL)]
    .filter((e) => e.isFile && e.name.endsWith(".jsonl"))
    .map((e) => new URL(e.name, REAL))
    .sort((a, b) => a.href.localeCompare(b.href));
}

/**
 * The file's user prompts, found naively: string content, not meta, not a
 * summary, not a command's local output; a slash command as its command line.
 */
function naivePrompts(text: string): string[] {
  const prompts: string[] = [];
  for (const line of text.split("\n")) {
    let record: Record<string, unknown>;
    try {
      record = JSON.parse(line);
    } catch {
      continue;
    }
    const message = record?.message as { content?: unknown } | undefined;
    if (
      record?.type === "user" && record.isMeta !== true && record.isCompactSummary !== true &&
      typeof message?.content === "string" && message.content.trim() !== "" &&
      !message.content.startsWith("<local-command-")
    ) {
      const command = /<command-name>(.*?)<\/command-name>/.exec(message.content)?.[1];
      prompts.push(command ?? message.content);
    }
  }
  return prompts;
}

/**
 * Each prompt's first 60 characters appear in `text` in order, until the
 * transcript-cut note; returns how many did.
 */
function assertPromptsInOrder(text: string, prompts: string[]): number {
  const cut = text.indexOf("[transcript cut:");
  let at = 0;
  let seen = 0;
  for (const prompt of prompts) {
    const head = prompt.slice(0, 60);
    const found = text.indexOf(head, at);
    if (found === -1 || (cut !== -1 && found > cut)) {
      assert.notEqual(cut, -1, `prompt not in the grader output: ${JSON.stringify(head)}`);
      break;
    }
    at = found + head.length;
    seen++;
  }
  assert.ok(seen >= 1, "the first prompt is before the cut");
  return seen;
}

Deno.test("fromClaudeCode() renders the real transcripts", async (t) => {
  const files = realFiles();
  assert.equal(files.length, 5);
  for (const file of files) {
    await t.step(file.pathname.split("/").pop()!, async () => {
      const prompts = naivePrompts(await Deno.readTextFile(file));
      assert.ok(prompts.length > 0);
      const grader = await renderGrader(fromClaudeCode(file));
      assert.ok(grader.length > 0);
      assertPromptsInOrder(grader, prompts);
      // A small budget cuts the transcript: the prompts before the cut are still in order.
      const small = await renderGrader(fromClaudeCode(file), {
        transcriptBudget: Math.floor(new TextEncoder().encode(grader).length / 2),
      });
      assert.ok(small.includes("[transcript cut:"));
      assertPromptsInOrder(small, prompts);

      const dream = await renderDream(fromClaudeCode(file));
      assert.ok(dream.text.length > 0);
      assert.equal(dream.turns, prompts.length + countTextPrompts(file));
      assert.equal(redact(dream.text), dream.text);
    });
  }
});

/** User prompts given as text blocks (not meta), which the naive list leaves out. */
function countTextPrompts(file: URL): number {
  let count = 0;
  for (const line of Deno.readTextFileSync(file).split("\n")) {
    try {
      const record = JSON.parse(line);
      if (record.type !== "user" || record.isMeta === true || record.isCompactSummary === true) {
        continue;
      }
      const content = record.message?.content;
      if (Array.isArray(content)) {
        count += content.filter((b: { type?: string }) =>
          b?.type === "text" || b?.type === "image"
        ).length;
      }
    } catch {
      // not JSON
    }
  }
  return count;
}

const encoder = new TextEncoder();

function line(record: unknown): string {
  return JSON.stringify(record) + "\n";
}

const T = "2026-03-01T10:00:00.000Z";

function syntheticBytes(): Uint8Array {
  const parts: (string | Uint8Array)[] = [
    line({ type: "file-history-snapshot", messageId: "m0", snapshot: {} }),
    line({
      type: "user",
      uuid: "u1",
      timestamp: T,
      sessionId: "ignored",
      message: { role: "user", content: "Fix the build." },
    }),
    line({ type: "user", uuid: "meta", isMeta: true, message: { content: "<meta>" } }),
    "{not json\n",
    "[1,2]\n",
    line({ type: "user", uuid: 7, message: { content: "bad uuid" } }),
    line({
      type: "assistant",
      uuid: "a1",
      timestamp: T,
      message: {
        model: "claude-x",
        content: [
          { type: "thinking", thinking: "hmm", signature: "s" },
          { type: "text", text: "Running it." },
          { type: "tool_use", id: "toolu_1", name: "Bash", input: { command: "make" } },
        ],
      },
    }),
    line({ type: "progress", uuid: "p1", data: {} }),
    line({
      type: "user",
      uuid: "u2",
      timestamp: T,
      message: {
        content: [{
          type: "tool_result",
          tool_use_id: "toolu_1",
          content: "error 2",
          is_error: true,
        }],
      },
    }),
    line({
      type: "assistant",
      uuid: "syn",
      message: {
        model: "<synthetic>",
        content: [{ type: "text", text: "No response requested." }],
      },
    }),
    line({ type: "user", uuid: "big", message: { content: "x".repeat(500) } }),
    line({
      type: "user",
      uuid: "s1",
      isSidechain: true,
      agentId: "ag1",
      message: { content: "Sub task." },
    }),
    line({ type: "assistant", uuid: "s2", isSidechain: true, message: { content: "Sub done." } }),
    line({ type: "system", subtype: "compact_boundary", uuid: "c0", content: "Compacted" }),
    line({
      type: "user",
      uuid: "c1",
      isCompactSummary: true,
      message: { content: "Earlier we fixed the build." },
    }),
    encoder.encode('{"type":"user","uuid":"u3","message":{"content":"caf'),
    new Uint8Array([0xff, 0xfe]),
    encoder.encode('"}}\n'),
    '{"type":"assistant","uuid":"a9","message":{"content":[{"type":"text","text":"End."}]}}',
  ];
  const chunks = parts.map((p) => typeof p === "string" ? encoder.encode(p) : p);
  const bytes = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return bytes;
}

Deno.test("fromClaudeCode() maps a synthetic transcript", async (t) => {
  const path = await Deno.makeTempFile({ suffix: ".jsonl" });
  try {
    await Deno.writeFile(path, syntheticBytes());
    const skipped: [number, string][] = [];
    const entries: LogEntry[] = await Array.fromAsync(
      fromClaudeCode(path, { maxLineBytes: 300, onSkipped: (n, why) => skipped.push([n, why]) }),
    );
    const session = path.split("/").pop()!.replace(/\.jsonl$/, "");

    await t.step("seq, session and the emitted events", () => {
      assert.deepEqual(entries.map((e) => e.seq), entries.map((_, i) => i + 1));
      assert.ok(entries.every((e) => e.session_id === session));
      assert.deepEqual(entries.map((e) => [e.event.type, e.event.id, e.thread_id]), [
        ["user.message", "u1", null],
        ["agent.message", "a1:1", null],
        ["agent.tool_use", "toolu_1", null],
        ["agent.tool_result", "u2", null],
        ["session.thread_created", "s1:thread", null],
        // A subagent's "user" text is the task it was given: a delegation, not the person.
        ["agent.thread_message_received", "s1", "sidechain:ag1"],
        ["session.thread_created", "s2:thread", null],
        ["agent.message", "s2", "sidechain"],
        ["system.message", "c1", null],
        ["user.message", "u3", null],
        ["agent.message", "a9", null],
      ]);
      assert.equal(entries[0]!.event.processed_at, T);
      const named = entries.filter((e) => e.event.type === "session.thread_created");
      assert.deepEqual(
        named.map((e) => {
          const { session_thread_id, agent_name } = fieldsOf(e.event);
          return [session_thread_id, agent_name];
        }),
        [["sidechain:ag1", "subagent ag1"], ["sidechain", "subagent"]],
      );
    });

    await t.step("tool_use and tool_result are linked", () => {
      const use = fieldsOf(entries[2]!.event);
      const result = fieldsOf(entries[3]!.event);
      assert.deepEqual([use.name, use.input], ["Bash", { command: "make" }]);
      assert.deepEqual([result.tool_use_id, result.content, result.is_error], [
        "toolu_1",
        "error 2",
        true,
      ]);
    });

    await t.step("compaction summary, invalid UTF-8, final line", () => {
      assert.equal(
        (entries[8]!.event as { content: unknown }).content,
        "Compaction summary:\nEarlier we fixed the build.",
      );
      assert.equal((entries[9]!.event as { content: unknown }).content, "caf\uFFFD\uFFFD");
      assert.deepEqual((entries[10]!.event as { content: unknown }).content, [
        { type: "text", text: "End." },
      ]);
    });

    await t.step("bad lines are reported and skipped", () => {
      assert.deepEqual(skipped.map(([n]) => n), [4, 5, 6, 11]);
      assert.match(skipped[0]![1], /JSON/);
      assert.match(skipped[3]![1], /over the 300-byte cap/);
    });

    await t.step("the grader renders it with the call linked", async () => {
      const text = await renderGrader(fromClaudeCode(path, { maxLineBytes: 300 }));
      assert.match(
        text,
        /\[agent → tool Bash\]\n {2}\{"command":"make"\}\n\n\[tool Bash → agent, error\]/,
      );
      assert.ok(text.includes("[system]\n  Compaction summary:\n  Earlier we fixed the build."));
      assert.ok(text.includes("[agent → @subagent ag1]\n  Sub task."));
    });

    await t.step("the option sessionId wins", async () => {
      const [first] = await Array.fromAsync(fromClaudeCode(path, { sessionId: "mine" }));
      assert.equal(first!.session_id, "mine");
    });

    await t.step("early stop closes the file", async () => {
      for await (const entry of fromClaudeCode(path)) {
        assert.equal(entry.seq, 1);
        break;
      }
    });

    await t.step("an aborted signal stops the reading and closes the file", async () => {
      const controller = new AbortController();
      const reading = async (): Promise<void> => {
        for await (const _ of fromClaudeCode(path, { signal: controller.signal })) {
          controller.abort(new Error("stop"));
        }
      };
      await assert.rejects(reading(), /stop/);
    });
  } finally {
    await Deno.remove(path);
  }
});

Deno.test("fromClaudeCode() chunks: a line over the cap split across chunks", async () => {
  const path = await Deno.makeTempFile({ suffix: ".jsonl" });
  try {
    const long = line({ type: "user", uuid: "L", message: { content: "y".repeat(200_000) } });
    const short = line({ type: "user", uuid: "S", message: { content: "short" } });
    await Deno.writeTextFile(path, short + long + short);
    const skipped: number[] = [];
    const entries = await Array.fromAsync(
      fromClaudeCode(path, { maxLineBytes: 1000, onSkipped: (n) => skipped.push(n) }),
    );
    assert.deepEqual(entries.map((e) => e.event.id), ["S", "S"]);
    assert.deepEqual(skipped, [2]);
    const all = await Array.fromAsync(fromClaudeCode(path));
    assert.deepEqual(all.map((e) => e.event.id), ["S", "L", "S"]);
  } finally {
    await Deno.remove(path);
  }
});

Deno.test("fromClaudeCode() fails on a missing file, naming it", async () => {
  const path = "/nonexistent/dir/session.jsonl";
  await assert.rejects(
    Array.fromAsync(fromClaudeCode(path)),
    (error: unknown) =>
      error instanceof EventSourceError && error.code === "unreadable" &&
      error.message.includes(path) && /no such file/.test(error.message),
  );
  await assert.rejects(fromClaudeCode(path, { maxLineBytes: 0 }).next(), RangeError);
});

Deno.test("fromClaudeCode() reads a stream like a file, reporting bad lines to onInvalid", async (t) => {
  const bytes = syntheticBytes();
  const path = await Deno.makeTempFile({ suffix: ".jsonl" });
  try {
    await Deno.writeFile(path, bytes);
    const fromFile = await Array.fromAsync(fromClaudeCode(path, { maxLineBytes: 300 }));

    await t.step("same events, session id and name from the stream", async () => {
      const invalid: [number, string][] = [];
      const fromStream = await Array.fromAsync(
        fromClaudeCode(ReadableStream.from([bytes.subarray(0, 333), bytes.subarray(333)]), {
          maxLineBytes: 300,
          onInvalid: (n, why) => invalid.push([n, why]),
        }),
      );
      assert.deepEqual(fromStream.map((e) => e.event), fromFile.map((e) => e.event));
      assert.ok(fromStream.every((e) => e.session_id === "stream"));
      assert.deepEqual(invalid.map(([n]) => n), [4, 5, 6, 11]);
    });

    await t.step("onSkipped still works, and onInvalid wins over it", async () => {
      const old: number[] = [];
      const current: number[] = [];
      await Array.fromAsync(
        fromClaudeCode(path, { maxLineBytes: 300, onSkipped: (n) => old.push(n) }),
      );
      assert.deepEqual(old, [4, 5, 6, 11]);
      old.length = 0;
      await Array.fromAsync(
        fromClaudeCode(path, {
          maxLineBytes: 300,
          onSkipped: (n) => old.push(n),
          onInvalid: (n) => current.push(n),
        }),
      );
      assert.deepEqual([old, current], [[], [4, 5, 6, 11]]);
    });

    await t.step("an early stop cancels the stream", async () => {
      let cancelled = false;
      const stream = new ReadableStream<Uint8Array>({
        pull: (controller) =>
          controller.enqueue(encoder.encode(line({
            type: "user",
            uuid: "u",
            message: { content: "again" },
          }))),
        cancel: () => {
          cancelled = true;
        },
      });
      for await (const entry of fromClaudeCode(stream, { sessionId: "s" })) {
        assert.equal(entry.session_id, "s");
        break;
      }
      assert.ok(cancelled);
    });
  } finally {
    await Deno.remove(path);
  }
});

Deno.test("fromClaudeCode() maps thinking blocks only when asked, as agent.thinking with the text", async () => {
  const text = [
    line({
      type: "assistant",
      uuid: "a1",
      timestamp: T,
      message: {
        model: "claude-x",
        content: [
          { type: "thinking", thinking: "Let me check the *tests*.", signature: "s" },
          { type: "thinking", thinking: "  ", signature: "s" },
          { type: "redacted_thinking", data: "xyz" },
          { type: "text", text: "Running it." },
        ],
      },
    }),
  ].join("");
  const read = (thinking?: boolean): Promise<LogEntry[]> =>
    Array.fromAsync(
      fromClaudeCode(ReadableStream.from([new TextEncoder().encode(text)]), {
        sessionId: "s",
        ...(thinking === undefined ? {} : { thinking }),
      }),
    );
  const off = await read();
  assert.deepEqual(off.map((e) => [e.seq, e.event.type, e.event.id]), [[1, "agent.message", "a1"]]);
  const on = await read(true);
  assert.deepEqual(on.map((e) => [e.seq, e.event.type, e.event.id]), [
    [1, "agent.thinking", "a1:0"],
    [2, "agent.message", "a1:3"],
  ]);
  assert.equal(fieldsOf(on[0]!.event).thinking, "Let me check the *tests*.");
  // The grader reads past it.
  assert.equal(
    await renderGrader(on),
    await renderGrader(off),
  );
});

/** An assistant record of response `id`, one content block, with its usage as recorded. */
function reply(
  uuid: string,
  id: string,
  block: Record<string, unknown>,
  usage: Record<string, unknown>,
  extra: Record<string, unknown> = {},
): string {
  return line({
    type: "assistant",
    uuid,
    timestamp: `2026-01-01T00:00:0${uuid.at(-1)}Z`,
    ...extra,
    message: { model: "claude-x", id, role: "assistant", content: [block], usage },
  });
}

function readText(text: string, options: { usage?: boolean } = {}): Promise<LogEntry[]> {
  return Array.fromAsync(
    fromClaudeCode(ReadableStream.from([new TextEncoder().encode(text)]), {
      sessionId: "s",
      ...options,
    }),
  );
}

Deno.test("fromClaudeCode() maps each response's usage once, as a model request's spans", async (t) => {
  const first = { input_tokens: 10, output_tokens: 6, cache_creation_input_tokens: 400 };
  const text = [
    line({ type: "user", uuid: "u1", timestamp: T, message: { content: "Go." } }),
    // One response in three records, the usage repeated, the output count growing.
    reply("a1", "msg_1", { type: "thinking", thinking: "hm", signature: "s" }, {
      ...first,
      cache_read_input_tokens: 0,
    }),
    reply("a2", "msg_1", { type: "text", text: "Looking." }, {
      ...first,
      cache_read_input_tokens: 0,
    }),
    reply("a3", "msg_1", { type: "tool_use", id: "toolu_1", name: "Bash", input: {} }, {
      ...first,
      output_tokens: 267,
      cache_read_input_tokens: 0,
      speed: "fast",
      service_tier: "standard",
    }),
    line({
      type: "user",
      uuid: "u4",
      message: { content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "ok" }] },
    }),
    reply("a5", "msg_2", { type: "text", text: "Done." }, {
      input_tokens: 3,
      output_tokens: 2,
      cache_read_input_tokens: 500,
    }),
    // An unreadable record of a third response is skipped whole, its usage too.
    reply("a6", "msg_3", { type: "tool_use", id: 7 }, { input_tokens: 99 }),
    // The same response again (a replay): counted once.
    reply("a7", "msg_1", { type: "text", text: "Looking." }, { ...first, output_tokens: 267 }),
  ].join("");
  const entries = await readText(text);

  await t.step("after the response, before the next: a start and its end, side by side", () => {
    // msg_1 once (its replay not counted again); msg_3's record is unreadable.
    assert.deepEqual(entries.map((e) => [e.seq, e.event.type, e.event.id]), [
      [1, "user.message", "u1"],
      [2, "agent.message", "a2"],
      [3, "agent.tool_use", "toolu_1"],
      [4, "agent.tool_result", "u4"],
      [5, "span.model_request_start", "msg_1:request"],
      [6, "span.model_request_end", "msg_1:usage"],
      [7, "agent.message", "a5"],
      // The replay is another response than the open one: that one is over.
      [8, "span.model_request_start", "msg_2:request"],
      [9, "span.model_request_end", "msg_2:usage"],
      [10, "agent.message", "a7"],
    ]);
  });

  await t.step("the last record's counts, and the start it names", () => {
    const end = fieldsOf(entries[5]!.event);
    assert.equal(end.model_request_start_id, "msg_1:request");
    assert.equal(end.is_error, false);
    assert.equal(end.processed_at, "2026-01-01T00:00:03Z");
    assert.equal(entries[4]!.event.processed_at, "2026-01-01T00:00:03Z");
    assert.deepEqual(end.model_usage, {
      input_tokens: 10,
      output_tokens: 267,
      cache_creation_input_tokens: 400,
      cache_read_input_tokens: 0,
      speed: "fast",
    });
    assert.deepEqual(fieldsOf(entries[8]!.event).model_usage, {
      input_tokens: 3,
      output_tokens: 2,
      cache_read_input_tokens: 500,
    });
  });

  await t.step("usage: false gives the entries without them", async () => {
    const without = await readText(text, { usage: false });
    assert.deepEqual(
      without.map((e) => [e.event.type, e.event.id]),
      entries.filter((e) => !e.event.type.startsWith("span.")).map((
        e,
      ) => [e.event.type, e.event.id]),
    );
    assert.deepEqual(without.map((e) => e.seq), [1, 2, 3, 4, 5, 6]);
  });
});

Deno.test("fromClaudeCode() usage spans leave the grader's and the dream's text as they were", async () => {
  const files = [
    ...realFiles(),
    new URL("../../fixtures/claude_code/subagent.jsonl", import.meta.url),
    new URL("../../fixtures/claude_code/edits.jsonl", import.meta.url),
  ];
  for (const file of files) {
    const entries = await Array.fromAsync(fromClaudeCode(file));
    assert.ok(entries.some((e) => e.event.type === "span.model_request_end"), file.href);
    const without = await Array.fromAsync(fromClaudeCode(file, { usage: false }));
    assert.equal(await renderGrader(entries), await renderGrader(without), file.href);
    assert.equal(
      await renderGrader(entries, { keep: "ends" }),
      await renderGrader(without, { keep: "ends" }),
    );
    assert.deepEqual(await renderDream(entries), await renderDream(without), file.href);
  }
});
