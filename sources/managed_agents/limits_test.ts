// Copyright 2026 the brigade authors. MIT license.

// fromManagedAgents() caps the bytes of a page it reads (maxPageBytes),
// counted after decompression.

import assert from "node:assert/strict";
import { fromManagedAgents } from "@brigade/transcript";
import { collect, event, failure, KEY, startFakeApi } from "../../tests/_managed_agents_server.ts";

async function gzip(bytes: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

Deno.test("fromManagedAgents() stops reading a page over maxPageBytes, with no retry", async () => {
  const page = JSON.stringify({
    data: [event("sevt_1", "agent.message", null, { content: "x".repeat(5000) })],
    next_page: null,
  });
  const api = startFakeApi({ apiKey: KEY, sessions: [], intercept: () => new Response(page) });
  try {
    const error = await failure(collect(fromManagedAgents({
      sessionId: "sesn_big",
      apiKey: KEY,
      baseUrl: api.baseUrl,
      maxPageBytes: 4096,
    })));
    assert.match(
      error.message,
      /: the API answered with a page over the 4096-byte cap \("maxPageBytes"\); reading stopped at \d+ bytes$/,
    );
    assert.equal(api.requests.length, 1);
    // Just under the cap, the same page is read.
    const entries = await collect(fromManagedAgents({
      sessionId: "sesn_big",
      apiKey: KEY,
      baseUrl: api.baseUrl,
      maxPageBytes: new TextEncoder().encode(page).length,
    }));
    assert.equal(entries.length, 1);
  } finally {
    await api.shutdown();
  }
});

Deno.test("fromManagedAgents() counts a gzip bomb's bytes decompressed, against the 64 MiB default", async () => {
  // 65 MiB of spaces, about 65 KB on the wire.
  const bomb = await gzip(new Uint8Array(65 * 1024 * 1024).fill(0x20));
  assert.ok(bomb.length < 200_000, `${bomb.length} bytes on the wire`);
  const api = startFakeApi({
    apiKey: KEY,
    sessions: [],
    intercept: () =>
      new Response(bomb, {
        headers: { "content-encoding": "gzip", "content-type": "application/json" },
      }),
  });
  try {
    const error = await failure(collect(
      fromManagedAgents({ sessionId: "sesn_bomb", apiKey: KEY, baseUrl: api.baseUrl }),
    ));
    assert.match(error.message, /a page over the 67108864-byte cap \("maxPageBytes"\)/);
    assert.equal(error.status, undefined);
    assert.equal(api.requests.length, 1, "downloaded once, not retried");
  } finally {
    await api.shutdown();
  }
});
