// Copyright 2026 the brigade authors. MIT license.

import assert from "node:assert/strict";
import fc from "fast-check";
import {
  contentText,
  DREAM_EVENT_BUDGET,
  DREAM_TRANSCRIPT_CAP,
  fromNdjson,
  indexLine,
  type LogEntry,
  renderDream,
  renderIndex,
  type SessionEvent,
} from "../../mod.ts";
import { redact } from "../../redact/mod.ts";
import { agent, entries, id, user } from "../../tests/_entries.ts";
import { renderBounded } from "../../tests/_bounded.ts";
import { markdownHeadings, splitFrontMatter } from "../../tests/_transcript_parse.ts";
import { asEvent } from "../../events/fields.ts";

const FIXTURES = new URL("../../fixtures/", import.meta.url);
const utf8 = (text: string): number => new TextEncoder().encode(text).length;
const KEY = "sk-proj-Q7xv2LmN9pR4sT8wZ1bC5dF3gH6jK0aY";

Deno.test("renderDream() matches the golden dream of each fixture", async (t) => {
  for (const name of ["single_agent", "coordinator_all_threads"]) {
    await t.step(name, async (t) => {
      await t.assertSnapshot(await renderDream(fromNdjson(new URL(`${name}.ndjson`, FIXTURES))));
    });
  }
});

Deno.test("renderDream() reads the session scope alone: child threads change nothing", async () => {
  const all = await renderDream(fromNdjson(new URL("coordinator_all_threads.ndjson", FIXTURES)));
  const primary = await renderDream(
    fromNdjson(new URL("coordinator_primary_only.ndjson", FIXTURES)),
  );
  assert.deepEqual(all, primary);
  assert.match(
    all.text,
    /### @Changelog reader → agent\n\n {4}Found 3 entries/,
    "the report is kept",
  );
});

Deno.test("renderDream() redacts each event before cutting it to DREAM_EVENT_BUDGET bytes", async () => {
  const body = `${"x".repeat(DREAM_EVENT_BUDGET - 10)} ${KEY} and more after`;
  const dream = await renderDream(entries([agent(body)]));
  assert.ok(!dream.text.includes("sk-proj"), "no part of the key survives the cut");
  const section = dream.text.split("### agent\n\n")[1]!;
  const kept = section.slice(0, section.indexOf("\n[cut: "));
  assert.ok(utf8(kept) <= DREAM_EVENT_BUDGET);
  assert.match(section, /\n\[cut: \d+ more bytes\]\n$/);
});

/** A primary-thread session of generated user/agent texts. */
function session(texts: string[]): LogEntry[] {
  return entries(texts.map((text, i) => (i % 3 === 0 ? user(text) : agent(text))));
}

Deno.test("renderDream() caps text at `cap` bytes with a true head and tail around the marker", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.string({ unit: "grapheme", maxLength: 400 }), { minLength: 1, maxLength: 60 }),
      fc.integer({ min: 1024, max: 6000 }),
      async (texts, cap) => {
        const rows = session(texts);
        const whole = (await renderDream(rows, { cap: Number.MAX_SAFE_INTEGER })).text;
        const dream = await renderDream(rows, { cap });
        assert.ok(utf8(dream.text) <= cap, `${utf8(dream.text)} > ${cap}`);
        if (utf8(whole) <= cap) {
          assert.equal(dream.text, whole);
          assert.equal(dream.elidedBytes, 0);
          return;
        }
        const marker = `\n\n[… ${dream.elidedBytes} bytes elided …]\n\n`;
        const at = dream.text.indexOf(marker);
        assert.ok(at >= 0, "the marker names the bytes elided");
        const head = dream.text.slice(0, at);
        const tail = dream.text.slice(at + marker.length);
        assert.ok(whole.startsWith(head));
        assert.ok(whole.endsWith(tail));
        assert.equal(utf8(head) + dream.elidedBytes + utf8(tail), utf8(whole));
      },
    ),
    { numRuns: 60 },
  );
});

Deno.test("renderDream() counts every user message as a turn, elided or not", async () => {
  const texts = Array.from({ length: 300 }, (_, i) => `message ${i} ${"·".repeat(100)}`);
  const dream = await renderDream(session(texts), { cap: 1024 });
  assert.ok(dream.elidedBytes > 0);
  assert.equal(dream.turns, 100);
});

Deno.test("renderDream() gives the first user message redacted, on one line, within 200 code points", async () => {
  const long = `  Deploy\n\nnow\twith ${KEY} ${"😀".repeat(300)}`;
  const dream = await renderDream(entries([agent("hello"), user(long), user("second")]));
  assert.ok(dream.firstUser.startsWith("Deploy now with [REDACTED_SECRET] 😀"));
  assert.equal([...dream.firstUser].length, 200);
  assert.doesNotMatch(dream.firstUser, /\s{2}|\n/);
  assert.equal((await renderDream(entries([agent("no user")]))).firstUser, "");
});

