// Copyright 2026 the brigade authors. MIT license.

// fromManagedAgents() fails at once, with a ManagedAgentsError that names the
// list and says why, on what a retry cannot fix: 401, 403, 404, a page that is
// not the documented shape, a failing custom fetch, a missing permission.

import assert from "node:assert/strict";
import { fromManagedAgents } from "@brigade/transcript";
import {
  apiError,
  assertNoKey,
  collect,
  event,
  failure,
  KEY,
  SOLO,
  startFakeApi,
  TEAM,
} from "../../tests/_managed_agents_server.ts";

const WRONG_KEY = "sk-ant-api03-wrong-key-9876543210fedcba";

Deno.test("fromManagedAgents() fails at once on a 401, naming the session and the status, never the key", async () => {
  const api = startFakeApi({ apiKey: KEY, sessions: [SOLO] });
  try {
    const error = await failure(collect(
      fromManagedAgents({ sessionId: "sesn_solo", apiKey: WRONG_KEY, baseUrl: api.baseUrl }),
    ));
    assert.equal(api.requests.length, 1);
    assert.equal(error.status, 401);
    assert.equal(
      error.message,
      'sessions/sesn_solo/events: Cannot list events of session "sesn_solo": ' +
        "the API answered 401 Unauthorized (check the API key): " +
        "authentication_error: invalid x-api-key: [API key]",
    );
    assertNoKey(error, WRONG_KEY);
  } finally {
    await api.shutdown();
  }
});

Deno.test("fromManagedAgents() fails at once on a 403 and a 404", async () => {
  const api = startFakeApi({
    apiKey: KEY,
    sessions: [SOLO, TEAM],
    intercept: (request) =>
      request.path.startsWith("/v1/sessions/sesn_team/")
        ? apiError(403, "permission_error", "no access to this workspace")
        : undefined,
  });
  try {
    const forbidden = await failure(collect(
      fromManagedAgents({ sessionId: "sesn_team", apiKey: KEY, baseUrl: api.baseUrl }),
    ));
    assert.equal(forbidden.status, 403);
    assert.match(forbidden.message, /session "sesn_team": the API answered 403 Forbidden/);

    const missing = await failure(collect(
      fromManagedAgents({ sessionId: "sesn_gone", apiKey: KEY, baseUrl: api.baseUrl }),
    ));
    assert.equal(missing.status, 404);
    assert.match(missing.message, /session "sesn_gone": the API answered 404 Not Found/);
    assert.match(missing.message, /not_found_error: session not found$/);
    assert.equal(api.requests.length, 2, "neither was retried");
    assertNoKey(forbidden);
    assertNoKey(missing);
  } finally {
    await api.shutdown();
  }
});

Deno.test("fromManagedAgents() rejects a page that is not the documented shape", async () => {
  const pages: Record<string, () => Response> = {
    sesn_html: () => new Response("<html>proxy login</html>", { status: 200 }),
    sesn_list: () => Response.json([{ id: "sevt_1", type: "user.message" }]),
    sesn_nodata: () => Response.json({ events: [], next_page: null }),
    sesn_untyped: () => Response.json({ data: [{ id: "sevt_1" }], next_page: null }),
    sesn_scalar: () =>
      Response.json({ data: [event("sevt_1", "user.message", null), 7], next_page: null }),
    sesn_cursor: () => Response.json({ data: [], next_page: 2 }),
  };
  const api = startFakeApi({
    apiKey: KEY,
    sessions: [],
    intercept: (request) => pages[request.path.split("/")[3]!]?.(),
  });
  const expected: Record<string, RegExp> = {
    sesn_html: /session "sesn_html": the API answered with a page that is not JSON: /,
    sesn_list: /not \{data: \[\.\.\.\], next_page\?: string \| null\}: the body is an array$/,
    sesn_nodata: /: "data" is missing$/,
    sesn_untyped: /: data\[0\] has "type" missing, not a string$/,
    sesn_scalar: /: data\[1\] is the number 7, not an event object$/,
    sesn_cursor: /: "next_page" is the number 2$/,
  };
  try {
    for (const [sessionId, pattern] of Object.entries(expected)) {
      const error = await failure(
        collect(fromManagedAgents({ sessionId, apiKey: KEY, baseUrl: api.baseUrl })),
      );
      assert.match(error.message, pattern);
      assert.equal(error.status, undefined);
      assertNoKey(error);
    }
    assert.equal(api.requests.length, Object.keys(expected).length, "none was retried");
  } finally {
    await api.shutdown();
  }
});

