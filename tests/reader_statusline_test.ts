// Copyright 2026 the brigade authors. MIT license.

// `deno task facts --statusline` as Claude Code runs it, from another directory, with
// XDG_CACHE_HOME set to a temporary folder: the per-user cache of the reader's position, and
// the answer it must never change (corrupt, unwritable, stale caches; a FIFO in its place).

import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { denoDir } from "./_command.ts";

const CONFIG = fileURLToPath(new URL("../deno.json", import.meta.url));
const REAL = fileURLToPath(
  new URL("../fixtures/claude_code/real/entireio-cli_76_62d755ef9f_2_full.jsonl", import.meta.url),
);

const DENO_DIR = await denoDir();

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function statusline(
  cacheHome: string,
  cwd: string,
  transcript: string,
  extra: Record<string, unknown> = {},
  flags: string[] = [],
): Promise<Run> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["task", "-q", "--config", CONFIG, "facts", "--statusline", ...flags],
    cwd,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
    // deno task keeps an INIT_CWD it inherits (`deno task test` sets one): set it as the task
    // sets it in a user's shell, which has none.
    env: { XDG_CACHE_HOME: cacheHome, DENO_DIR, NO_COLOR: "1", INIT_CWD: cwd },
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(JSON.stringify({
    session_id: "s",
    transcript_path: transcript,
    model: { id: "claude-opus-5" },
    ...extra,
  })));
  await writer.close();
  const { code, stdout, stderr } = await child.output();
  const decoder = new TextDecoder();
  return { code, stdout: decoder.decode(stdout), stderr: decoder.decode(stderr) };
}

function turn(input: number): string {
  return JSON.stringify({
    type: "assistant",
    message: { model: "claude-opus-5", usage: { input_tokens: input } },
  }) + "\n";
}

function said(run: Run, line: string): void {
  assert.equal(run.stderr, "", "nothing on stderr");
  assert.equal(run.code, 0);
  assert.equal(run.stdout, line + "\n");
}

async function withDirs(
  fn: (dirs: { cache: string; cwd: string; transcript: string; base: string }) => Promise<void>,
): Promise<void> {
  const base = await Deno.makeTempDir({ prefix: "statusline_test_" });
  try {
    const dirs = {
      base,
      cache: `${base}/cache`,
      cwd: `${base}/elsewhere`,
      transcript: `${base}/project/session.jsonl`,
    };
    await Deno.mkdir(dirs.cwd);
    await Deno.mkdir(`${base}/project`);
    await fn(dirs);
  } finally {
    await Deno.chmod(base, 0o700).catch(() => {});
    await Deno.remove(base, { recursive: true });
  }
}

async function cacheFiles(cache: string): Promise<string[]> {
  const dir = `${cache}/brigade-transcript/statusline`;
  const names: string[] = [];
  for await (const entry of Deno.readDir(dir)) names.push(`${dir}/${entry.name}`);
  return names;
}

Deno.test("deno task facts --statusline keeps the reader's position in a per-user cache", async (t) => {
  await withDirs(async ({ cache, cwd, transcript }) => {
    const secret = "TRANSCRIPT-TEXT-NEVER-CACHED";
    await Deno.writeTextFile(
      transcript,
      JSON.stringify({ type: "user", message: { content: secret } }) + "\n" + turn(10_000),
    );
    await t.step("the first call reads the file and writes the cache", async () => {
      said(await statusline(cache, cwd, transcript), "claude-opus-5 · 10k tokens (5% of 200k)");
      const [file, ...more] = await cacheFiles(cache);
      assert.equal(more.length, 0, "one file per transcript");
      const text = await Deno.readTextFile(file!);
      assert.ok(!text.includes(secret), "no transcript text in the cache");
      assert.ok(!text.includes(transcript), "nor its path");
      if (Deno.build.os !== "windows") {
        assert.equal((await Deno.stat(file!)).mode! & 0o777, 0o600);
        assert.equal((await Deno.stat(`${cache}/brigade-transcript`)).mode! & 0o777, 0o700);
      }
    });
    await t.step("a second call after an append gives the new facts", async () => {
      await Deno.writeTextFile(transcript, turn(50_000), { append: true });
      said(await statusline(cache, cwd, transcript), "claude-opus-5 · 50k tokens (25% of 200k)");
    });
    await t.step("the cache is what the next call goes on from", async () => {
      // A cached state that matches the file is trusted: shown unchanged when nothing was
      // appended, so the call read nothing before its offset.
      const [file] = await cacheFiles(cache);
      const state = JSON.parse(await Deno.readTextFile(file!));
      state.facts.contextUsedTokens = 123_000;
      await Deno.writeTextFile(file!, JSON.stringify(state));
      said(await statusline(cache, cwd, transcript), "claude-opus-5 · 123k tokens (62% of 200k)");
      await Deno.writeTextFile(transcript, turn(60_000), { append: true });
      said(await statusline(cache, cwd, transcript), "claude-opus-5 · 60k tokens (30% of 200k)");
    });
  });
});

