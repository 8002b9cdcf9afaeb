// Copyright 2026 the brigade authors. MIT license.

// Bundled for Node by tests/sources_node_test.ts: both line sources read a
// byte stream outside Deno, and a path says to pass a stream instead.

import { type EventSourceError, fromClaudeCode, fromNdjson, renderGrader } from "../mod.ts";

function stream(text: string): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  return new ReadableStream({
    start(controller): void {
      controller.enqueue(bytes);
      controller.close();
    },
  });
}

const invalid: string[] = [];
const claude = await renderGrader(
  fromClaudeCode(stream('{"type":"user","message":{"content":"Hi from Node"}}\nnot json\n'), {
    onInvalid: (line) => invalid.push(`claude ${line}`),
  }),
);
const ndjson = await renderGrader(
  fromNdjson(stream('[]\n{"id":"e1","type":"agent.message","content":"Hello"}\n'), {
    skipInvalid: true,
    onInvalid: (line) => invalid.push(`ndjson ${line}`),
  }),
);
let pathError = "";
let pathCode = "";
try {
  await fromClaudeCode("/some/session.jsonl").next(); // Node 20 has no Array.fromAsync
} catch (error) {
  pathError = (error as Error).message;
  pathCode = (error as EventSourceError).code;
}
console.log(
  JSON.stringify({ claude, ndjson, invalid, pathError, pathCode, deno: "Deno" in globalThis }),
);
