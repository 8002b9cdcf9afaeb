// Copyright 2026 the brigade authors. MIT license.

// fromManagedAgents() and the API key: where it comes from when not given,
// and that no error, whatever a server or a custom fetch echoes, carries it.

import assert from "node:assert/strict";
import fc from "fast-check";
import { fromManagedAgents, ManagedAgentsError } from "@brigade/transcript";
import {
  apiError,
  assertNoKey,
  collect,
  event,
  failure,
  KEY,
  redirect,
  SOLO,
  startFakeApi,
  thrownBy,
} from "../../tests/_managed_agents_server.ts";

Deno.test("fromManagedAgents() reads ANTHROPIC_API_KEY when no key is given", async () => {
  const saved = Deno.env.get("ANTHROPIC_API_KEY");
  const api = startFakeApi({ apiKey: KEY, sessions: [SOLO] });
  try {
    Deno.env.set("ANTHROPIC_API_KEY", KEY);
    const source = fromManagedAgents({ sessionId: "sesn_solo", baseUrl: api.baseUrl });
    Deno.env.delete("ANTHROPIC_API_KEY"); // read when called, not when iterated
    assert.equal((await collect(source)).length, 7);
  } finally {
    if (saved === undefined) Deno.env.delete("ANTHROPIC_API_KEY");
    else Deno.env.set("ANTHROPIC_API_KEY", saved);
    await api.shutdown();
  }
});

Deno.test("fromManagedAgents() fails before any request without an API key", () => {
  const saved = Deno.env.get("ANTHROPIC_API_KEY");
  let calls = 0;
  try {
    Deno.env.delete("ANTHROPIC_API_KEY");
    assert.throws(
      () =>
        fromManagedAgents({
          sessionId: "sesn_solo",
          fetch: () => {
            calls++;
            return Promise.reject(new Error("unreachable"));
          },
        }),
      (error: unknown) =>
        error instanceof ManagedAgentsError &&
        error.message ===
          'sessions/sesn_solo/events: Cannot list session "sesn_solo" as there is no API key: ' +
            'pass "apiKey" or set ANTHROPIC_API_KEY',
    );
    assert.equal(calls, 0);
  } finally {
    if (saved !== undefined) Deno.env.set("ANTHROPIC_API_KEY", saved);
  }
});

Deno.test("fromManagedAgents() says to pass apiKey where there is no Deno to read the environment", () => {
  const deno = Object.getOwnPropertyDescriptor(globalThis, "Deno")!;
  let error: unknown;
  try {
    Object.defineProperty(globalThis, "Deno", { value: undefined, configurable: true });
    error = thrownBy(() => fromManagedAgents({ sessionId: "sesn_solo" }));
  } finally {
    Object.defineProperty(globalThis, "Deno", deno);
  }
  assert.ok(error instanceof ManagedAgentsError);
  assert.equal(
    error.message,
    'sessions/sesn_solo/events: Cannot list session "sesn_solo" as there is no API key: ' +
      'pass "apiKey"',
  );
});

Deno.test("fromManagedAgents() never lets a custom fetch's error carry the key", async () => {
  const error = await failure(collect(fromManagedAgents({
    sessionId: "sesn_solo",
    apiKey: KEY,
    maxRetries: 1,
    retryBaseDelayMs: 1,
    // A fetch that puts its request headers in what it throws.
    fetch: (_input: RequestInfo | URL, init?: RequestInit) => {
      const key = new Headers(init?.headers).get("x-api-key");
      const thrown = new TypeError(`proxy refused x-api-key=${key}`);
      Object.assign(thrown, { headers: init?.headers, key });
      return Promise.reject(thrown);
    },
  })));
  assert.match(error.message, /failed on each of 2 attempts: proxy refused x-api-key=\[API key\]$/);
  assert.equal((error.cause as Error).name, "TypeError");
  assertNoKey(error);
});

/**
 * Every view of a thrown error a user or a log could see, lower-cased, but
 * the stack frames: they name this code's files and functions, never input.
 */
