// Copyright 2026 the brigade authors. MIT license.

import assert from "node:assert/strict";
import { join } from "node:path";
import { fromClaudeCode, renderDream, renderGrader, renderHtml, renderJson } from "../../mod.ts";
import { fieldsOf } from "../../events/fields.ts";

const REWOUND = new URL(
  "../../fixtures/claude_code/current/home-dev-app/3e9b1c55-0d4a-4f7e-a2b8-6c1d9e0f4b27.jsonl",
  import.meta.url,
);
const REAL = new URL("../../fixtures/claude_code/real/", import.meta.url);
const FIXTURES = new URL("../../fixtures/claude_code/", import.meta.url);

const NOTE = "Rewound: 2 items of a branch the session left (a rewind or an edited prompt) " +
  "are not shown; the conversation goes on from an earlier point.";

Deno.test("fromClaudeCode() renders the branch the model read, one note where it was rewound", async (t) => {
  const grader = await renderGrader(fromClaudeCode(REWOUND));

  await t.step("grader: the live branch in order, the note at the fork", () => {
    assert.equal(
      grader,
      [
        "[user]\n  Write a haiku about rain.",
        "[agent]\n  Rain taps the window\n  the gutter hums its one note\n  streets wash into dusk",
        `[system]\n  ${NOTE}`,
        "[user]\n  Now make it about the sea, and save both to poems/.",
        '[agent → tool Bash]\n  {"command":"mkdir -p poems && ls poems"}',
        '[agent → tool Write]\n  {"file_path":"/home/dev/app/poems/sea.txt","content":"Waves fold on the shore"}',
        "[tool Bash → agent]\n  (no output)",
        "[tool Write → agent]\n  File created successfully at: /home/dev/app/poems/sea.txt",
        "[agent]\n  Waves fold on the shore\n  salt wind combs the dune grass flat\n  the tide keeps its time",
      ].join("\n\n") + "\n",
    );
  });

  await t.step("the note is a system.message counting what was rewound", async () => {
    const entries = await Array.fromAsync(fromClaudeCode(REWOUND));
    const notes = entries.filter((e) => fieldsOf(e.event).rewound !== undefined);
    assert.deepEqual(notes.map((e) => [e.event.type, fieldsOf(e.event).rewound]), [[
      "system.message",
      2,
    ]]);
  });

  await t.step("the abandoned branch is in neither the dream nor json", async () => {
    const dream = await renderDream(fromClaudeCode(REWOUND));
    const json = await renderJson(fromClaudeCode(REWOUND));
    for (const text of [grader, dream.text, json]) {
      assert.ok(!text.includes("snow") && !text.includes("Snow"), text);
      assert.ok(text.includes("Rewound: 2 items"));
    }
    assert.equal(dream.turns, 2);
  });

  await t.step("html: the abandoned branch folded after the note, and nowhere else", async () => {
    const page = await renderHtml(fromClaudeCode(REWOUND));
    const fold =
      /<details class="item k-rewound t0"[^>]*><summary><span class="who">rewound branch<\/span><span class="preview">Now make it about snow.<\/span>[\s\S]*?<\/details>/
        .exec(page);
    assert.ok(fold !== null, page);
    assert.ok(fold[0].includes("Snow without a sound"));
    assert.equal(page.split("Now make it about snow.").length, 3, "in the fold's preview and body");
    assert.ok(page.indexOf("Rewound: 2 items") < fold.index);
  });

  await t.step("a stream is read once, in its order: both branches, no note", async () => {
    const bytes = await Deno.readFile(REWOUND);
    const text = await renderGrader(fromClaudeCode(ReadableStream.from([bytes])));
    assert.ok(text.includes("Now make it about snow.") && !text.includes("Rewound"));
  });
});

/** Writes records to a temporary transcript, runs `use` on its path. */
async function withTranscript<T>(
  records: unknown[],
  use: (path: string) => Promise<T>,
): Promise<T> {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "s.jsonl");
    await Deno.writeTextFile(path, records.map((r) => JSON.stringify(r)).join("\n") + "\n");
    return await use(path);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

const user = (uuid: string, parentUuid: string | null, content: unknown): unknown => ({
  type: "user",
  uuid,
  parentUuid,
  message: { content },
});
const reply = (uuid: string, parentUuid: string | null, id: string, block: unknown): unknown => ({
  type: "assistant",
  uuid,
  parentUuid,
  message: { id, model: "claude-opus-4-7", content: [block] },
});
const said = (t: string): unknown => ({ type: "text", text: t });
const use = (id: string): unknown => ({ type: "tool_use", id, name: "Read", input: { id } });
const result = (id: string): unknown => [{ type: "tool_result", tool_use_id: id, content: id }];