Deno.test("a cache that cannot be used never changes the status line", async (t) => {
  await withDirs(async ({ cache, cwd, transcript, base }) => {
    await Deno.writeTextFile(transcript, turn(10_000) + turn(20_000));
    const expected = "claude-opus-5 · 20k tokens (10% of 200k)";
    said(await statusline(cache, cwd, transcript), expected);
    const [file] = await cacheFiles(cache);
    await t.step("a corrupt cache file is ignored, then rewritten", async () => {
      for (const corrupt of ["{not json", "", '{"version":99}', "null", "x".repeat(200_000)]) {
        await Deno.writeTextFile(file!, corrupt);
        said(await statusline(cache, cwd, transcript), expected);
        assert.equal(JSON.parse(await Deno.readTextFile(file!)).version, 1);
      }
    });
    await t.step("a state from a replaced file is dropped", async () => {
      const other = `${base}/other.jsonl`;
      await Deno.writeTextFile(other, turn(10_000) + turn(30_000));
      await Deno.rename(other, transcript);
      said(await statusline(cache, cwd, transcript), "claude-opus-5 · 30k tokens (15% of 200k)");
    });
    await t.step("a state from a file truncated and rewritten in place is dropped", async () => {
      await Deno.writeTextFile(transcript, turn(10_000) + turn(40_000));
      said(await statusline(cache, cwd, transcript), "claude-opus-5 · 40k tokens (20% of 200k)");
    });
    await t.step(
      "a FIFO in place of the cache file neither hangs nor changes the answer",
      async () => {
        if (Deno.build.os === "windows") return;
        await Deno.remove(file!);
        assert.ok((await new Deno.Command("mkfifo", { args: [file!] }).output()).success);
        await Deno.writeTextFile(transcript, turn(41_000), { append: true });
        said(await statusline(cache, cwd, transcript), "claude-opus-5 · 41k tokens (21% of 200k)");
        await Deno.remove(file!);
      },
    );
    await t.step("a cache folder that cannot be written", async () => {
      // A file where the folder should be: no cache at all, for root as well.
      const blocked = `${base}/blocked`;
      await Deno.mkdir(blocked);
      await Deno.writeTextFile(`${blocked}/brigade-transcript`, "not a folder");
      said(await statusline(blocked, cwd, transcript), "claude-opus-5 · 41k tokens (21% of 200k)");
      said(await statusline(blocked, cwd, transcript), "claude-opus-5 · 41k tokens (21% of 200k)");
      // A read-only folder (not enforced for root, which may write anyway).
      const readOnly = `${base}/read_only`;
      await Deno.mkdir(readOnly);
      await Deno.chmod(readOnly, 0o500);
      said(await statusline(readOnly, cwd, transcript), "claude-opus-5 · 41k tokens (21% of 200k)");
      await Deno.chmod(readOnly, 0o700);
    });
  });
});

Deno.test("deno task facts --statusline says the context was compacted", async () => {
  await withDirs(async ({ cache, cwd, transcript }) => {
    const lines = (await Deno.readTextFile(REAL)).split("\n");
    const boundary = lines.findIndex((line) => line.includes('"subtype":"compact_boundary"'));
    // The real records up to and with the compaction, and its summary.
    await Deno.writeTextFile(transcript, lines.slice(0, boundary + 2).join("\n") + "\n");
    const run = await statusline(cache, cwd, transcript);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^claude-[^ ]+ · context compacted \(was \d+(\.\d)?k\)\n$/);
    assert.doesNotMatch(run.stdout, /%/, "no stale percentage");
    await Deno.writeTextFile(transcript, turn(30_000), { append: true });
    said(await statusline(cache, cwd, transcript), "claude-opus-5 · 30k tokens (15% of 200k)");
  });
});

Deno.test("deno task facts --statusline reads a relative transcript_path from the folder it was typed in, as --json too", async () => {
  await withDirs(async ({ base, cache, cwd }) => {
    await Deno.mkdir(`${cwd}/project`);
    await Deno.writeTextFile(`${cwd}/project/session.jsonl`, turn(4_200));
    // The same name from the checkout (where `deno task` runs its command) names nothing.
    said(
      await statusline(cache, cwd, "project/session.jsonl"),
      "claude-opus-5 · 4.2k tokens (2% of 200k)",
    );
    const json = await statusline(cache, cwd, "project/session.jsonl", {}, ["--json"]);
    assert.equal(json.code, 0, json.stderr);
    assert.equal(JSON.parse(json.stdout).contextUsedTokens, 4_200);
    assert.ok(!(await Deno.stat(`${base}/project/session.jsonl`).then(() => true, () => false)));
  });
});

