// Copyright 2026 the brigade authors. MIT license.

// The html page as text: escaping, redaction, cuts and budgets, one session, thinking, edits.

import assert from "node:assert/strict";
import {
  createRegistry,
  EventSourceError,
  fromClaudeCode,
  type LogEntry,
  renderHtml,
  type SessionEvent,
} from "../mod.ts";
import { HTML_TRANSCRIPT_BUDGET } from "../renderers/html/options.ts";
import { PAGE_SCRIPT } from "../renderers/html/_script.ts";
import { asEvent } from "../events/fields.ts";
import { visibleControls } from "../redact/excerpt.ts";

const ROOT = new URL("../", import.meta.url);

// ---------------------------------------------------------------- the page as text

function entries(sessionId: string, events: SessionEvent[]): LogEntry[] {
  return events.map((event, i) => ({ seq: i + 1, session_id: sessionId, thread_id: null, event }));
}

const SECRET = "sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789";

Deno.test("renderHtml() escapes every text and forbids scripts and remote loads", async () => {
  const page = await renderHtml(entries("sesn_<b>", [
    { id: "e1", type: "user.message", content: `<script>alert(1)</script> & "quotes" 'too'` },
    {
      id: "e2",
      type: "agent.tool_use",
      name: `<img src=x onerror=alert(1)>`,
      input: { a: "</details>" },
    },
  ]));
  assert.match(page, /^<!DOCTYPE html>\n<html lang="en">/);
  // The page's one script (find and filter), which its policy names by hash, is its only one.
  assert.equal(page.split(`<script>${PAGE_SCRIPT}</script>`).length, 2);
  assert.doesNotMatch(
    page.replace(`<script>${PAGE_SCRIPT}</script>`, ""),
    /<script|<img|<\/details><\/details>/,
  );
  assert.match(
    page,
    /&lt;script&gt;alert\(1\)&lt;\/script&gt; &amp; &quot;quotes&quot; (?:'|&#39;)too(?:'|&#39;)/,
  );
  assert.match(page, /<h1>sesn_&lt;b&gt;<\/h1>/);
  const csp = page.match(/<meta http-equiv="Content-Security-Policy" content="([^"]+)">/)?.[1];
  assert.match(
    csp ?? "",
    /^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/]+=*'; base-uri 'none'/,
  );
  // The policy names the page's one stylesheet by its hash.
  const style = page.match(/<style>([\s\S]*?)<\/style>/)![1]!;
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(style));
  const hash = btoa(String.fromCharCode(...new Uint8Array(digest)));
  assert.ok(csp!.includes(`'sha256-${hash}'`));
});

Deno.test("renderHtml() redacts by default; redact: false keeps the text as it was", async () => {
  const source = (): LogEntry[] =>
    entries("sesn_1", [{ id: "e1", type: "user.message", content: `key ${SECRET}` }]);
  const redacted = await renderHtml(source());
  assert.ok(!redacted.includes(SECRET));
  assert.match(redacted, /key \[REDACTED_SECRET\]/);
  assert.match(redacted, /secrets redacted/);
  const plain = await renderHtml(source(), { redact: false });
  assert.ok(plain.includes(SECRET));
  assert.match(plain, /not redacted/);
});

