// Copyright 2026 the brigade authors. MIT license.

// Find and filter on the html page, and the search of every session from the site's index.html,
// as a person uses them: in headless Chromium, the page opened from a file, with its one script
// (named by hash in its policy) on, and with JavaScript turned off.

import assert from "node:assert/strict";
import { fromNdjson, type LogEntry, renderHtml } from "../mod.ts";
import { htmlRenderer } from "../renderers/html/html.ts";
import { PAGE_SCRIPT } from "../renderers/html/_script.ts";
import { PAGE_WORDS_BYTES } from "../renderers/html/_find.ts";
import { SITE_SEARCH_BYTES } from "../renderers/html/_site_search.ts";
import { type IndexedPage, indexedSummary, indexPage } from "../renderers/html/html_index.ts";
import { asEvent } from "../events/fields.ts";
import { seriousViolations } from "./_axe.ts";
import {
  type Browser,
  findChromium,
  type Page,
  requestsThatLeft,
  withBrowser,
} from "./_browser.ts";
import { inTempDir, ROOT, task } from "./_cli.ts";

const COORDINATOR = new URL("fixtures/coordinator_all_threads.ndjson", ROOT).pathname;
const SECRET = "sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789";

const chromium = await findChromium();
const inCi = Deno.env.get("CI") === "true";

/** Runs `body` in a browser; skipped without Chromium, failing under CI=true. */
function browserTest(
  name: string,
  body: (browser: Browser, t: Deno.TestContext) => Promise<void>,
): void {
  Deno.test({
    name,
    ignore: chromium === undefined && !inCi,
    async fn(t): Promise<void> {
      if (chromium === undefined) throw new Error("Chromium is required under CI=true");
      await withBrowser(chromium, (browser) => body(browser, t));
    },
  });
}

/** Writes `html` to a file, opens it from file://, runs `body`, cleans up. */
async function withPage(
  browser: Browser,
  html: string,
  body: (page: Page, url: string) => Promise<void>,
  scripts = true,
): Promise<void> {
  await inTempDir(async (dir) => {
    await Deno.writeTextFile(`${dir}/page.html`, html);
    const url = new URL(`file://${dir}/page.html`).href;
    const page = await browser.open(url, { scripts });
    try {
      await body(page, url);
    } finally {
      await page.close();
    }
  });
}

/** Types `text` into the search box `id` as a reader does (an input event per change). */
function type(page: Page, id: string, text: string): Promise<unknown> {
  return page.evaluate(`(() => {
    const box = document.getElementById(${JSON.stringify(id)});
    box.focus();
    box.value = ${JSON.stringify(text)};
    box.dispatchEvent(new Event("input", { bubbles: true }));
  })()`);
}

/** Ticks or unticks a kind's box, as a click does. */
function toggle(page: Page, kind: string): Promise<unknown> {
  return page.evaluate(
    `document.querySelector('#find input[data-show=${JSON.stringify(kind)}]').click()`,
  );
}

/** Each item's kind, thread and whether it is shown (laid out, with a height). */
interface ItemState {
  id: string;
  kind: string;
  thread: string;
  shown: boolean;
}

function items(page: Page): Promise<ItemState[]> {
  return page.evaluate(`[...document.querySelectorAll("main .item")].map((item) => ({
    id: item.id,
    kind: item.dataset.kind,
    thread: item.dataset.thread,
    shown: item.getBoundingClientRect().height > 0,
  }))`);
}

function status(page: Page, id = "find-status"): Promise<string> {
  return page.evaluate(`document.getElementById(${JSON.stringify(id)}).textContent`);
}

