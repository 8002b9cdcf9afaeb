// Copyright 2026 the brigade authors. MIT license.

// `deno task facts --statusline` shows what Claude Code sends on stdin besides the transcript's
// path: `model.display_name`, `cost.total_cost_usd` and `rate_limits` (the 5-hour and 7-day
// windows' `used_percentage` and `resets_at`), each part only when sent and valid, and reads no
// transcript when stdin holds everything the line shows. Run as Claude Code runs it: a
// subprocess of the task, from another folder, fed stdin.

import assert from "node:assert/strict";
import { denoDir, ROOT, type Run, run } from "./_command.ts";
import { rateLimitsOf, timeLeft } from "../cli/_facts_format.ts";

const CONFIG = `${ROOT}deno.json`;
const DENO_DIR = await denoDir();

/** Seconds since the epoch, as Claude Code writes `resets_at`. */
function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/** Minutes, hours and days in seconds. */
const M = 60;
const H = 60 * M;
const D = 24 * H;

/** What Claude Code sends once a request came back: the model, the context, cost and limits. */
function fullStatus(transcript: string): Record<string, unknown> {
  const now = nowSeconds();
  return {
    session_id: "s",
    transcript_path: transcript,
    model: { id: "claude-opus-5[1m]", display_name: "Opus 5 (1M context)" },
    context_window: {
      context_window_size: 1_000_000,
      used_percentage: 3,
      current_usage: {
        input_tokens: 4,
        output_tokens: 900,
        cache_creation_input_tokens: 2_000,
        cache_read_input_tokens: 28_175,
      },
    },
    cost: { total_cost_usd: 0.4234, total_duration_ms: 45_000 },
    rate_limits: {
      // 30 s past the minute: the line, printed within 30 s, reads 2h10m (rounded down).
      five_hour: { used_percentage: 23.4, resets_at: now + 2 * H + 10 * M + 30 },
      seven_day: { used_percentage: 61, resets_at: now + 3 * D + 4 * H + 20 * M },
    },
  };
}

const FULL_LINE = "Opus 5 (1M context) · 30.2k tokens (3% of 1M) · $0.42 · " +
  "5h 23% (resets in 2h10m) · 7d 61% (resets in 3d4h)";

async function withDirs(
  fn: (dirs: { cache: string; cwd: string; base: string }) => Promise<void>,
): Promise<void> {
  const base = await Deno.makeTempDir({ prefix: "statusline_sent_test_" });
  try {
    await Deno.mkdir(`${base}/elsewhere`);
    await fn({ base, cache: `${base}/cache`, cwd: `${base}/elsewhere` });
  } finally {
    await Deno.remove(base, { recursive: true });
  }
}

/** `deno task facts --statusline [ARGS]` from `cwd`, `status` on stdin. */
function statusline(
  cwd: string,
  cache: string,
  status: unknown,
  args: string[] = [],
): Promise<Run> {
  return run("deno", ["task", "-q", "--config", CONFIG, "facts", "--statusline", ...args], {
    cwd,
    env: { XDG_CACHE_HOME: cache, DENO_DIR },
    stdin: typeof status === "string" ? status : JSON.stringify(status),
  });
}

function said(run: Run, line: string): void {
  assert.equal(run.stderr, "", "nothing on stderr");
  assert.equal(run.code, 0);
  assert.equal(run.stdout, line + "\n");
}

async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}

Deno.test("deno task facts --statusline shows the display name, cost and rate limits Claude Code sends", async () => {
  await withDirs(async ({ cache, cwd, base }) => {
    said(await statusline(cwd, cache, fullStatus(`${base}/never-written.jsonl`)), FULL_LINE);
  });
});

Deno.test("deno task facts --statusline reads no transcript when stdin holds what it shows", async (t) => {
  await withDirs(async ({ cache, cwd, base }) => {
    await t.step("a transcript that says otherwise is not believed", async () => {
      const other = `${base}/other.jsonl`;
      const turn = {
        type: "assistant",
        message: { model: "claude-haiku-5", usage: { input_tokens: 150_000 } },
      };
      await Deno.writeTextFile(other, JSON.stringify(turn) + "\n");
      said(await statusline(cwd, cache, fullStatus(other)), FULL_LINE);
    });
    await t.step("a missing transcript", async () => {
      said(await statusline(cwd, cache, fullStatus(`${base}/missing.jsonl`)), FULL_LINE);
    });
    await t.step({
      name: "a FIFO in the transcript's place is not opened (it would wait for a writer)",
      ignore: Deno.build.os === "windows",
      fn: async () => {
        const fifo = `${base}/fifo.jsonl`;
        assert.ok((await new Deno.Command("mkfifo", { args: [fifo] }).output()).success);
        said(await statusline(cwd, cache, fullStatus(fifo)), FULL_LINE);
      },
    });
    // The reader never ran: it is what writes the cache of its position.
    assert.equal(await exists(`${cache}/brigade-transcript`), false, "no cache written");
  });
});

