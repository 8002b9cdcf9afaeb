// Copyright 2026 the brigade authors. MIT license.

// A child for sse_bounded_test.ts, run under a small V8 heap: follows session `sesn_big` of the
// loopback API at BASE_URL (the test's, from _managed_agents_server.ts), whose stream sends one
// event of many mebibytes (its text a run of "z") and then the session's end. Prints a JSON
// report of what the follow gave; running out of heap kills it.

import { fromManagedAgents } from "../mod.ts";
import { KEY } from "./_managed_agents_server.ts";

const source = fromManagedAgents({
  sessionId: "sesn_big",
  apiKey: KEY,
  baseUrl: Deno.args[0]!,
  follow: true,
});
const report: { ids: unknown[]; textLength: number; whole: boolean } = {
  ids: [],
  textLength: 0,
  whole: false,
};
for await (const entry of source) {
  report.ids.push(entry.event.id);
  const { content } = entry.event as { content?: { text?: string }[] };
  const text = content?.[0]?.text;
  if (typeof text === "string") {
    report.textLength = text.length;
    report.whole = /^z*$/.test(text);
  }
}
console.log(JSON.stringify(report));
