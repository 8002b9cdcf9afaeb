// Copyright 2026 the brigade authors. MIT license.

// One event of 16 MiB on a followed session's stream arrives whole in a process whose heap is
// bounded at three times its size: while it is parsed the reader holds its text and its JSON, and
// a long line is kept as its bytes, joined and decoded once at its end. (How long it takes is
// bench/sse_compare.ts's, not this test's; the former reader's cost was time, quadratic in the
// event's size, more than memory at this size.)

import assert from "node:assert/strict";
import { KEY, startFakeApi } from "./_managed_agents_server.ts";

const MIB = 16;
// Its peak is near 38 MiB under a loaded machine's garbage collection (text, JSON, and what the
// stream has not let go of yet), so the bound leaves room for that and no more.
const HEAP_MIB = 48;

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