Deno.test("fromManagedAgents() fails at once on an error that a retry cannot fix", async (t) => {
  await t.step("a programming error in a custom fetch", async () => {
    let calls = 0;
    const error = await failure(collect(fromManagedAgents({
      sessionId: "sesn_solo",
      apiKey: KEY,
      fetch: () => {
        calls++;
        throw new RangeError(`bad state near ${KEY}`);
      },
    })));
    assert.equal(calls, 1);
    assert.equal(
      error.message,
      'sessions/sesn_solo/events: Cannot list events of session "sesn_solo": ' +
        "the request to https://api.anthropic.com failed: RangeError: bad state near [API key]",
    );
    assert.ok(error.cause instanceof Error);
    assert.equal(error.cause.name, "RangeError");
    assert.equal(error.cause.message, "bad state near [API key]");
    assertNoKey(error);
  });

  await t.step("a URL that fetch refuses (a 1 MB cursor)", async () => {
    const api = startFakeApi({
      apiKey: KEY,
      sessions: [],
      intercept: () =>
        Response.json({ data: [event("sevt_1", "x", null)], next_page: "c".repeat(1024 * 1024) }),
    });
    try {
      const error = await failure(collect(
        fromManagedAgents({ sessionId: "sesn_long", apiKey: KEY, baseUrl: api.baseUrl }),
      ));
      assert.match(
        error.message,
        new RegExp(`: the request to ${api.baseUrl} failed: TypeError: Invalid URL .{0,300}…$`),
      );
      assert.equal(api.requests.length, 1, "the first page only: the second was never retried");
    } finally {
      await api.shutdown();
    }
  });

  await t.step("a missing network permission, in a process without it", async () => {
    const api = startFakeApi({ apiKey: KEY, sessions: [SOLO] });
    try {
      const host = new URL(api.baseUrl).host;
      // Only the default API host is allowed: the loopback base URL is not.
      const script = `
        import { fromManagedAgents } from "@brigade/transcript";
        let calls = 0;
        const source = fromManagedAgents({
          sessionId: "sesn_solo",
          apiKey: "${KEY}",
          baseUrl: "${api.baseUrl}",
          fetch: (input, init) => { calls++; return fetch(input, init); },
        });
        try {
          for await (const _ of source);
        } catch (error) {
          console.log(JSON.stringify({ calls, message: error.message, cause: error.cause?.name }));
        }
      `;
      const output = await new Deno.Command(Deno.execPath(), {
        args: ["run", "--allow-net=api.anthropic.com", "-"],
        cwd: new URL("../..", import.meta.url),
        stdin: "piped",
        stdout: "piped",
        stderr: "piped",
        env: { NO_COLOR: "1" },
      }).spawn();
      const writer = output.stdin.getWriter();
      await writer.write(new TextEncoder().encode(script));
      await writer.close();
      const { code, stdout, stderr } = await output.output();
      const text = new TextDecoder().decode(stdout);
      assert.equal(code, 0, new TextDecoder().decode(stderr));
      const result = JSON.parse(text);
      assert.equal(result.calls, 1, "tried once, not six times");
      assert.equal(result.cause, "NotCapable");
      assert.equal(
        result.message,
        'sessions/sesn_solo/events: Cannot list events of session "sesn_solo": ' +
          `the network permission for ${host} is missing: ` +
          `run with --allow-net=${host} (or a list that holds it)`,
      );
      assert.equal(api.requests.length, 0);
    } finally {
      await api.shutdown();
    }
  });
});
