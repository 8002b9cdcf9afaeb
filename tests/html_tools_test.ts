// Copyright 2026 the brigade authors. MIT license.

// Every tool as it is meant to be read, in the live DOM of headless Chromium: a to-do list as
// a checklist, a subagent's task, a plan and a report as Markdown, a read file's numbered
// lines, searches, fetches, a notebook cell, any other input as key–value text; diffs that
// tell the truth (a contiguous head, an append as additions); a subagent's work folded under
// the call that started it. Every field hostile, nothing runs or loads.

import assert from "node:assert/strict";
import { fromClaudeCode, type LogEntry, renderHtml } from "../mod.ts";
import { asEvent } from "../events/fields.ts";
import {
  type Browser,
  findChromium,
  type Page,
  requestsThatLeft,
  withBrowser,
} from "./_browser.ts";
import { seriousViolations } from "./_axe.ts";
import { PAGE_SCRIPT } from "../renderers/html/_script.ts";

const ROOT = new URL("../", import.meta.url);
const SUBAGENTS = new URL(
  "fixtures/claude_code/current/home-dev-app/7f3c2a10-5b8e-4d21-9c6a-2e4f8b1d0a93.jsonl",
  ROOT,
).pathname;

const chromium = await findChromium();
const inCi = Deno.env.get("CI") === "true";

/** One session's entries from events on the primary thread (`[thread, event]` for another). */
function session(
  events: Array<Record<string, unknown> | [string, Record<string, unknown>]>,
): LogEntry[] {
  return events.map((given, i) => {
    const [thread, event] = Array.isArray(given) ? given : [null, given];
    return {
      seq: i + 1,
      session_id: "sesn_tools",
      thread_id: thread,
      event: asEvent({ id: `e${i + 1}`, processed_at: "2026-11-20T09:00:00Z", ...event }),
    };
  });
}

/** A call and its result: `name` called with `input`, answered by `result`. */
function call(
  id: string,
  name: string,
  input: unknown,
  result?: string,
): Array<Record<string, unknown>> {
  const use = { type: "agent.tool_use", id, name, input };
  return result === undefined
    ? [use]
    : [use, { type: "agent.tool_result", tool_use_id: id, content: result }];
}

const TODOS = [
  { content: "Read the loader", status: "completed", activeForm: "Reading the loader" },
  { content: "Fix the **parser**", status: "in_progress", activeForm: "Fixing the parser" },
  { content: "Write the tests", status: "pending", activeForm: "Writing the tests" },
];

/** A session calling each of Claude Code's tools once. */
function toolsSession(): LogEntry[] {
  return session([
    { type: "user.message", content: "Go." },
    ...call("t1", "TodoWrite", { todos: TODOS }),
    ...call("t2", "Task", {
      description: "Find the loader",
      subagent_type: "Explore",
      prompt: "Find **where** the config loads.\n\n- look in `src/`\n- report the line",
    }, "## Found\n\nIt is in `src/config.ts`, line **12**."),
    ...call("t3", "ExitPlanMode", { plan: "# Plan\n\n1. Parse\n2. Render\n\nThen *ship*." }),
    ...call(
      "t4",
      "Read",
      { file_path: "/src/a.ts", offset: 8, limit: 3 },
      [
        "     8→const a = 1;",
        "     9→",
        "    10→export { a };",
      ].join("\n"),
    ),
    ...call("t5", "Grep", { pattern: "load(Config)?", path: "src", glob: "*.ts", "-n": true }),
    ...call("t6", "Glob", { pattern: "**/*_test.ts" }),
    ...call("t7", "WebFetch", { url: "https://example.org/docs", prompt: "What is new?" }),
    ...call("t8", "WebSearch", { query: "deno 2.9 release" }),
    ...call("t9", "NotebookEdit", {
      notebook_path: "/n/a.ipynb",
      cell_id: "c3",
      cell_type: "code",
      new_source: "import pandas\nprint(1)",
    }),
    ...call("t10", "mcp__db__query", { sql: "select *\nfrom users\nwhere id = 1", limit: 5 }),
  ]);
}

/** Numbered lines `0`…`n-1`, some long and some short, so that a budget cut falls among both. */
function mixedLines(n: number): string {
  return Array.from({ length: n }, (_, i) => `${i} ${i % 3 === 0 ? "x".repeat(300) : "y"}`).join(
    "\n",
  );
}

