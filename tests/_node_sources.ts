// Copyright 2026 the brigade authors. MIT license.

// Bundled for Node and Bun by tests/sources_node_test.ts: both line sources read a byte stream
// outside Deno, and a path as they do under Deno (the folder the files are in is the argument).

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

/** What opening `path` gives: the error's message and code, or that it opened. */
async function opening(entries: AsyncGenerator<unknown>): Promise<string> {
  try {
    await entries.next(); // Node 20 has no Array.fromAsync
    await entries.return(undefined);
    return "opened";
  } catch (error) {
    return `${(error as EventSourceError).code}: ${(error as Error).message}`;
  }
}

/** The session of `fixtures/claude_code/current/home-dev-app/` whose subagents have files. */
const SUBAGENT_SESSION = "7f3c2a10-5b8e-4d21-9c6a-2e4f8b1d0a93";

const dir = (globalThis as { process?: { argv: string[] } }).process!.argv[2]!;
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
// A path, as under Deno: the session is named after the file, the lines read in order.
const entries: string[] = [];
for await (const entry of fromClaudeCode(`${dir}/sesn_path.jsonl`)) {
  entries.push(`${entry.session_id} ${entry.event.type}`);
}
const claudePath = await renderGrader(fromClaudeCode(`${dir}/sesn_path.jsonl`));
const ndjsonPath = await renderGrader(fromNdjson(new URL(`file://${dir}/log.ndjson`)));
// A session whose subagents are in its own folder's subagents/, read with it.
const subagents = await renderGrader(fromClaudeCode(`${dir}/project/${SUBAGENT_SESSION}.jsonl`));
console.log(JSON.stringify({
  claude,
  ndjson,
  invalid,
  entries,
  claudePath,
  ndjsonPath,
  subagents,
  missing: await opening(fromClaudeCode(`${dir}/missing.jsonl`)),
  directory: await opening(fromNdjson(dir)),
  deno: "Deno" in globalThis,
}));
