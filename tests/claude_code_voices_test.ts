// Copyright 2026 the brigade authors. MIT license.

// Claude Code as people run it today (2.1.3xx): steering messages, each voice labelled as what
// it is, sessions named as Claude Code names them, and nothing dropped in silence. The fixtures
// in fixtures/claude_code/current_voices/ are shaped after the public descriptions of the
// current format (queue-operation, system subtypes, attachments, titles, tool_reference).

import assert from "node:assert/strict";
import {
  fromClaudeCode,
  type LogEntry,
  renderDream,
  renderGrader,
  renderHtml,
  renderJson,
  streamJson,
} from "../mod.ts";
import { indexPage, pageSummary } from "../renderers/html/html_index.ts";
import { task } from "./_cli.ts";

const DIR = new URL("../fixtures/claude_code/current_voices/", import.meta.url);
const STEERING = new URL("steering.jsonl", DIR);
const VOICES = new URL("voices.jsonl", DIR);
// Budgets no test input reaches: every word is kept.
const UNBOUNDED = { itemBudget: 100_000_000, transcriptBudget: 1_000_000_000 } as const;

type Fields = Record<string, unknown>;

function fields(entry: LogEntry): Fields {
  return entry.event as unknown as Fields;
}

function count(text: string, part: string): number {
  return text.split(part).length - 1;
}

async function entriesOf(input: URL | string): Promise<LogEntry[]> {
  const source = typeof input === "string"
    ? fromClaudeCode(ReadableStream.from([new TextEncoder().encode(input)]))
    : fromClaudeCode(input);
  return await Array.fromAsync(source);
}

function lines(...records: unknown[]): string {
  return records.map((r) => JSON.stringify(r)).join("\n") + "\n";
}

/** The grader's text with each body line's indent taken off. */
function unindented(text: string): string {
  return text.replaceAll("\n  ", "\n");
}

const QUEUED = [
  "Add a health check to the API.",
  "Use port 8081, not 8080.",
  "Also log each request.",
  "Then write the README section.",
  "Deploy it to staging.",
];

Deno.test("fromClaudeCode() shows each steering message once, as the person's, where a request read it", async (t) => {
  const grader = await renderGrader(fromClaudeCode(STEERING), UNBOUNDED);
  const json = await renderJson(fromClaudeCode(STEERING), UNBOUNDED);
  const html = await renderHtml(fromClaudeCode(STEERING), { redact: false });

  await t.step("every queued message read is in grader, json and html exactly once", () => {
    for (const text of QUEUED) {
      assert.equal(count(grader, `[user]\n  ${text}\n`), 1, text);
      assert.equal(count(grader, text), 1, text);
      const items = json.trim().split("\n").map((l) => JSON.parse(l));
      const theirs = items.filter((i) => i.text === text);
      assert.deepEqual(theirs.map((i) => [i.kind, i.from, i.label]), [["message", "user", "user"]]);
      // The page's conversation; its header and summary name the first prompt too.
      const main = html.slice(html.indexOf("<main>"), html.indexOf("</main>"));
      assert.equal(count(main, text), 1, text);
    }
  });

  await t.step(
    "a message given to the running turn comes after the tool result, before the reply",
    () => {
      const result = grader.indexOf("12 passing");
      const steer = grader.indexOf("Use port 8081");
      const reply = grader.indexOf("Tests pass; I will use port 8081.");
      assert.ok(result < steer && steer < reply, grader);
    },
  );

  await t.step(
    "a message taken as the next prompt with no record of its own comes before its reply",
    () => {
      assert.ok(grader.indexOf("Then write the README") < grader.indexOf("README section written"));
      assert.ok(
        grader.indexOf("Logging each request too") < grader.indexOf("Then write the README"),
      );
    },
  );

  await t.step(
    "a message taken back unread, or never read, is not the model's: counted, not shown",
    async () => {
      assert.ok(!grader.includes("delete the database"));
      assert.ok(!grader.includes("never read"));
      const unrendered: [number, string, string][] = [];
      await Array.fromAsync(fromClaudeCode(STEERING, {
        onUnrendered: (line, type, subtype) => unrendered.push([line, type, subtype]),
      }));
      assert.deepEqual(unrendered, [
        [19, "queue-operation", "withdrawn"],
        [23, "queue-operation", "never read"],
      ]);
    },
  );

  await t.step("the turns count the person's messages", async () => {
    const dream = await renderDream(fromClaudeCode(STEERING));
    assert.equal(dream.turns, QUEUED.length + 1);
  });
});