Deno.test("renderDream() reads the first user message's words past any whitespace, a secret cut nowhere", async () => {
  // The dream builds heads of the redacted text (800 units, then 3,200, ...)
  // until one holds the words kept: whitespace pushes the words past the first
  // heads, and a key may straddle the end of one. The line must be the one the
  // whole redacted text gives.
  const expected = (text: string): string =>
    [...redact(text).trim().split(/\s+/).join(" ")].slice(0, 200).join("");
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 0, max: 5_000 }),
      fc.integer({ min: 0, max: 1_000 }),
      fc.constantFrom(" ", "\n", " \t", "x ", "😀 ", "é"),
      (spaces, words, word) => {
        const text = `${" ".repeat(spaces)}${word.repeat(words)}${KEY} ${"y".repeat(300)}`;
        return renderDream(entries([user(text)])).then((dream) => {
          assert.equal(dream.firstUser, expected(text));
          assert.ok(!dream.firstUser.includes("sk-proj"));
        });
      },
    ),
    { numRuns: 200 },
  );
});

Deno.test("renderDream() takes a first prompt of blank blocks as empty, whatever its blocks", async () => {
  const block = fc.constantFrom<unknown>(
    { type: "text", text: " \n " },
    { type: "text", text: "" },
    { type: "text", text: "go" },
    " ",
    "word",
    { type: "image", source: { type: "base64" } },
    { type: "search_result", title: "", source: "", content: [{ type: "text", text: "\t" }] },
    { type: "redacted" },
    {},
  );
  const content = fc.oneof(fc.array(block, { maxLength: 4 }), block);
  await fc.assert(
    fc.asyncProperty(content, async (content) => {
      const message = { id: "u1", type: "user.message", content } as SessionEvent;
      const text = contentText(content);
      const expected = text.trim() === "" ? "" : text.trim().split(/\s+/).join(" ").slice(0, 200);
      assert.equal((await renderDream(entries([message]))).firstUser, expected);
    }),
    { numRuns: 300 },
  );
});

Deno.test("renderDream() of an empty source is empty", async () => {
  assert.deepEqual(await renderDream([]), {
    sessionId: "",
    title: "",
    project: "",
    cwd: "",
    models: [],
    createdAt: "",
    endedAt: "",
    terminalState: "",
    lastError: "",
    text: "",
    turns: 0,
    elidedBytes: 0,
    digest: "",
    firstUser: "",
  });
});

Deno.test("renderDream() takes createdAt from the first kept entry", async () => {
  const rows = entries([
    ["sthr_child", { ...agent("child"), processed_at: "2026-01-01T00:00:00Z" }],
    [null, { ...user("primary"), processed_at: "2026-01-02T00:00:00Z" }],
  ]);
  assert.equal((await renderDream(rows)).createdAt, "2026-01-02T00:00:00Z");
});

Deno.test("renderDream() refuses a cap under 1024 bytes", async () => {
  await assert.rejects(() => renderDream([], { cap: 1023 }), RangeError);
  await assert.rejects(() => renderDream([], { cap: 2048.5 }), RangeError);
  assert.equal(DREAM_TRANSCRIPT_CAP, 24 * 1024);
});

Deno.test("renderDream() never lets a secret through, wherever the cuts fall", async () => {
  const secrets = fc.oneof(
    fc.stringMatching(/^sk-(proj-|ant-api03-)?[A-Za-z0-9_-]{24,48}$/),
    fc.stringMatching(/^AKIA[A-Z0-9]{16}$/),
    fc.stringMatching(/^[A-Za-z0-9]{24,40}$/).map((t) => `Authorization: Bearer ${t}`),
    fc.stringMatching(/^[A-Za-z0-9]{12,30}$/).map((v) => `DB_PASSWORD=${v}`),
  );
  await fc.assert(
    fc.asyncProperty(
      secrets,
      fc.integer({ min: 0, max: 3000 }),
      fc.integer({ min: 1024, max: 4096 }),
      async (secret, padding, cap) => {
        const body = `${"x".repeat(padding)} ${secret} tail`;
        const rows = session(["start", body, "middle", body, "end"]);
        const dream = await renderDream(rows, { cap });
        const core = secret.replace(/^.*(=|Bearer )/, "");
        assert.ok(!dream.text.includes(core), `${core} survived`);
      },
    ),
    { numRuns: 80 },
  );
});

