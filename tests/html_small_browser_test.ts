// Copyright 2026 the brigade authors. MIT license.

// The html page's small things, where a person looks: in headless Chromium, table headers
// never break inside a word (a page's Markdown tables and the site index, wide and narrow),
// and names in labels show what they hold.

import assert from "node:assert/strict";
import { type LogEntry, renderHtml } from "../mod.ts";
import { htmlRenderer } from "../renderers/html/html.ts";
import { indexPage, pageSummary } from "../renderers/html/html_index.ts";
import { seriousViolations } from "./_axe.ts";
import { type Browser, findChromium, withBrowser } from "./_browser.ts";

const chromium = await findChromium();
const inCi = Deno.env.get("CI") === "true";

const row = (cells: string[]): string => `| ${cells.join(" | ")} |`;

/** Markdown tables the 58rem column squeezes: many columns, one long one, unbroken tokens. */
const TABLES = [
  [
    row(["Project", "Status", "Description", "Owner", "Updated", "Priority", "Comments"]),
    row(Array(7).fill("---")),
    row(Array.from({ length: 7 }, () => "word ".repeat(30))),
  ],
  [
    row(["Project", "Status", "Description"]),
    row(Array(3).fill("---")),
    row(["app", "ok", "a long description of the work ".repeat(60)]),
  ],
  [
    row(["Project", "Repository", "Configuration"]),
    row(Array(3).fill("---")),
    row(["x".repeat(90), "y".repeat(150), "/z".repeat(120)]),
  ],
].map((lines) => lines.join("\n"));

function log(): LogEntry[] {
  const at = (seq: number) => ({ seq, session_id: "sesn_small", thread_id: null });
  return [
    { ...at(1), event: { id: "e1", type: "user.message", content: "Show the projects" } },
    ...TABLES.map((table, i) => ({
      ...at(2 + i),
      event: { id: `t${i}`, type: "agent.message", content: `Here:\n\n${table}` },
    })),
    { ...at(8), event: { id: "e3", type: "agent.tool_use", name: "us\u200Ber", input: {} } },
    { ...at(9), event: { id: "e4", type: "agent.tool_use", name: "uѕer", input: {} } },
  ] as LogEntry[];
}

/**
 * Each header cell's words that take more than one line on screen: a word's
 * characters measured as a range, its line boxes counted by their tops.
 */
const BROKEN_WORDS = `[...document.querySelectorAll("th")].flatMap((th) => {
  const node = th.firstChild;
  if (node === null || node.nodeType !== Node.TEXT_NODE) return [];
  return [...node.data.matchAll(/\\S+/g)].flatMap((word) => {
    const range = document.createRange();
    range.setStart(node, word.index);
    range.setEnd(node, word.index + word[0].length);
    const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
    return tops.size > 1 ? [word[0] + " (" + tops.size + " lines)"] : [];
  });
})`;

async function check(browser: Browser, html: string, what: string, labels: boolean): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "transcript_small_" });
  try {
    await Deno.writeTextFile(`${dir}/page.html`, html);
    for (const width of [1000, 600, 380]) {
      const page = await browser.open(`file://${dir}/page.html`, { width });
      try {
        assert.ok(await page.evaluate<number>(`document.querySelectorAll("th").length`) > 0);
        assert.deepEqual(await page.evaluate<string[]>(BROKEN_WORDS), [], `${what}, ${width}px`);
        if (labels) {
          const shown = await page.evaluate<string[]>(
            `[...document.querySelectorAll(".who")].map((who) => who.innerText)`,
          );
          assert.ok(shown.includes("agent → tool us\\u200ber"), shown.join(" | "));
          assert.ok(shown.includes("agent → tool u\\u0455er"), shown.join(" | "));
        }
        if (width === 1000) assert.deepEqual(await seriousViolations(page), [], what);
      } finally {
        await page.close();
      }
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test({
  name: "in headless Chromium: table headers never break inside a word; labels show their names",
  ignore: chromium === undefined && !inCi,
  async fn(): Promise<void> {
    if (chromium === undefined) {
      throw new Error("Chromium is not installed, and CI=true requires it");
    }
    const page = await renderHtml(log());
    const folderPage = await htmlRenderer.folder!.page!(log(), {}, {
      project: "-home-me-projects-a-very-long-project-folder-name",
      cwd: "/home/me/projects/a/very/long/project/folder/name/deeper/still",
      bytes: 123_456,
    });
    const summary = pageSummary(folderPage)!;
    const index = await indexPage([
      { name: "a.html", summary },
      { name: "b.html", summary: { ...summary, sessionId: "0f3c9a1e".repeat(12) } },
    ]);
    await withBrowser(chromium, async (browser) => {
      await check(browser, page, "a page's Markdown tables", true);
      await check(browser, index, "the site index", false);
    });
  },
});