Deno.test("renderHtml() makes control characters and bidi overrides visible", async () => {
  const page = await renderHtml(
    entries("sesn_1", [{ id: "e1", type: "agent.message", content: "a\u202eb\x1b[31m\r\nc" }]),
  );
  assert.match(page, /a\\u202eb\\x1b\[31m\nc/);
});

Deno.test("renderHtml() cuts a long body with the grader's note, and the page at its budget", async (t) => {
  await t.step("an item over its budget is cut on a code point, with a note", async () => {
    const page = await renderHtml(
      entries("sesn_1", [{ id: "e1", type: "agent.message", content: "é".repeat(10) }]),
      { itemBudget: 5 },
    );
    assert.match(
      page,
      /<div class="text"><p>éé<\/p><\/div><p class="note cut">\[cut: 16 more bytes\]<\/p>/,
    );
  });
  await t.step("the transcript budget ends the page with a note and stops the source", async () => {
    let pulled = 0;
    async function* source(): AsyncGenerator<LogEntry> {
      for (let i = 1; i <= 1_000; i++) {
        pulled++;
        yield {
          seq: i,
          session_id: "sesn_1",
          thread_id: null,
          event: { id: `e${i}`, type: "agent.message", content: "x".repeat(100) },
        };
      }
    }
    // Every byte of an item's markup counts, not only its 100 bytes of text.
    const page = await renderHtml(source(), { transcriptBudget: 5_000 });
    const shown = page.match(/class="item /g)?.length ?? 0;
    assert.ok(shown >= 5 && shown < 50, `${shown} items`);
    const items = page.slice(
      page.indexOf("<main>\n") + 7,
      page.indexOf('<p class="note transcript-cut"'),
    );
    assert.ok(new TextEncoder().encode(items).byteLength <= 5_000);
    assert.match(
      page,
      /\[transcript cut: the 5000-byte budget is reached; the rest of the session is not shown\]/,
    );
    assert.match(page, new RegExp(`<dt>Items</dt><dd>${shown} \\(cut\\)</dd>`));
    assert.ok(pulled < shown + 10, `the source was pulled ${pulled} times`);
  });
  await t.step("a budget that is not a positive integer is a RangeError", async () => {
    await assert.rejects(renderHtml([], { itemBudget: 0 }), RangeError);
    await assert.rejects(renderHtml([], { transcriptBudget: 1.5 }), RangeError);
  });
});

Deno.test("renderHtml() renders one session only", async () => {
  const two = [
    ...entries("sesn_a", [{ id: "e1", type: "user.message", content: "a" }]),
    { seq: 9, session_id: "sesn_b", thread_id: null, event: { id: "e2", type: "user.message" } },
  ];
  await assert.rejects(
    renderHtml(two),
    (error: unknown) => error instanceof EventSourceError && error.code === "second_session",
  );
});

Deno.test("html is a built-in renderer, listed and writing .html files", async () => {
  const registry = createRegistry();
  assert.ok(registry.list().some((info) => info.name === "html"));
  assert.equal(registry.resolve("html").extension, ".html");
  assert.match(
    await registry.render("html", [], { redact: false }),
    /This session has no conversation/,
  );
});

Deno.test("renderHtml() counts every byte of an item, labels and markup too, and caps the thread list", async (t) => {
  await t.step(
    "500,000 calls of a 250-character tool named with '&': a page within its budget",
    async () => {
      let pulled = 0;
      async function* calls(): AsyncGenerator<LogEntry> {
        for (let i = 1; i <= 500_000; i++) {
          pulled++;
          yield {
            seq: i,
            session_id: "sesn_1",
            thread_id: null,
            event: asEvent({
              id: `e${i}`,
              type: "agent.tool_use",
              name: "&".repeat(250),
              input: {},
            }),
          };
        }
      }
      const page = await renderHtml(calls());
      const items = page.slice(
        page.indexOf("<main>\n") + 7,
        page.indexOf('<p class="note transcript-cut"'),
      );
      assert.ok(new TextEncoder().encode(items).byteLength <= HTML_TRANSCRIPT_BUDGET);
      assert.ok(new TextEncoder().encode(page).byteLength < HTML_TRANSCRIPT_BUDGET + 20_000);
      assert.ok(pulled < 5_000, `${pulled} entries pulled`);
    },
  );
  await t.step("a thousand threads: the header names 32 and counts the rest", async () => {
    const log: LogEntry[] = Array.from({ length: 1_000 }, (_, i) => ({
      seq: i + 1,
      session_id: "sesn_1",
      thread_id: `sthr_${i}`,
      event: asEvent({ id: `e${i}`, type: "agent.message", content: "hi" }),
    }));
    const page = await renderHtml(log);
    const header = page.slice(page.indexOf("<header"), page.indexOf("</header>"));
    assert.equal(header.match(/<li class="t\d">/g)?.length, 32);
    assert.match(header, /<li>and 968 more<\/li>/);
  });
});

Deno.test("renderHtml() folds the agent's thinking where it happened; thinking: false leaves it out", async () => {
  const log = (): LogEntry[] =>
    entries("sesn_1", [
      { id: "e1", type: "user.message", content: "Fix it." },
      asEvent({ id: "e2", type: "agent.thinking", thinking: `The *bug* is here. ${SECRET}` }),
      asEvent({ id: "e3", type: "agent.thinking" }), // a marker with no text: nothing to show
      { id: "e4", type: "agent.message", content: "Fixed." },
    ]);
  const page = await renderHtml(log());
  const blocks = [...page.matchAll(/<(?:article|details) class="item k-(\w+)/g)].map((m) => m[1]);
  assert.deepEqual(blocks, ["message", "thinking", "message"]);
  assert.match(
    page,
    /<details class="item k-thinking t0" id="item-2" data-kind="thinking" data-thread="0"><summary><span class="who">agent thinking<\/span>/,
  );
  assert.match(page, /<p>The <em>bug<\/em> is here. \[REDACTED_SECRET\]<\/p>/);
  assert.match(page, /<dt>Items<\/dt><dd>3<\/dd>/);
  // Forty thoughts in a row, then a reply: all shown, in order.
  const many = await renderHtml(entries("sesn_1", [
    ...Array.from(
      { length: 40 },
      (_, i) => asEvent({ id: `t${i}`, type: "agent.thinking", thinking: `thought ${i}` }),
    ),
    { id: "m", type: "agent.message", content: "Done." },
  ]));
  assert.deepEqual(
    [...many.matchAll(/<p>thought (\d+)<\/p>/g)].map((m) => Number(m[1])),
    Array.from({ length: 40 }, (_, i) => i),
  );
  assert.match(many, /<dt>Items<\/dt><dd>41<\/dd>/);
  const without = await renderHtml(log(), { thinking: false });
  assert.doesNotMatch(without, /class="item k-thinking/);
  assert.match(without, /<dt>Items<\/dt><dd>2<\/dd>/);
});

Deno.test("renderHtml() of real Claude Code transcripts: each Edit is a diff of its old and new text", async () => {
  const real = new URL("fixtures/claude_code/real/", ROOT);
  let edits = 0;
  for await (const { name } of Deno.readDir(real)) {
    if (!name.endsWith(".jsonl")) continue;
    const path = new URL(name, real).pathname;
    const inputs: Array<{ old_string: string; new_string: string }> = [];
    for await (const entry of fromClaudeCode(path)) {
      const event = entry.event as { type: string; name?: string; input?: unknown };
      if (event.type === "agent.tool_use" && event.name === "Edit") {
        inputs.push(event.input as { old_string: string; new_string: string });
      }
    }
    const page = await renderHtml(fromClaudeCode(path), {
      redact: false,
      itemBudget: 1_000_000,
      transcriptBudget: 100_000_000,
    });
    const diffs = [...page.matchAll(/<div class="diff">([\s\S]*?)<\/div>/g)].map((m) => m[1]!);
    assert.equal(diffs.length, inputs.length, name);
    for (const [i, input] of inputs.entries()) {
      const lines = [...diffs[i]!.matchAll(/<span class="(\w+)">([^\n]*)<\/span>\n/g)]
        .map((m) => [m[1]!, unescape(m[2]!)] as const);
      const old = visibleControls(input.old_string).split("\n");
      const now = visibleControls(input.new_string).split("\n");
      let hunk: { old: number; new: number } | undefined;
      for (const [kind, line] of lines) {
        if (kind === "hunk") {
          const [, o, n] = /^@@ -(\d+),\d+ \+(\d+),\d+ @@$/.exec(line)!;
          hunk = { old: Number(o) - 1, new: Number(n) - 1 };
          continue;
        }
        const text = line.slice(1);
        if (kind !== "add") assert.equal(text, old[hunk!.old++], `${name}: edit ${i}, removed`);
        if (kind !== "del") assert.equal(text, now[hunk!.new++], `${name}: edit ${i}, added`);
      }
      edits++;
    }
  }
  assert.ok(edits >= 10, `${edits} edits`);
});

function unescape(html: string): string {
  return html.replace(
    /&(lt|gt|quot|#39|amp);/g,
    (_, e: string) => ({ lt: "<", gt: ">", quot: '"', "#39": "'", amp: "&" })[e]!,
  );
}