Deno.test("indexLine() writes the row, naming elided bytes inside the bytes column", () => {
  const digest = `sha256:${"ab".repeat(32)}`;
  const dream = {
    sessionId: "sesn_1",
    createdAt: "2026-09-14T10:02:11Z",
    text: "ab€",
    turns: 2,
    elidedBytes: 0,
    digest,
    firstUser: "a · b · c",
  };
  assert.equal(
    indexLine(1, dream),
    `- 1 · sesn_1 · 2026-09-14T10:02:11Z · 2 · 5 · ${digest} · a · b · c`,
  );
  assert.equal(
    indexLine(7, { ...dream, elidedBytes: 103_877 }),
    `- 7 · sesn_1 · 2026-09-14T10:02:11Z · 2 · 5 (+103877 elided) · ${digest} · a · b · c`,
  );
  const columns = indexLine(1, dream).split(" · ");
  assert.equal(
    columns.slice(0, 6).join(" · "),
    `- 1 · sesn_1 · 2026-09-14T10:02:11Z · 2 · 5 · ${digest}`,
  );
  // A digest not known (or not a digest) reads as "-", never as text of its own.
  assert.equal(
    indexLine(1, { ...dream, digest: "x · y" }),
    "- 1 · sesn_1 · 2026-09-14T10:02:11Z · 2 · 5 · - · a · b · c",
  );
});

Deno.test("renderIndex() numbers the sessions of a batch from 1 in input order", async () => {
  const first: SessionEvent = { id: id(), type: "user.message", content: "Fix CI" };
  const rows = [
    ...entries([first, agent("done")], "sesn_b"),
    ...entries([user("Ship · it"), agent(KEY)], "sesn_a"),
  ];
  const index = await renderIndex(rows);
  const lines = index.split("\n");
  assert.equal(lines[0], "# Index");
  assert.equal(
    lines[2],
    "Columns: seq · session_id · created_at · turns · bytes · digest · first user message",
  );
  assert.match(lines[4]!, /^- 1 · sesn_b · {2}· 1 · \d+ · sha256:[0-9a-f]{64} · Fix CI$/);
  assert.match(lines[5]!, /^- 2 · sesn_a · {2}· 1 · \d+ · sha256:[0-9a-f]{64} · Ship · it$/);
});