browserTest(
  "find and filter on a page: typing hides what does not match, a box hides its kind",
  async (
    browser,
    t,
  ) => {
    const html = await renderHtml(fromNdjson(COORDINATOR));
    await withPage(browser, html, async (page) => {
      const all = await items(page);
      assert.equal(all.length, 17);
      assert.ok(all.every((item) => item.shown));
      assert.deepEqual(
        new Set(all.map((item) => item.kind)),
        new Set(["prompt", "reply", "tool", "result"]),
      );
      assert.equal(await page.evaluate(`document.getElementById("find").hidden`), false);
      assert.equal(await status(page), "17 items");
      // A box for each kind the page holds, and for the subagents' threads.
      assert.deepEqual(
        await page.evaluate(`[...document.querySelectorAll("#find input[data-show]")]
        .map((box) => box.dataset.show)`),
        ["prompt", "reply", "tool", "result", "subagent"],
      );

      await t.step("typing words shows only the items holding them all, any case", async () => {
        await type(page, "find-q", "UNIT  tests");
        const shown = (await items(page)).filter((item) => item.shown).map((item) => item.id);
        const holding = await page.evaluate<string[]>(`[...document.querySelectorAll("main .item")]
        .filter((item) => /unit/i.test(item.textContent) && /tests/i.test(item.textContent))
        .map((item) => item.id)`);
        assert.ok(holding.length > 0 && holding.length < all.length);
        assert.deepEqual(shown, holding);
        assert.equal(await status(page), `Showing ${holding.length} of 17 items`);
        await type(page, "find-q", "no-such-word-anywhere");
        assert.ok((await items(page)).every((item) => !item.shown));
        await type(page, "find-q", "");
        assert.ok((await items(page)).every((item) => item.shown));
      });

      await t.step("a kind's box hides that kind only, and shows it again", async () => {
        await toggle(page, "tool");
        const states = await items(page);
        for (const item of states) assert.equal(item.shown, item.kind !== "tool", item.id);
        await toggle(page, "prompt");
        for (const item of await items(page)) {
          assert.equal(item.shown, item.kind !== "tool" && item.kind !== "prompt", item.id);
        }
        await toggle(page, "tool");
        await toggle(page, "prompt");
        assert.ok((await items(page)).every((item) => item.shown));
      });

      await t.step("the subagents' box hides every item of a thread but the primary", async () => {
        await toggle(page, "subagent");
        const states = await items(page);
        assert.ok(states.some((item) => item.thread !== "0"));
        for (const item of states) assert.equal(item.shown, item.thread === "0", item.id);
        await toggle(page, "subagent");
      });

      await t.step(
        "a thread chosen shows its items only; a token note goes with its reply",
        async () => {
          const options = await page.evaluate<string[][]>(
            `[...document.querySelectorAll("#find-thread option")].map((o) => [o.value, o.textContent])`,
          );
          assert.deepEqual(options, [
            ["", "All threads"],
            ["0", "agent (primary thread)"],
            ["1", "@Changelog reader"],
            ["2", "@Test runner"],
          ]);
          await page.evaluate(`(() => {
        const select = document.getElementById("find-thread");
        select.value = "2";
        select.dispatchEvent(new Event("change", { bubbles: true }));
      })()`);
          for (const item of await items(page)) {
            assert.equal(item.shown, item.thread === "2", item.id);
          }
          const notes = await page.evaluate<Array<[boolean, boolean]>>(
            `[...document.querySelectorAll("main > .usage")].map((note) =>
          [note.hidden, note.previousElementSibling.hidden])`,
          );
          assert.ok(notes.length > 0);
          for (const [note, item] of notes) {
            assert.equal(note, item);
          }
        },
      );

      await t.step(
        "axe-core finds nothing serious with the bar shown and a filter on",
        async () => {
          for (const scheme of ["light", "dark"]) {
            await page.send("Emulation.setEmulatedMedia", {
              features: [{ name: "prefers-color-scheme", value: scheme }],
            });
            assert.deepEqual(await seriousViolations(page), [], scheme);
          }
        },
      );
    });
  },
);