Deno.test("fromClaudeCode() shows a steering message once whichever record comes first", async () => {
  const queued = "Stop and run the linter first.";
  const op = (operation: string, content?: string): unknown => ({
    type: "queue-operation",
    operation,
    ...(content === undefined ? {} : { content }),
  });
  const attachment = {
    type: "attachment",
    uuid: "q1",
    attachment: { type: "queued_command", prompt: queued, commandMode: "prompt" },
  };
  const reply = (id: string): unknown => ({
    type: "assistant",
    uuid: `a-${id}`,
    message: { id, model: "claude-opus-5", content: [{ type: "text", text: `reply ${id}` }] },
  });
  const orders = [
    [op("enqueue", queued), attachment, op("remove", queued), reply("m1")],
    [op("enqueue", queued), op("remove", queued), attachment, reply("m1")],
    [op("enqueue", queued), op("remove"), reply("m1")],
    [op("enqueue", queued), op("remove", queued), {
      type: "user",
      uuid: "u1",
      message: { content: queued },
    }, reply("m1")],
    [op("enqueue", queued), op("dequeue"), reply("m1")],
  ];
  // A queued slash command comes back as a command record: shown once, as the command.
  const compact = await renderGrader(fromClaudeCode(ReadableStream.from([
    new TextEncoder().encode(lines(op("enqueue", "/compact"), op("dequeue"), {
      type: "user",
      uuid: "c1",
      message: { content: "<command-name>/compact</command-name><command-args></command-args>" },
    }, reply("m1"))),
  ])));
  assert.equal(compact, "[user]\n  /compact\n\n[agent]\n  reply m1\n");
  for (const records of orders) {
    const grader = await renderGrader(fromClaudeCode(ReadableStream.from([
      new TextEncoder().encode(lines(...records)),
    ])));
    assert.equal(count(grader, queued), 1, grader);
    assert.ok(grader.startsWith(`[user]\n  ${queued}\n\n[agent]\n  reply m1`), grader);
  }
});

