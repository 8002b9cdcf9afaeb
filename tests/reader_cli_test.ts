// Copyright 2026 the brigade authors. MIT license.

// `deno task facts`, run as a subprocess the way a user or Claude Code's status line runs it.

import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import {
  humanLine,
  sanitizeModel,
  shortTokens,
  statusLine,
  windowOf,
} from "../cli/_facts_format.ts";

const CLI = fileURLToPath(new URL("../cli/facts.ts", import.meta.url));
const FIXTURES = fileURLToPath(new URL("../fixtures/claude_code/", import.meta.url));

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function facts(args: string[], stdin?: string): Promise<Run> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-read", CLI, ...args],
    stdin: stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).spawn();
  if (stdin !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(stdin));
    await writer.close();
  }
  const { code, stdout, stderr } = await child.output();
  const decoder = new TextDecoder();
  return { code, stdout: decoder.decode(stdout), stderr: decoder.decode(stderr) };
}

function assertNoStackTrace(run: Run): void {
  assert.ok(!/\n\s+at /.test(run.stderr), `no stack trace: ${run.stderr}`);
}

function turn(model: string, input: number): string {
  return JSON.stringify({ type: "assistant", message: { model, usage: { input_tokens: input } } }) +
    "\n";
}

Deno.test("deno task facts prints the facts of a transcript", async (t) => {
  await t.step("the bundled example when no path is given", async () => {
    const run = await facts([]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, "claude-opus-5[1m] · 30,179 context tokens\n");
  });
  await t.step("--json", async () => {
    const run = await facts(["--json"]);
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(JSON.parse(run.stdout), {
      model: "claude-opus-5[1m]",
      contextUsedTokens: 30_179,
      hasContext: true,
      compactedSinceUsage: false,
    });
  });
  await t.step("a path", async () => {
    const run = await facts([`${FIXTURES}model_switch.jsonl`]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, "claude-sonnet-5 · 9,126 context tokens\n");
  });
  await t.step("a real transcript", async () => {
    const run = await facts([`${FIXTURES}real/jfmoe-rnltv_be_4f6c2e7a4c_0_full.jsonl`, "--json"]);
    assert.deepEqual(JSON.parse(run.stdout), {
      model: "gpt-5.3-codex",
      contextUsedTokens: 0,
      hasContext: true,
      compactedSinceUsage: false,
    });
  });
  await t.step("control characters in a model id are stripped", async () => {
    const path = await Deno.makeTempFile({ suffix: ".jsonl" });
    try {
      await Deno.writeTextFile(path, turn("evil\u001b[2J\u0007-\u202emodel\r", 5));
      const run = await facts([path]);
      assert.equal(run.stdout, "evil[2J-model · 5 context tokens\n");
      const json = await facts([path, "--json"]);
      assert.equal(JSON.parse(json.stdout).model, "evil[2J-model");
    } finally {
      await Deno.remove(path);
    }
  });
});

Deno.test("deno task facts reports errors without a stack trace", async (t) => {
  await t.step("a missing transcript: exit 1", async () => {
    const run = await facts(["/nonexistent/session.jsonl"]);
    assert.equal(run.code, 1);
    assert.equal(run.stdout, "");
    assert.match(run.stderr, /does not exist/);
    assertNoStackTrace(run);
  });
  await t.step("a directory: exit 1", async () => {
    const run = await facts([FIXTURES]);
    assert.equal(run.code, 1);
    assert.match(run.stderr, /not a regular file/);
    assertNoStackTrace(run);
  });
  for (
    const [name, args, pattern] of [
      ["an unknown flag", ["--bogus"], /^facts: Unknown option "--bogus"\nRun with --help/],
      [
        "a flag without its value",
        ["--follow", "--interval"],
        /^facts: Option "--interval" needs a value\n/,
      ],
      ["a value to a switch", ["--json=yes"], /^facts: Option "--json" takes no value\n/],
      ["two paths", ["a.jsonl", "b.jsonl"], /more than one transcript/],
      ["--interval without --follow", ["--interval", "100"], /without --follow/],
      ["a bad --interval", ["--follow", "--interval", "soon"], /--interval takes/],
      ["--statusline with a path", ["--statusline", "a.jsonl"], /Cannot combine --statusline/],
    ] as const
  ) {
    await t.step(`usage error: ${name}: exit 2`, async () => {
      const run = await facts([...args]);
      assert.equal(run.code, 2);
      assert.match(run.stderr, pattern);
      assert.match(run.stderr, /--help/);
      assertNoStackTrace(run);
    });
  }
  await t.step("--help: exit 0", async () => {
    const run = await facts(["--help"]);
    assert.equal(run.code, 0);
    assert.match(run.stdout, /--statusline/);
  });
});