Deno.test("the status line's cache drops what finished sessions left, and nothing else", async () => {
  await withDirs(async ({ cache, cwd, transcript }) => {
    const dir = `${cache}/brigade-transcript/statusline`;
    await Deno.mkdir(dir, { recursive: true, mode: 0o700 });
    const longAgo = new Date(Date.now() - 40 * 24 * 60 * 60 * 1000);
    const minutesAgo = new Date(Date.now() - 5 * 60 * 1000);
    const files = {
      oldState: `${dir}/0123456789abcdef.json`,
      recentState: `${dir}/fedcba9876543210.json`,
      oldTemp: `${dir}/fedcba9876543210.json.0a1b2c3d.tmp`,
      notOurs: `${dir}/notes.txt`,
    };
    for (const path of Object.values(files)) await Deno.writeTextFile(path, "{}");
    await Deno.utime(files.oldState, longAgo, longAgo);
    await Deno.utime(files.notOurs, longAgo, longAgo);
    await Deno.utime(files.oldTemp, minutesAgo, minutesAgo);
    await Deno.writeTextFile(transcript, turn(10_000));
    said(await statusline(cache, cwd, transcript), "claude-opus-5 · 10k tokens (5% of 200k)");
    const left = (await cacheFiles(cache)).sort();
    assert.ok(!left.includes(files.oldState), "a state unchanged for 40 days is removed");
    assert.ok(!left.includes(files.oldTemp), "a temporary file a killed call left is removed");
    assert.ok(left.includes(files.recentState), "a recent state stays");
    assert.ok(left.includes(files.notOurs), "a file the cache did not name stays");
    assert.equal(left.length, 3, "the new transcript's state was written");
  });
});

Deno.test("deno task facts --statusline believes the context_window Claude Code sends", async (t) => {
  await withDirs(async ({ cache, cwd, transcript, base }) => {
    await Deno.writeTextFile(transcript, turn(350_000));
    await t.step("without it, the window is the model id's guess", async () => {
      said(await statusline(cache, cwd, transcript), "claude-opus-5 · 350k tokens (175% of 200k)");
    });
    await t.step("its window size wins over the guess", async () => {
      const window = { context_window: { context_window_size: 1_000_000, current_usage: null } };
      said(
        await statusline(cache, cwd, transcript, window),
        "claude-opus-5 · 350k tokens (35% of 1M)",
      );
    });
    await t.step("its current usage is used without reading the transcript", async () => {
      const window = {
        context_window: {
          context_window_size: 200_000,
          current_usage: {
            input_tokens: 300,
            output_tokens: 999,
            cache_creation_input_tokens: 2_000,
            cache_read_input_tokens: 10_000,
          },
        },
      };
      const missing = `${base}/project/never-written.jsonl`;
      said(
        await statusline(cache, cwd, missing, window),
        "claude-opus-5 · 12.3k tokens (6% of 200k)",
      );
    });
    await t.step("a malformed object is ignored, not believed", async () => {
      const window = {
        context_window: { context_window_size: 0, current_usage: { input_tokens: -1 } },
      };
      said(
        await statusline(cache, cwd, transcript, window),
        "claude-opus-5 · 350k tokens (175% of 200k)",
      );
    });
  });
});

Deno.test({
  name: "the status line refuses a cache folder others can write, or a link in its place",
  ignore: Deno.build.os === "windows",
  fn: async (t) => {
    await withDirs(async ({ cache, cwd, transcript, base }) => {
      await Deno.writeTextFile(transcript, turn(10_000));
      const folder = `${cache}/brigade-transcript/statusline`;
      said(await statusline(cache, cwd, transcript), "claude-opus-5 · 10k tokens (5% of 200k)");
      const [file] = await cacheFiles(cache);
      // A planted state that would set the facts outright, were it believed.
      const planted = JSON.parse(await Deno.readTextFile(file!));
      const plant = async (): Promise<void> => {
        await Deno.writeTextFile(
          file!,
          JSON.stringify({
            ...planted,
            facts: { ...planted.facts, lastBare: "planted", bareSinceAttachment: "planted" },
          }),
        );
      };
      await t.step("(the user's own folder is believed: the plant would show)", async () => {
        await plant();
        said(await statusline(cache, cwd, transcript), "planted · 10k tokens (5% of 200k)");
      });
      await t.step("a folder others may write", async () => {
        await plant();
        await Deno.chmod(folder, 0o777);
        said(await statusline(cache, cwd, transcript), "claude-opus-5 · 10k tokens (5% of 200k)");
        assert.match(await Deno.readTextFile(file!), /planted/, "nor written");
        await Deno.chmod(folder, 0o700);
      });
      await t.step("a parent folder others may write", async () => {
        await Deno.chmod(`${cache}/brigade-transcript`, 0o777);
        said(await statusline(cache, cwd, transcript), "claude-opus-5 · 10k tokens (5% of 200k)");
        await Deno.chmod(`${cache}/brigade-transcript`, 0o700);
      });
      await t.step("a link in place of the folder", async () => {
        const elsewhere = `${base}/elsewhere-cache`;
        await Deno.rename(folder, elsewhere);
        await Deno.symlink(elsewhere, folder);
        said(await statusline(cache, cwd, transcript), "claude-opus-5 · 10k tokens (5% of 200k)");
        assert.match(await Deno.readTextFile(`${elsewhere}/${file!.split("/").pop()}`), /planted/);
      });
    });
  },
});

