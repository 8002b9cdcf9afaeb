// Copyright 2026 the brigade authors. MIT license.

// Run by renderers/grader/grader_ends_memory_test.ts with a small heap: renders a generated
// session, never held whole, with the grader keeping its ends (`keep: "ends"`), which reads the
// whole session: turns of a user message, model requests, tool calls with long non-ASCII
// results, a child thread's own calls (never cross-posted, so the grader's record of them is
// always full) and thread messages both ways. Prints the transcript's UTF-8 size, its first
// label and its last line.
// Usage: deno run --v8-flags=--max-old-space-size=N _grader_ends_bounded_child.ts ROUNDS

import { fromNdjson, renderGrader } from "../mod.ts";

const rounds = Number(Deno.args[0]);
const encoder = new TextEncoder();
const CHILD = "sthr_child";
const result = "Prüfe die Änderung: 日本語のテスト, ok. ".repeat(60);

function line(seq: number, thread: string | null, event: Record<string, unknown>): string {
  return `${JSON.stringify({ seq, session_id: "sesn_ends", thread_id: thread, event })}\n`;
}

/** One turn's lines, from `seq` on. */
function turn(round: number, seq: number): string[] {
  const lines: string[] = [];
  const add = (thread: string | null, event: Record<string, unknown>): void => {
    seq++;
    lines.push(line(seq, thread, { id: `sevt_${seq}`, ...event }));
  };
  add(null, { type: "user.message", content: `Round ${round}: run the suite.` });
  add(null, { type: "span.model_request_start" });
  add(null, { type: "agent.tool_use", name: "bash", input: { command: `test ${round}` } });
  add(null, { type: "agent.tool_result", tool_use_id: `sevt_${seq - 1}`, content: result });
  add(null, { type: "span.model_request_end", model_request_start_id: `sevt_${seq - 3}` });
  add(null, {
    type: "agent.thread_message_sent",
    to_session_thread_id: CHILD,
    content: `Check round ${round}.`,
  });
  add(CHILD, {
    type: "agent.thread_message_received",
    from_session_thread_id: "sthr_primary",
    content: `Check round ${round}.`,
  });
  add(CHILD, { type: "agent.tool_use", name: "read", input: { path: `src/${round}.ts` } });
  add(CHILD, { type: "agent.tool_result", tool_use_id: `sevt_${seq - 1}`, content: result });
  add(CHILD, {
    type: "agent.thread_message_sent",
    to_session_thread_id: "sthr_primary",
    content: `Round ${round} is fine.`,
  });
  add(null, {
    type: "agent.thread_message_received",
    from_session_thread_id: CHILD,
    from_agent_name: "checker",
    content: `Round ${round} is fine.`,
  });
  add(null, { type: "agent.message", content: [{ type: "text", text: `Done ${round}.` }] });
  return lines;
}

/** The log, about 64 KiB a chunk, as a file read gives them. */
async function* chunks(): AsyncGenerator<Uint8Array> {
  let text = line(1, null, {
    id: "sevt_created",
    type: "session.thread_created",
    session_thread_id: CHILD,
    agent_name: "checker",
  });
  let seq = 1;
  for (let round = 0; round < rounds; round++) {
    const lines = turn(round, seq);
    seq += lines.length;
    text += lines.join("");
    if (text.length >= 65_536) {
      yield encoder.encode(text);
      text = "";
    }
  }
  yield encoder.encode(text);
}

const transcript = await renderGrader(fromNdjson(ReadableStream.from(chunks())), {
  keep: "ends",
});
console.log(JSON.stringify({
  bytes: encoder.encode(transcript).length,
  first: transcript.slice(0, transcript.indexOf("\n")),
  last: transcript.trimEnd().split("\n").at(-1),
}));
