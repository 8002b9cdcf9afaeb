// Copyright 2026 the brigade authors. MIT license.

// The grader's `ids` option: a judge's citation `[M<seq>]` resolves to the entry, the number json
// and html carry for the same item.

import assert from "node:assert/strict";
import { fromNdjson, type LogEntry, renderGrader, renderHtml, renderJson } from "../../mod.ts";
import { agent, end, entries, start, user } from "../../tests/_entries.ts";
import { parseGrader } from "../../tests/_transcript_parse.ts";

const FIXTURES = new URL("../../fixtures/", import.meta.url);

async function fixture(name: string): Promise<LogEntry[]> {
  return await Array.fromAsync(fromNdjson(new URL(`${name}.ndjson`, FIXTURES)));
}

/** A session where consumption order moves a message: seqs out of order in the grader. */
function movedSession(): LogEntry[] {
  return entries([
    user("first"),
    start("req_1"),
    user("sent while the request ran"),
    agent("reply to first"),
    end("req_1"),
    start("req_2"),
    agent("reply to the second"),
    end("req_2"),
  ]);
}

Deno.test("renderGrader() with ids labels each item with the seq of the entry whose text follows, as json does", async (t) => {
  const sessions: [string, LogEntry[]][] = [
    ["coordinator_all_threads", await fixture("coordinator_all_threads")],
    ["single_agent", await fixture("single_agent")],
    ["moved by consumption order", movedSession()],
  ];
  for (const [name, rows] of sessions) {
    await t.step(name, async () => {
      const graded = parseGrader(await renderGrader(rows, { ids: true }));
      const json = (await renderJson(rows)).trimEnd().split("\n").map((line) => JSON.parse(line));
      assert.equal(graded.items.length, json.length);
      assert.ok(graded.items.length > 3);
      for (const [i, item] of graded.items.entries()) {
        const match = /^M(\d+) · (.*)$/.exec(item.label);
        assert.ok(match, item.label);
        const line = json[i];
        assert.equal(Number(match[1]), line.seq, `item ${i} (${item.label})`);
        assert.equal(match[2], line.label);
        assert.equal(item.body, line.text);
        // The entry of that seq is the one whose text this is.
        const entry = rows.find((row) => row.seq === line.seq)!;
        assert.ok(entry, `an entry of seq ${line.seq}`);
      }
    });
  }
});

Deno.test("renderGrader() with ids follows consumption order, each id still its own entry's", async () => {
  const text = await renderGrader(movedSession(), { ids: true });
  assert.equal(
    text,
    "[M1 · user]\n  first\n\n[M4 · agent]\n  reply to first\n\n" +
      "[M3 · user]\n  sent while the request ran\n\n[M7 · agent]\n  reply to the second\n",
  );
});

Deno.test("renderGrader() with ids and html name the same entry seq for the same item", async () => {
  const rows = await fixture("coordinator_all_threads");
  const graded = parseGrader(await renderGrader(rows, { ids: true }));
  const html = await renderHtml(rows);
  const htmlSeqs = new Set([...html.matchAll(/title="entry seq (\d+)"/g)].map((m) => Number(m[1])));
  // A citation [M<seq>] resolves to the page's anchor #item-<seq>, on the item of that entry.
  const anchors = new Map(
    [...html.matchAll(/ id="item-(\d+)"[^>]*>[^]*?title="entry seq (\d+)"/g)]
      .map((m) => [Number(m[1]), Number(m[2])]),
  );
  for (const item of graded.items) {
    const seq = Number(/^M(\d+)/.exec(item.label)![1]);
    assert.ok(htmlSeqs.has(seq), `html shows the item of entry seq ${seq}`);
    assert.equal(anchors.get(seq), seq, `#item-${seq} is the item of entry seq ${seq}`);
  }
});

Deno.test("renderGrader() counts the ids in the transcript budget", async () => {
  const rows = entries(
    Array.from({ length: 400 }, (_, i) => i % 2 ? agent(`a${i}`) : user(`u${i}`)),
  );
  const budget = 2_000;
  const text = await renderGrader(rows, { ids: true, transcriptBudget: budget });
  assert.ok(new TextEncoder().encode(text).length <= budget);
  assert.match(text, /\[transcript cut: the 2000-byte budget is reached/);
  const plain = await renderGrader(rows, { transcriptBudget: budget });
  assert.ok(parseGrader(text).items.length < parseGrader(plain).items.length);
});

Deno.test("renderGrader() without ids is unchanged", async () => {
  const rows = movedSession();
  assert.equal(await renderGrader(rows, { ids: false }), await renderGrader(rows));
  assert.doesNotMatch(await renderGrader(rows), /\[M\d/);
});