/**
 * Runs the `facts` task's own line, through `deno task`, with `env` only (and PATH), `cli/facts.ts`
 * replaced by a child that prints each candidate folder's write access: as the task grants it
 * (`start`), then once `facts` has given up what it does not use.
 */
async function factsTaskAccess(
  base: string,
  env: Record<string, string>,
  candidates: string[],
): Promise<{ start: string[]; kept: string[] }> {
  const config = JSON.parse(await Deno.readTextFile(CONFIG));
  const line: string = config.tasks.facts.command;
  assert.ok(line.endsWith(" cli/facts.ts"), line);
  const child = fileURLToPath(new URL("./_write_access_child.ts", import.meta.url));
  const scratch = await Deno.makeTempDir({ dir: base, prefix: "task_" });
  const task = `${line.slice(0, -"cli/facts.ts".length)}${child} ${candidates.join(" ")}`;
  await Deno.writeTextFile(`${scratch}/deno.json`, JSON.stringify({ tasks: { facts: task } }));
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["task", "-q", "--config", `${scratch}/deno.json`, "facts"],
    cwd: scratch,
    clearEnv: true,
    env: { ...env, PATH: Deno.env.get("PATH") ?? "", DENO_DIR, NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(code, 0, new TextDecoder().decode(stderr));
  const lines = new TextDecoder().decode(stdout).split("\n");
  const granted = (prefix: string): string[] =>
    lines.filter((l) => l.startsWith(prefix) && l.endsWith(" granted"))
      .map((l) => l.slice(prefix.length, -" granted".length));
  return { start: granted("start "), kept: granted("kept ") };
}

Deno.test("deno task facts keeps write access to its cache folder only", async () => {
  await withDirs(async ({ cache, base }) => {
    const home = `${base}/home`;
    const local = `${base}/local`;
    const candidates = [
      "/brigade-transcript",
      `${home}/.cache/brigade-transcript`,
      `${home}/Library/Caches/brigade-transcript`,
      `${cache}/brigade-transcript`,
      `${local}/brigade-transcript`,
    ];
    for (const env of [{ HOME: home }, { HOME: home, XDG_CACHE_HOME: cache }]) {
      const { kept } = await factsTaskAccess(base, env, candidates);
      const cacheHome = "XDG_CACHE_HOME" in env
        ? `${cache}/brigade-transcript`
        : `${home}/.cache/brigade-transcript`;
      assert.deepEqual(kept, [cacheHome], JSON.stringify(env));
    }
  });
});

Deno.test("deno task facts: a cache variable that is not set grants nothing outside HOME", async () => {
  await withDirs(async ({ cache, base }) => {
    const home = `${base}/home`;
    const local = `${base}/local`;
    const candidates = [
      "/brigade-transcript",
      "/.cache/brigade-transcript",
      "/Library/Caches/brigade-transcript",
      `${home}/.cache/brigade-transcript`,
      `${home}/Library/Caches/brigade-transcript`,
      `${cache}/brigade-transcript`,
      `${local}/brigade-transcript`,
    ];
    // XDG_CACHE_HOME and LOCALAPPDATA unset: once expanded to "/brigade-transcript", at the root.
    const unset = await factsTaskAccess(base, { HOME: home }, candidates);
    assert.deepEqual(unset.start, [
      `${home}/.cache/brigade-transcript`,
      `${home}/Library/Caches/brigade-transcript`,
    ]);
    const all = await factsTaskAccess(
      base,
      { HOME: home, XDG_CACHE_HOME: cache, LOCALAPPDATA: local },
      candidates,
    );
    assert.deepEqual(all.start, candidates.slice(3));
    // No HOME either (a Windows shell without LOCALAPPDATA): no write access at all.
    const none = await factsTaskAccess(base, {}, candidates);
    assert.deepEqual(none.start, []);
    assert.deepEqual(none.kept, []);
  });
});
