// Copyright 2026 the brigade authors. MIT license.

// The html page and the site of a folder of pages as a person opens them: in headless Chromium
// (escaping, no load, links, axe-core), and as `deno task render --renderer html` writes them.

import assert from "node:assert/strict";
import { splitUsageTranscript } from "./_usage_transcript.ts";
import { seriousViolations } from "./_axe.ts";
import { fromClaudeCode, fromNdjson, type LogEntry, renderHtml } from "../mod.ts";
import { conversation } from "../kit/conversation.ts";
import { pageText, shownText } from "../renderers/html/_page.ts";
import { inputText, isPlainProse, WHOLE_INPUT_TOOLS } from "../renderers/html/_body.ts";
import { HTML_ITEM_BUDGET } from "../renderers/html/options.ts";
import { PAGE_SCRIPT } from "../renderers/html/_script.ts";
import { indexPage, pageSummary } from "../renderers/html/html_index.ts";
import {
  type Browser,
  findChromium,
  type OpenOptions,
  type Page,
  requestsThatLeft,
  withBrowser,
} from "./_browser.ts";
import { asEvent } from "../events/fields.ts";

const ROOT = new URL("../", import.meta.url);
const SINGLE_AGENT = new URL("fixtures/single_agent.ndjson", ROOT).pathname;

const SECRET = "sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789";
// ---------------------------------------------------------------- in a real browser

const chromium = await findChromium();
const inCi = Deno.env.get("CI") === "true";
if (chromium === undefined && !inCi) {
  console.error(
    "html_browser_test: Chromium not found (/usr/bin/chromium, or $CHROMIUM_PATH): the browser checks are skipped. Install it with `apt-get install chromium`.",
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
      // Any tool's whole input has a body of its own (key–value text at least), but Bash's line.
      text =
        WHOLE_INPUT_TOOLS.has(item.tool ?? "") || (item.tool !== "Bash" && kept.startsWith("{"))
          ? RENDERED
          : inputText(item.tool, kept, cutBytes === 0);
    } else if (item.kind === "tool_result" && /^(?:Read|Agent|Task)$/.test(item.tool ?? "")) {
      text = RENDERED; // numbered lines, a report's Markdown: tests/html_tools_test.ts
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
        assert.equal(await page.evaluate(FOREIGN_SCRIPTS), 0);
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

/** The scripts of the live page other than its own one (find and filter), which its policy names. */
const FOREIGN_SCRIPTS = `[...document.scripts].filter((s) => s.textContent !== ${
  JSON.stringify(PAGE_SCRIPT)
}).length`;

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
          scripts: ${FOREIGN_SCRIPTS},
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
              scripts: ${FOREIGN_SCRIPTS},
              links: ${UNSAFE_LINKS},
              // The page's own search bar has inputs: none may come from the log.
              loads: document.querySelectorAll("img, iframe, link, svg, input:not(#find *), [style]")
                .length,
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
          // Anchors are the entries' seqs (`item-<seq>`), as the grader's [M<seq>] labels name them.
          { after: "item-6", figures: [1840, 96, 5120, 0] },
          { after: "item-12", figures: [2210, 41, 6960, 0] },
          { after: "item-16", figures: [2301, 38, 6960, 0] },
          { after: "item-20", figures: [2560, 120, 6960, 0] },
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
            { after: "item-7", figures: [5, 9, 4500, 0] },
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
