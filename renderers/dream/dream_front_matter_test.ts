// Copyright 2026 the brigade authors. MIT license.

// The dream's front matter: its facts, read back by a real YAML parser over hostile values, and
// its room within the cap.

import assert from "node:assert/strict";
import fc from "fast-check";
import { parse } from "yaml";
import {
  type Dream,
  DREAM_MIN_CAP,
  type LogEntry,
  renderDream,
  type SessionEvent,
  streamDream,
} from "../../mod.ts";
import { agent, entries, id, user } from "../../tests/_entries.ts";
import { splitFrontMatter } from "../../tests/_transcript_parse.ts";
import { asEvent } from "../../events/fields.ts";
import { dreamFolderIndex } from "./dream_page.ts";

const utf8 = (text: string): number => new TextEncoder().encode(text).length;
const KEY = "sk-proj-Q7xv2LmN9pR4sT8wZ1bC5dF3gH6jK0aY";

const KEYS = [
  "renderer",
  "session_id",
  "title",
  "project",
  "cwd",
  "models",
  "start",
  "end",
  "turns",
  "terminal_state",
  "last_error",
  "elided_bytes",
  "digest",
  "first_user",
];

/** The front matter read by the `yaml` package, strictly, as YAML 1.2 and as YAML 1.1. */
function readFrontMatter(text: string): Record<string, unknown> {
  const { frontMatter } = splitFrontMatter(text);
  assert.ok(frontMatter !== "", "the text starts with a front matter");
  const options = { strict: true, uniqueKeys: true, prettyErrors: false } as const;
  const read = parse(frontMatter, options) as Record<string, unknown>;
  assert.deepEqual(parse(frontMatter, { ...options, version: "1.1" }), read, "YAML 1.1 agrees");
  // Each value is a JSON value as well, on its one line.
  const lines = frontMatter.trimEnd().split("\n");
  assert.deepEqual(lines.map((line) => line.slice(0, line.indexOf(": "))), KEYS);
  for (const line of lines) JSON.parse(line.slice(line.indexOf(": ") + 2));
  return read;
}

/** The front matter's fields as the dream says they should be (a lone surrogate reads as U+FFFD). */
function expected(dream: Dream): Record<string, unknown> {
  const fields: Record<string, unknown> = {
    renderer: "dream",
    session_id: dream.sessionId,
    title: dream.title,
    project: dream.project,
    cwd: dream.cwd,
    models: dream.models,
    start: dream.createdAt,
    end: dream.endedAt,
    turns: dream.turns,
    terminal_state: dream.terminalState,
    last_error: dream.lastError,
    elided_bytes: dream.elidedBytes,
    digest: dream.digest,
    first_user: dream.firstUser,
  };
  const wellFormed = (value: unknown): unknown =>
    typeof value === "string"
      ? value.toWellFormed()
      : Array.isArray(value)
      ? value.map(wellFormed)
      : value;
  return Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, wellFormed(value)]));
}

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return `sha256:${
    Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("")
  }`;
}

const at = (event: SessionEvent, time: string): SessionEvent => ({ ...event, processed_at: time });

/** A session that names a title and two models, ends idle on `stop_reason`, after an error. */
function session(stopReason: Record<string, unknown> | undefined): LogEntry[] {
  return entries([
    at(user("Fix the build"), "2026-09-14T10:00:00Z"),
    asEvent({
      id: id(),
      type: "session.updated",
      title: "Build fix",
      agent: { name: "a", model: { id: "claude-opus-5", speed: "standard" } },
    }),
    { id: "req_1", type: "span.model_request_start" },
    asEvent({
      id: id(),
      type: "span.model_request_end",
      model_request_start_id: "req_1",
      model: "claude-sonnet-5",
    }),
    asEvent({ id: id(), type: "session.error", error: { type: "tool_use_limit_reached_error" } }),
    at(agent("Fixed."), "2026-09-14T10:05:00Z"),
    asEvent({
      id: id(),
      type: "session.status_idle",
      processed_at: "2026-09-14T10:05:01Z",
      ...(stopReason === undefined ? {} : { stop_reason: stopReason }),
    }),
  ]);
}

Deno.test("renderDream() starts its text with a YAML front matter of the session's facts, the same as the Dream's", async () => {
  const dream = await renderDream(session({ type: "requires_action", event_ids: ["x"] }), {
    project: "-home-me-app",
    cwd: "/home/me/app",
  });
  const { body } = splitFrontMatter(dream.text);
  assert.ok(body.startsWith("# Session sesn_test\n"));
  assert.deepEqual(readFrontMatter(dream.text), expected(dream));
  assert.equal(dream.title, "Build fix");
  assert.deepEqual(dream.models, ["claude-opus-5", "claude-sonnet-5"]);
  assert.equal(dream.project, "-home-me-app");
  assert.equal(dream.cwd, "/home/me/app");
  assert.equal(dream.createdAt, "2026-09-14T10:00:00Z");
  assert.equal(dream.endedAt, "2026-09-14T10:05:01Z");
  assert.equal(dream.turns, 1);
  assert.equal(dream.terminalState, "requires_action");
  assert.equal(dream.lastError, "tool_use_limit_reached_error");
  assert.equal(dream.digest, await sha256(body), "the digest is the body's");
  assert.equal((await renderDream(session({ type: "requires_action" }))).digest, dream.digest);
});

