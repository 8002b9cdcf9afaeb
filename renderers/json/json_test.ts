// Copyright 2026 the brigade authors. MIT license.

import assert from "node:assert/strict";
import {
  conversation,
  type ConversationItem,
  cutNote,
  fromNdjson,
  JSON_MIN_BUDGET,
  type JsonCutLine,
  type LogEntry,
  registry,
  renderGrader,
  renderJson,
} from "../../mod.ts";
import { agent, user } from "../../tests/_entries.ts";
import { parseGrader } from "../../tests/_transcript_parse.ts";

const FIXTURES = new URL("../../fixtures/", import.meta.url);
const NAMES = ["single_agent", "coordinator_all_threads", "coordinator_primary_only"];
const utf8 = (text: string): number => new TextEncoder().encode(text).length;

/** The lines of an NDJSON text, parsed. */
function parse(text: string): unknown[] {
  assert.ok(text === "" || text.endsWith("\n"), "every line ends with a line break");
  return text === "" ? [] : text.slice(0, -1).split("\n").map((line) => JSON.parse(line));
}

/** Items formatted the grader's way: `[label]`, the text, a blank line between. */
function asGrader(items: ConversationItem[]): string {
  return items.map(({ label, text }) => `[${label}]\n${indented(text)}\n`).join("\n");
}

/** The grader's body framing: every non-empty line behind two spaces. */
function indented(text: string): string {
  return text.split(/\r\n|[\n\r\v\f\x85\u2028\u2029]/).map((line) => line && `  ${line}`).join(
    "\n",
  );
}

/** A long session whose texts hold characters JSON escapes, multi-byte ones and emoji. */
function* longSession(n: number): Generator<LogEntry> {
  for (let seq = 1; seq <= n; seq++) {
    const text = `line ${seq}: "quoted" \\ tab\t ¿qué? 🚧\nsecond line`;
    yield {
      seq,
      session_id: "sesn_long",
      thread_id: null,
      event: seq % 2 ? user(text) : agent(text),
    };
  }
}

Deno.test("renderJson() lines parse back to exactly what conversation() yields", async (t) => {
  for (const name of NAMES) {
    await t.step(name, async () => {
      const url = new URL(`${name}.ndjson`, FIXTURES);
      const lines = parse(await renderJson(fromNdjson(url)));
      assert.deepEqual(lines, await Array.fromAsync(conversation(fromNdjson(url))));
    });
  }
});

Deno.test("renderJson() items formatted the grader's way are the grader's text, byte for byte", async (t) => {
  for (const name of NAMES) {
    await t.step(name, async () => {
      const url = new URL(`${name}.ndjson`, FIXTURES);
      const items = parse(await renderJson(fromNdjson(url))) as ConversationItem[];
      assert.equal(asGrader(items), await renderGrader(fromNdjson(url)));
    });
  }
  await t.step("a session past the budget: the grader shows each item's head, framed", async () => {
    const items = parse(
      await renderJson(longSession(500), { transcriptBudget: Infinity, itemBudget: 20 }),
    ) as ConversationItem[];
    const grader = parseGrader(
      await renderGrader(longSession(500), { transcriptBudget: 10_000_000, itemBudget: 20 }),
    );
    assert.deepEqual(grader.items.map((item) => item.label), items.map((item) => item.label));
    for (const [i, item] of items.entries()) {
      const head = item.text.slice(0, item.text.length - cutNote(item.cutBytes).length);
      const shown = grader.items[i]!;
      assert.ok(head.startsWith(shown.body), `item ${i}: the grader shows the head of its text`);
      // The indent counts in the item budget: what it takes is cut too, and the note says so.
      assert.equal(shown.cutBytes, item.cutBytes + utf8(head) - utf8(shown.body));
    }
  });
});

Deno.test("renderJson() keeps whole lines within the budget and ends a cut with one cut line", async (t) => {
  for (const budget of [JSON_MIN_BUDGET, 1_000, 10_000, 200_000]) {
    await t.step(`at ${budget} bytes`, async () => {
      const text = await renderJson(longSession(5_000), { transcriptBudget: budget });
      assert.ok(utf8(text) <= budget, `${utf8(text)} bytes`);
      const lines = parse(text);
      const cut = lines.at(-1) as JsonCutLine;
      assert.equal(cut.kind, "cut");
      assert.equal(cut.budget, budget);
      assert.equal(cut.items, lines.length - 1);
      const all = await Array.fromAsync(conversation(longSession(5_000)));
      assert.deepEqual(lines.slice(0, -1), all.slice(0, cut.items), "a head of whole items");
      assert.equal(cut.nextSeq, all[cut.items]!.seq);
      const next = `${JSON.stringify(all[cut.items])}\n`;
      assert.ok(utf8(text) + utf8(next) > budget, "one more line would not have fit");
    });
  }
});

Deno.test("renderJson() stops pulling the source at the budget", async () => {
  let pulled = 0;
  function* counted(): Generator<LogEntry> {
    for (const entry of longSession(1_000_000)) {
      pulled++;
      yield entry;
    }
  }
  await renderJson(counted(), { transcriptBudget: 10_000 });
  assert.ok(pulled < 200, `pulled ${pulled} entries`);
});

Deno.test("renderJson() is registered as json and refuses a budget without room for its cut line", async () => {
  assert.ok(registry.list().some((info) => info.name === "json"));
  assert.equal(await registry.render("json", []), "");
  await assert.rejects(() => renderJson([], { transcriptBudget: 100 }), /at least 256/);
});

Deno.test("deno task render --renderer json lists json in --help and writes NDJSON from another directory", async () => {
  const config = new URL("../../deno.json", import.meta.url).pathname;
  const cwd = await Deno.makeTempDir();
  try {
    const task = async (...args: string[]): Promise<{ code: number; stdout: string }> => {
      const { code, stdout } = await new Deno.Command(Deno.execPath(), {
        args: ["task", "--quiet", "--config", config, "render", ...args],
        cwd,
        stdout: "piped",
        stderr: "piped",
        env: { NO_COLOR: "1" },
      }).output();
      return { code, stdout: new TextDecoder().decode(stdout) };
    };
    const help = await task("--help");
    assert.equal(help.code, 0);
    assert.match(help.stdout, /^\s+json\s+The conversation as NDJSON items/m);
    const run = await task("--renderer", "json");
    assert.equal(run.code, 0);
    const lines = parse(run.stdout) as ConversationItem[];
    const example = new URL("../../fixtures/coordinator_all_threads.ndjson", import.meta.url);
    assert.deepEqual(lines, await Array.fromAsync(conversation(fromNdjson(example))));
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
});
