// Copyright 2026 the brigade authors. MIT license.

// fromManagedAgents() refuses a base URL the key may not go to for itself, before anything else
// it would ask of the user (a key to set, an environment variable to allow reading), and never
// quotes a base URL that holds a password.

import assert from "node:assert/strict";
import { fromManagedAgents, ManagedAgentsError } from "@brigade/transcript";
import { thrownBy } from "../../tests/_managed_agents_server.ts";

const SCHEME = /"baseUrl" is http: on a host that is not loopback, so the API key would cross/;

Deno.test("fromManagedAgents() refuses an http: base URL on a remote host before it looks for a key", () => {
  const saved = Deno.env.get("ANTHROPIC_API_KEY");
  try {
    Deno.env.delete("ANTHROPIC_API_KEY");
    const error = thrownBy(() =>
      fromManagedAgents({ sessionId: "sesn_1", baseUrl: "http://example.com" })
    );
    assert.ok(error instanceof ManagedAgentsError);
    assert.equal(error.code, "invalid_option");
    assert.match(error.message, SCHEME);
    assert.doesNotMatch(error.message, /API key: pass/);
  } finally {
    if (saved !== undefined) Deno.env.set("ANTHROPIC_API_KEY", saved);
  }
});

Deno.test("fromManagedAgents() refuses an http: base URL before asking to allow reading the key", async () => {
  // A program without the env permission: the former order told it to add --allow-env, and then
  // refused the URL anyway.
  const dir = await Deno.makeTempDir({ prefix: "transcript_base_url_" });
  try {
    const script = `${dir}/list.ts`;
    const source = new URL("./from_managed_agents.ts", import.meta.url).href;
    await Deno.writeTextFile(
      script,
      `import { fromManagedAgents } from ${JSON.stringify(source)};\n` +
        `try { fromManagedAgents({ sessionId: "sesn_1", baseUrl: "http://example.com" }); }\n` +
        `catch (error) { console.log(error.message); }\n`,
    );
    const { code, stdout } = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--no-prompt", "--no-config", script],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const said = new TextDecoder().decode(stdout);
    assert.equal(code, 0);
    assert.match(said, SCHEME);
    assert.doesNotMatch(said, /--allow-env/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("fromManagedAgents() never quotes a base URL that holds a password, whatever its scheme", () => {
  for (const baseUrl of ["ftp://me:hunter2@proxy.example", "http://me:hunter2@example.com"]) {
    const error = thrownBy(() =>
      fromManagedAgents({ sessionId: "sesn_1", apiKey: "sk-x", baseUrl })
    );
    assert.ok(error instanceof ManagedAgentsError);
    assert.match(error.message, /"baseUrl" must not hold a user name or password$/);
    assert.ok(!String(error.message).includes("hunter2"), error.message);
  }
});