Deno.test("renderDream() names how the session ended: the last status event", async (t) => {
  const cases: [string, Record<string, unknown> | undefined, string][] = [
    ["end_turn", { type: "end_turn" }, "end_turn"],
    ["retries_exhausted", { type: "retries_exhausted" }, "retries_exhausted"],
    ["refusal", { type: "refusal", stop_details: { category: "x" } }, "refusal"],
    ["an idle with no stop_reason", undefined, "idle"],
  ];
  for (const [name, reason, state] of cases) {
    await t.step(name, async () => {
      const dream = await renderDream(session(reason));
      assert.equal(dream.terminalState, state);
      assert.equal(readFrontMatter(dream.text).terminal_state, state);
    });
  }
  await t.step("terminated, running, or no status at all", async () => {
    const tail = (type: string): LogEntry[] =>
      entries([user("go"), { id: id(), type: "session.status_idle" } as SessionEvent, {
        id: id(),
        type,
      } as SessionEvent]);
    assert.equal(
      (await renderDream(tail("session.status_terminated"))).terminalState,
      "terminated",
    );
    assert.equal((await renderDream(tail("session.status_running"))).terminalState, "running");
    const none = await renderDream(entries([user("go")]));
    assert.equal(none.terminalState, "");
    assert.equal(none.lastError, "");
  });
  await t.step("a child thread's status says nothing of the session", async () => {
    const rows = entries([
      user("go"),
      [null, asEvent({ id: id(), type: "session.status_idle", stop_reason: { type: "end_turn" } })],
      ["sthr_child", { id: id(), type: "session.status_terminated" }],
    ]);
    assert.equal((await renderDream(rows)).terminalState, "end_turn");
  });
});

/** Text no YAML reader should take for anything but a string: breaks, fences, quotes, controls. */
const HOSTILE = [
  'x"\n---\nrenderer: "forged"\nturns: 99',
  "a: b\n- c\r\n# d\u2028e\u2029f\u0085g",
  "\u0000\u0007\u001b[31m\u007f\u0080\u009f\ufeff\ufffe\uffff",
  "'single' \"double\" \\ \\n \\u0041 #hash &anchor *alias !tag %percent @at `tick`",
  "\ud800 lone \udc00 surrogates",
  "---",
  "...",
  "",
  " padded ",
  "null",
  "123",
  "[1, 2]",
  "{a: 1}",
];

Deno.test("renderDream() writes no value that can leave its YAML scalar, whatever the facts hold", async () => {
  const hostile = fc.oneof(
    fc.constantFrom(...HOSTILE),
    fc.string({ unit: "binary", maxLength: 40 }),
    fc.string({ unit: fc.constantFrom("\n", "\r", '"', "\\", ":", "-", "#", " ", "\u2028", "a") }),
  );
  await fc.assert(
    fc.asyncProperty(
      hostile,
      hostile,
      hostile,
      hostile,
      hostile,
      async (sessionId, title, model, cwd, state) => {
        const rows = entries(
          [
            at(user(title), state),
            asEvent({ id: id(), type: "session.updated", title, agent: { model } }),
            asEvent({ id: id(), type: "session.status_idle", stop_reason: { type: state } }),
            asEvent({ id: id(), type: "session.error", error: { type: title } }),
          ],
          sessionId,
        );
        const dream = await renderDream(rows, { cwd, project: model });
        const read = readFrontMatter(dream.text);
        assert.deepEqual(read, expected(dream));
        assert.equal(read.renderer, "dream");
        assert.equal(read.turns, 1);
      },
    ),
    { numRuns: 150 },
  );
  for (const value of HOSTILE) {
    const dream = await renderDream(entries([user(value)], value), { cwd: value, project: value });
    assert.deepEqual(readFrontMatter(dream.text), expected(dream), JSON.stringify(value));
  }
});

Deno.test("renderDream() redacts the front matter's facts", async () => {
  const secret = `token=${KEY}`;
  const rows = entries([
    at(user("go"), `2026-09-14T10:00:00Z ${KEY}`),
    asEvent({ id: id(), type: "session.updated", title: secret, agent: { model: KEY } }),
    asEvent({ id: id(), type: "session.error", error: { type: KEY } }),
    asEvent({ id: id(), type: "session.status_idle", stop_reason: { type: KEY } }),
  ], `sesn_1 ${KEY}`);
  const dream = await renderDream(rows, { cwd: `/home/${KEY}`, project: secret });
  const { frontMatter } = splitFrontMatter(dream.text);
  assert.ok(!frontMatter.includes("sk-proj"), frontMatter);
  assert.equal(
    (frontMatter.match(/\[REDACTED_SECRET\]/g) ?? []).length,
    KEYS.filter((key) =>
      !["renderer", "turns", "elided_bytes", "digest", "first_user"].includes(key)
    ).length,
    frontMatter,
  );
});

