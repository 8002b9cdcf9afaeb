// Copyright 2026 the brigade authors. MIT license.

import assert from "node:assert/strict";
import { EventSourceError, fromClaudeCode, fromNdjson } from "../mod.ts";
import { entries, user } from "../tests/_entries.ts";
import { rejectsWith } from "../tests/_source_errors.ts";

function stream(text: string | Uint8Array): ReadableStream<Uint8Array> {
  return ReadableStream.from([typeof text === "string" ? new TextEncoder().encode(text) : text]);
}

Deno.test("fromNdjson() reads log entry lines and bare event lines", async () => {
  const entry = JSON.stringify(entries([user("as entry")], "sesn_x")[0]);
  const bare = JSON.stringify({ id: "sevt_b", type: "agent.message", content: "bare" });
  const seen = await Array.fromAsync(
    fromNdjson(stream(`${entry}\n${bare}\n`), { sessionId: "sesn_y" }),
  );
  assert.deepEqual(seen.map((e) => [e.seq, e.session_id, e.thread_id, e.event.id]), [
    [1, "sesn_x", null, seen[0]!.event.id],
    [2, "sesn_y", null, "sevt_b"],
  ]);
});

Deno.test("fromNdjson() accepts a BOM, CRLF, blank lines and a last line without newline", async () => {
  const lines = [
    JSON.stringify({ id: "1", type: "user.message", content: "é" }),
    "",
    "   ",
    JSON.stringify({ id: "2", type: "agent.message", content: "ok" }),
  ];
  const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(lines.join("\r\n"))]);
  const seen = await Array.fromAsync(fromNdjson(stream(bytes)));
  assert.deepEqual(seen.map((e) => [e.seq, e.event.id]), [[1, "1"], [4, "2"]]);
  assert.equal(seen[0]!.session_id, "stream");
});

Deno.test("fromNdjson() splits lines across chunk boundaries, inside multi-byte characters", async () => {
  const text = [1, 2, 3].map((n) =>
    JSON.stringify({ id: `${n}`, type: "user.message", content: "😀é" })
  )
    .join("\n");
  const bytes = new TextEncoder().encode(text);
  const chunks = Array.from(bytes, (byte) => new Uint8Array([byte]));
  const seen = await Array.fromAsync(fromNdjson(ReadableStream.from(chunks)));
  assert.deepEqual(seen.map((e) => (e.event as { content?: unknown }).content), [
    "😀é",
    "😀é",
    "😀é",
  ]);
});

Deno.test("fromNdjson() names the file and line of a malformed line", async (t) => {
  const path = await Deno.makeTempFile({ suffix: ".ndjson" });
  try {
    const good = JSON.stringify({ id: "1", type: "user.message", content: "hi" });
    const cases: Array<[string, RegExp]> = [
      ["{not json", /:2: Cannot parse the line as JSON/],
      ["[1, 2]", /:2: Cannot read the line as an event: the event is an array/],
      [
        '{"id": "2"}',
        /:2: Cannot read the line as an event: the event has no string member "type"/,
      ],
      ['{"seq": "x", "event": {"type": "a"}}', /:2: Cannot read the line as a log entry: .*"seq"/],
    ];
    for (const [line, pattern] of cases) {
      await t.step(line, async () => {
        await Deno.writeTextFile(path, `${good}\n${line}\n${good}\n`);
        await rejectsWith(
          Array.fromAsync(fromNdjson(path)),
          new RegExp(`^${RegExp.escape(path)}${pattern.source}`),
        );
      });
    }
  } finally {
    await Deno.remove(path);
  }
});

Deno.test("fromNdjson() skips malformed lines under skipInvalid and reports each", async () => {
  const text =
    `{"id":"1","type":"user.message","content":"a"}\n{oops\n7\n{"id":"2","type":"agent.message"}\n`;
  const reported: Array<[number, string]> = [];
  const seen = await Array.fromAsync(
    fromNdjson(stream(text), {
      skipInvalid: true,
      onInvalid: (line, reason) => reported.push([line, reason]),
    }),
  );
  assert.deepEqual(seen.map((e) => e.seq), [1, 4]);
  assert.deepEqual(reported.map(([line]) => line), [2, 3]);
  assert.match(reported[0]![1], /Cannot parse the line as JSON/);
});

