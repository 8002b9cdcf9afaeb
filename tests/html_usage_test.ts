// Copyright 2026 the brigade authors. MIT license.

// The html page's token usage: each model request's tokens after its reply, the session's in
// the header.

import assert from "node:assert/strict";
import { splitUsageTranscript } from "./_usage_transcript.ts";
import {
  fromClaudeCode,
  fromNdjson,
  type LogEntry,
  renderHtml,
  type SessionEvent,
} from "../mod.ts";
import { asEvent, fieldsOf } from "../events/fields.ts";

const ROOT = new URL("../", import.meta.url);
const SINGLE_AGENT = new URL("fixtures/single_agent.ndjson", ROOT).pathname;

function entries(sessionId: string, events: SessionEvent[]): LogEntry[] {
  return events.map((event, i) => ({ seq: i + 1, session_id: sessionId, thread_id: null, event }));
}

// ---------------------------------------------------------------- token usage

/** What the page shows, in order: each item's entry seq, and each usage note's four figures. */
type UsageMark = { item: number } | { usage: number[] };

/**
 * The page's items and usage notes in document order, read by their markup
 * (an item block's `id="item-N"` and `entry seq`, a note's `<p class="usage">`
 * and its `<data>` values); and the header's total.
 */
function usageShown(page: string): { shown: UsageMark[]; total: number[] | undefined } {
  const main = page.slice(page.indexOf("<main>"), page.indexOf("</main>"));
  const shown: UsageMark[] = [];
  const marks =
    /<(?:article|details) class="item [^"]*" id="item-\d+"[^>]*>|<p class="usage">(.*?)<\/p>/g;
  for (const mark of main.matchAll(marks)) {
    if (mark[1] !== undefined) {
      shown.push({ usage: figures(mark[1]) });
    } else {
      const seq = /title="entry seq (\d+)"/.exec(main.slice(mark.index))![1]!;
      shown.push({ item: Number(seq) });
    }
  }
  const header = page.slice(page.indexOf("<header"), page.indexOf("</header>"));
  const total = /<dt>Tokens<\/dt><dd>(.*?)<\/dd>/.exec(header)?.[1];
  return { shown, total: total === undefined ? undefined : figures(total) };
}

function figures(html: string): number[] {
  return [...html.matchAll(/<data value="(\d+)">/g)].map((m) => Number(m[1]));
}

