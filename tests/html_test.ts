// Copyright 2026 the brigade authors. MIT license.

import assert from "node:assert/strict";
import { seriousViolations } from "./_axe.ts";
import {
  createRegistry,
  EventSourceError,
  fromClaudeCode,
  fromNdjson,
  type LogEntry,
  renderHtml,
  type SessionEvent,
} from "../mod.ts";
import { conversation } from "../kit/conversation.ts";
import { pageText, shownText } from "../renderers/html/_page.ts";
import { inputText, isPlainProse, WHOLE_INPUT_TOOLS } from "../renderers/html/_body.ts";
import { HTML_ITEM_BUDGET, HTML_TRANSCRIPT_BUDGET } from "../renderers/html/html.ts";
import { indexPage, pageSummary } from "../renderers/html/html_index.ts";
import {
  type Browser,
  findChromium,
  type OpenOptions,
  type Page,
  requestsThatLeft,
  withBrowser,
} from "./_browser.ts";
import { asEvent, fieldsOf } from "../events/fields.ts";
import { visibleControls } from "../redact/excerpt.ts";

const ROOT = new URL("../", import.meta.url);
const SINGLE_AGENT = new URL("fixtures/single_agent.ndjson", ROOT).pathname;

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
  assert.doesNotMatch(page, /<script|<img|<\/details><\/details>/);
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

// ---------------------------------------------------------------- in a real browser

const chromium = await findChromium();
const inCi = Deno.env.get("CI") === "true";
if (chromium === undefined && !inCi) {
  console.error(
    "html_test: Chromium not found (/usr/bin/chromium, or $CHROMIUM_PATH): the browser checks are skipped. Install it with `apt-get install chromium`.",
  );
}

const browserChecks: Array<[string, (browser: Browser, t: Deno.TestContext) => Promise<void>]> = [];

/**
 * A browser check: each runs as a step of one test, in one browser (launching
 * Chromium is the slow part). Skipped without Chromium, failing under CI=true.
 */
function browserTest(
  name: string,
  body: (browser: Browser, t: Deno.TestContext) => Promise<void>,
): void {
  browserChecks.push([name, body]);
}

Deno.test({
  name: "in headless Chromium",
  ignore: chromium === undefined && !inCi,
  async fn(t): Promise<void> {
    if (chromium === undefined) {
      throw new Error("Chromium is not installed, and CI=true requires the browser checks");
    }
    await withBrowser(chromium, async (browser) => {
      for (const [name, body] of browserChecks) {
        await t.step(name, (step) => body(browser, step));
      }
    });
  },
});