function editsSession(): LogEntry[] {
  const base = Array.from({ length: 50 }, (_, i) => `base ${i}`).join("\n") + "\n";
  const added = Array.from({ length: 300 }, (_, i) => `added ${i}`).join("\n") + "\n";
  return session([
    ...call("d1", "Edit", { file_path: "cut.txt", old_string: "", new_string: mixedLines(200) }),
    ...call("d2", "Edit", { file_path: "append.txt", old_string: base, new_string: base + added }),
  ]);
}

/** What a hostile field tries: a load, a handler, a tag closing the body's markup. */
function hostile(origin: string, what: string): string {
  return `</code></pre></div><img src="${origin}/${what}" onerror="window.__pwned='${what}'"><script>window.__pwned='s-${what}'</script>`;
}

function hostileToolsSession(origin: string): LogEntry[] {
  const h = (what: string): string => hostile(origin, what);
  const agent = `sidechain:${h("thread")}`;
  return session([
    ...call("h1", "TodoWrite", {
      todos: [{ content: h("todo"), status: h("status") }, {
        content: h("todo2"),
        status: "completed",
      }],
    }),
    ...call("h2", "Agent", {
      description: h("description"),
      subagent_type: h("type"),
      prompt: h("prompt"),
    }),
    { type: "session.thread_created", session_thread_id: agent, agent_name: h("agent") },
    [agent, { type: "agent.message", content: h("subagent-message") }],
    {
      type: "agent.tool_result",
      tool_use_id: "h2",
      content: `[r](javascript:window.__pwned='md') ${h("report")}`,
    },
    ...call("h3", "ExitPlanMode", {
      plan: `${h("plan")}\n\n[x](javascript:window.__pwned='plan')`,
    }),
    ...call(
      "h4",
      "Read",
      { file_path: h("read-path"), offset: h("offset") },
      `     1→${h("read")}`,
    ),
    ...call("h5", "Grep", { pattern: h("pattern"), path: h("grep-path"), [h("key")]: h("option") }),
    ...call("h6", "Glob", { pattern: h("glob") }),
    ...call("h7", "WebFetch", {
      url: `javascript:window.__pwned='url'//${h("url")}`,
      prompt: h("fetch"),
    }),
    ...call("h8", "WebFetch", {
      url: `https://example.org/"><img src=x onerror=alert(1)>`,
      prompt: "x",
    }),
    ...call("h9", "WebSearch", { query: h("query"), allowed_domains: [h("domain")] }),
    ...call("h10", "NotebookEdit", {
      notebook_path: h("nb"),
      cell_id: h("cell"),
      cell_type: h("cell-type"),
      edit_mode: h("mode"),
      new_source: h("source"),
    }),
    ...call("h11", h("tool"), { [h("k")]: h("v"), nested: { [h("k2")]: [h("v2")] } }),
    ...call("h12", "Edit", {
      file_path: h("edit-path"),
      old_string: h("old"),
      new_string: h("new"),
    }),
  ]);
}