Deno.test("renderHtml() shows each model request's tokens after its reply, and the session's in the header", async (t) => {
  await t.step("a Managed Agents log: each span.model_request_end's figures", async () => {
    const { shown, total } = usageShown(await renderHtml(fromNdjson(SINGLE_AGENT)));
    // Input, output, cache read, cache write: as the fixture's four ends record them.
    const requests = [[1840, 96, 5120, 0], [2210, 41, 6960, 0], [2301, 38, 6960, 0], [
      2560,
      120,
      6960,
      0,
    ]];
    assert.deepEqual(shown, [
      { item: 2 },
      { item: 5 },
      { item: 6 }, // the first request's reply: a message and a call
      { usage: requests[0] },
      { item: 8 },
      { item: 9 },
      { item: 12 },
      { usage: requests[1] },
      { item: 14 },
      { item: 16 },
      { usage: requests[2] },
      { item: 18 },
      { item: 20 },
      { usage: requests[3] },
    ]);
    assert.deepEqual(total, [8911, 295, 26000, 0]);
  });
  await t.step(
    "a Claude Code transcript: a response split over records counted once, at its last count",
    async () => {
      const { shown, total } = usageShown(await renderHtml(fromClaudeCode(splitUsageTranscript())));
      const first = [12, 58, 4000, 300];
      const second = [5, 9, 4500, 0];
      assert.deepEqual(shown, [
        { item: 1 }, // the prompt
        { item: 2 }, // "Running."
        { item: 3 }, // the Bash call, the response's last block
        { usage: first },
        { item: 4 }, // its result
        { item: 7 }, // "One file.", after the first response's spans
        { usage: second }, // the replay is another response: this one is over
        { item: 10 }, // the replayed record: its usage is not counted again
      ]);
      assert.deepEqual(total, [17, 67, 8500, 300]);
    },
  );
  await t.step(
    "a real transcript: the header's total is each message id's last usage, summed",
    async () => {
      const name = "entireio-cli_5a_c45bc32212_0_full.jsonl";
      const path = new URL(`fixtures/claude_code/real/${name}`, ROOT).pathname;
      const last = new Map<string, Record<string, number>>();
      for (const line of (await Deno.readTextFile(path)).split("\n")) {
        let record;
        try {
          record = JSON.parse(line);
        } catch {
          continue; // the file has a line of two records glued: the source skips it too
        }
        const message = record?.message;
        if (
          record.type !== "assistant" || message?.model === "<synthetic>" || !message?.usage
        ) continue;
        last.set(message.id, message.usage);
      }
      const sum = (key: string): number =>
        [...last.values()].reduce((total, usage) => total + (usage[key] ?? 0), 0);
      const expected = [
        sum("input_tokens"),
        sum("output_tokens"),
        sum("cache_read_input_tokens"),
        sum("cache_creation_input_tokens"),
      ];
      // The file has responses whose records' output counts differ: a first count would be less.
      assert.ok(expected[1]! > 0);
      const { shown, total } = usageShown(await renderHtml(fromClaudeCode(path)));
      assert.deepEqual(total, expected);
      assert.equal(shown.filter((s) => "usage" in s).length, last.size);
    },
  );
  await t.step("threads: each request's note follows its own thread's reply", async () => {
    const path = new URL("fixtures/coordinator_all_threads.ndjson", ROOT).pathname;
    const log = await Array.fromAsync(fromNdjson(path));
    const threadOf = new Map(log.map((e) => [e.seq, e.thread_id]));
    const ends = log.filter((e) => e.event.type === "span.model_request_end");
    const { shown, total } = usageShown(await renderHtml(log));
    const notes = shown.flatMap((mark, i) => "usage" in mark ? [shown[i - 1]] : []);
    assert.equal(notes.length, ends.length);
    assert.ok(new Set(ends.map((e) => e.thread_id)).size > 1);
    // In log order, request by request: the item before each note is on the request's thread.
    assert.deepEqual(
      notes.map((item) => threadOf.get((item as { item: number }).item)),
      ends.map((e) => e.thread_id),
    );
    const recorded = (key: string): number =>
      ends.reduce(
        (sum, e) => sum + ((fieldsOf(e.event).model_usage as Record<string, number>)[key] ?? 0),
        0,
      );
    assert.deepEqual(total, [
      recorded("input_tokens"),
      recorded("output_tokens"),
      recorded("cache_read_input_tokens"),
      recorded("cache_creation_input_tokens"),
    ]);
  });
  await t.step("no usage recorded: no figures at all", async () => {
    const page = await renderHtml(entries("sesn_1", [
      { id: "e1", type: "user.message", content: "Hi" },
      asEvent({ id: "e2", type: "span.model_request_start" }),
      { id: "e3", type: "agent.message", content: "Hello" },
      asEvent({ id: "e4", type: "span.model_request_end", model_request_start_id: "e2" }),
    ]));
    assert.deepEqual(usageShown(page), { shown: [{ item: 1 }, { item: 3 }], total: undefined });
  });
  await t.step("the notes count against the transcript budget", async () => {
    const log = entries(
      "sesn_1",
      Array.from({ length: 2_000 }, (_, i) => [
        { id: `m${i}`, type: "agent.message", content: "ok" } as SessionEvent,
        asEvent({
          id: `u${i}`,
          type: "span.model_request_end",
          model_request_start_id: "x",
          model_usage: { input_tokens: 1_000_000, output_tokens: 1_000_000 },
        }),
      ]).flat(),
    );
    const budget = 20_000;
    const page = await renderHtml(log, { transcriptBudget: budget });
    const main = page.slice(
      page.indexOf("<main>\n") + 7,
      page.indexOf('<p class="note transcript-cut"'),
    );
    assert.ok(new TextEncoder().encode(main).byteLength <= budget);
    const { shown } = usageShown(page);
    const notes = shown.filter((s) => "usage" in s).length;
    assert.ok(notes > 10 && notes >= shown.length / 2 - 1, `${notes} notes of ${shown.length}`);
    // The header sums the requests on the page, and says the page is cut.
    assert.deepEqual(usageShown(page).total, [notes * 1_000_000, notes * 1_000_000, 0, 0]);
    assert.match(page, /<dt>Tokens<\/dt><dd>[^\n]*cache write \(cut\)<\/dd>/);
  });
});