Deno.test("fromNdjson() names the session after the file and closes it when stopped early", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/sesn_from_name.ndjson`;
    const line = JSON.stringify({ id: "1", type: "user.message", content: "a" });
    await Deno.writeTextFile(path, `${line}\n`.repeat(50_000));
    for await (const entry of fromNdjson(path)) {
      assert.equal(entry.session_id, "sesn_from_name");
      break; // the resource sanitizer fails this test if the file stays open
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("fromNdjson() says plainly when the file cannot be opened", async () => {
  await rejectsWith(
    Array.fromAsync(fromNdjson("/nonexistent/log.ndjson")),
    /^\/nonexistent\/log\.ndjson: Cannot open the file: no such file$/,
  );
  await rejectsWith(
    Array.fromAsync(fromNdjson(Deno.cwd())),
    /: Cannot open the file: it is a directory$/,
  );
});

// What skipInvalid reports of a bad line (onInvalid's reason), and what an error
// says of one: never a secret or a control character raw, yet still what the line
// held; fromClaudeCode() reports the same way.

/** Bad lines that quote a secret or a terminal escape, as they are and inside JSON. */
const HOSTILE = [
  "password=hunter2abc",
  "\x1b]0;x\x07",
  '{"seq":"password=hunter2abc","session_id":"s","thread_id":null,"event":{"type":"x"}}',
  '{"seq":1,"session_id":"s","thread_id":"\\u001b]0;x\\u0007password=hunter2abc","event":[]}',
  `{"text": "password=hunter2abc ${"z".repeat(100)}" oops`,
];

function assertSafe(text: string): void {
  assert.ok(!text.includes("hunter2"), `a secret is quoted: ${JSON.stringify(text)}`);
  assert.ok(!text.includes("\x1b") && !text.includes("\x07"), `a control: ${JSON.stringify(text)}`);
}

Deno.test("reasons and errors never quote a secret or a control character raw", async (t) => {
  for (const line of HOSTILE) {
    await t.step(JSON.stringify(line.slice(0, 40)), async () => {
      const reasons: string[] = [];
      await Array.fromAsync(
        fromNdjson(stream(`${line}\n`), {
          skipInvalid: true,
          onInvalid: (_, reason) => reasons.push(reason),
        }),
      );
      await Array.fromAsync(
        fromClaudeCode(stream(`${line}\n`), { onInvalid: (_, reason) => reasons.push(reason) }),
      );
      await assert.rejects(Array.fromAsync(fromNdjson(stream(`${line}\n`))), (error: unknown) => {
        assert.ok(error instanceof EventSourceError);
        reasons.push(error.message, error.reason);
        return true;
      });
      assert.ok(reasons.length >= 3);
      for (const reason of reasons) assertSafe(reason);
    });
  }
});

Deno.test("the escape is shown, not hidden: the reason still says what the line held", async () => {
  const reasons: string[] = [];
  await Array.fromAsync(
    fromNdjson(stream("\x1b]0;x\x07\n"), {
      skipInvalid: true,
      onInvalid: (_, reason) => reasons.push(reason),
    }),
  );
  assert.equal(reasons.length, 1);
  assert.ok(reasons[0]!.includes("\\x1b]0;x\\x07"), reasons[0]);
});

Deno.test("onInvalid is called as each bad line is met, between the entries around it", async () => {
  const text = [
    '{"id":"1","type":"user.message","content":"a"}',
    "{oops",
    '{"id":"2","type":"user.message","content":"b"}',
    "[1]",
    '{"id":"3","type":"user.message","content":"c"}',
  ].join("\n");
  const order: string[] = [];
  for await (
    const entry of fromNdjson(stream(text), {
      skipInvalid: true,
      onInvalid: (line) => order.push(`bad ${line}`),
    })
  ) order.push(`entry ${entry.event.id}`);
  assert.deepEqual(order, ["entry 1", "bad 2", "entry 2", "bad 4", "entry 3"]);

  const records = [
    '{"type":"user","uuid":"1","message":{"content":"a"}}',
    "nope",
    '{"type":"user","uuid":"2","message":{"content":"b"}}',
  ].join("\n");
  const seen: string[] = [];
  for await (
    const entry of fromClaudeCode(stream(records), {
      onInvalid: (line) => seen.push(`bad ${line}`),
    })
  ) seen.push(`entry ${entry.event.id}`);
  assert.deepEqual(seen, ["entry 1", "bad 2", "entry 2"]);
});

Deno.test("fromNdjson() never quotes the start of a key the runtime cut from a bad line", async () => {
  const key = "sk-proj-Q7xv2LmN9pR4sT8wZ1bC5dF3";
  for (let offset = 0; offset <= 12; offset++) {
    const line = `${"{".repeat(offset > 0 ? 1 : 0)}${" ".repeat(Math.max(0, offset - 1))}${key} x`;
    const reasons: string[] = [];
    await Array.fromAsync(
      fromNdjson(stream(`${line}\n`), {
        skipInvalid: true,
        onInvalid: (_, reason) => reasons.push(reason),
      }),
    );
    assert.equal(reasons.length, 1);
    assert.doesNotMatch(reasons[0]!, /sk-p|Q7xv/, `offset ${offset}: ${reasons[0]}`);
  }
});