Deno.test("renderDream() counts the front matter within the cap, the body cut to what it leaves", async () => {
  const long = "word ".repeat(2_000);
  for (const cap of [DREAM_MIN_CAP, 2_048, 8_192]) {
    for (const count of [1, 3, 40]) {
      const rows = entries([
        asEvent({ id: id(), type: "session.updated", title: long, agent: { model: long } }),
        ...Array.from(
          { length: 8 },
          (_, i) =>
            asEvent({ id: id(), type: "span.model_request_end", model: `model-${i}-${long}` }),
        ),
        ...Array.from({ length: count }, (_, i) => user(`question ${i} ${"x".repeat(300)}`)),
        asEvent({ id: id(), type: "session.error", error: { type: long } }),
      ]);
      const dream = await renderDream(rows, { cap, cwd: long, project: long });
      const { frontMatter, body } = splitFrontMatter(dream.text);
      const label = `cap ${cap}, ${count} messages`;
      assert.ok(utf8(dream.text) <= cap, `${label}: ${utf8(dream.text)} bytes`);
      assert.ok(utf8(`---\n${frontMatter}---\n`) <= cap / 2, `${label}: the front matter's half`);
      const read = readFrontMatter(dream.text);
      assert.equal(read.digest, dream.digest, `${label}: the digest is never cut`);
      assert.equal(dream.digest, await sha256(body));
      assert.equal(read.elided_bytes, dream.elidedBytes);
      if (dream.elidedBytes > 0) {
        assert.match(body, new RegExp(`\\[… ${dream.elidedBytes} bytes elided …\\]`));
        assert.ok(body.startsWith("# Session "), label);
      }
      // Each fact cut for room ends in "…", a prefix of the whole.
      const title = read.title as string;
      assert.ok(
        title === dream.title ||
          (title.endsWith("…") && dream.title.startsWith(title.slice(0, -1))),
      );
    }
  }
});

Deno.test("renderDream() fills the cap exactly as far as the front matter leaves room", async () => {
  // A session just over the cap less its front matter: cut, and within the cap by no more
  // than a line, so the front matter's room is taken from the body, not added to the cap.
  const rows = entries(Array.from({ length: 200 }, (_, i) => user(`message ${i}`)));
  const dream = await renderDream(rows, { cap: 4_096 });
  assert.ok(dream.elidedBytes > 0);
  const size = utf8(dream.text);
  assert.ok(size <= 4_096 && size > 4_096 - 64, `${size} bytes`);
});

Deno.test("streamDream() gives the text whole once the source ends: its front matter needs the end", async () => {
  let pulled = 0;
  const rows = entries([user("Go"), agent("Working"), agent("Done")]);
  const source = async function* (): AsyncGenerator<LogEntry> {
    for (const row of rows) {
      pulled++;
      yield row;
    }
  };
  const seen: [number, string][] = [];
  for await (const chunk of streamDream(source())) seen.push([pulled, chunk]);
  assert.equal(seen.length, 1);
  assert.equal(seen[0]![0], rows.length);
  assert.equal(seen[0]![1], (await renderDream(rows)).text);
  assert.deepEqual(await Array.fromAsync(streamDream([])), []);
});

Deno.test("the dream's folder index reads a page of this version and one of the version before", () => {
  const summary = (head: string) =>
    dreamFolderIndex.summary({ name: "x.md", head, size: utf8(head) });
  const digest = `sha256:${"1".repeat(64)}`;
  const page = [
    "---",
    'renderer: "dream"',
    'session_id: "sesn_1"',
    'title: ""',
    'project: ""',
    'cwd: ""',
    'models: ["m"]',
    'start: "2026-09-14T10:00:00Z"',
    'end: ""',
    "turns: 2",
    'terminal_state: ""',
    'last_error: ""',
    "elided_bytes: 0",
    `digest: "${digest}"`,
    'first_user: "Hi"',
    "---",
    "# Session sesn_1\n",
  ].join("\n");
  assert.deepEqual(summary(page), {
    sessionId: "sesn_1",
    createdAt: "2026-09-14T10:00:00Z",
    turns: 2,
    elidedBytes: 0,
    firstUser: "Hi",
    digest,
    bytes: utf8(page),
  });
  const text = "# Session sesn_1\n";
  const old = '---\nrenderer: "dream"\nsession_id: "sesn_1"\ncreated_at: "2026-09-14T10:00:00Z"\n' +
    `turns: 2\nelided_bytes: 0\nfirst_user: "Hi"\n---\n${text}`;
  assert.deepEqual(summary(old), {
    sessionId: "sesn_1",
    createdAt: "2026-09-14T10:00:00Z",
    turns: 2,
    elidedBytes: 0,
    firstUser: "Hi",
    digest: "",
    bytes: utf8(text),
  });
});
