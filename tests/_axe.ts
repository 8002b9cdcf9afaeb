// Copyright 2026 the brigade authors. MIT license.

/** axe-core run in a live page, for the browser checks of the html view. */

import axe from "axe-core";
import type { Page } from "./_browser.ts";

/** The serious and critical accessibility violations axe-core finds in the live page. */
export async function seriousViolations(page: Page): Promise<string[]> {
  // The page's policy forbids <script>: axe-core goes in through the protocol.
  await page.evaluate(`${axe.source};undefined`);
  const violations = await page.evaluate<Array<{ id: string; impact: string; help: string }>>(
    `axe.run(document, { resultTypes: ["violations"] }).then((r) =>
      r.violations.map(({ id, impact, help }) => ({ id, impact, help })))`,
  );
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${v.help}`);
}