Deno.test("deno task facts --statusline shows what Claude Code sends beside a transcript it reads", async () => {
  await withDirs(async ({ cache, cwd, base }) => {
    const transcript = `${base}/session.jsonl`;
    const turn = {
      type: "assistant",
      message: { model: "claude-opus-5", usage: { input_tokens: 10_000 } },
    };
    await Deno.writeTextFile(transcript, JSON.stringify(turn) + "\n");
    const status = {
      transcript_path: transcript,
      model: { id: "claude-opus-5", display_name: "Opus 5" },
      // Before the first request of a session: no usage yet, so the transcript is read.
      context_window: { context_window_size: 200_000, current_usage: null },
      cost: { total_cost_usd: 1.5 },
      rate_limits: { seven_day: { used_percentage: 12, resets_at: nowSeconds() + 50 * M } },
    };
    said(
      await statusline(cwd, cache, status),
      "Opus 5 · 10k tokens (5% of 200k) · $1.50 · 7d 12% (resets in 49m)",
    );
    assert.equal(await exists(`${cache}/brigade-transcript/statusline`), true, "the reader ran");
    // No path either: the model and what was sent, and that there is no transcript.
    const { transcript_path: _, ...pathless } = status;
    said(
      await statusline(cwd, cache, pathless),
      "Opus 5 · no transcript · $1.50 · 7d 12% (resets in 49m)",
    );
  });
});

Deno.test("deno task facts --statusline shows each part only when sent and valid", async (t) => {
  await withDirs(async ({ cache, cwd, base }) => {
    const path = `${base}/missing.jsonl`;
    const usage = {
      context_window_size: 200_000,
      current_usage: { input_tokens: 50_000 },
    };
    const base_ = { transcript_path: path, context_window: usage };
    const now = nowSeconds();
    const cases: [string, Record<string, unknown>, string][] = [
      ["nothing sent but the usage", {}, "unknown model · 50k tokens (25% of 200k)"],
      [
        "a display name with controls: stripped as the id's are",
        { model: { id: "claude-opus-5", display_name: "\u001b[31mOpus\u0007 5\u202e\u009b" } },
        "[31mOpus 5 · 50k tokens (25% of 200k)",
      ],
      ...[5, null, {}, [], "", " \u0007\u200f "].map((name): [
        string,
        Record<string, unknown>,
        string,
      ] => [
        `a display name of ${JSON.stringify(name)}: the id`,
        { model: { id: "claude-opus-5", display_name: name } },
        "claude-opus-5 · 50k tokens (25% of 200k)",
      ]),
      [
        "a display name of 500 characters: cut",
        { model: { display_name: "O".repeat(500) } },
        `${"O".repeat(79)}… · 50k tokens (25% of 200k)`,
      ],
      [
        "a cost of 0",
        { cost: { total_cost_usd: 0 } },
        "unknown model · 50k tokens (25% of 200k) · $0.00",
      ],
      [
        "a cost of $1,234.567",
        { cost: { total_cost_usd: 1234.567 } },
        "unknown model · 50k tokens (25% of 200k) · $1234.57",
      ],
      ...[-1, "0.42", 1e308, null, true, [0.42]].map((cost): [
        string,
        Record<string, unknown>,
        string,
      ] => [
        `a cost of ${JSON.stringify(cost)}: none`,
        { cost: { total_cost_usd: cost } },
        "unknown model · 50k tokens (25% of 200k)",
      ]),
      ["a cost that is not an object", { cost: 3 }, "unknown model · 50k tokens (25% of 200k)"],
      [
        "one window only, use over the limit",
        { rate_limits: { five_hour: { used_percentage: 105, resets_at: now + 20 * M + 30 } } },
        "unknown model · 50k tokens (25% of 200k) · 5h 105% (resets in 20m)",
      ],
      [
        "a reset in under a minute",
        { rate_limits: { five_hour: { used_percentage: 99.6, resets_at: now + 50 } } },
        "unknown model · 50k tokens (25% of 200k) · 5h 100% (resets in <1m)",
      ],
      [
        "a reset in the past: that window is over, its use is not shown",
        {
          rate_limits: {
            five_hour: { used_percentage: 80, resets_at: now - 60 },
            seven_day: { used_percentage: 40, resets_at: now + 2 * D + 30 * M },
          },
        },
        "unknown model · 50k tokens (25% of 200k) · 7d 40% (resets in 2d0h)",
      ],
      ...[
        "2026-12-02T14:00:00Z",
        null,
        1e20,
        (now + H) * 1000,
        -0.5 * Number.MAX_VALUE,
        [now + H],
      ].map((resets): [string, Record<string, unknown>, string] => [
        `a reset of ${JSON.stringify(resets)}: the use without it`,
        {
          rate_limits: {
            five_hour: { used_percentage: 7, resets_at: resets },
          },
        },
        resets === -0.5 * Number.MAX_VALUE
          ? "unknown model · 50k tokens (25% of 200k)"
          : "unknown model · 50k tokens (25% of 200k) · 5h 7%",
      ]),
      ...[-5, "23", 1e308, 1_001, null, undefined].map((used): [
        string,
        Record<string, unknown>,
        string,
      ] => [
        `a use of ${JSON.stringify(used) ?? "nothing"}: no window`,
        {
          rate_limits: {
            five_hour: { used_percentage: used, resets_at: now + H },
            seven_day: { used_percentage: 1, resets_at: now + D + 30 * M },
          },
        },
        "unknown model · 50k tokens (25% of 200k) · 7d 1% (resets in 1d0h)",
      ]),
      ...[null, "full", [], 7, { five_hour: "23%", seven_day: [] }].map((limits): [
        string,
        Record<string, unknown>,
        string,
      ] => [
        `rate limits of ${JSON.stringify(limits)}: none`,
        { rate_limits: limits },
        "unknown model · 50k tokens (25% of 200k)",
      ]),
    ];
    for (const [name, extra, line] of cases) {
      await t.step(name, async () => {
        said(await statusline(cwd, cache, { ...base_, ...extra }), line);
      });
    }
  });
});