/** Writes a page to a temporary file, opens it, runs `body`, cleans up. */
async function withPage(
  browser: Browser,
  html: string,
  body: (page: Page, url: string) => Promise<void>,
  options: OpenOptions = {},
): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "transcript_html_" });
  try {
    const path = `${dir}/page.html`;
    await Deno.writeTextFile(path, html);
    const url = new URL(`file://${path}`).href;
    const page = await browser.open(url, options);
    try {
      await body(page, url);
    } finally {
      await page.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

interface Shown {
  who: string | null;
  text: string | null;
}

/** What the page shows of each item the kit makes (thinking is the page's own), folds opened. */
function shownItems(page: Page): Promise<Shown[]> {
  return page.evaluate(`(() => {
    for (const details of document.querySelectorAll("details")) details.open = true;
    return [...document.querySelectorAll("main > .item:not(.k-thinking)")].map((item) => ({
      who: item.querySelector(".who")?.innerText ?? null,
      text: item.querySelector(":scope > .text")?.innerText ?? null,
    }));
  })()`);
}

/** Marks a text the page renders (Markdown, a diff) rather than shows as it is. */
const RENDERED = "(rendered)";

/**
 * What the page should show of each item: the kit's items, redacted, escaped,
 * cut; empty replies left out. Plain prose and monospace blocks are compared
 * whitespace-collapsed; Markdown and diffs are checked elsewhere.
 */
async function expectedItems(source: AsyncIterable<LogEntry>, redact = true): Promise<Shown[]> {
  const shown: Shown[] = [];
  const items = conversation(source, { itemBudget: HTML_ITEM_BUDGET, redact });
  for await (const item of items) {
    if (item.kind === "message" && item.text === "(no content)") continue;
    const { kept, cutBytes } = pageText(item);
    let text = kept;
    if (item.kind === "message" || item.kind === "thread_message") {
      if (!isPlainProse(kept) || kept.includes("`")) text = RENDERED;
    } else if (item.kind === "tool_call") {
      text = WHOLE_INPUT_TOOLS.has(item.tool ?? "")
        ? RENDERED
        : inputText(item.tool, kept, cutBytes === 0);
    } else if (item.kind === "system" && kept.startsWith("Compaction summary:\n")) {
      text = RENDERED;
    }
    shown.push({ who: shownText(item.label, redact), text: collapsed(text) });
  }
  return shown;
}

function collapsed(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** The page's items, texts whitespace-collapsed, those the expectation marks rendered as such. */
async function comparable(page: Page, expected: Shown[]): Promise<Shown[]> {
  return (await shownItems(page)).map((item, i) => ({
    who: item.who,
    text: expected[i]?.text === RENDERED ? RENDERED : collapsed(item.text ?? ""),
  }));
}

const FIXTURES: Array<[string, () => AsyncIterable<LogEntry>]> = [
  ...[...Deno.readDirSync(new URL("fixtures/", ROOT))]
    .filter((entry) => entry.name.endsWith(".ndjson"))
    .map((entry) => entry.name).sort()
    .map((name): [string, () => AsyncIterable<LogEntry>] => [
      name,
      () => fromNdjson(new URL(`fixtures/${name}`, ROOT)),
    ]),
  [
    "claude_code/example.jsonl",
    () => fromClaudeCode(new URL("fixtures/claude_code/example.jsonl", ROOT).pathname),
  ],
  [
    "claude_code/edits.jsonl, thinking shown",
    () =>
      fromClaudeCode(new URL("fixtures/claude_code/edits.jsonl", ROOT).pathname, {
        thinking: true,
      }),
  ],
];

browserTest("each fixture: every item on the page, nothing ran or left, axe-core clean", async (
  browser,
  t,
) => {
  for (const [name, source] of FIXTURES) {
    await t.step(name, async () => {
      const html = await renderHtml(source());
      const expected = await expectedItems(source());
      assert.ok(expected.length > 0);
      await withPage(browser, html, async (page, url) => {
        assert.deepEqual(await comparable(page, expected), expected);
        assert.equal(await page.evaluate("document.scripts.length"), 0);
        assert.deepEqual(requestsThatLeft(page, url), []);
        assert.deepEqual(await seriousViolations(page), []);
      });
    });
  }
  await t.step("with JavaScript turned off, the page reads the same", async () => {
    const [, source] = FIXTURES[0]!;
    const expected = await expectedItems(source());
    await withPage(browser, await renderHtml(source()), async (page) => {
      assert.deepEqual(await comparable(page, expected), expected);
    }, { scripts: false });
  });
  await t.step("the dark colour scheme passes axe-core too", async () => {
    const [, source] = FIXTURES[0]!;
    await withPage(browser, await renderHtml(source()), async (page) => {
      await page.send("Emulation.setEmulatedMedia", {
        features: [{ name: "prefers-color-scheme", value: "dark" }],
      });
      assert.equal(await page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches"), true);
      assert.deepEqual(await seriousViolations(page), []);
    });
  });
});

// ---------------------------------------------------------------- a hostile session

/** A loopback server counting the requests it gets: a second witness of anything leaving. */
async function withLoopback(
  body: (origin: string, hits: string[]) => Promise<void>,
): Promise<void> {
  const hits: string[] = [];
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen(): void {} },
    (request) => {
      hits.push(new URL(request.url).pathname);
      return new Response("<p>not here</p>", {
        status: 404,
        headers: { "content-type": "text/html" },
      });
    },
  );
  try {
    await body(`http://127.0.0.1:${server.addr.port}`, hits);
  } finally {
    await server.shutdown();
  }
}

/** Log texts that would run, fetch or break out of their block if they were not escaped. */
function hostileTexts(origin: string): string[] {
  return [
    `<script>window.__pwned = "script"; document.title = "pwned"</script>`,
    `<img src="${origin}/img" onerror="window.__pwned = 'img'">`,
    `<a id="js-link" href="javascript:void(window.__pwned = 'link')">click me</a>`,
    `</style><style>body { background: url(${origin}/css) }</style>` +
    `<div style="background-image: url(${origin}/inline)">styled</div>`,
    `</div></details></main><script>window.__pwned = "breakout"</script><details open><summary>fake`,
    `<iframe src="${origin}/frame"></iframe><link rel="stylesheet" href="${origin}/link.css">`,
    `<svg onload="window.__pwned = 'svg'"><image href="${origin}/svg"/></svg>`,
  ];
}

function hostileSession(origin: string): LogEntry[] {
  const texts = hostileTexts(origin);
  const child = "sthr_child";
  const events: Array<[string | null, Record<string, unknown>]> = [
    [null, { id: "e1", type: "user.message", content: texts[0] }],
    [null, { id: "e2", type: "agent.message", content: texts[1] }],
    [null, {
      id: "e3",
      type: "agent.thread_message_sent",
      to_session_thread_id: child,
      to_agent_name: `<img src=${origin}/name onerror="window.__pwned='name'">`,
      content: texts[2],
    }],
    [child, { id: "e4", type: "agent.message", content: texts[3] }],
    [child, { id: "e5", type: "agent.tool_use", name: `<b onclick=x>bash</b>`, input: texts[4] }],
    [child, { id: "e6", type: "agent.tool_result", tool_use_id: "e5", content: texts[4] }],
    [null, {
      id: "e7",
      type: "agent.tool_result",
      tool_use_id: "e0",
      is_error: true,
      content: texts[5],
    }],
    [null, { id: "e8", type: "session.error", error: { type: "x", message: texts[6] } }],
  ];
  return events.map(([thread, event], i) => ({
    seq: i + 1,
    session_id: "sesn_hostile",
    thread_id: thread,
    event: asEvent(event),
  }));
}

/** What a hostile script or load would have left behind, read from the live page. */
const SENTINEL = `({
  pwned: typeof window.__pwned === "undefined" ? null : String(window.__pwned),
  title: document.title,
})`;

/**
 * Clicks every link a page should not have, as a curious reader would: any but a web or mail
 * link (which leaves the page by the reader's choice, as its text says) and an item's anchor.
 */
const CLICK_LINKS = `[...document.querySelectorAll("a")]
  .filter((a) => !/^(?:https?:|mailto:|#item-[0-9]+$)/.test(a.getAttribute("href") ?? ""))
  .forEach((a) => a.click()); true`;

/** Links to anything but the web, mail or an item of the page. */
const UNSAFE_LINKS = `[...document.querySelectorAll("a")]
  .filter((a) => !/^(?:https?:|mailto:|#item-[0-9]+$)/.test(a.getAttribute("href") ?? "")).length`;

browserTest(
  "a hostile session stays inert text: nothing runs, loads or breaks out",
  async (browser) => {
    await withLoopback(async (origin, hits) => {
      const session = hostileSession(origin);
      const html = await renderHtml(session);
      await withPage(browser, html, async (page, url) => {
        await page.evaluate(CLICK_LINKS);
        assert.deepEqual(await page.evaluate(SENTINEL), {
          pwned: null,
          title: "Session sesn_hostile",
        });
        const expected = await expectedItems(fromEntriesAsync(session));
        assert.deepEqual(await comparable(page, expected), expected);
        assert.deepEqual(
          await page.evaluate(`({
          scripts: document.scripts.length,
          links: ${UNSAFE_LINKS},
          loads: document.querySelectorAll("img, iframe, link, svg, [style]").length,
          styles: document.querySelectorAll("style").length,
          handlers: [...document.querySelectorAll("*")].filter((el) =>
            [...el.attributes].some((a) => a.name.startsWith("on"))).length,
          details: document.querySelectorAll("details").length,
          blocks: document.querySelectorAll("main > .item").length,
        })`),
          { scripts: 0, links: 0, loads: 0, styles: 1, handlers: 0, details: 3, blocks: 8 },
        );
        assert.deepEqual(requestsThatLeft(page, url), []);
        assert.deepEqual(page.requests.filter((r) => r.url !== url), []);
        assert.deepEqual(hits, []);
      });
    });
  },
);

/** A session with what the page renders: Markdown, an edit, a written file, thinking; all hostile. */
function renderedSession(origin: string): LogEntry[] {
  const load = (what: string): string =>
    `<img src="${origin}/${what}" onerror="window.__pwned='${what}'">`;
  const events: Array<Record<string, unknown>> = [
    {
      type: "user.message",
      content: "Make the table:\n\n| name | done |\n|---|---|\n| ~~old~~ new | yes |\n\n" +
        "- [x] parse\n- [ ] render\n\n```ts\nconst answer = 42;\n```",
    },
    { type: "agent.thinking", thinking: `First I *think*. ${load("thinking")}` },
    {
      type: "agent.message",
      content: [
        `<script>window.__pwned = "script"</script>`,
        `text ${load("inline")} more`,
        `[js](javascript:void(window.__pwned='js')) [data](data:text/html,<script>alert(1)</script>)`,
        `![pic](${origin}/md-image) <javascript:void(window.__pwned='auto')>`,
        `| ${load("cell")} | <b onclick="window.__pwned='b'">b</b> |\n|---|---|\n| x | y |`,
        '```js" onload="window.__pwned=\'info\'"><img src=x onerror=alert(1)>\ncode\n```',
      ].join("\n\n"),
    },
    {
      type: "agent.tool_use",
      id: "toolu_edit",
      name: "Edit",
      input: {
        file_path: `src/${load("path")}.ts`,
        old_string: "keep\nconst a = 1;\nend",
        new_string: `keep\nconst a = "</span></code></pre>${load("diff")}";\nend`,
      },
    },
    { type: "agent.tool_result", tool_use_id: "toolu_edit", content: "ok" },
    {
      type: "agent.tool_use",
      id: "toolu_write",
      name: "Write",
      input: { file_path: `${load("write-path")}.md`, content: `# Notes\n${load("write")}` },
    },
    { type: "agent.tool_use", id: "toolu_read", name: "Read", input: { file_path: "a.ts" } },
    { type: "agent.tool_result", tool_use_id: "toolu_read", content: `1\t${load("read")}` },
  ];
  return events.map((event, i) => ({
    seq: i + 1,
    session_id: "sesn_rendered",
    thread_id: null,
    event: asEvent({ id: `e${i + 1}`, processed_at: "2026-09-14T10:00:00Z", ...event }),
  }));
}

browserTest(
  "Markdown, a diff, a file, code and folded thinking in the live DOM; their hostile texts stay inert",
  async (browser, t) => {
    await withLoopback(async (origin, hits) => {
      const html = await renderHtml(renderedSession(origin));
      await withPage(browser, html, async (page, url) => {
        await t.step("the live DOM shows each element", async () => {
          assert.deepEqual(
            await page.evaluate(`({
              table: [...document.querySelectorAll("main table")].map((table) =>
                [...table.querySelectorAll("th")].map((th) => th.textContent)),
              struck: document.querySelector("main td s")?.textContent,
              tasks: [...document.querySelectorAll(".task")].map((e) => e.getAttribute("aria-label")),
              lang: document.querySelector(".fenced .lang")?.textContent,
              code: document.querySelector(".fenced pre.code code")?.textContent,
              removed: [...document.querySelectorAll(".diff .del")].map((e) => e.textContent),
              added: [...document.querySelectorAll(".diff .add")].map((e) => e.textContent),
              path: document.querySelector(".diff .path")?.textContent,
              file: document.querySelector(".file pre.code")?.textContent,
              thinking: [...document.querySelectorAll("details.k-thinking")].map((d) => d.open),
            })`),
            {
              table: [["name", "done"], [
                `<img src="${origin}/cell" onerror="window.__pwned='cell'">`,
                `<b onclick="window.__pwned='b'">b</b>`,
              ]],
              struck: "old",
              tasks: ["done", "not done"],
              lang: "ts",
              code: "const answer = 42;\n",
              removed: ["-const a = 1;"],
              added: [
                `+const a = "</span></code></pre><img src="${origin}/diff" onerror="window.__pwned='diff'">";`,
              ],
              path: `src/<img src="${origin}/path" onerror="window.__pwned='path'">.ts`,
              file: `# Notes\n<img src="${origin}/write" onerror="window.__pwned='write'">`,
              thinking: [false],
            },
          );
          assert.match(
            await page.evaluate<string>(
              `getComputedStyle(document.querySelector(".diff pre.code")).fontFamily`,
            ),
            /monospace/,
          );
        });
        await t.step("nothing ran, loaded or left, every link clicked", async () => {
          await page.evaluate(
            `for (const d of document.querySelectorAll("details")) d.open = true; true`,
          );
          await page.evaluate(CLICK_LINKS);
          assert.deepEqual(await page.evaluate(SENTINEL), {
            pwned: null,
            title: "Session sesn_rendered",
          });
          assert.deepEqual(
            await page.evaluate(`({
              scripts: document.scripts.length,
              links: ${UNSAFE_LINKS},
              loads: document.querySelectorAll("img, iframe, link, svg, input, [style]").length,
              handlers: [...document.querySelectorAll("*")].filter((el) =>
                [...el.attributes].some((a) => a.name.startsWith("on"))).length,
            })`),
            { scripts: 0, links: 0, loads: 0, handlers: 0 },
          );
          assert.deepEqual(requestsThatLeft(page, url), []);
          assert.deepEqual(page.requests.filter((r) => r.url !== url), []);
          assert.deepEqual(hits, []);
        });
        for (const scheme of ["light", "dark"]) {
          await t.step(`axe-core finds nothing serious, folds open, ${scheme}`, async () => {
            await page.send("Emulation.setEmulatedMedia", {
              features: [{ name: "prefers-color-scheme", value: scheme }],
            });
            assert.deepEqual(await seriousViolations(page), []);
          });
        }
      });
    });
  },
);

browserTest(
  "token usage in the live DOM: each request's after its reply, the total in the header, axe-core clean",
  async (browser, t) => {
    const pages: Array<[string, () => AsyncIterable<LogEntry>, unknown]> = [
      ["a Managed Agents log", () => fromNdjson(SINGLE_AGENT), {
        notes: [
          { after: "item-3", figures: [1840, 96, 5120, 0] },
          { after: "item-6", figures: [2210, 41, 6960, 0] },
          { after: "item-8", figures: [2301, 38, 6960, 0] },
          { after: "item-10", figures: [2560, 120, 6960, 0] },
        ],
        first: "tokens: 1,840 input · 96 output · 5,120 cache read · 0 cache write",
        total: "8,911 input · 295 output · 26,000 cache read · 0 cache write",
        discreet: true,
      }],
      [
        "a Claude Code transcript, a response split over records",
        () => fromClaudeCode(splitUsageTranscript()),
        {
          notes: [
            { after: "item-3", figures: [12, 58, 4000, 300] },
            { after: "item-5", figures: [5, 9, 4500, 0] },
          ],
          first: "tokens: 12 input · 58 output · 4,000 cache read · 300 cache write",
          total: "17 input · 67 output · 8,500 cache read · 300 cache write",
          discreet: true,
        },
      ],
    ];
    for (const [name, source, expected] of pages) {
      await withPage(browser, await renderHtml(source()), async (page) => {
        await t.step(name, async () => {
          assert.deepEqual(
            await page.evaluate(`(() => {
              const notes = [...document.querySelectorAll("main > .usage")];
              const total = [...document.querySelectorAll(".facts > div")]
                .find((d) => d.querySelector("dt").textContent === "Tokens");
              const size = (el) => parseFloat(getComputedStyle(el).fontSize);
              return {
                notes: notes.map((p) => ({
                  after: p.previousElementSibling?.id ?? null,
                  figures: [...p.querySelectorAll("data")].map((d) => Number(d.value)),
                })),
                first: notes[0]?.innerText,
                total: total?.querySelector("dd").innerText,
                discreet: notes.every((p) => p.getBoundingClientRect().height > 0 &&
                  size(p) < size(document.querySelector("main .text"))),
              };
            })()`),
            expected,
          );
        });
        for (const scheme of ["light", "dark"]) {
          await t.step(`${name}: axe-core finds nothing serious, ${scheme}`, async () => {
            await page.send("Emulation.setEmulatedMedia", {
              features: [{ name: "prefers-color-scheme", value: scheme }],
            });
            assert.deepEqual(await seriousViolations(page), []);
          });
        }
      });
    }
  },
);

browserTest("the checks catch a page that does not escape (the same texts as raw HTML)", async (
  browser,
  t,
) => {
  const raw = (origin: string, head: string): string =>
    `<!DOCTYPE html><html lang="en"><head>${head}<title>raw</title></head><body><main>${
      hostileTexts(origin).map((text) =>
        `<details open><summary>x</summary><div>${text}</div></details>`
      )
        .join("")
    }</main></body></html>`;
  await t.step("without a policy, scripts run and requests leave", async () => {
    await withLoopback(async (origin, hits) => {
      await withPage(browser, raw(origin, ""), async (page, url) => {
        await page.evaluate(CLICK_LINKS);
        const sentinel = await page.evaluate<{ pwned: string | null }>(SENTINEL);
        assert.notEqual(sentinel.pwned, null);
        assert.ok(requestsThatLeft(page, url).length > 0);
        assert.ok(hits.length > 0);
      });
    });
  });
  await t.step(
    "under the page's policy, the same markup is blocked, and counted blocked",
    async () => {
      const csp =
        (await renderHtml([])).match(/<meta http-equiv="Content-Security-Policy"[^>]*>/)![0];
      await withLoopback(async (origin, hits) => {
        await withPage(browser, raw(origin, csp), async (page, url) => {
          await page.evaluate(CLICK_LINKS);
          assert.deepEqual(await page.evaluate(SENTINEL), { pwned: null, title: "raw" });
          const blocked = page.requests.filter((r) => r.blockedReason === "csp");
          assert.ok(blocked.length > 0);
          assert.deepEqual(requestsThatLeft(page, url), []);
          assert.deepEqual(hits, []);
        });
      });
    },
  );
});

async function* fromEntriesAsync(entries: LogEntry[]): AsyncGenerator<LogEntry> {
  yield* entries;
}

// ---------------------------------------------------------------- deno task render

const CONFIG = new URL("deno.json", ROOT).pathname;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `deno task render` as a user does, from another directory. */
async function renderTask(args: string[], cwd: string): Promise<Run> {
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["task", "--quiet", "--config", CONFIG, "render", ...args],
    cwd,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1", "?": "", npm_lifecycle_event: "" },
  }).output();
  const decode = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);
  return { code, stdout: decode(stdout), stderr: decode(stderr) };
}