browserTest(
  "with JavaScript turned off, every item is shown, the bar is not, the contents link",
  async (
    browser,
  ) => {
    const html = await renderHtml(fromNdjson(COORDINATOR));
    await withPage(browser, html, async (page) => {
      const states = await items(page);
      assert.equal(states.length, 17);
      assert.ok(states.every((item) => item.shown));
      assert.equal(
        await page.evaluate(`document.getElementById("find").getBoundingClientRect().height`),
        0,
      );
      const turns = await page.evaluate<Array<[string, string]>>(
        `[...document.querySelectorAll("nav.toc a")].map((a) => [a.getAttribute("href"), a.textContent])`,
      );
      const prompts = await page.evaluate<Array<[string, string]>>(
        `[...document.querySelectorAll('main .item[data-kind="prompt"]')].map((item) =>
        ["#" + item.id, item.querySelector(".text").textContent.trim()])`,
      );
      assert.equal(turns.length, 3);
      assert.deepEqual(turns, prompts);
      await page.evaluate(`document.querySelector("nav.toc li:nth-child(2) a").click()`);
      assert.equal(await page.evaluate("location.hash"), turns[1]![0]);
    }, false);
  },
);

Deno.test("the page's policy names its one script by hash: no unsafe-inline, no eval", async () => {
  const page = await renderHtml(fromNdjson(COORDINATOR));
  const csp = page.match(/<meta http-equiv="Content-Security-Policy" content="([^"]+)">/)![1]!;
  const scripts = [...page.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
  assert.deepEqual(scripts, [PAGE_SCRIPT]);
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(PAGE_SCRIPT));
  const hash = btoa(String.fromCharCode(...new Uint8Array(digest)));
  assert.match(
    csp,
    new RegExp(`(?:^|; )script-src 'sha256-${hash.replace(/[+/]/g, "\\$&")}'(?:;|$)`),
  );
  assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|unsafe-hashes|strict-dynamic|\*/);
  assert.match(csp, /require-trusted-types-for 'script'; trusted-types 'none'/);
  // The script reads text and toggles `hidden`: no markup, no code from strings, no load.
  assert.doesNotMatch(
    PAGE_SCRIPT,
    /innerHTML|outerHTML|insertAdjacent|document\.write|\beval\b|Function\(|setTimeout|setInterval|fetch|XMLHttpRequest|import\(|\.src\b|\.href\s*=|style\.|setAttribute/,
  );
  assert.ok(!PAGE_SCRIPT.includes("</script") && !PAGE_SCRIPT.includes("<!--"));
  // The index page has the same one script.
  const index = await indexPage([]);
  assert.deepEqual([...index.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]), [
    PAGE_SCRIPT,
  ]);
});

/** A loopback server counting the requests it gets: a second witness of anything leaving. */
async function withLoopback(
  body: (origin: string, hits: string[]) => Promise<void>,
): Promise<void> {
  const hits: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen(): void {} }, (request) => {
    hits.push(new URL(request.url).pathname);
    return new Response("no", { status: 404 });
  });
  try {
    await body(`http://127.0.0.1:${server.addr.port}`, hits);
  } finally {
    await server.shutdown();
  }
}

/** A session whose every field holds markup, a script end and a load. */
function hostileSession(origin: string): LogEntry[] {
  const bad = (what: string) =>
    `</script><script>window.__pwned='${what}'</script><img src="${origin}/${what}" onerror="window.__pwned='${what}'">`;
  const child = `sthr_${bad("thread-id")}`;
  const events: Array<[string | null, Record<string, unknown>]> = [
    [null, { type: "session.updated", title: `title ${bad("title")}` }],
    [null, { type: "user.message", content: `needle ${bad("prompt")}` }],
    [null, { type: "agent.thinking", thinking: `needle ${bad("thinking")}` }],
    [null, { type: "agent.message", content: `needle ${bad("reply")}` }],
    [null, {
      type: "agent.thread_message_sent",
      to_session_thread_id: child,
      to_agent_name: `<b onclick="window.__pwned='name'">name</b>${bad("name")}`,
      content: `needle ${bad("sent")}`,
    }],
    [child, { type: "agent.tool_use", id: "tu1", name: bad("tool"), input: { x: bad("input") } }],
    [child, { type: "agent.tool_result", tool_use_id: "tu1", content: `needle ${bad("result")}` }],
    [null, { type: "session.error", error: { type: bad("type"), message: bad("error") } }],
  ];
  return events.map(([thread, event], i) => ({
    seq: i + 1,
    session_id: `sesn_${bad("id")}`,
    thread_id: thread,
    event: asEvent({ id: `e${i}`, processed_at: `2026-09-14T10:00:0${i}Z`, ...event }),
  }));
}

