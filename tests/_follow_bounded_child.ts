// Copyright 2026 the brigade authors. MIT license.

// A child for follow_bounded_test.ts, run under a small V8 heap: a loopback API whose session
// stream sends MIB mebibytes of events as fast as the connection takes them, followed by
// fromManagedAgents({ follow: true }) into streamJson() by a consumer slower than the server (it
// pauses every 256 items). Prints a JSON report; running out of heap kills it.

import { fromManagedAgents, streamJson } from "../mod.ts";

const mib = Number(Deno.args[0] ?? "64");
const key = "sk-ant-api03-bounded-follow-000000000000";
const filler = "y".repeat(2_000);
const total = Math.ceil((mib * 1024 * 1024) / 2_100);
const encoder = new TextEncoder();
let made = 0;

const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen(): void {} }, (request) => {
  const path = new URL(request.url).pathname;
  if (!path.endsWith("/stream")) return Response.json({ data: [], next_page: null });
  const body = new ReadableStream<Uint8Array>({
    pull(controller): void {
      // Made as the connection takes them: the server holds none.
      const event = made === total
        ? { id: "sevt_end", type: "session.status_terminated", processed_at: null }
        : { id: `sevt_${made}`, type: "agent.message", processed_at: null, content: filler };
      made++;
      controller.enqueue(encoder.encode(`data: ${JSON.stringify(event)}\n\n`));
      if (made > total) controller.close();
    },
  }, { highWaterMark: 0 });
  return new Response(body, { headers: { "content-type": "text/event-stream" } });
});

const source = fromManagedAgents({
  sessionId: "sesn_big",
  apiKey: key,
  baseUrl: `http://127.0.0.1:${server.addr.port}`,
  follow: true,
});
let lines = 0;
let bytes = 0;
for await (const chunk of streamJson(source, { transcriptBudget: Infinity })) {
  lines++;
  bytes += chunk.length;
  if (lines % 256 === 0) await new Promise((resolve) => setTimeout(resolve, 1));
}
await server.shutdown();
const heapMiB = Math.round(Deno.memoryUsage().heapUsed / 1024 / 1024);
console.log(JSON.stringify({ lines, streamedMiB: Math.round(bytes / 1024 / 1024), heapMiB }));