Deno.test("deno task facts --statusline reads Claude Code's status-line JSON", async (t) => {
  await t.step("a 1M model: percentage of 1M, under its display name", async () => {
    const status = {
      session_id: "s",
      transcript_path: `${FIXTURES}example.jsonl`,
      model: { id: "claude-opus-5[1m]", display_name: "Opus 5" },
    };
    const run = await facts(["--statusline"], JSON.stringify(status));
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, "Opus 5 · 30.2k tokens (3% of 1M)\n");
  });
  await t.step("another model: percentage of 200k", async () => {
    const status = {
      transcript_path: `${FIXTURES}model_switch.jsonl`,
      model: { id: "claude-sonnet-5" },
    };
    const run = await facts(["--statusline"], JSON.stringify(status));
    assert.equal(run.stdout, "claude-sonnet-5 · 9.1k tokens (5% of 200k)\n");
  });
  await t.step("a transcript with nothing yet: the model from stdin", async () => {
    const status = { transcript_path: "/nonexistent.jsonl", model: { id: "claude-haiku-5\u0007" } };
    const run = await facts(["--statusline"], JSON.stringify(status));
    assert.equal(run.code, 0);
    assert.equal(run.stdout, "claude-haiku-5 · no context yet\n");
  });
  await t.step("input that is not JSON: exit 2", async () => {
    const run = await facts(["--statusline"], "not json");
    assert.equal(run.code, 2);
    assert.match(run.stderr, /status-line JSON/);
    assertNoStackTrace(run);
  });
});

Deno.test("deno task facts --follow prints each change and stops cleanly on Ctrl-C", async () => {
  const path = await Deno.makeTempFile({ suffix: ".jsonl" });
  await Deno.writeTextFile(path, turn("claude-opus-4-6", 100));
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-read", CLI, path, "--follow", "--interval", "20"],
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const lines: string[] = [];
  const decoder = new TextDecoder();
  let buffered = "";
  const reader = child.stdout.getReader();
  async function nextLine(): Promise<string> {
    while (!buffered.includes("\n")) {
      const { value, done } = await reader.read();
      if (done) throw new Error("the command ended early");
      buffered += decoder.decode(value, { stream: true });
    }
    const at = buffered.indexOf("\n");
    const line = buffered.slice(0, at);
    buffered = buffered.slice(at + 1);
    lines.push(line);
    return line;
  }
  try {
    assert.equal(await nextLine(), "claude-opus-4-6 · 100 context tokens");
    await Deno.writeTextFile(path, turn("claude-opus-4-6", 250), { append: true });
    assert.equal(await nextLine(), "claude-opus-4-6 · 250 context tokens");
    // Polls that find nothing new print nothing.
    await new Promise((resolve) => setTimeout(resolve, 100));
    await Deno.writeTextFile(path, turn("claude-sonnet-4-5", 250), { append: true });
    assert.equal(await nextLine(), "claude-sonnet-4-5 · 250 context tokens");
    child.kill("SIGINT");
    const status = await child.status;
    assert.equal(status.code, 0, "a clean exit on SIGINT");
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      buffered += decoder.decode(chunk.value, { stream: true });
    }
    assert.equal(buffered, "", "nothing more was printed");
    const stderr = await new Response(child.stderr).text();
    assert.equal(stderr, "");
    assert.equal(lines.length, 3);
  } finally {
    try {
      child.kill();
    } catch {
      // Already ended.
    }
    await Deno.remove(path);
  }
});

Deno.test("facts format helpers", async (t) => {
  await t.step("sanitizeModel() strips controls and cuts long ids", () => {
    assert.equal(sanitizeModel("a\u0000b\u009bc\u2066d"), "abcd");
    assert.equal([...sanitizeModel("x".repeat(500))].length, 80);
  });
  await t.step("shortTokens()", () => {
    assert.deepEqual([950, 1_000, 30_179, 200_000, 1_000_000, 1_250_000].map(shortTokens), [
      "950",
      "1k",
      "30.2k",
      "200k",
      "1M",
      "1.25M",
    ]);
  });
  await t.step("windowOf(): 1M for [1m]", () => {
    assert.equal(windowOf("claude-opus-5[1m]"), 1_000_000);
    assert.equal(windowOf("global.anthropic.claude-sonnet-4-6[1M]"), 1_000_000);
    assert.equal(windowOf("claude-opus-5", ""), 200_000);
  });
  await t.step("after a compaction: no stale percentage", () => {
    const compacted = {
      model: "claude-opus-5[1m]",
      contextUsedTokens: 955_068,
      hasContext: true,
      compactedSinceUsage: true,
    };
    assert.equal(
      statusLine(compacted, ""),
      "claude-opus-5[1m] · context compacted (was 955.1k)",
    );
    assert.equal(
      humanLine(compacted),
      "claude-opus-5[1m] · 955,068 context tokens (before a compaction)",
    );
    const none = { ...compacted, contextUsedTokens: 0, hasContext: false };
    assert.equal(statusLine(none, ""), "claude-opus-5[1m] · context compacted");
    assert.equal(humanLine(none), "claude-opus-5[1m] · context compacted");
  });
  await t.step("humanLine() and statusLine() without facts", () => {
    const none = { model: "", contextUsedTokens: 0, hasContext: false, compactedSinceUsage: false };
    assert.equal(humanLine(none), "unknown model · no context reading yet");
    assert.equal(statusLine(none, ""), "unknown model · no context yet");
    assert.equal(
      statusLine({
        model: "m",
        contextUsedTokens: 150_000,
        hasContext: true,
        compactedSinceUsage: false,
      }, "m[1m]"),
      "m · 150k tokens (15% of 1M)",
    );
  });
});