Deno.test("fromClaudeCode() forks that are no rewind lose nothing and get no note", async (t) => {
  await t.step("parallel calls whose second call and result hang off the path", async () => {
    const records = [
      user("u1", null, "Read both."),
      reply("a1", "u1", "msg_1", use("t1")),
      reply("a2", "a1", "msg_1", use("t2")),
      user("r1", "a1", result("t1")),
      user("r2", "a2", result("t2")),
      { type: "progress", uuid: "p1", parentUuid: "a1", data: { type: "hook_progress" } },
      user("b1", "r1", "<bash-input>ls</bash-input>"),
      reply("a3", "r1", "msg_2", said("Both read.")),
    ];
    const entries = await withTranscript(records, (path) => Array.fromAsync(fromClaudeCode(path)));
    assert.deepEqual(
      entries.filter((e) => !e.event.type.startsWith("span.")).map((e) => e.event.id),
      ["u1", "t1", "t2", "r1", "r2", "b1", "a3"],
    );
  });

  await t.step("a compaction's boundary links back by logicalParentUuid", async () => {
    const records = [
      user("u1", null, "Before."),
      reply("a1", "u1", "msg_1", said("Old reply.")),
      {
        type: "system",
        subtype: "compact_boundary",
        uuid: "c0",
        parentUuid: null,
        logicalParentUuid: "a1",
      },
      user("u2", "c0", "After."),
      reply("a2", "u2", "msg_2", said("New reply.")),
    ];
    const text = await withTranscript(records, (path) => renderGrader(fromClaudeCode(path)));
    assert.ok(text.includes("Old reply.") && text.includes("New reply."));
    assert.ok(!text.includes("Rewound"));
  });

  await t.step("the real transcripts: no note, and every record's events", async () => {
    const names = async (folder: URL): Promise<string[]> =>
      (await Array.fromAsync(Deno.readDir(folder))).filter((e) => e.isFile)
        .map((e) => new URL(e.name, folder).pathname);
    const files = [...await names(REAL), ...await names(FIXTURES)].filter((f) =>
      f.endsWith(".jsonl")
    );
    assert.ok(files.length >= 10);
    for (const file of files) {
      const read = await Array.fromAsync(fromClaudeCode(file));
      const streamed = await Array.fromAsync(
        fromClaudeCode(ReadableStream.from([await Deno.readFile(file)]), {
          sessionId: read[0]?.session_id ?? "",
        }),
      );
      // A stream is read in file order, every branch in line: a file's events are the same.
      assert.deepEqual(read, streamed, file);
    }
  });
});

Deno.test("fromClaudeCode() a prompt rewound twice to the same point: one note each", async () => {
  const records = [
    user("u1", null, "Start."),
    reply("a1", "u1", "msg_1", said("Started.")),
    user("u2", "a1", "First try."),
    reply("a2", "u2", "msg_2", said("FIRST ANSWER")),
    reply("a2b", "a2", "msg_2", said("FIRST ANSWER, more")),
    user("u3", "a1", "Second try."),
    reply("a3", "u3", "msg_3", said("SECOND ANSWER")),
    user("u4", "a1", "Third try."),
    reply("a4", "u4", "msg_4", said("Third answer.")),
  ];
  const text = await withTranscript(records, (path) => renderGrader(fromClaudeCode(path)));
  assert.ok(!text.includes("FIRST") && !text.includes("SECOND"), text);
  assert.deepEqual(text.match(/Rewound: \d+ items?/g), ["Rewound: 3 items", "Rewound: 2 items"]);
  assert.ok(text.endsWith("[user]\n  Third try.\n\n[agent]\n  Third answer.\n"));
});

Deno.test("fromClaudeCode() a rewound branch's secrets are redacted in the html fold", async () => {
  const secret = "sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789";
  const records = [
    user("u1", null, "Start."),
    reply("a1", "u1", "msg_1", said("Started.")),
    user("u2", "a1", `Use the key ${secret}.`),
    reply("a2", "u2", "msg_2", said("Used it.")),
    user("u3", "a1", "Never mind."),
    reply("a3", "u3", "msg_3", said("Fine.")),
  ];
  const page = await withTranscript(records, (path) => renderHtml(fromClaudeCode(path)));
  assert.ok(!page.includes(secret));
  assert.ok(page.includes("Use the key [REDACTED_SECRET]."));
});

Deno.test("fromClaudeCode() a transcript too big to follow its branches reads in file order, with a note", async () => {
  const records = Array.from({ length: 200_001 }, (_, n) => ({ type: "user", uuid: `u${n}` }));
  const first = await withTranscript(records, async (path) => {
    for await (const entry of fromClaudeCode(path)) return entry;
  });
  assert.equal(first?.event.type, "system.message");
  assert.match(
    String(fieldsOf(first!.event).content),
    /^Branches not followed: .* 200,000 records/,
  );
});

Deno.test({
  name: "fromClaudeCode() a FIFO's path is read once, in its order",
  ignore: Deno.build.os === "windows",
  async fn(): Promise<void> {
    const dir = await Deno.makeTempDir();
    try {
      const fifo = join(dir, "s.jsonl");
      const made = await new Deno.Command("mkfifo", { args: [fifo] }).output();
      assert.ok(made.success);
      const bytes = await Deno.readFile(REWOUND);
      // Opening a FIFO to write waits for its reader; the stream closes the file when written.
      const writing = Deno.open(fifo, { write: true }).then((file) =>
        ReadableStream.from([bytes]).pipeTo(file.writable)
      );
      const text = await renderGrader(fromClaudeCode(fifo));
      await writing;
      assert.ok(text.includes("Now make it about snow.") && text.includes("the tide keeps"));
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