browserTest(
  "hostile text in every field stays inert with the script on, searched and filtered",
  async (
    browser,
  ) => {
    await withLoopback(async (origin, hits) => {
      const entries = hostileSession(origin);
      const html = await htmlRenderer.folder!.page!(entries, { thinking: true }, {
        project: `<img src=${origin}/project>`,
        cwd: `</script><img src=${origin}/cwd>`,
      });
      await withPage(browser, html, async (page, url) => {
        // Everything the bar can do, with the hostile texts searched for.
        for (const query of ["needle", "</script>", "onerror", "pwned", "img src", ""]) {
          await type(page, "find-q", query);
        }
        for (const kind of ["prompt", "reply", "tool", "result", "thinking", "event", "subagent"]) {
          await toggle(page, kind);
          await toggle(page, kind);
        }
        await page.evaluate(`(() => {
        const select = document.getElementById("find-thread");
        for (const option of select.options) {
          select.value = option.value;
          select.dispatchEvent(new Event("change", { bubbles: true }));
        }
        for (const d of document.querySelectorAll("details")) d.open = true;
        for (const a of document.querySelectorAll("nav.toc a")) a.click();
      })()`);
        assert.deepEqual(
          await page.evaluate(`({
          pwned: typeof window.__pwned === "undefined" ? null : String(window.__pwned),
          scripts: [...document.scripts].map((s) => s.textContent === ${
            JSON.stringify(PAGE_SCRIPT)
          }),
          loads: document.querySelectorAll("img, iframe, link, svg, b, [style]").length,
          handlers: [...document.querySelectorAll("*")].filter((el) =>
            [...el.attributes].some((a) => a.name.startsWith("on"))).length,
          options: document.querySelectorAll("#find-thread option").length,
          thread: document.querySelector("#find-thread option[value='1']").textContent,
          toc: [...document.querySelectorAll("nav.toc a")].map((a) => a.textContent),
        })`),
          {
            pwned: null,
            scripts: [true],
            loads: 0,
            handlers: 0,
            options: 3,
            thread:
              `@<b onclick="window.__pwned='name'">name</b></script><script>window.__pwned='name'</script><img src="${origin}/name" onerror="window.__pwned='name'">`
                .slice(0, 79) + "…",
            toc: [
              `needle </script><script>window.__pwned='prompt'</script><img src="${origin}/prompt" onerror="window.__pwned='prompt'">`
                .slice(0, 99) + "…",
            ],
          },
        );
        // Every item is still there, each with its kind.
        assert.deepEqual((await items(page)).map((item) => item.kind), [
          "prompt",
          "thinking",
          "reply",
          "reply",
          "tool",
          "result",
          "event",
        ]);
        assert.deepEqual(requestsThatLeft(page, url), []);
        assert.deepEqual(page.requests.filter((r) => r.url !== url), []);
        assert.deepEqual(hits, []);
        assert.deepEqual(await seriousViolations(page), []);
      });
    });
  },
);

/** An NDJSON log of one session: a prompt, then a reply holding `body` words. */
function sessionLog(sessionId: string, at: string, ask: string, body: string): string {
  return [
    { id: "e1", type: "user.message", processed_at: at, content: ask },
    { id: "e2", type: "agent.message", processed_at: at, content: body },
  ].map((event, i) => JSON.stringify({ seq: i + 1, session_id: sessionId, thread_id: null, event }))
    .join("\n") + "\n";
}

