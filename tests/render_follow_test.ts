// Copyright 2026 the brigade authors. MIT license.

// `deno task render --session ID --follow`: each item on stdout as it completes, while the
// session runs, until it terminates (exit 0) or Ctrl-C (exit 130, only whole items printed).
// The task may reach api.anthropic.com only, so, as a user pointing ANTHROPIC_BASE_URL at a
// gateway does, the test runs the command the refusal prints.

import assert from "node:assert/strict";
import { taskFrom, userEnv } from "./_command.ts";
import { type FakeApi, type FakeSession, startFakeApi } from "./_managed_agents_server.ts";

const KEY = "sk-ant-api03-follow-test-key-000000000000";
const POSIX = Deno.build.os !== "windows";

function text(id: string, type: string, words: string): Record<string, unknown> {
  return { id, type, processed_at: null, content: [{ type: "text", text: words }] };
}

/** The command `deno task render ARGS` prints when its permission does not cover the gateway. */
async function printedCommand(api: FakeApi, args: string[], cwd: string): Promise<string[]> {
  const env = { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: api.baseUrl };
  const refused = await taskFrom("render", args, { cwd, env });
  assert.equal(refused.code, 2, refused.stderr);
  const printed = refused.stderr.match(/^ {2}(deno run .*)$/m)?.[1];
  assert.ok(printed, refused.stderr);
  assert.ok(printed.endsWith(args.join(" ")), printed);
  const [, ...rest] = printed.split(" ");
  return rest;
}