Deno.test("fromClaudeCode() labels each voice as what it is", async (t) => {
  const entries = await entriesOf(VOICES);
  const grader = await renderGrader(fromClaudeCode(VOICES), UNBOUNDED);
  const plain = unindented(grader);

  await t.step("bash mode is a shell call and its output, not a prompt", async () => {
    assert.ok(plain.includes("[user → shell]\ngit status --short\n"));
    assert.ok(plain.includes("[shell → user]\nM src/server.ts\n"));
    assert.ok(plain.includes("[shell → user, error]\nwarning: LF will be replaced by CRLF\n"));
    assert.ok(!/<\/?bash-/.test(grader));
    assert.ok(!plain.includes("[user]\ngit status"));
    const dream = await renderDream(fromClaudeCode(VOICES));
    assert.equal(dream.firstUser, "Add a /health route.");
    const html = await renderHtml(fromClaudeCode(VOICES), { redact: false });
    assert.equal(pageSummary(html)?.firstUser, "Add a /health route.");
  });

  await t.step(
    "reminders, IDE context and caveats are the harness's, apart from the person's words",
    () => {
      assert.ok(
        plain.includes("[system, context]\nThe user opened the file /home/dev/app/src/server.ts"),
      );
      assert.ok(
        plain.includes("[user]\nAdd a /health route.\n\n[system, context]\nThe TodoWrite tool"),
      );
      assert.ok(!/<\/?(system-reminder|ide_opened_file|local-command-caveat)>/.test(grader));
      // A caveat with no isMeta and no wrapper is the harness's too.
      assert.ok(plain.includes("[system, context]\nCaveat: The messages below were generated"));
      assert.equal(count(plain, "[user]\nCaveat"), 0);
    },
  );

  await t.step("hook context is a hook item", () => {
    assert.ok(
      plain.includes(
        "[system, hook]\nUserPromptSubmit hook additional context:\nBranch policy: never push to main.\n",
      ),
    );
  });

  await t.step("an API error is a session error", () => {
    const error = entries.find((e) => e.event.type === "session.error");
    assert.equal((fields(error!).error as Fields).type, "model_overloaded_error");
    assert.ok(plain.includes("[session error]\nmodel_overloaded_error: API error 529: Overloaded"));
  });

  await t.step("away_summary and summary records are recaps", () => {
    assert.ok(plain.includes("[system, recap]\nYou added a /health route and a CLAUDE.md"));
    assert.ok(plain.includes("[system, recap]\nHealth route and CLAUDE.md added\n"));
  });

  await t.step("a model switch is a notice", () => {
    assert.ok(
      plain.includes("[system, notice]\nModel switched from claude-opus-5 to claude-sonnet-5\n"),
    );
    assert.ok(plain.indexOf("Model switched") < plain.indexOf("Route added."));
  });

  await t.step("a tool_reference is shown by the tool it names", () => {
    assert.ok(plain.includes("[tool ToolSearch → agent]\n[tool_reference: mcp__docs__search]\n"));
  });

  await t.step("an interruption is an event, not a turn", async () => {
    const stop = entries.find((e) => e.event.id === "i1");
    assert.equal(stop?.event.type, "user.interrupt");
    assert.ok(!grader.includes("[Request interrupted by user]"));
    const prompts = entries.filter((e) => e.event.type === "user.message" && !fields(e).command);
    const dream = await renderDream(fromClaudeCode(VOICES));
    const commands = entries.filter((e) =>
      typeof fields(e).command === "string" &&
      e.event.type === "user.message"
    );
    assert.equal(dream.turns, prompts.length + commands.length);
  });

  await t.step('a "\\n\\n" text is not shown as (no content)', () => {
    assert.ok(!grader.includes("(no content)"));
    assert.ok(
      !entries.some((e) => e.event.id.startsWith("a1") && e.event.type === "agent.message"),
    );
  });

  await t.step("a bare string in a content array no longer voids its record", () => {
    assert.ok(plain.includes("[user]\nCarry on,"));
    assert.ok(plain.includes("[user]\nand keep it small.\n"));
  });

  await t.step("a command's expansion is the command's, once, after its command line", () => {
    assert.ok(
      plain.includes("[user]\n/review src/server.ts\n\n[command /review]\nReview the file"),
    );
    assert.ok(plain.includes("[user]\n/init\n\n[command /init]\nPlease analyze this codebase"));
    assert.equal(count(grader, "Please analyze this codebase"), 1);
    assert.ok(!grader.includes("<command-contents>"));
  });

  await t.step("json carries the same labels", async () => {
    const json = await renderJson(fromClaudeCode(VOICES), UNBOUNDED);
    const labels = new Set(
      json.trim().split("\n").map((l) => JSON.parse(l)).map((i) => i.label ?? i.kind),
    );
    for (
      const label of [
        "user → shell",
        "shell → user",
        "shell → user, error",
        "system, context",
        "system, hook",
        "system, recap",
        "system, notice",
        "command /review",
        "session error",
        "user → every thread, interrupt",
        "title",
      ]
    ) assert.ok(labels.has(label), label);
  });
});

Deno.test("fromClaudeCode() keeps older layouts' words: a bare interrupt string, an isMeta caveat", async () => {
  const entries = await entriesOf(lines(
    { type: "user", uuid: "u1", message: { content: "Start." } },
    {
      type: "user",
      uuid: "u2",
      message: { content: "[Request interrupted by user for tool use]" },
    },
    {
      type: "user",
      uuid: "u3",
      isMeta: true,
      message: { content: "<system-reminder>Plan mode is on.</system-reminder>" },
    },
    { type: "user", uuid: "u4", isMeta: true, message: { content: "something meta" } },
  ));
  assert.deepEqual(entries.map((e) => [e.event.id, e.event.type, fields(e).source]), [
    ["u1", "user.message", undefined],
    ["u2", "user.interrupt", undefined],
    ["u3", "system.message", "context"],
  ]);
});

const TITLES: [file: string, title: string][] = [
  ["title_custom.jsonl", "My own name"],
  ["title_ai.jsonl", "Fix login bug"],
  ["title_summary.jsonl", "Imports tidied"],
];

