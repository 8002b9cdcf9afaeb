// Copyright 2026 the brigade authors. MIT license.

// Run by kit/conversation_test.ts with a small heap: drains
// `conversation()` in the grader view (the view a team's renderer gets by
// default) over a generated log, never held whole, whose grader bookkeeping is
// always full: a child thread's tool calls never cross-posted to the primary,
// and thread messages sent whose received halves never come, each with a long
// non-ASCII payload of its own. Prints the items yielded, by kind.
// Usage: deno run --v8-flags=--max-old-space-size=N _conversation_bounded_child.ts ROUNDS

import { conversation, fromNdjson } from "../mod.ts";

const rounds = Number(Deno.args[0]);
const encoder = new TextEncoder();
const CHILD = "sthr_child";
const payload = "Prüfe die Änderung und berichte, was fehlschlägt. ".repeat(16);

function line(seq: number, thread: string | null, event: Record<string, unknown>): string {
  return `${JSON.stringify({ seq, session_id: "sesn_bounded", thread_id: thread, event })}\n`;
}

/** The log, about 64 KiB a chunk, as a file read gives them. */
async function* chunks(): AsyncGenerator<Uint8Array> {
  let seq = 0;
  let text = line(++seq, null, {
    id: "sevt_created",
    type: "session.thread_created",
    session_thread_id: CHILD,
    agent_name: "worker",
  });
  for (let round = 0; round < rounds; round++) {
    text += line(++seq, CHILD, {
      id: `sevt_${seq}`,
      type: "agent.tool_use",
      name: "bash",
      input: { command: `${round} ${payload}` },
    });
    text += line(++seq, null, {
      id: `sevt_${seq}`,
      type: "agent.thread_message_sent",
      to_session_thread_id: CHILD,
      content: `${round} ${payload}`,
    });
    if (text.length >= 65_536) {
      yield encoder.encode(text);
      text = "";
    }
  }
  yield encoder.encode(text);
}

const kinds: Record<string, number> = {};
for await (const item of conversation(fromNdjson(ReadableStream.from(chunks())))) {
  kinds[item.kind] = (kinds[item.kind] ?? 0) + 1;
}
console.log(JSON.stringify(kinds));
