// Copyright 2026 the brigade authors. MIT license.

// `render --session` refuses an ANTHROPIC_BASE_URL the source would refuse (`http:` on a host
// that is not loopback) for itself, at once and before its network check: it never tells the user
// to allow a host whose URL would then be refused.

import assert from "node:assert/strict";
import { taskFrom } from "./_command.ts";

const KEY = "sk-ant-api03-base-url-test-key-000000000000";

async function inTempDir(body: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "transcript_base_url_" });
  try {
    await body(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("render --session refuses an http: ANTHROPIC_BASE_URL on a remote host for its scheme", async () => {
  await inTempDir(async (dir) => {
    const env = { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: "http://example.com" };
    const result = await taskFrom("render", ["--session", "sesn_1"], { cwd: dir, env });
    assert.equal(result.code, 2, result.stderr);
    assert.equal(
      result.stderr,
      "render: Cannot read a session from the Managed Agents API as ANTHROPIC_BASE_URL is " +
        "http: on a host that is not loopback, so the API key would cross the network in clear " +
        "text; use https:, or http: only on localhost, 127.0.0.0/8 or [::1]: current value is " +
        '"http://example.com"\n',
    );
    assert.doesNotMatch(result.stderr, /--allow-net|Cannot reach/);
    assert.equal(result.stdout, "");
  });
});

Deno.test("render --session refuses an ANTHROPIC_BASE_URL with a password, never showing it", async () => {
  await inTempDir(async (dir) => {
    const env = {
      ANTHROPIC_API_KEY: KEY,
      ANTHROPIC_BASE_URL: "https://me:hunter2-secret@gateway.example.com",
    };
    const result = await taskFrom("render", ["--session", "sesn_1"], { cwd: dir, env });
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /ANTHROPIC_BASE_URL must not hold a user name or password\n$/);
    assert.ok(!result.stderr.includes("hunter2"));
    assert.doesNotMatch(result.stderr, /--allow-net/);
  });
});

Deno.test("render --session still asks to allow an https: gateway's host", async () => {
  await inTempDir(async (dir) => {
    const env = { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: "https://gateway.example.com" };
    const result = await taskFrom("render", ["--session", "sesn_1"], { cwd: dir, env });
    assert.equal(result.code, 2, result.stderr);
    assert.match(result.stderr, /^render: Cannot reach gateway\.example\.com: /);
    assert.match(result.stderr, /--allow-net=gateway\.example\.com /);
  });
});