Deno.test("fromClaudeCode() names a session as Claude Code does: custom-title, ai-title, the latest summary, the first prompt", async (t) => {
  for (const [file, title] of TITLES) {
    await t.step(file, async () => {
      const input = new URL(file, DIR);
      const updates = (await entriesOf(input)).filter((e) => e.event.type === "session.updated");
      assert.equal(fields(updates.at(-1)!).title, title);
      const html = await renderHtml(fromClaudeCode(input));
      assert.ok(html.includes(`<title>${title}</title>`));
      assert.ok(html.includes(`<h1>${title}</h1>`));
      const summary = pageSummary(html)!;
      assert.equal(summary.title, title);
      const index = await indexPage([{ name: "s.html", summary }]);
      assert.ok(index.includes(`<td class="prompt">${title}</td>`));
      const json = (await renderJson(fromClaudeCode(input))).trim().split("\n").map((l) =>
        JSON.parse(l)
      );
      assert.equal(json.filter((l) => l.kind === "title").at(-1)?.title, title);
    });
  }

  await t.step("without a title record, the first prompt, as before", async () => {
    const input = lines({ type: "user", uuid: "u1", message: { content: "Tidy the tests." } });
    const html = await renderHtml(fromClaudeCode(ReadableStream.from([
      new TextEncoder().encode(input),
    ])));
    const summary = pageSummary(html)!;
    assert.equal(summary.title, undefined);
    assert.ok(html.includes("<title>Session stream</title>"));
    const index = await indexPage([{ name: "s.html", summary }]);
    assert.ok(index.includes(`<td class="prompt">Tidy the tests.</td>`));
    const json = await renderJson(fromClaudeCode(ReadableStream.from([
      new TextEncoder().encode(input),
    ])));
    assert.ok(!json.includes('"kind":"title"'));
  });
});

Deno.test("render --unrendered names what a transcript holds and no renderer shows, with counts", async () => {
  const cwd = await Deno.makeTempDir();
  try {
    const file = new URL("voices.jsonl", DIR).pathname;
    const run = await task("render", ["--unrendered", file], { cwd });
    assert.equal(run.code, 0, run.stderr);
    const rows = run.stdout.trim().split("\n");
    assert.equal(rows[0], "Not rendered in 1 transcript: 6 kinds");
    const row = (type: string, subtype: string): string[] | undefined =>
      rows.map((r) => r.split(/\s{2,}/)).find((r) => r[0] === type && r[1] === subtype);
    assert.deepEqual(row("brand-new-record", "-"), ["brand-new-record", "-", "1", `${file}:29`]);
    assert.deepEqual(row("system", "brand_new_subtype"), [
      "system",
      "brand_new_subtype",
      "1",
      `${file}:28`,
    ]);
    assert.deepEqual(row("block", "server_tool_use"), [
      "block",
      "server_tool_use",
      "1",
      `${file}:13`,
    ]);
    assert.deepEqual(row("attachment", "skill_listing")?.slice(0, 3), [
      "attachment",
      "skill_listing",
      "1",
    ]);

    const folder = await task("render", ["--unrendered", DIR.pathname], { cwd });
    assert.equal(folder.code, 0, folder.stderr);
    assert.match(folder.stdout, /^Not rendered in 5 transcripts: /);
    assert.match(folder.stdout, /\nqueue-operation\s+withdrawn\s+1\s/);

    const wrong = await task("render", ["--unrendered", "-r", "html", file], { cwd });
    assert.equal(wrong.code, 2);
    assert.match(wrong.stderr, /Cannot use --unrendered with --renderer/);
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
});

Deno.test("json title lines keep streamJson equal to renderJson, and the cut line counts items only", async () => {
  const full = await renderJson(fromClaudeCode(VOICES), UNBOUNDED);
  const size = new TextEncoder().encode(full).length;
  for (const transcriptBudget of [256, 600, 1_000, 2_500, size - 1, size]) {
    const whole = await renderJson(fromClaudeCode(VOICES), { transcriptBudget });
    const streamed =
      (await Array.fromAsync(streamJson(fromClaudeCode(VOICES), { transcriptBudget })))
        .join("");
    assert.equal(streamed, whole, `budget ${transcriptBudget}`);
    assert.ok(new TextEncoder().encode(whole).length <= transcriptBudget);
    const parsed = whole.trim().split("\n").map((l) => JSON.parse(l));
    const cut = parsed.at(-1);
    if (cut.kind === "cut") {
      const items = parsed.filter((l) => l.kind !== "cut" && l.kind !== "title");
      assert.equal(cut.items, items.length, `budget ${transcriptBudget}`);
    } else {
      assert.equal(whole, full);
    }
  }
  // The title line comes first here: the custom title is the transcript's first record.
  assert.deepEqual(JSON.parse(full.split("\n")[0]!), {
    kind: "title",
    title: "Health check endpoint",
    seq: 1,
  });
});