browserTest(
  "the site's search finds a session by a word in its body, from index.html on file://",
  async (
    browser,
    t,
  ) => {
    await inTempDir(async (dir) => {
      await Deno.writeTextFile(
        `${dir}/a.ndjson`,
        sessionLog(
          "sesn_a",
          "2026-09-01T00:00:00Z",
          "Look at the parser",
          "The zanzibar module hides it.",
        ) +
          sessionLog("sesn_b", "2026-09-02T00:00:00Z", "Look at the lexer", `Fine. key ${SECRET}`) +
          sessionLog(
            "sesn_c",
            "2026-09-03T00:00:00Z",
            `<script>window.__pwned = "first"</script>`,
            "</script><img src=x onerror=\"window.__pwned='body'\"> zanzibar again",
          ),
      );
      const run = await task("render", ["-r", "html", "--out", "site/", "a.ndjson"], { cwd: dir });
      assert.equal(run.code, 0, run.stderr);
      const index = await Deno.readTextFile(`${dir}/site/index.html`);
      await t.step("the index holds only redacted words", () => {
        assert.ok(!index.includes(SECRET));
        for (const part of ["api03", "abcdefghijklmnopqrstuvwxyz0123456789"]) {
          assert.ok(!index.includes(part), part);
        }
      });
      const url = new URL(`file://${dir}/site/index.html`).href;
      const page = await browser.open(url);
      try {
        const rows = () =>
          page.evaluate<Array<[string, boolean]>>(`[...document.querySelectorAll("tbody tr")]
          .map((tr) => [tr.querySelector("a").getAttribute("href"), !tr.hidden])`);
        assert.equal(await status(page, "site-status"), "3 sessions");
        await t.step("a word only in a session's body finds it", async () => {
          await type(page, "site-q", "Zanzibar");
          assert.deepEqual(await rows(), [
            ["sesn_c.html", true],
            ["sesn_b.html", false],
            ["sesn_a.html", true],
          ]);
          assert.equal(await status(page, "site-status"), "2 of 3 sessions match");
          await type(page, "site-q", "zanzibar module");
          assert.deepEqual((await rows()).filter(([, shown]) => shown), [["sesn_a.html", true]]);
          await type(page, "site-q", "lexer"); // in the row itself
          assert.deepEqual((await rows()).filter(([, shown]) => shown), [["sesn_b.html", true]]);
          await type(page, "site-q", "abcdefghijklmnopqrstuvwxyz0123456789");
          assert.deepEqual((await rows()).filter(([, shown]) => shown), []);
          assert.equal(await status(page, "site-status"), "0 of 3 sessions match");
          await type(page, "site-q", "");
          assert.ok((await rows()).every(([, shown]) => shown));
        });
        await t.step("nothing ran or left; axe-core finds nothing serious", async () => {
          assert.deepEqual(
            await page.evaluate(`({
            pwned: typeof window.__pwned === "undefined" ? null : String(window.__pwned),
            scripts: [...document.scripts].map((s) => s.type || s.textContent === ${
              JSON.stringify(PAGE_SCRIPT)
            }),
            links: document.querySelectorAll("a").length,
          })`),
            { pwned: null, scripts: ["application/json", true], links: 3 },
          );
          assert.deepEqual(requestsThatLeft(page, url), []);
          assert.deepEqual(await seriousViolations(page), []);
        });
      } finally {
        await page.close();
      }
      await t.step(
        "with JavaScript off, the index shows every session and no search bar",
        async () => {
          const off = await browser.open(url, { scripts: false });
          try {
            assert.deepEqual(
              await off.evaluate(`[document.querySelectorAll("tbody tr:not([hidden])").length,
            document.getElementById("site-find").getBoundingClientRect().height]`),
              [3, 0],
            );
          } finally {
            await off.close();
          }
        },
      );
    });
  },
);

/** A summary of a page in a folder, with `words`. */
function indexed(name: string, words: string): IndexedPage {
  return {
    name,
    summary: {
      sessionId: name,
      startedAt: "2026-09-01T00:00:00Z",
      turns: 1,
      threads: 1,
      items: 2,
      firstUser: "hello",
      cut: false,
      words,
    },
  };
}

