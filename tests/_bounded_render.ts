// Copyright 2026 the brigade authors. MIT license.

// Renders a hostile log generated as a byte stream (never held whole) and
// prints what came out, for the memory-bound tests, which run it under a
// small V8 heap: `deno run --v8-flags=--max-old-space-size=N _bounded_render.ts
// SCENARIO RENDERER MEGABYTES [MESSAGE_MEGABYTES]`, where RENDERER is a registered name or
// `grader-ends` (the grader with `keep: "ends"`) or `grader-outcome` (with `outcome: true`).
//
// - held: a model request that never ends, then user messages of 2 KB each:
//   the grader holds them all for consumption order.
// - threads: thread after thread (500-character ids and names), each with a
//   request started on it and a message to it held.
// - turns: a plain session of user and agent messages, about 1M events in 160 MiB.
// - huge: user messages of 4 MiB each (or MESSAGE_MEGABYTES), the first with a
//   secret at both ends.

import { fromNdjson, registry } from "../mod.ts";

const [scenario, renderer, megabytes, messageMegabytes = "4"] = Deno.args;
const total = Number(megabytes) * 1024 * 1024;
const encoder = new TextEncoder();
let streamed = 0;
const KEY = "sk-proj-Q7xv2LmN9pR4sT8wZ1bC5dF3gH6jK0aY";

function line(seq: number, thread: string | null, event: Record<string, unknown>): string {
  return JSON.stringify({ seq, session_id: "sesn_hostile", thread_id: thread, event });
}

/** The lines of a scenario (a huge one in byte pieces), until `total` bytes were streamed. */
function* lines(): Generator<string | Uint8Array> {
  let seq = 0;
  const pad = "lorem ipsum dolor sit amet ".repeat(80);
  if (scenario === "held") {
    yield `${line(++seq, null, { id: "req_1", type: "span.model_request_start" })}\n`;
    while (true) {
      yield `${
        line(++seq, null, { id: `sevt_${seq}`, type: "user.message", content: `${seq} ${pad}` })
      }\n`;
    }
  }
  if (scenario === "threads") {
    const long = "t".repeat(480);
    while (true) {
      const thread = `sthr_${seq}_${long}`;
      yield `${
        line(++seq, null, {
          id: `sevt_${seq}`,
          type: "session.thread_created",
          session_thread_id: thread,
          agent_name: `agent ${seq} ${long}`,
        })
      }\n`;
      yield `${line(++seq, thread, { id: `req_${seq}`, type: "span.model_request_start" })}\n`;
      yield `${
        line(++seq, thread, { id: `sevt_${seq}`, type: "user.message", content: `${seq}` })
      }\n`;
    }
  }
  if (scenario === "huge") {
    // The body is bytes outside the JavaScript heap, so that only what the
    // renderer holds counts against the heap limit.
    const body = encoder.encode("word ".repeat(Number(messageMegabytes) * 1024 * 1024 / 5));
    while (true) {
      const [open, close] = line(++seq, null, {
        id: `sevt_${seq}`,
        type: "user.message",
        content: seq === 1 ? `${KEY} \u0000 ${KEY}` : `${seq} \u0000`,
      }).split("\\u0000");
      yield `${open}`;
      yield body.slice();
      yield `${close}\n`;
    }
  }
  if (scenario === "turns") {
    // A plain session, turn after turn: about 1M events in 160 MiB.
    while (true) {
      const type = seq % 2 ? "agent.message" : "user.message";
      yield `${
        line(++seq, null, { id: `sevt_${seq}`, type, content: `turn ${seq} ${pad.slice(0, 60)}` })
      }\n`;
    }
  }
  throw new Error(`unknown scenario ${scenario}`);
}

const source = lines();
let atLineEnd = true;
const stream = new ReadableStream<Uint8Array>({
  // About 64 KiB a chunk, as a file read gives them; a huge line's body alone.
  pull(controller): void {
    let text = "";
    const flush = (): void => {
      const bytes = encoder.encode(text);
      streamed += bytes.length;
      if (bytes.length > 0) controller.enqueue(bytes);
      text = "";
    };
    while ((streamed + text.length < total || !atLineEnd) && text.length < 65_536) {
      const piece = source.next().value!;
      if (typeof piece === "string") {
        text += piece;
        atLineEnd = piece.endsWith("\n");
        continue;
      }
      flush();
      streamed += piece.length;
      atLineEnd = false;
      controller.enqueue(piece);
      return;
    }
    flush();
    if (streamed >= total && atLineEnd) controller.close();
  },
});
// "grader-ends" is the grader keeping the head and the tail of the transcript; "grader-outcome"
// the grader with its outcome block (the whole log read for it).
const GRADER_VARIANTS: Record<string, Record<string, unknown>> = {
  "grader-ends": { keep: "ends" },
  "grader-outcome": { outcome: true },
};
if (renderer === "grader-chunks") {
  // The grader in chunks of 16 KiB, through stream(): each chunk checked and let go.
  let chunks = 0;
  let maxChunkBytes = 0;
  let outputBytes = 0;
  let next = 1;
  let continuous = true;
  let head = "";
  let tail = "";
  const grader = registry.resolve("grader");
  for await (const chunk of grader.stream!(fromNdjson(stream), { chunks: { bytes: 16_384 } })) {
    chunks++;
    const size = encoder.encode(chunk).length;
    outputBytes += size;
    maxChunkBytes = Math.max(maxChunkBytes, size);
    const [, first, last] = /^\[chunk \d+(?: of \d+)? · items? (\d+)(?:–(\d+))?\]\n/.exec(chunk) ??
      [];
    if (Number(first) !== next) continuous = false;
    next = Number(last ?? first) + 1;
    if (head === "") head = chunk.slice(0, 200);
    tail = chunk.slice(-200);
  }
  console.log(JSON.stringify({
    streamedMiB: Math.round(streamed / 1024 / 1024),
    outputBytes,
    head,
    tail,
    leaked: false,
    chunks,
    maxChunkBytes,
    items: next - 1,
    continuous,
  }));
  Deno.exit(0);
}
const variant = GRADER_VARIANTS[renderer!];
const text = variant !== undefined
  ? await registry.resolve("grader").render(fromNdjson(stream), variant)
  : await registry.resolve(renderer!).render(fromNdjson(stream));
console.log(JSON.stringify({
  streamedMiB: Math.round(streamed / 1024 / 1024),
  outputBytes: encoder.encode(text).length,
  head: text.slice(0, 200),
  // After a front matter (the dream's), where the body starts; the text's head when it has none.
  bodyHead: text.slice(text.startsWith("---\n") ? text.indexOf("\n---\n") + 5 : 0).slice(0, 200),
  tail: text.slice(-200),
  leaked: text.includes("sk-proj"),
}));
