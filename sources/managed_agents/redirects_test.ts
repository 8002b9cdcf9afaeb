// Copyright 2026 the brigade authors. MIT license.

// fromManagedAgents() follows a few redirects within the API's origin and
// refuses one to another origin, so that the key goes only to the API.

import assert from "node:assert/strict";
import { fromManagedAgents } from "@brigade/transcript";
import {
  collect,
  event,
  failure,
  KEY,
  redirect,
  SOLO,
  SOLO_EVENTS,
  startFakeApi,
} from "../../tests/_managed_agents_server.ts";

// A server that is hostile or broken, as an attacker would set one up.

Deno.test("fromManagedAgents() follows a same-origin redirect with the key", async () => {
  const api = startFakeApi({
    apiKey: KEY,
    sessions: [SOLO],
    // Three hops within the origin, each with another status, then the page.
    intercept: (request, index) =>
      index < 3
        ? redirect([301, 307, 308][index]!, `/v1/moved/${index}?${request.params}`)
        : Response.json({ data: SOLO_EVENTS, next_page: null }),
  });
  try {
    const entries = await collect(
      fromManagedAgents({ sessionId: "sesn_solo", apiKey: KEY, baseUrl: api.baseUrl }),
    );
    assert.equal(entries.length, 7);
    assert.deepEqual(api.requests.map((request) => request.path), [
      "/v1/sessions/sesn_solo/events",
      "/v1/moved/0",
      "/v1/moved/1",
      "/v1/moved/2",
    ]);
    for (const request of api.requests) assert.equal(request.headers.get("x-api-key"), KEY);
  } finally {
    await api.shutdown();
  }
});

Deno.test("fromManagedAgents() follows at most 5 redirects within the origin", async () => {
  const api = startFakeApi({
    apiKey: KEY,
    sessions: [],
    intercept: (_request, index) => redirect(302, `/v1/loop/${index}`),
  });
  try {
    const error = await failure(collect(
      fromManagedAgents({ sessionId: "sesn_loop", apiKey: KEY, baseUrl: api.baseUrl }),
    ));
    assert.match(error.message, /: the API redirected more than 5 times in a row$/);
    assert.equal(error.status, 302);
    assert.equal(api.requests.length, 6, "the first request and 5 redirects, no retry");
  } finally {
    await api.shutdown();
  }
});

Deno.test("fromManagedAgents() refuses a redirect to another origin and never sends it the key", async (t) => {
  // The other origin serves a page of its own, to be rendered as if it came
  // from the API if it were ever asked.
  const other = startFakeApi({
    apiKey: KEY,
    sessions: [],
    intercept: () => Response.json({ data: [event("sevt_evil", "x", null)], next_page: null }),
  });
  let target = "";
  const api = startFakeApi({
    apiKey: KEY,
    sessions: [SOLO],
    intercept: (request) =>
      request.path.startsWith("/v1/sessions/")
        ? redirect(Number(request.params.get("status") ?? 302), target)
        : undefined,
  });
  const port = new URL(api.baseUrl).port;
  const origins: [string, string][] = [
    ["another port", other.baseUrl],
    ["another scheme", `https://127.0.0.1:${port}`],
    ["another host", `http://localhost:${port}`],
  ];
  const names: Record<number, string> = {
    301: "301 Moved Permanently",
    302: "302 Found",
    303: "303 See Other",
    307: "307 Temporary Redirect",
    308: "308 Permanent Redirect",
  };
  try {
    for (const [what, origin] of origins) {
      for (const [status, name] of Object.entries(names)) {
        await t.step(`${what}, ${status}`, async () => {
          target = `${origin}/v1/sessions/sesn_solo/events?limit=100`;
          const before = api.requests.length;
          const error = await failure(collect(fromManagedAgents({
            sessionId: "sesn_solo",
            apiKey: KEY,
            baseUrl: api.baseUrl,
            // The status to answer with rides in the fetch's query.
            fetch: (input, init) => {
              const url = new URL(String(input));
              if (url.origin === api.baseUrl) url.searchParams.set("status", status);
              return fetch(url, init);
            },
          })));
          assert.equal(
            error.message,
            'sessions/sesn_solo/events: Cannot list events of session "sesn_solo": ' +
              `the API answered ${name} to another origin, ${origin}; it is not followed, ` +
              `so that the API key goes only to ${api.baseUrl}`,
          );
          assert.equal(error.status, Number(status));
          assert.equal(api.requests.length - before, 1, "not retried");
        });
      }
    }
    assert.equal(other.requests.length, 0, "the other origin was never asked");
  } finally {
    await api.shutdown();
    await other.shutdown();
  }
});

Deno.test("fromManagedAgents() refuses a redirect to an invalid URL at once", async () => {
  const api = startFakeApi({
    apiKey: KEY,
    sessions: [],
    intercept: () => redirect(307, "http://[::1"),
  });
  try {
    const error = await failure(collect(
      fromManagedAgents({ sessionId: "sesn_bad", apiKey: KEY, baseUrl: api.baseUrl }),
    ));
    assert.match(error.message, /: the API answered 307 Temporary Redirect to an invalid URL$/);
    assert.equal(api.requests.length, 1);
  } finally {
    await api.shutdown();
  }
});

Deno.test("fromManagedAgents() refuses a redirect to a URL that is not http(s), even of the same origin", async (t) => {
  let target = "";
  const api = startFakeApi({
    apiKey: KEY,
    sessions: [SOLO],
    intercept: () => redirect(302, target),
  });
  try {
    for (
      const [what, url, shown] of [
        ["a blob: URL of the same origin", `blob:${api.baseUrl}/0b9c1a3e`, "blob: URL"],
        ["a data: URL", "data:application/json,{}", "data: URL"],
        ["a file: URL", "file:///etc/passwd", "file: URL"],
      ]
    ) {
      await t.step(what!, async () => {
        target = url!;
        const before = api.requests.length;
        const error = await failure(collect(
          fromManagedAgents({ sessionId: "sesn_solo", apiKey: KEY, baseUrl: api.baseUrl }),
        ));
        assert.match(
          error.message,
          new RegExp(`the API answered 302 Found to another origin, ${shown}; it is not followed`),
        );
        assert.equal(api.requests.length - before, 1, "not retried");
      });
    }
  } finally {
    await api.shutdown();
  }
});