Deno.test("renderDream() remembers only the latest tool calls, so its memory does not grow with the log", async () => {
  const calls: SessionEvent[] = Array.from({ length: 5_000 }, (_, i) => ({
    id: `call_${i}`,
    type: "agent.tool_use",
    name: "bash",
    input: { n: i },
  }));
  const result = (callId: string): SessionEvent => ({
    id: id(),
    type: "agent.tool_result",
    tool_use_id: callId,
    content: `result of ${callId}`,
  });
  const dream = await renderDream(entries([...calls, result("call_4999"), result("call_0")]));
  assert.match(dream.text, /### tool bash → agent\n\n {4}result of call_4999\n/);
  assert.match(dream.text, /### tool result → agent\n\n {4}result of call_0\n$/);
});

Deno.test("renderDream() redacts every field, and no field can inject a row or a heading", async () => {
  const sessionId = `sesn_1\n# Injected heading\n- 9 · ${KEY}`;
  const at = "2026-09-14T10:00:00Z\n- 10 · AKIAIOSFODNN7EXAMPLE";
  const dream = await renderDream([
    {
      seq: 1,
      session_id: sessionId,
      thread_id: null,
      event: {
        id: "sevt_1",
        type: "user.message",
        processed_at: at,
        content: `hi\x1b]0;pwn\x07 ${KEY}`,
      },
    },
    {
      seq: 2,
      session_id: sessionId,
      thread_id: null,
      event: { id: "sevt_2", type: "agent.tool_use", name: "x\n# Fake heading", input: {} },
    },
  ]);
  const all = [dream.sessionId, dream.createdAt, dream.firstUser, dream.text].join("\n");
  assert.ok(!all.includes("sk-proj") && !all.includes("AKIA"), all);
  assert.equal(dream.sessionId, "sesn_1\n# Injected heading\n- 9 · [REDACTED_SECRET]");
  assert.equal(dream.createdAt, "2026-09-14T10:00:00Z\n- 10 · [REDACTED_SECRET]");
  const headings = dream.text.split("\n").filter((line) => line.startsWith("#"));
  assert.deepEqual(headings, [
    "# Session sesn_1\\n# Injected heading\\n- 9 · [REDACTED_SECRET]",
    "### user",
    "### agent → tool x\\n# Fake heading",
  ]);
  const row = indexLine(1, dream);
  assert.ok(!row.includes("\n") && !row.includes("\x1b") && !row.includes("\x07"), row);
  assert.equal(
    row,
    `- 1 · sesn_1\\n# Injected heading\\n- 9 · [REDACTED_SECRET] · 2026-09-14T10:00:00Z\\n- 10 · [REDACTED_SECRET] · 1 · ${
      utf8(dream.text)
    } · ${dream.digest} · hi\\x1b]0;pwn\\x07 [REDACTED_SECRET]`,
  );
});

Deno.test("renderDream() takes the first prompt as firstUser: a slash command only when there is none", async (t) => {
  const command = (text: string): SessionEvent => ({
    id: id(),
    type: "user.message",
    command: text.split(" ")[0]!,
    content: text,
  });
  await t.step("a command before the prompt is a turn, not the first user message", async () => {
    const dream = await renderDream(
      entries([command("/clear"), user("Fix the build"), command("/exit")]),
    );
    assert.equal(dream.firstUser, "Fix the build");
    assert.equal(dream.turns, 3);
  });
  await t.step("a session of commands alone gives its first command", async () => {
    const dream = await renderDream(entries([command("/model opus"), command("/exit")]));
    assert.equal(dream.firstUser, "/model opus");
    assert.equal(dream.turns, 2);
  });
  await t.step("a command member that is not a string does not make a command", async () => {
    const dream = await renderDream(
      entries([asEvent({ ...user("prompt"), command: 1 }), user("later")]),
    );
    assert.equal(dream.firstUser, "prompt");
  });
});

Deno.test("renderDream() keeps a body in its frame wherever a cut falls: only its own headings", async (t) => {
  // As a CommonMark reader with front matter sees the dream: the session heading, then one
  // heading per item.
  const expectHeadings = (text: string, labels: string[]): void =>
    assert.deepEqual(markdownHeadings(splitFrontMatter(text).body), [
      { level: 1, text: "Session sesn_test" },
      ...labels.map((label) => ({ level: 3, text: label })),
    ]);
  const fenced = "Here is the log:\n```text\n" + "line of output\n".repeat(400);
  await t.step("an event cut inside a fence", async () => {
    const dream = await renderDream(entries([agent(fenced), user("next")]));
    assert.match(dream.text, /\n {4}line o[ a-z]*\n\[cut: \d+ more bytes\]\n\n### user\n/);
    expectHeadings(dream.text, ["agent", "user"]);
  });
  await t.step("the cap's head and tail cut inside a fence, a heading or a rule", async () => {
    const code = "```ts\n" + Array.from({ length: 90 }, (_, i) => `# const x${i} = ${i};`).join(
      "\r",
    ) + "\n```\n---\ntitle\n===\n";
    const rows = Array.from({ length: 30 }, () => agent(code));
    const dream = await renderDream(entries(rows), { cap: 4_096 });
    assert.ok(dream.elidedBytes > 0);
    assert.ok(utf8(dream.text) <= 4_096);
    assert.match(dream.text, new RegExp(`\\[… ${dream.elidedBytes} bytes elided …\\]`));
    const headings = markdownHeadings(splitFrontMatter(dream.text).body);
    assert.ok(headings.every((h) => h.level === 1 || (h.level === 3 && h.text === "agent")));
  });
});

Deno.test("renderDream() remembers a bounded number of threads: 240 MiB of new threads under a 24 MiB heap", async () => {
  const run = await renderBounded("threads", "dream", 240, 24);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.report!.streamedMiB, 240);
  assert.match(run.report!.head, /^---\nrenderer: "dream"\nsession_id: "sesn_hostile"\n/);
  assert.equal(run.report!.bodyHead, "# Session sesn_hostile\n");
});

Deno.test("renderDream() of 4 MiB messages never copies or splits one whole: 240 MiB under a 24 MiB heap", async () => {
  // The first message holds a key at both ends; the heap cannot hold six copies of a message.
  const run = await renderBounded("huge", "dream", 240, 24);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.report!.streamedMiB, 240);
  assert.equal(run.report!.leaked, false);
  assert.ok(run.report!.outputBytes <= DREAM_TRANSCRIPT_CAP);
  assert.match(
    run.report!.bodyHead,
    /^# Session sesn_hostile\n\n### user\n\n {4}\[REDACTED_SECRET\] word word/,
  );
});

Deno.test("renderDream() holds one message's text or value at a time, redacting a head alone: 8 MiB messages, 240 MiB under a 24 MiB heap", async () => {
  // A message is its decoded line, then its value: never both with the line's
  // bytes or a redacted copy of it (three messages' worth overflow the heap).
  const run = await renderBounded("huge", "dream", 240, 24, 8);
  assert.equal(run.code, 0, run.stderr);
  assert.equal(run.report!.streamedMiB, 240);
  assert.equal(run.report!.leaked, false);
  assert.match(
    run.report!.bodyHead,
    /^# Session sesn_hostile\n\n### user\n\n {4}\[REDACTED_SECRET\] word word/,
  );
});