/** The index's search data, parsed. */
function searchBlock(index: string): { pages: Array<[string, string]>; bytes: number } {
  const text = index.match(
    /<script type="application\/json" id="site-words">([^<]*)<\/script>/,
  )![1]!;
  return { pages: JSON.parse(text).pages, bytes: new TextEncoder().encode(text).length };
}

Deno.test("the site's search index stays within its bound, the most distinctive words kept", async () => {
  // 2,000 sessions of 4 kB of words each would be 8 MB: the index keeps 2 MB, an equal share each.
  const pages = Array.from({ length: 2_000 }, (_, i) => {
    const words = [`only${i}x`, ...Array.from({ length: 500 }, (_, j) => `common${j}`)];
    return indexed(
      `page-${String(i).padStart(4, "0")}.html`,
      words.join(" ").slice(0, PAGE_WORDS_BYTES),
    );
  });
  const { pages: data, bytes } = searchBlock(await indexPage(pages));
  assert.ok(bytes <= SITE_SEARCH_BYTES, `${bytes}`);
  assert.ok(bytes > SITE_SEARCH_BYTES * 0.9, `${bytes}: the bound is used`);
  assert.equal(data.length, 2_000);
  // A word one session alone holds comes first in its share.
  for (const [href, words] of data) {
    const i = Number(href.slice(5, 9));
    assert.equal(words.split(" ")[0], `only${i}x`);
  }
  // A few sessions with little to say leave their share to the others.
  const few = await indexPage([indexed("a.html", "tiny"), indexed("b.html", "x".repeat(30))]);
  assert.deepEqual(searchBlock(few).pages, [["a.html", "tiny"], ["b.html", "x".repeat(30)]]);
});

Deno.test("a page's words: bounded, redacted even when the page is not, read back as untrusted", async () => {
  const long = Array.from({ length: 3_000 }, (_, i) => `word${i}`).join(" ");
  const entries: LogEntry[] = [
    { id: "e1", type: "user.message", content: `key ${SECRET} ${long}` },
    { id: "e2", type: "agent.message", content: "done" },
  ].map((event, i) => ({
    seq: i + 1,
    session_id: "sesn_1",
    thread_id: null,
    event: asEvent(event),
  }));
  const page = await htmlRenderer.folder!.page!(entries, { redact: false }, {});
  assert.ok(page.includes(SECRET), "the page itself keeps the secret, as asked");
  const words = page.match(/<meta name="brigade-transcript-words" content="([^"]*)">/)![1]!;
  assert.ok(new TextEncoder().encode(words).length <= PAGE_WORDS_BYTES);
  assert.ok(words.includes("word0") && !words.includes("word2999"));
  for (const part of ["api03", "abcdefghijklmnopqrstuvwxyz0123456789"]) {
    assert.ok(!words.includes(part), part);
  }
  // A page on its own (not in a folder) carries no words.
  assert.doesNotMatch(await renderHtml(entries), /brigade-transcript-words/);
  // A planted page's words are kept to word characters, cut to the bound.
  const planted = page.replace(
    /<meta name="brigade-transcript-words" content="[^"]*">/,
    `<meta name="brigade-transcript-words" content="&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt; ${
      "y".repeat(20_000)
    }">`,
  );
  const summary = indexedSummary(planted)!;
  assert.match(summary.words!, /^script img src onerror alert y{40} /);
  assert.ok(new TextEncoder().encode(summary.words!).length <= PAGE_WORDS_BYTES);
  // Whatever the words hold, the index's data block cannot be closed by them.
  const index = await indexPage([indexed("p.html", "</script><img src=x onerror=alert(1)> <!--")]);
  assert.equal(index.match(/<\/script>/g)?.length, 2);
  assert.deepEqual(searchBlock(index).pages, [[
    "p.html",
    "</script><img src=x onerror=alert(1)> <!--",
  ]]);
});