function errorViews(error: unknown): string {
  const cause = (error as { cause?: unknown }).cause;
  return [
    String(error),
    (error as Error).stack ?? "",
    JSON.stringify(error),
    String(cause),
    (cause as Error | undefined)?.stack ?? "",
    JSON.stringify(cause) ?? "",
    Deno.inspect(error, { depth: 10, showHidden: true }),
  ].join("\n").replace(/^\s+at .*$/gm, "").toLowerCase();
}

/** Fails when any 8 characters in a row of the key show, in any case. */
function assertNoKeyPiece(error: unknown, key: string): void {
  const views = errorViews(error);
  const lower = key.toLowerCase();
  for (let i = 0; i + 8 <= lower.length; i++) {
    const piece = lower.slice(i, i + 8);
    assert.ok(!views.includes(piece), `${JSON.stringify(piece)} of the key shows in:\n${views}`);
  }
}

Deno.test("fromManagedAgents() lets no piece of the key of 8 characters into an error", async (t) => {
  const keys = fc.tuple(
    fc.constantFrom("sk-ant-api03-", "sk-", ""),
    fc.string({
      unit: fc.constantFrom(..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"),
      minLength: 12,
      maxLength: 60,
    }),
  ).map(([prefix, body]) => prefix + body);
  // What a server or a custom fetch does with the key it was sent.
  const echoes = fc.constantFrom(
    (key: string) => key,
    (key: string) => key.toUpperCase(),
    (key: string) => key.toLowerCase(),
    (key: string) => key.slice(3, 14),
    (key: string) => key.slice(0, 10),
    (key: string) => key.slice(-9),
    (key: string) => `${key.slice(0, 9).toUpperCase()}${key.slice(9)}`,
  );
  type Answer = (echo: string) => Response;
  const answers: Record<string, Answer> = {
    "an error body": (echo) => apiError(401, "authentication_error", `bad key ${echo}`),
    "a string as data": (echo) => Response.json({ data: `${echo}${echo}`, next_page: null }),
    "a page that is not JSON": (echo) => new Response(`x${echo}`),
    "a cursor that cycles": (echo) =>
      Response.json({ data: [event("sevt_1", "x", null)], next_page: `${echo}/${echo}` }),
    "an item that is not an event": (echo) =>
      Response.json({ data: [{ type: "x" }, `${echo}`], next_page: null }),
    "a redirect to a host named by the key": (echo) =>
      redirect(302, `http://${echo.replace(/[^A-Za-z0-9-]/g, "")}.example/`),
  };
  for (const [name, answer] of Object.entries(answers)) {
    await t.step(`echoed in ${name}`, async () => {
      await fc.assert(
        fc.asyncProperty(keys, echoes, async (key, echo) => {
          const error = await failure(collect(fromManagedAgents({
            sessionId: "sesn_leak",
            apiKey: key,
            maxRetries: 1,
            retryBaseDelayMs: 0,
            fetch: (_input, init) => {
              const sent = new Headers(init?.headers).get("x-api-key")!;
              return Promise.resolve(answer(echo(sent)));
            },
          })));
          assertNoKeyPiece(error, key);
        }),
        { numRuns: 60 },
      );
    });
  }
  await t.step("thrown by a custom fetch, retried or not", async () => {
    await fc.assert(
      fc.asyncProperty(keys, echoes, fc.boolean(), async (key, echo, transient) => {
        const error = await failure(collect(fromManagedAgents({
          sessionId: "sesn_leak",
          apiKey: key,
          maxRetries: 1,
          retryBaseDelayMs: 0,
          fetch: (_input, init) => {
            const sent = echo(new Headers(init?.headers).get("x-api-key")!);
            const thrown = transient ? new TypeError(`reset ${sent}`) : new SyntaxError(sent);
            thrown.name = `${thrown.name}${sent.slice(0, 12)}`;
            return Promise.reject(thrown);
          },
        })));
        assertNoKeyPiece(error, key);
      }),
      { numRuns: 60 },
    );
  });
});

Deno.test("fromManagedAgents() scrubs a key a loopback server echoes upper-cased and in part", async () => {
  const api = startFakeApi({
    apiKey: KEY,
    sessions: [SOLO],
    intercept: (request) => {
      const key = request.headers.get("x-api-key") ?? "";
      return apiError(
        403,
        "permission_error",
        `${key.toUpperCase()} has no access; prefix ${key.slice(0, 12)}, middle ${
          key.slice(9, 20)
        }`,
      );
    },
  });
  try {
    const error = await failure(collect(
      fromManagedAgents({ sessionId: "sesn_solo", apiKey: KEY, baseUrl: api.baseUrl }),
    ));
    assert.match(
      error.message,
      /permission_error: \[API key\] has no access; prefix \[API key\], middle \[API key\]$/,
    );
    assertNoKeyPiece(error, KEY);
  } finally {
    await api.shutdown();
  }
});

/** The key's letters and digits, hex and base64 (at each alignment), lower case, 8 at a time. */
function encodedPieces(key: string): string[] {
  const bytes = new TextEncoder().encode(key);
  const bare = (text: string): string => text.toLowerCase().replace(/[^a-z0-9]/g, "");
  const forms = [key, [...bytes].map((byte) => byte.toString(16).padStart(2, "0")).join("")];
  for (const prefix of ["", "k", "k="]) {
    const base64 = btoa(String.fromCharCode(...new TextEncoder().encode(prefix + key)));
    // Leave out what the prefix and the padding share with the key.
    forms.push(base64.slice(prefix.length + 2, -4));
  }
  const pieces: string[] = [];
  for (const form of forms.map(bare)) {
    for (let i = 0; i + 8 <= form.length; i++) pieces.push(form.slice(i, i + 8));
  }
  return pieces;
}

Deno.test("fromManagedAgents() lets no encoded echo of the key into an error", async (t) => {
  const keys = fc.string({
    unit: fc.constantFrom(..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"),
    minLength: 16,
    maxLength: 60,
  }).map((body) => `sk-ant-api03-${body}`);
  const hex = (text: string): string =>
    [...new TextEncoder().encode(text)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
  const base64 = (text: string): string =>
    btoa(String.fromCharCode(...new TextEncoder().encode(text)));
  const echoes: Record<string, (key: string) => string> = {
    "hex": hex,
    "upper-case hex": (key) => hex(key).toUpperCase(),
    "hex in pairs": (key) => hex(key).match(/../g)!.join(":"),
    "base64": base64,
    "base64url": (key) => base64(key).replace(/\+/g, "-").replace(/\//g, "_").replace(/=/g, ""),
    "base64 of the header line": (key) => base64(`x-api-key: ${key}`),
    "base64 of a query": (key) => base64(`key=${key}&x=1`),
    "runs of 4 split by spaces": (key) => key.match(/.{1,4}/g)!.join(" "),
    "runs of 3 split by dots": (key) => key.match(/.{1,3}/g)!.join("."),
    "one character a run": (key) => [...key].join("-"),
  };
  for (const [name, echo] of Object.entries(echoes)) {
    await t.step(name, async () => {
      await fc.assert(
        fc.asyncProperty(keys, async (key) => {
          const error = await failure(collect(fromManagedAgents({
            sessionId: "sesn_leak",
            apiKey: key,
            maxRetries: 0,
            fetch: (_input, init) => {
              const sent = new Headers(init?.headers).get("x-api-key")!;
              return Promise.resolve(apiError(401, "authentication_error", `bad ${echo(sent)}`));
            },
          })));
          // What the server's words reach: the message and the cause (the other views add
          // property names, which run together with the letters around them).
          const views = [error.message, String(error.cause ?? ""), error.source ?? ""].join("\n")
            .toLowerCase().replace(/[^a-z0-9]/g, "");
          for (const piece of encodedPieces(key)) {
            assert.ok(!views.includes(piece), `${piece} of ${name} shows in ${error.message}`);
          }
          assert.match(error.message, /authentication_error: bad \S*\[API key\]/);
        }),
        { numRuns: 40 },
      );
    });
  }
});