/** Starts, as the user would, the command `deno task render ARGS` printed; its output piped. */
async function spawnPrinted(api: FakeApi, args: string[], cwd: string): Promise<Deno.ChildProcess> {
  return new Deno.Command(Deno.execPath(), {
    args: await printedCommand(api, args, cwd),
    cwd,
    env: userEnv({ ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: api.baseUrl }),
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).spawn();
}

/** Reads a child's stdout line by line. */
class Lines {
  readonly #reader: ReadableStreamDefaultReader<string>;
  #buffer = "";
  /** Everything read so far. */
  all = "";
  constructor(stream: ReadableStream<Uint8Array>) {
    this.#reader = stream.pipeThrough(new TextDecoderStream()).getReader();
  }
  /** The next whole line (without its newline); undefined at the end. */
  async next(): Promise<string | undefined> {
    for (;;) {
      const end = this.#buffer.indexOf("\n");
      if (end !== -1) {
        const line = this.#buffer.slice(0, end);
        this.#buffer = this.#buffer.slice(end + 1);
        return line;
      }
      const { done, value } = await this.#reader.read();
      if (done) return undefined;
      this.#buffer += value;
      this.all += value;
    }
  }
  /** The rest, to the end. */
  async rest(): Promise<string> {
    let rest = this.#buffer;
    this.#buffer = "";
    for (;;) {
      const { done, value } = await this.#reader.read();
      if (done) return rest;
      rest += value;
      this.all += value;
    }
  }
}

async function until(what: string, condition: () => boolean): Promise<void> {
  for (let waited = 0; !condition(); waited += 10) {
    if (waited > 20_000) assert.fail(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

Deno.test("render --session ID --follow --renderer json prints each item as NDJSON while the session runs, and ends with it", async () => {
  const api = startFakeApi({
    apiKey: KEY,
    sessions: [{ id: "sesn_follow", events: [text("sevt_1", "user.message", "Start")] }],
  });
  const dir = await Deno.makeTempDir({ prefix: "transcript_follow_" });
  try {
    const child = await spawnPrinted(
      api,
      ["--session", "sesn_follow", "--follow", "--renderer", "json"],
      dir,
    );
    const stderr = new Response(child.stderr).text();
    const lines = new Lines(child.stdout);
    // The stored item, before the server has sent anything more.
    const first = JSON.parse((await lines.next())!);
    assert.deepEqual([first.kind, first.from, first.text], ["message", "user", "Start"]);
    await until("the stream", () => api.openStreams() === 1);
    api.append("sesn_follow", text("sevt_2", "agent.message", "Working on it"));
    const second = JSON.parse((await lines.next())!);
    assert.deepEqual([second.from, second.text, second.seq], ["agent", "Working on it", 2]);
    // The last one the server sends.
    api.append("sesn_follow", text("sevt_3", "agent.message", "Done"));
    api.append("sesn_follow", {
      id: "sevt_4",
      type: "session.status_terminated",
      processed_at: null,
    });
    const rest = await lines.rest();
    const { code } = await child.status;
    assert.equal(code, 0, await stderr);
    assert.equal(await stderr, "");
    assert.deepEqual(
      rest.split("\n").filter((line) => line !== "").map((line) => JSON.parse(line).text),
      ["Done"],
    );
  } finally {
    await api.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test({
  name: "render --session ID -f: Ctrl-C stops the follow with exit 130, every item printed whole",
  ignore: !POSIX,
  fn: async () => {
    const api = startFakeApi({
      apiKey: KEY,
      sessions: [{
        id: "sesn_follow",
        events: [text("sevt_1", "user.message", "Start"), text("sevt_2", "agent.message", "On it")],
      }],
    });
    const dir = await Deno.makeTempDir({ prefix: "transcript_follow_" });
    try {
      const child = await spawnPrinted(api, ["--session", "sesn_follow", "-f"], dir);
      const stderr = new Response(child.stderr).text();
      const lines = new Lines(child.stdout);
      assert.equal(await lines.next(), "[user]");
      assert.equal(await lines.next(), "  Start");
      await until("the stream", () => api.openStreams() === 1);
      child.kill("SIGINT");
      const rest = await lines.rest();
      const { code } = await child.status;
      assert.equal(code, 130, await stderr);
      assert.equal(lines.all, "[user]\n  Start\n\n[agent]\n  On it\n");
      assert.equal(rest, "\n[agent]\n  On it\n");
      assert.match(await stderr, /^render: interrupted by SIGINT/);
    } finally {
      await api.shutdown();
    }
    await Deno.remove(dir, { recursive: true });
  },
});

Deno.test("render --session ID --follow is not ended by a whole-session budget: every item past 200 kB, grader, json, chunks, and the dream keeps its ends", async (t) => {
  // 120 stored replies of 3,000 bytes: 360 kB, past the 200,000-byte budget of a whole text.
  const stored = [text("sevt_0", "user.message", "Start")];
  for (let i = 1; i <= 120; i++) {
    stored.push(text(`sevt_${i}`, "agent.message", `reply ${i} ${"x".repeat(3_000)}`));
  }
  const ways: [string, string[]][] = [
    ["grader", ["--renderer", "grader"]],
    ["json", ["--renderer", "json"]],
    ["grader in chunks", ["--chunk-bytes", "16384"]],
    ["dream", ["--renderer", "dream"]],
  ];
  for (const [name, flags] of ways) {
    await t.step(name, async () => {
      const api = startFakeApi({
        apiKey: KEY,
        sessions: [{ id: "sesn_long", events: structuredClone(stored) }],
      });
      const dir = await Deno.makeTempDir({ prefix: "transcript_follow_" });
      try {
        const child = await spawnPrinted(
          api,
          ["--session", "sesn_long", "--follow", ...flags],
          dir,
        );
        const stderr = new Response(child.stderr).text();
        const lines = new Lines(child.stdout);
        // Read as it comes, so the child is never held by a full pipe.
        const read = lines.rest();
        // Still followed after the stored 360 kB: the stream opens, and what it sends is shown.
        await until("the stream", () => api.openStreams() === 1);
        api.append("sesn_long", text("sevt_999", "agent.message", "Done after 360 kB"));
        api.append("sesn_long", {
          id: "sevt_1000",
          type: "session.status_terminated",
          processed_at: null,
        });
        await read;
        const { code } = await child.status;
        assert.equal(code, 0, await stderr);
        const out = lines.all;
        if (name === "dream") {
          // The dream keeps its head and its tail, as documented: the end is in.
          assert.ok(new TextEncoder().encode(out).length <= 24 * 1024);
          assert.match(out, /bytes elided/);
          assert.ok(out.includes("Done after 360 kB"));
          return;
        }
        assert.ok(new TextEncoder().encode(out).length > 360_000);
        assert.doesNotMatch(out, /transcript cut|"kind":"cut"/);
        for (let i = 1; i <= 120; i++) assert.ok(out.includes(`reply ${i} x`), `reply ${i}`);
        assert.ok(out.includes("Done after 360 kB"));
        if (name === "grader in chunks") {
          assert.match(out, /^\[chunk 1 · items 1–\d+\]\n/);
          assert.match(out, /\n\[chunk (\d+) of \1 · items \d+–122\]\n/);
        }
      } finally {
        await api.shutdown();
        await Deno.remove(dir, { recursive: true });
      }
    });
  }
});

Deno.test("render --follow refuses --transcript-budget: no whole-session budget ends a follow", async () => {
  const dir = await Deno.makeTempDir({ prefix: "transcript_follow_" });
  try {
    const run = await taskFrom(
      "render",
      ["--session", "sesn_x", "--follow", "--transcript-budget", "5000"],
      { cwd: dir, env: { ANTHROPIC_API_KEY: KEY } },
    );
    assert.equal(run.code, 2);
    assert.match(run.stderr, /Cannot follow within --transcript-budget/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

/** An event stamped on 2026-09-14 at 10:00 and `second` seconds, with a text when given. */
function stamped(id: string, type: string, second: number, extra = {}): Record<string, unknown> {
  return { id, type, processed_at: `2026-09-14T10:00:0${second}Z`, ...extra };
}

/** A session whose turn is under way: the user's message and the running status. */
function running(id: string): FakeSession {
  return {
    id,
    events: [
      stamped("sevt_1", "user.message", 1, { content: [{ type: "text", text: "Start" }] }),
      stamped("sevt_2", "session.status_running", 2),
    ],
  };
}

/** The end of the turn: the final reply and the idle. */
function endTurn(api: FakeApi, session: FakeSession): void {
  api.append(
    session.id,
    stamped("sevt_3", "agent.message", 3, { content: [{ type: "text", text: "Done" }] }),
  );
  api.append(
    session.id,
    stamped("sevt_4", "session.status_idle", 4, { stop_reason: { type: "end_turn" } }),
  );
  session.status = "idle";
}

Deno.test("render --session ID includes the final reply of a session that just went idle, though the list lags", async () => {
  const session = running("sesn_lag");
  // Each appended event is left out of the first listing after it, as the API's list lags.
  const api = startFakeApi({ apiKey: KEY, sessions: [session], listLag: 1 });
  const dir = await Deno.makeTempDir({ prefix: "transcript_follow_" });
  try {
    endTurn(api, session);
    const child = await spawnPrinted(api, ["--session", "sesn_lag"], dir);
    const [stdout, stderr, { code }] = await Promise.all([
      new Response(child.stdout).text(),
      new Response(child.stderr).text(),
      child.status,
    ]);
    assert.equal(code, 0, stderr);
    assert.equal(stdout, "[user]\n  Start\n\n[agent]\n  Done\n");
    // The list, the session (idle), and the tail listed again.
    const lists = api.requests.filter((request) => request.path === "/v1/sessions/sesn_lag/events");
    assert.equal(lists.length, 2);
  } finally {
    await api.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("render --session ID --follow --stop-at idle ends, exit 0, at the end of the turn", async () => {
  const session = running("sesn_turn");
  const api = startFakeApi({ apiKey: KEY, sessions: [session] });
  const dir = await Deno.makeTempDir({ prefix: "transcript_follow_" });
  try {
    const child = await spawnPrinted(
      api,
      ["--session", "sesn_turn", "--follow", "--stop-at", "idle", "--renderer", "json"],
      dir,
    );
    const stderr = new Response(child.stderr).text();
    const lines = new Lines(child.stdout);
    assert.equal(JSON.parse((await lines.next())!).text, "Start");
    await until("the stream", () => api.openStreams() === 1);
    endTurn(api, session);
    const rest = await lines.rest();
    const { code } = await child.status;
    assert.equal(code, 0, await stderr);
    assert.equal(await stderr, "");
    assert.deepEqual(
      rest.split("\n").filter((line) => line !== "").map((line) => JSON.parse(line).text),
      ["Done"],
    );
    await until("the stream to close", () => api.openStreams() === 0);
  } finally {
    await api.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("render --stop-at takes idle or terminated, with --follow, and exits 2 before any input otherwise", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "transcript_follow_" });
  try {
    const cases: [string[], RegExp][] = [
      [
        ["--session", "sesn_1", "--follow", "--stop-at", "soon"],
        /^render: Unknown --stop-at "soon": use --stop-at idle or --stop-at terminated\n/,
      ],
      [
        ["--session", "sesn_1", "--stop-at", "idle"],
        /^render: Cannot use --stop-at without --follow: it ends a follow\n/,
      ],
    ];
    for (const [args, pattern] of cases) {
      await t.step(args.join(" "), async () => {
        // No key and no API: the command line is refused before anything is read.
        const run = await taskFrom("render", args, { cwd: dir, env: {} });
        assert.equal(run.code, 2, run.stderr);
        assert.match(run.stderr, pattern);
        assert.equal(run.stdout, "");
      });
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