Deno.test("deno task facts --statusline --json carries what the line shows", async (t) => {
  await withDirs(async ({ cache, cwd, base }) => {
    const status = fullStatus(`${base}/missing.jsonl`);
    const limits = status.rate_limits as Record<string, { resets_at: number }>;
    const iso = (seconds: number): string => new Date(seconds * 1000).toISOString();
    for (const args of [["--json"], ["--json", "--statusline"]]) {
      await t.step(args.join(" "), async () => {
        const result = args.length === 1
          ? await statusline(cwd, cache, status, args)
          : await run("deno", ["task", "-q", "--config", CONFIG, "facts", ...args], {
            cwd,
            env: { XDG_CACHE_HOME: cache, DENO_DIR },
            stdin: JSON.stringify(status),
          });
        assert.equal(result.code, 0, result.stderr);
        assert.equal(result.stdout.split("\n").length, 2, "one line");
        assert.deepEqual(JSON.parse(result.stdout), {
          model: "claude-opus-5[1m]",
          contextUsedTokens: 30_179,
          hasContext: true,
          compactedSinceUsage: false,
          contextWindowTokens: 1_000_000,
          displayName: "Opus 5 (1M context)",
          costUsd: 0.4234,
          rateLimits: {
            fiveHour: { usedPercent: 23.4, resetsAt: iso(limits.five_hour!.resets_at) },
            sevenDay: { usedPercent: 61, resetsAt: iso(limits.seven_day!.resets_at) },
          },
        });
      });
    }
    await t.step("what was not sent is not there", async () => {
      const result = await statusline(cwd, cache, {
        model: { id: "claude-opus-5\u0007" },
        rate_limits: { five_hour: { used_percentage: 5 }, seven_day: { used_percentage: -1 } },
      }, ["--json"]);
      assert.equal(result.code, 0, result.stderr);
      assert.deepEqual(JSON.parse(result.stdout), {
        model: "claude-opus-5",
        contextUsedTokens: 0,
        hasContext: false,
        compactedSinceUsage: false,
        contextWindowTokens: 200_000,
        rateLimits: { fiveHour: { usedPercent: 5 } },
      });
    });
    await t.step("--json with a path or --follow is still refused", async () => {
      const result = await statusline(cwd, cache, status, ["--json", "a.jsonl"]);
      assert.equal(result.code, 2);
      assert.match(result.stderr, /Cannot combine --statusline with a PATH or --follow/);
    });
  });
});

Deno.test("timeLeft() counts down in two units at most, rounded down", () => {
  const cases: [number, string][] = [
    [-1, "<1m"],
    [0, "<1m"],
    [59_999, "<1m"],
    [60_000, "1m"],
    [(2 * H + 10 * M + 59) * 1000, "2h10m"],
    [(5 * H) * 1000, "5h0m"],
    [(D - 1) * 1000, "23h59m"],
    [(3 * D + 4 * H + 59 * M) * 1000, "3d4h"],
  ];
  for (const [ms, text] of cases) assert.equal(timeLeft(ms), text, String(ms));
});

Deno.test("rateLimitsOf() keeps a window's use, and its reset only when believable", () => {
  const now = Date.UTC(2026, 11, 2, 12);
  const at = now / 1000;
  assert.deepEqual(
    rateLimitsOf({
      rate_limits: {
        five_hour: { used_percentage: 0, resets_at: at + H },
        seven_day: { used_percentage: 50, resets_at: at + 40 * D },
        seven_day_opus: { used_percentage: 90, resets_at: at + D },
      },
    }, now),
    {
      fiveHour: { usedPercent: 0, resetsAt: at + H },
      sevenDay: { usedPercent: 50, resetsAt: undefined },
    },
  );
  assert.deepEqual(
    rateLimitsOf({ rate_limits: { five_hour: { used_percentage: 9, resets_at: at } } }, now),
    {},
    "a reset at this very second has happened",
  );
});