/** Writes a page to a temporary file, opens it, runs `body`, cleans up. */
async function withPage(
  browser: Browser,
  html: string,
  body: (page: Page, url: string) => Promise<void>,
): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "transcript_tools_" });
  try {
    const path = `${dir}/page.html`;
    await Deno.writeTextFile(path, html);
    const url = new URL(`file://${path}`).href;
    const page = await browser.open(url);
    try {
      await body(page, url);
    } finally {
      await page.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** The folded item (a `<details>`) whose summary names `tool`, as an expression. */
const itemOf = (tool: string, nth = 0): string =>
  `[...document.querySelectorAll("main details.k-tool_call")].filter((d) => d.querySelector(".who").textContent.endsWith(${
    JSON.stringify(` ${tool}`)
  }))[${nth}]`;
/** The block before a fold, past the call's token note (a note of the request that made the call). */
const CALL_BEFORE = `function callBefore(fold) {
  let at = fold.previousElementSibling;
  while (at !== null && at.matches("p.usage")) at = at.previousElementSibling;
  return at;
}`;
const resultOf = (tool: string): string =>
  `[...document.querySelectorAll("main details.k-tool_result")].find((d) => d.querySelector(".who").textContent.startsWith(${
    JSON.stringify(`tool ${tool} `)
  }))`;

Deno.test({
  name: "html tool bodies in headless Chromium",
  ignore: chromium === undefined && !inCi,
  async fn(t): Promise<void> {
    if (chromium === undefined) {
      throw new Error("Chromium is not installed, and CI=true requires it");
    }
    await withBrowser(chromium, async (browser) => {
      await t.step(
        "TodoWrite is a checklist: each to-do with a mark and its state in words",
        async () => {
          await withPage(browser, await renderHtml(toolsSession()), async (page) => {
            assert.deepEqual(
              await page.evaluate(
                `[...${itemOf("TodoWrite")}.querySelectorAll("li.todo")].map((li) => ({
              mark: li.querySelector(".mark").textContent,
              text: li.querySelector(".todo-text").textContent,
              state: li.querySelector(".state").textContent,
            }))`,
              ),
              [
                { mark: "☑", text: "Read the loader", state: "(completed)" },
                { mark: "◐", text: "Fix the **parser**", state: "(in progress)" },
                { mark: "☐", text: "Write the tests", state: "(pending)" },
              ],
            );
            assert.equal(
              await page.evaluate(`${itemOf("TodoWrite")}.querySelector(".preview").textContent`),
              "3 to-dos: 1 completed, 1 in progress, 1 pending",
            );
            assert.doesNotMatch(
              await page.evaluate<string>(`${itemOf("TodoWrite")}.innerText`),
              /[{"]/,
            );
          });
        },
      );
      await t.step(
        "a Task prompt, the ExitPlanMode plan and a subagent's report are Markdown",
        async () => {
          await withPage(browser, await renderHtml(toolsSession()), async (page) => {
            assert.deepEqual(
              await page.evaluate(`(() => {
              const task = ${itemOf("Task")};
              const plan = ${itemOf("ExitPlanMode")};
              const report = ${resultOf("Task")};
              return {
                who: task.querySelector(".path").textContent,
                strong: task.querySelector(".prose strong")?.textContent,
                list: [...task.querySelectorAll(".prose li")].map((li) => li.textContent),
                planHeading: plan.querySelector(".prose h3")?.textContent,
                planSteps: [...plan.querySelectorAll(".prose ol li")].map((li) => li.textContent),
                planEm: plan.querySelector(".prose em")?.textContent,
                reportHeading: report.querySelector(".report h4")?.textContent,
                reportCode: report.querySelector(".report code")?.textContent,
                literal: (task.innerText + plan.innerText + report.innerText).includes("\\\\n"),
              };
            })()`),
              {
                who: "Explore: Find the loader",
                strong: "where",
                list: ["look in src/", "report the line"],
                planHeading: "Plan",
                planSteps: ["Parse", "Render"],
                planEm: "ship",
                reportHeading: "Found",
                reportCode: "src/config.ts",
                literal: false,
              },
            );
          });
        },
      );
      await t.step(
        "Read shows its path and lines, its result's numbers aligned in a column",
        async () => {
          await withPage(browser, await renderHtml(toolsSession()), async (page) => {
            assert.deepEqual(
              await page.evaluate(`(() => {
              const result = ${resultOf("Read")};
              return {
                call: ${itemOf("Read")}.querySelector(".path").textContent,
                numbers: [...result.querySelectorAll(".ln")].map((n) => n.textContent),
                lines: result.querySelector("pre.numbered").textContent.split("\\n"),
              };
            })()`),
              {
                call: "/src/a.ts · lines 8–10",
                numbers: [" 8", " 9", "10"],
                lines: [" 8 const a = 1;", " 9 ", "10 export { a };", ""],
              },
            );
          });
        },
      );
      await t.step(
        "Grep, Glob, WebFetch, WebSearch, NotebookEdit and any other tool read as text",
        async () => {
          await withPage(browser, await renderHtml(toolsSession()), async (page) => {
            assert.deepEqual(
              await page.evaluate(`({
              grep: ${itemOf("Grep")}.querySelector(".path").textContent,
              grepPattern: ${itemOf("Grep")}.querySelector("code.pattern").textContent,
              grepOptions: ${itemOf("Grep")}.querySelector("pre.kv").textContent,
              glob: ${itemOf("Glob")}.querySelector(".path").textContent,
              fetch: ${itemOf("WebFetch")}.querySelector(".path a").getAttribute("href"),
              fetchPrompt: ${itemOf("WebFetch")}.querySelector("pre.kv").textContent,
              search: ${itemOf("WebSearch")}.querySelector(".path").textContent,
              notebook: [...${
                itemOf("NotebookEdit")
              }.querySelectorAll(".diff span")].map((s) => s.textContent),
              other: ${itemOf("mcp__db__query")}.querySelector("pre.kv").textContent,
            })`),
              {
                grep: "load(Config)? in src",
                grepPattern: "load(Config)?",
                grepOptions: "glob: *.ts\n-n: true",
                glob: "**/*_test.ts",
                fetch: "https://example.org/docs",
                fetchPrompt: "prompt: What is new?",
                search: "search: deno 2.9 release",
                notebook: [
                  "@@ cell c3 (code): its source replaced by @@",
                  "+import pandas",
                  "+print(1)",
                ],
                other: "sql:\n  select *\n  from users\n  where id = 1\nlimit: 5",
              },
            );
          });
        },
      );
      await t.step(
        "a cut diff keeps a contiguous head and counts the lines left out; an append is additions",
        async () => {
          await withPage(browser, await renderHtml(editsSession()), async (page) => {
            const cut = await page.evaluate<{ shown: number[]; note: string }>(`(() => {
            const diff = ${itemOf("Edit", 0)};
            return {
              shown: [...diff.querySelectorAll(".add")].map((s) => Number(s.textContent.slice(1).split(" ")[0])),
              note: diff.querySelector(".diff-cut")?.textContent ?? "",
            };
          })()`);
            assert.ok(cut.shown.length > 0 && cut.shown.length < 200, `${cut.shown.length}`);
            assert.deepEqual(cut.shown, cut.shown.map((_, i) => i)); // 0, 1, 2… with no hole
            assert.equal(
              cut.note,
              `[diff cut here: ${200 - cut.shown.length} more lines of it left out]`,
            );
            assert.deepEqual(
              await page.evaluate(`(() => {
              const diff = ${itemOf("Edit", 1)};
              return {
                added: diff.querySelectorAll(".add").length,
                removed: diff.querySelectorAll(".del").length,
                hunks: [...diff.querySelectorAll(".hunk")].map((h) => h.textContent),
              };
            })()`),
              { added: 300, removed: 0, hunks: ["@@ -48,3 +48,303 @@"] },
            );
          });
        },
      );
      await t.step(
        "a subagent's items fold right after its call: named, closed, opening in place",
        async () => {
          const html = await renderHtml(fromClaudeCode(SUBAGENTS));
          await withPage(browser, html, async (page) => {
            const folds = await page.evaluate(
              `${CALL_BEFORE}; [...document.querySelectorAll("details.subagent")].map((d) => ({
            name: d.querySelector(":scope > summary .agent-name").textContent,
            open: d.open,
            after: callBefore(d)?.querySelector(".who")?.textContent ?? null,
            inFold: d.parentElement.closest("details.subagent")?.querySelector(".agent-name").textContent ?? null,
            threads: [...new Set([...d.querySelectorAll(":scope > .subagent-items > .item .thread")].map((e) => e.textContent))],
            size: d.querySelector(":scope > summary .size").textContent,
          }))`,
            );
            assert.deepEqual(folds, [
              {
                name: "Explore (Find the config loader)",
                open: false,
                after: "agent → tool Agent",
                inFold: null,
                threads: ["@Explore (Find the config loader)"],
                size: "5 items",
              },
              {
                name: "general-purpose (Read the loader)",
                open: false,
                after: "@Explore (Find the config loader) → tool Agent",
                inFold: "Explore (Find the config loader)",
                threads: ["@general-purpose (Read the loader)"],
                size: "3 items",
              },
              {
                name: "general-purpose (Check test coverage)",
                open: false,
                after: "agent → tool Agent",
                inFold: null,
                threads: ["@general-purpose (Check test coverage)"],
                size: "3 items",
              },
            ]);
            // The first fold follows the first call; the second call is the fold's next sibling.
            assert.equal(
              await page.evaluate(
                `${CALL_BEFORE}; callBefore(document.querySelector("details.subagent")).querySelector(".preview").textContent`,
              ),
              "Explore: Find the config loader",
            );
            // No subagent item is left in the main flow.
            assert.equal(
              await page.evaluate(`document.querySelectorAll("main > .item .thread").length`),
              0,
            );
            // Opening one opens it where it is: no navigation, no scroll.
            assert.deepEqual(
              await page.evaluate(`(() => {
              const before = [location.href, scrollY];
              const fold = document.querySelector("details.subagent");
              fold.querySelector("summary").click();
              return { open: fold.open, same: JSON.stringify(before) === JSON.stringify([location.href, scrollY]),
                visible: fold.querySelector(".subagent-items .item").getBoundingClientRect().height > 0 };
            })()`),
              { open: true, same: true, visible: true },
            );
            assert.deepEqual(await seriousViolations(page), []);
          });
        },
      );
      await t.step(
        "hostile text in every tool field stays inert: nothing runs, loads or links",
        async () => {
          const hits: string[] = [];
          const server = Deno.serve(
            { hostname: "127.0.0.1", port: 0, onListen(): void {} },
            (request) => {
              hits.push(request.url);
              return new Response("x");
            },
          );
          try {
            const origin = `http://127.0.0.1:${server.addr.port}`;
            const html = await renderHtml(hostileToolsSession(origin));
            // The page's one script of its own (find and filter) aside, no markup of the input's.
            assert.equal(html.split(`<script>${PAGE_SCRIPT}</script>`).length, 2);
            assert.doesNotMatch(
              html.replace(`<script>${PAGE_SCRIPT}</script>`, ""),
              /<img|<script/i,
            );
            await withPage(browser, html, async (page, url) => {
              await page.evaluate(
                `for (const d of document.querySelectorAll("details")) d.open = true; true`,
              );
              await page.evaluate(
                `[...document.querySelectorAll("a")].filter((a) => !/^https?:/.test(a.getAttribute("href"))).forEach((a) => a.click()); true`,
              );
              assert.deepEqual(
                await page.evaluate(`({
                pwned: typeof window.__pwned === "undefined" ? null : String(window.__pwned),
                scripts: [...document.scripts].filter((s) => s.textContent !== ${
                  JSON.stringify(PAGE_SCRIPT)
                }).length,
                loads: document.querySelectorAll("img, iframe, link, svg, [style]").length,
                handlers: [...document.querySelectorAll("*")].filter((el) =>
                  [...el.attributes].some((a) => a.name.startsWith("on"))).length,
                links: [...document.querySelectorAll("main a:not(.seq)")].map((a) => a.getAttribute("href")),
                shown: document.querySelector("main").innerText.includes('onerror="window.__pwned=\\'todo\\'"'),
                fold: document.querySelector("details.subagent .agent-name")?.textContent.includes("<img"),
              })`),
                {
                  pwned: null,
                  scripts: 0,
                  loads: 0,
                  handlers: 0,
                  // No link at all: a javascript: URL, and one that is not a whole URL, stay text.
                  links: [],
                  shown: true,
                  fold: true,
                },
              );
              assert.deepEqual(requestsThatLeft(page, url), []);
            });
            assert.deepEqual(hits, []);
          } finally {
            await server.shutdown();
          }
        },
      );
      await t.step("screenshot (TRANSCRIPT_SCREENSHOT=path.png writes one)", async () => {
        const out = Deno.env.get("TRANSCRIPT_SCREENSHOT");
        if (out === undefined) return;
        const entries = [
          ...toolsSession(),
          ...editsSession().map((e) => ({ ...e, seq: e.seq + 100 })),
        ];
        const html = await renderHtml(entries);
        await withPage(
          browser,
          html.replace(/<details class="item k-tool/g, '<details open class="item k-tool'),
          async (page) => {
            await page.send("Emulation.setDeviceMetricsOverride", {
              width: 1000,
              height: 2600,
              deviceScaleFactor: 1,
              mobile: false,
            });
            await Deno.writeFile(out, await page.screenshot());
          },
        );
      });
    });
  },
});