/** An NDJSON log of one session: a user message, then an agent reply. */
function sessionLog(sessionId: string, at: string, ask: string): string {
  return [
    { id: "e1", type: "user.message", processed_at: at, content: ask },
    { id: "e2", type: "agent.message", processed_at: at, content: `On it: ${ask}` },
  ].map((event, i) => JSON.stringify({ seq: i + 1, session_id: sessionId, thread_id: null, event }))
    .join("\n") + "\n";
}

async function withTempDir(body: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "transcript_html_cli_" });
  try {
    await body(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

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
    /<details class="item k-thinking t0" id="item-2"><summary><span class="who">agent thinking<\/span>/,
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

/**
 * A Claude Code transcript: a prompt; a response written as three records
 * (thinking, text, a Bash call), each repeating its message id and usage,
 * the output count growing; the call's result; a second response of one
 * record; a replay of the first response's text record (same id).
 */
function splitUsageTranscript(): ReadableStream<Uint8Array> {
  const usage = {
    input_tokens: 12,
    cache_creation_input_tokens: 300,
    cache_read_input_tokens: 4000,
  };
  const reply = (uuid: string, id: string, block: unknown, output: number): unknown => ({
    type: "assistant",
    uuid,
    timestamp: "2026-03-01T10:00:01Z",
    message: {
      model: "claude-x",
      id,
      role: "assistant",
      content: [block],
      usage: id === "msg_1"
        ? { ...usage, output_tokens: output }
        : { input_tokens: 5, output_tokens: output, cache_read_input_tokens: 4500 },
    },
  });
  const records = [
    {
      type: "user",
      uuid: "u1",
      timestamp: "2026-03-01T10:00:00Z",
      message: { content: "Run it." },
    },
    reply("a1", "msg_1", { type: "thinking", thinking: "ok", signature: "s" }, 6),
    reply("a2", "msg_1", { type: "text", text: "Running." }, 6),
    reply("a3", "msg_1", {
      type: "tool_use",
      id: "toolu_1",
      name: "Bash",
      input: { command: "ls" },
    }, 58),
    {
      type: "user",
      uuid: "u2",
      timestamp: "2026-03-01T10:00:02Z",
      message: { content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "a.ts" }] },
    },
    reply("a4", "msg_2", { type: "text", text: "One file." }, 9),
    reply("a5", "msg_1", { type: "text", text: "Running." }, 58),
  ];
  const text = records.map((record) => JSON.stringify(record) + "\n").join("");
  return ReadableStream.from([new TextEncoder().encode(text)]);
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

Deno.test("pageSummary() reads a planted page's texts as untrusted: redacted, controls visible, cut", async () => {
  const planted = {
    sessionId: "sesn_\u202eevil\n",
    startedAt: `2026\x1b[31m`,
    turns: 1,
    threads: 1,
    items: 2,
    firstUser: `key ${SECRET} ${"x".repeat(500)}`,
    cut: false,
  };
  const page = `<head><meta name="brigade-transcript-session" content="${
    JSON.stringify(planted).replaceAll("&", "&amp;").replaceAll('"', "&quot;")
  }"></head>`;
  const summary = pageSummary(page)!;
  assert.equal(summary.sessionId, "sesn_\\u202eevil\\n");
  assert.equal(summary.startedAt, "2026\\x1b[31m");
  assert.ok(!summary.firstUser.includes(SECRET));
  assert.ok(summary.firstUser.startsWith("key [REDACTED_SECRET] xxx"));
  assert.equal([...summary.firstUser].length, 200);
  const index = await indexPage([{ name: "p.html", summary }]);
  assert.ok(!index.includes("\u202e") && !index.includes(SECRET));
});

Deno.test("deno task render --renderer html writes one page, the same renderHtml gives", async () => {
  await withTempDir(async (dir) => {
    const fixture = new URL("fixtures/coordinator_all_threads.ndjson", ROOT).pathname;
    const run = await renderTask(
      ["--renderer", "html", "--out", `${dir}/session.html`, fixture],
      dir,
    );
    assert.equal(run.code, 0, run.stderr);
    assert.equal(
      await Deno.readTextFile(`${dir}/session.html`),
      await renderHtml(fromNdjson(fixture)),
    );
    const help = await renderTask(["--help"], dir);
    assert.match(help.stdout, /^ {2}html {7}A self-contained HTML page/m);
  });
});

Deno.test("deno task render --renderer html --out DIR: one page a session and an index.html of the folder", async (t) => {
  await withTempDir(async (dir) => {
    await Deno.writeTextFile(
      `${dir}/two.ndjson`,
      sessionLog("sesn_b", "2026-09-02T00:00:00Z", "second <b>bold</b>") +
        sessionLog("sesn_a", "2026-09-01T00:00:00Z", "first"),
    );
    await Deno.writeTextFile(
      `${dir}/one.ndjson`,
      sessionLog("sesn_c", "2026-08-31T00:00:00Z", "zeroth"),
    );
    const links = (html: string): string[] =>
      [...html.matchAll(/<a href="([^"]+)">/g)].map((m) => m[1]!);

    await t.step("one run of everything", async () => {
      const run = await renderTask([
        "-r",
        "html",
        "--out",
        `${dir}/all/`,
        `${dir}/two.ndjson`,
        `${dir}/one.ndjson`,
      ], dir);
      assert.equal(run.code, 0, run.stderr);
      const names = (await Array.fromAsync(Deno.readDir(`${dir}/all`))).map((e) => e.name).sort();
      assert.deepEqual(names, [
        ".transcript-manifest.json",
        "index.html",
        "sesn_a.html",
        "sesn_b.html",
        "sesn_c.html",
      ]);
      const index = await Deno.readTextFile(`${dir}/all/index.html`);
      // Newest first.
      assert.deepEqual(links(index), ["sesn_b.html", "sesn_a.html", "sesn_c.html"]);
      assert.match(index, /second &lt;b&gt;bold&lt;\/b&gt;/);
      assert.match(index, /<meta http-equiv="Content-Security-Policy" content="default-src 'none'/);
    });

    await t.step("the same sessions over two runs give the same index, byte for byte", async () => {
      const first = await renderTask([
        "-r",
        "html",
        "--out",
        `${dir}/resumed/`,
        `${dir}/one.ndjson`,
      ], dir);
      assert.equal(first.code, 0, first.stderr);
      assert.deepEqual(links(await Deno.readTextFile(`${dir}/resumed/index.html`)), [
        "sesn_c.html",
      ]);
      const second = await renderTask(
        ["-r", "html", "--out", `${dir}/resumed/`, `${dir}/two.ndjson`],
        dir,
      );
      assert.equal(second.code, 0, second.stderr);
      assert.equal(
        await Deno.readTextFile(`${dir}/resumed/index.html`),
        await Deno.readTextFile(`${dir}/all/index.html`),
      );
    });

    await t.step("a file that is not a session page is left out of the index", async () => {
      await Deno.writeTextFile(`${dir}/resumed/notes.html`, "<p>mine</p>");
      await Deno.writeTextFile(
        `${dir}/resumed/forged.html`,
        `<head><meta name="brigade-transcript-session" content="{&quot;sessionId&quot;:1}"></head>`,
      );
      const run = await renderTask(
        ["-r", "html", "--force", "--out", `${dir}/resumed/`, `${dir}/one.ndjson`],
        dir,
      );
      assert.equal(run.code, 0, run.stderr);
      assert.equal(
        await Deno.readTextFile(`${dir}/resumed/index.html`),
        await Deno.readTextFile(`${dir}/all/index.html`),
      );
    });
  });
});

browserTest(
  "the folder's index.html links every page, loads nothing, passes axe-core",
  async (browser) => {
    await withTempDir(async (dir) => {
      await Deno.writeTextFile(
        `${dir}/log.ndjson`,
        sessionLog("sesn_x/../y", "2026-09-01T00:00:00Z", "an id with a slash") +
          sessionLog(
            `sesn_z"><img src=x onerror="window.__pwned='id'">`,
            "2026-09-02T00:00:00Z",
            `<script>window.__pwned = "first"</script>`,
          ),
      );
      const run = await renderTask(
        ["-r", "html", "--out", `${dir}/out/`, `${dir}/log.ndjson`],
        dir,
      );
      assert.equal(run.code, 0, run.stderr);
      const url = new URL(`file://${dir}/out/index.html`).href;
      const page = await browser.open(url);
      try {
        const hrefs = await page.evaluate<string[]>(
          `[...document.querySelectorAll("a")].map((a) => a.href)`,
        );
        assert.equal(hrefs.length, 2);
        for (const href of hrefs) {
          assert.ok(href.startsWith(new URL(`file://${dir}/out/`).href), href);
          const text = await Deno.readTextFile(new URL(href));
          assert.match(text, /<title>Session sesn_/);
        }
        assert.deepEqual(await page.evaluate(SENTINEL), {
          pwned: null,
          title: "Index of sessions",
        });
        assert.match(
          await page.evaluate<string>("document.body.innerText"),
          /<script>window.__pwned = "first"<\/script>/,
        );
        assert.deepEqual(requestsThatLeft(page, url), []);
        assert.deepEqual(await seriousViolations(page), []);
      } finally {
        await page.close();
      }
    });
  },
);

browserTest("a screenshot of a fixture's page is a PNG of the viewport", async (browser) => {
  const html = await renderHtml(fromNdjson(new URL("fixtures/single_agent.ndjson", ROOT)));
  await withPage(browser, html, async (page) => {
    const png = await page.screenshot();
    assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const header = new DataView(png.buffer, png.byteOffset + 16, 8); // IHDR width, height
    assert.deepEqual([header.getUint32(0), header.getUint32(4)], [640, 480]);
  }, { width: 640, height: 480 });
});

Deno.test("indexPage() names a project by the directory its sessions ran in, by its folder when they differ", async () => {
  const summary = (sessionId: string, startedAt: string, project: string, cwd: string) => ({
    sessionId,
    startedAt,
    turns: 1,
    threads: 1,
    items: 2,
    firstUser: "hello",
    cut: false,
    project,
    cwd,
  });
  const heading = (index: string): string[] =>
    [...index.matchAll(/<h2[^>]*>([^<]*)<\/h2>/g)].map((match) => match[1]!);
  const one = await indexPage([
    {
      name: "a.html",
      summary: summary("s1", "2026-09-01T10:00:00Z", "-home-me-app", "/home/me/app"),
    },
    {
      name: "b.html",
      summary: summary("s2", "2026-09-02T10:00:00Z", "-home-me-app", "/home/me/app"),
    },
  ]);
  assert.deepEqual(heading(one), ["/home/me/app"]);
  const mixed = await indexPage([
    { name: "a.html", summary: summary("s1", "2026-09-01T10:00:00Z", "collected", "/home/me/app") },
    { name: "b.html", summary: summary("s2", "2026-09-02T10:00:00Z", "collected", "/srv/other") },
  ]);
  assert.deepEqual(heading(mixed), ["collected"]);
});
