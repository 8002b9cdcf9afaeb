// Copyright 2026 the brigade authors. MIT license.

// One event of 16 MiB on a followed session's stream arrives whole in a process whose heap is
// under twice its size (its text and its JSON are both held while it is parsed): the server-sent event reader keeps a long line as its bytes, joined and decoded
// once at its end, where appending each chunk to a string and scanning it again needed more.
// (How long it takes is bench/sse_compare.ts's, not this test's.)

import assert from "node:assert/strict";
import { KEY, startFakeApi } from "./_managed_agents_server.ts";

const MIB = 16;
// The former reader needed more than this (it failed at 28, 30 and 36 MiB); this one fits in 27.
const HEAP_MIB = 30;

Deno.test(`a followed event of ${MIB} MiB arrives whole within a ${HEAP_MIB} MiB heap`, async () => {
  // The list lags the stream, as the API's does: the catch-up listing after the stream opens
  // leaves the event out, so it comes through the stream.
  const api = startFakeApi({ apiKey: KEY, sessions: [{ id: "sesn_big", events: [] }], listLag: 1 });
  try {
    const child = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--allow-net=127.0.0.1",
        `--v8-flags=--max-old-space-size=${HEAP_MIB}`,
        new URL("./_sse_bounded_child.ts", import.meta.url).pathname,
        api.baseUrl,
      ],
      stdout: "piped",
      stderr: "piped",
      env: { NO_COLOR: "1" },
    }).spawn();
    while (api.openStreams() === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    api.append("sesn_big", {
      id: "sevt_big",
      type: "agent.message",
      processed_at: null,
      content: [{ type: "text", text: "z".repeat(MIB * 1024 * 1024) }],
    });
    api.append("sesn_big", {
      id: "sevt_end",
      type: "session.status_terminated",
      processed_at: null,
    });
    const { code, stdout, stderr } = await child.output();
    const said = new TextDecoder().decode(stderr).slice(-2_000);
    assert.equal(code, 0, said);
    assert.deepEqual(JSON.parse(new TextDecoder().decode(stdout)), {
      ids: ["sevt_big", "sevt_end"],
      textLength: MIB * 1024 * 1024,
      whole: true,
    });
  } finally {
    await api.shutdown();
  }
});
