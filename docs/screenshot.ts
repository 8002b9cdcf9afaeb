// Copyright 2026 the brigade authors. MIT license.

/**
 * Renders the bundled Claude Code session with edits
 * (`fixtures/claude_code/edits.jsonl`, its thinking included) as an HTML page
 * and takes, in headless Chromium, the screenshot the README and
 * docs/renderers.md show (`docs/html_view.png`), with the thinking and the edit
 * unfolded as a reader would.
 *
 * Run: `deno run --allow-read --allow-write --allow-run --allow-env --allow-net=127.0.0.1 docs/screenshot.ts`
 *
 * @module
 */

import { fromClaudeCode, renderHtml } from "../mod.ts";
import { findChromium, withBrowser } from "../tests/_browser.ts";

const FIXTURE = new URL("../fixtures/claude_code/edits.jsonl", import.meta.url);
const OUT = new URL("html_view.png", import.meta.url);

const chromium = await findChromium();
if (chromium === undefined) {
  console.error("screenshot: Chromium not found (install it with `apt-get install chromium`)");
  Deno.exit(1);
}
const dir = await Deno.makeTempDir({ prefix: "transcript_screenshot_" });
try {
  const path = `${dir}/session.html`;
  await Deno.writeTextFile(
    path,
    await renderHtml(fromClaudeCode(FIXTURE.pathname, { sessionId: "edits", thinking: true })),
  );
  await withBrowser(chromium, async (browser) => {
    const page = await browser.open(new URL(`file://${path}`).href, { width: 960, height: 1400 });
    await page.evaluate(
      `for (const d of document.querySelectorAll("details.k-thinking, details.k-tool_call")) {
      d.open = d.classList.contains("k-thinking") || d.textContent.includes("tool Edit");
    }`,
    );
    await Deno.writeFile(OUT, await page.screenshot());
    await page.close();
  });
} finally {
  await Deno.remove(dir, { recursive: true });
}
console.log(`screenshot: wrote ${OUT.pathname}`);
