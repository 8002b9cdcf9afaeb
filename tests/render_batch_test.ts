// Copyright 2026 the brigade authors. MIT license.

/**
 * `deno task render` as a batch: interrupted and resumed, piped into a reader
 * that stops early, watched on a terminal.
 */

import assert from "node:assert/strict";
import { bash, entryLine, inTempDir, spawnTask, task, taskArgs, taskLine } from "./_cli.ts";
import { MANIFEST_NAME } from "../cli/_manifest.ts";

/** A log of `count` sessions, one entry each, created in the reverse of input order. */
function sessions(count: number): string[] {
  const start = Date.UTC(2026, 0, 1);
  return Array.from({ length: count }, (_, i) => {
    // Pairs share a created_at, so the session id breaks the tie.
    const at = new Date(start + Math.floor((count - i) / 2) * 1000).toISOString();
    return entryLine(1, `sesn_${String(i).padStart(5, "0")}`, `question ${i}`, at);
  });
}

async function listDir(dir: string): Promise<string[]> {
  // The folder's record of its inputs aside (see cli/_manifest.ts).
  return (await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name)
    .filter((name) => name !== MANIFEST_NAME).sort();
}

/** Waits until a folder holds `count` dreams; fails (rather than hangs) after a minute. */
async function waitForFiles(dir: string, count: number): Promise<void> {
  const deadline = Date.now() + 60_000;
  while ((await listDir(dir).catch(() => [])).filter((n) => n.endsWith(".md")).length < count) {
    if (Date.now() > deadline) throw new Error(`${dir} never held ${count} dreams`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

Deno.test("render: SIGINT during a batch writes INDEX.md for what is done; a rerun completes it byte-identical", async () => {
  await inTempDir(async (dir) => {
    const all = sessions(3000);
    await Deno.writeTextFile(`${dir}/all.ndjson`, all.map((l) => `${l}\n`).join(""));
    const args = ["--renderer", "dream", "--out", `${dir}/resumed/`];

    // The first 1,500 sessions arrive on stdin, then stdin stays open: the 1,500th is in flight.
    const child = spawnTask("render", [...args, "-"], { cwd: dir, stdin: "piped" });
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(all.slice(0, 1500).map((l) => `${l}\n`).join("")));
    await waitForFiles(`${dir}/resumed`, 1499);
    child.kill("SIGINT");
    const interrupted = await child.output();
    await writer.close().catch(() => {});
    const stderr = new TextDecoder().decode(interrupted.stderr);
    assert.equal(interrupted.code, 130, stderr);
    assert.match(stderr, /interrupted by SIGINT: 1499 rendered, 0 unchanged, 0 failed/);
    const names = await listDir(`${dir}/resumed`);
    assert.equal(names.length, 1500, "1,499 dreams and INDEX.md, nothing half written");
    const partial = await Deno.readTextFile(`${dir}/resumed/INDEX.md`);
    assert.equal(partial.split("\n").filter((row) => row.startsWith("- ")).length, 1499);

    const rerun = await task("render", [...args, `${dir}/all.ndjson`], { cwd: dir });
    assert.equal(rerun.code, 0, rerun.stderr);
    assert.equal(rerun.stderr, "render: 1501 rendered, 1499 unchanged, 0 failed\n");

    const whole = await task("render", [
      "--renderer",
      "dream",
      "--out",
      `${dir}/whole/`,
      `${dir}/all.ndjson`,
    ], { cwd: dir });
    assert.equal(whole.code, 0, whole.stderr);
    const index = await Deno.readTextFile(`${dir}/whole/INDEX.md`);
    assert.equal(await Deno.readTextFile(`${dir}/resumed/INDEX.md`), index);
    const rows = index.split("\n").filter((row) => row.startsWith("- "));
    assert.equal(rows.length, 3000);
    // Ordered by created_at (the last input first), then session_id; numbered in that order.
    assert.match(rows[0]!, /^- 1 · sesn_02999 · 2026-01-01T00:00:00\.000Z · /);
    assert.match(rows[1]!, /^- 2 · sesn_02997 · 2026-01-01T00:00:01\.000Z · /);
    assert.match(rows[2]!, /^- 3 · sesn_02998 · 2026-01-01T00:00:01\.000Z · /);

    // A deleted dream and --force on a subset: still the whole folder's index.
    await Deno.remove(`${dir}/resumed/sesn_00015.md`);
    await Deno.writeTextFile(`${dir}/some.ndjson`, all.slice(10, 20).join("\n"));
    const forced = await task("render", ["--force", ...args, `${dir}/some.ndjson`], { cwd: dir });
    assert.equal(forced.code, 0, forced.stderr);
    assert.equal(forced.stderr, "render: 1 rendered, 9 unchanged, 0 failed\n");
    assert.equal(await Deno.readTextFile(`${dir}/resumed/INDEX.md`), index);
  });
});

Deno.test("render: SIGTERM exits 143 and drops the session in flight whole", async () => {
  await inTempDir(async (dir) => {
    const child = spawnTask("render", ["--renderer", "dream", "--out", `${dir}/out/`, "-"], {
      cwd: dir,
      stdin: "piped",
    });
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(`${sessions(2).join("\n")}\n`));
    await waitForFiles(`${dir}/out`, 1);
    child.kill("SIGTERM");
    const { code, stderr } = await child.output();
    await writer.close().catch(() => {});
    assert.equal(code, 143, new TextDecoder().decode(stderr));
    assert.deepEqual(await listDir(`${dir}/out`), ["INDEX.md", "sesn_00000.md"]);
  });
});

Deno.test("render: a dream file differing from what would be written is kept and reported, unless --force", async () => {
  await inTempDir(async (dir) => {
    await Deno.writeTextFile(`${dir}/a.ndjson`, sessions(2).join("\n"));
    const args = ["--renderer", "dream", "--out", `${dir}/out/`, `${dir}/a.ndjson`];
    assert.equal((await task("render", args, { cwd: dir })).code, 0);
    await Deno.writeTextFile(`${dir}/out/sesn_00001.md`, "edited by hand\n");
    const kept = await task("render", args, { cwd: dir });
    assert.equal(kept.code, 1);
    assert.match(
      kept.stderr,
      /sesn_00001\.md: a different file exists \(pass --force to overwrite it\)\nrender: 0 rendered, 1 unchanged, 1 failed\n$/,
    );
    assert.equal(await Deno.readTextFile(`${dir}/out/sesn_00001.md`), "edited by hand\n");
    const index = await Deno.readTextFile(`${dir}/out/INDEX.md`);
    assert.doesNotMatch(index, /sesn_00001/, "a file without its front matter is not a dream row");
    const forced = await task("render", ["--force", ...args], { cwd: dir });
    assert.equal(forced.stderr, "render: 1 rendered, 1 unchanged, 0 failed\n");
    assert.match(await Deno.readTextFile(`${dir}/out/INDEX.md`), /^- 1 · sesn_00001 · /m);
  });
});

Deno.test("render: a session that grew is rendered again without --force; a file edited by hand is still kept", async () => {
  await inTempDir(async (dir) => {
    const log = `${dir}/a.ndjson`;
    const at = "2026-01-01T00:00:00.000Z";
    await Deno.writeTextFile(log, `${sessions(2).join("\n")}\n`);
    const args = ["--renderer", "dream", "--out", `${dir}/out/`, log];
    assert.equal((await task("render", args, { cwd: dir })).code, 0);
    // The live case: the session goes on, its input grows, the same command runs again.
    await Deno.writeTextFile(log, `${entryLine(2, "sesn_00001", "a later question", at)}\n`, {
      append: true,
    });
    const grown = await task("render", args, { cwd: dir });
    assert.equal(grown.stderr, "render: 1 rendered, 1 unchanged, 0 failed\n");
    assert.match(await Deno.readTextFile(`${dir}/out/sesn_00001.md`), /a later question/);
    // A page someone edited is theirs: kept and reported, even when its session grew.
    await Deno.writeTextFile(`${dir}/out/sesn_00001.md`, "edited by hand\n");
    await Deno.writeTextFile(log, `${entryLine(3, "sesn_00001", "one more", at)}\n`, {
      append: true,
    });
    const kept = await task("render", args, { cwd: dir });
    assert.equal(kept.code, 1);
    assert.match(kept.stderr, /sesn_00001\.md: a different file exists \(pass --force/);
    assert.equal(await Deno.readTextFile(`${dir}/out/sesn_00001.md`), "edited by hand\n");
  });
});

Deno.test("render: a dream file starts with front matter holding its INDEX.md row", async () => {
  await inTempDir(async (dir) => {
    await Deno.writeTextFile(
      `${dir}/a.ndjson`,
      entryLine(1, "sesn_a", "Fix \u001b]0;the\u0007 build", "2026-09-14T10:02:11Z"),
    );
    const run = await task("render", ["-r", "dream", "-o", `${dir}/out/`, `${dir}/a.ndjson`], {
      cwd: dir,
    });
    assert.equal(run.code, 0, run.stderr);
    const page = await Deno.readTextFile(`${dir}/out/sesn_a.md`);
    // The page is the dream's text: its front matter holds the row's fields and the digest.
    const body = page.slice(page.indexOf("# Session"));
    const digest = new Uint8Array(
      await crypto.subtle.digest("SHA-256", new TextEncoder().encode(body)),
    );
    const hex = Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
    assert.equal(
      page.slice(0, page.indexOf("# Session")),
      [
        "---",
        'renderer: "dream"',
        'session_id: "sesn_a"',
        'title: ""',
        'project: ""',
        'cwd: ""',
        "models: []",
        'start: "2026-09-14T10:02:11Z"',
        'end: "2026-09-14T10:02:11Z"',
        "turns: 1",
        'terminal_state: ""',
        'last_error: ""',
        "elided_bytes: 0",
        `digest: "sha256:${hex}"`,
        'first_user: "Fix \\u001b]0;the\\u0007 build"',
        "---",
        "",
      ].join("\n"),
    );
    const index = await Deno.readTextFile(`${dir}/out/INDEX.md`);
    assert.ok(index.includes(` · ${new TextEncoder().encode(page).length} · sha256:${hex} · `));
  });
});

Deno.test("render: a session id changed by redaction names its file with a digest of the raw id", async () => {
  await inTempDir(async (dir) => {
    await Deno.writeTextFile(
      `${dir}/a.ndjson`,
      [entryLine(1, "password=hunter2abc", "a"), entryLine(1, "password=hunter3xyz", "b")].join(
        "\n",
      ),
    );
    const run = await task("render", ["-o", `${dir}/out/`, `${dir}/a.ndjson`], { cwd: dir });
    assert.equal(run.code, 0, run.stderr);
    const names = await listDir(`${dir}/out`);
    assert.equal(names.length, 2);
    for (const name of names) {
      assert.match(name, /^password%3D%5BREDACTED_SECRET%5D~[0-9a-f]{8}\.txt$/);
    }
  });
});

Deno.test("render | head: a closed pipe ends the command quietly with exit 0", async () => {
  await inTempDir(async (dir) => {
    // Over the pipe's 64 KiB buffer, so the write meets the closed pipe.
    const big = Array.from(
      { length: 400 },
      (_, i) => entryLine(i + 1, "sesn_big", "x".repeat(1000)),
    );
    await Deno.writeTextFile(`${dir}/big.ndjson`, big.join("\n"));
    const run = await bash(
      `${taskLine("render", [`${dir}/big.ndjson`])} | head -1; echo "exit \${PIPESTATUS[0]}" >&2`,
      dir,
    );
    assert.equal(run.stdout, "[user]\n");
    assert.equal(run.stderr, "exit 0\n");
  });
});

Deno.test("facts --follow | head -1: a closed pipe ends the command at its next line, exit 0", async () => {
  await inTempDir(async (dir) => {
    const example = new URL("../fixtures/claude_code/example.jsonl", import.meta.url);
    const transcript = `${dir}/t.jsonl`;
    await Deno.copyFile(example, transcript);
    const child = new Deno.Command("bash", {
      args: [
        "-c",
        `${
          taskLine("facts", ["--follow", "--interval", "20", transcript])
        } | head -1; echo "exit \${PIPESTATUS[0]}" >&2`,
      ],
      cwd: dir,
      stdout: "piped",
      stderr: "piped",
      env: { NO_COLOR: "1", INIT_CWD: dir, "?": "", npm_lifecycle_event: "" },
    }).spawn();
    const reader = child.stdout.getReader();
    const first = await reader.read();
    reader.releaseLock();
    assert.match(new TextDecoder().decode(first.value), /^claude-opus-5/);
    // head has exited; the next change is the next line facts prints, into the closed pipe.
    const lines = (await Deno.readTextFile(transcript)).trimEnd().split("\n");
    const last = JSON.parse(lines.findLast((l) => l.includes('"assistant"'))!);
    for (let i = 0; i < 50; i++) {
      last.uuid = `00000000-0000-4000-8000-1000000000${String(i).padStart(2, "0")}`;
      last.message.usage.cache_read_input_tokens += 1000;
      await Deno.writeTextFile(transcript, `${JSON.stringify(last)}\n`, { append: true });
      await new Promise((resolve) => setTimeout(resolve, 50));
      if (await Promise.race([child.status.then(() => true), Promise.resolve(false)])) break;
    }
    const { stderr } = await child.output();
    assert.equal(new TextDecoder().decode(stderr), "exit 0\n");
  });
});

Deno.test("render: nothing on stderr when all went well and stdout is the output", async () => {
  await inTempDir(async (dir) => {
    await Deno.writeTextFile(`${dir}/a.ndjson`, entryLine(1, "sesn_a", "hi"));
    const run = await task("render", [`${dir}/a.ndjson`], { cwd: dir });
    assert.equal(run.code, 0);
    assert.equal(run.stdout, "[user]\n  hi\n");
    assert.equal(run.stderr, "");
  });
});

Deno.test("render on a terminal: a progress line and the summary on stderr, control characters visible", async () => {
  await inTempDir(async (dir) => {
    await Deno.writeTextFile(
      `${dir}/a.ndjson`,
      entryLine(1, "sesn_a", "hi \u001b]0;owned\u0007 there"),
    );
    // `script` gives the command a terminal for stdout and stderr, as a user's shell does.
    // A terminal that takes escape codes, whatever the one the tests run in.
    const toDir = await bash(
      `TERM=xterm-256color script -qec ${
        JSON.stringify(taskLine("render", ["-o", `${dir}/out/`, `${dir}/a.ndjson`]))
      } /dev/null`,
      dir,
    );
    assert.equal(toDir.code, 0, toDir.stdout);
    // deno-lint-ignore no-control-regex -- the terminal's line clearing is what is matched
    assert.match(toDir.stdout, /\r\x1b\[2Kinputs 1\/1 · 1 session rendered · \d+\.\d s/);
    assert.match(toDir.stdout, /render: 1 rendered, 0 unchanged, 0 failed\r?\n/);
    const toTerminal = await bash(
      `script -qec ${JSON.stringify(taskLine("render", [`${dir}/a.ndjson`]))} /dev/null`,
      dir,
    );
    assert.equal(toTerminal.code, 0);
    assert.ok(toTerminal.stdout.includes("hi \\x1b]0;owned\\x07 there"), toTerminal.stdout);
    assert.ok(
      !toTerminal.stdout.includes("\u001b]0;"),
      "no raw escape sequence reaches the terminal",
    );
    const toPipe = await task("render", [`${dir}/a.ndjson`], { cwd: dir });
    assert.equal(
      toPipe.stdout,
      "[user]\n  hi \u001b]0;owned\u0007 there\n",
      "byte-exact into a pipe",
    );
  });
});

Deno.test("render: a Claude Code transcript is one session: reading stops when the grader's budget is full", async () => {
  await inTempDir(async (dir) => {
    // A FIFO whose writer never closes: a command that drains to look for a next session never ends.
    const path = `${dir}/live.jsonl`;
    assert.equal((await new Deno.Command("mkfifo", { args: [path] }).output()).code, 0);
    const child = spawnTask("render", [path], { cwd: dir });
    const output = child.output(); // read stdout as it comes: 200 kB do not fit a pipe
    const fifo = await Deno.open(path, { write: true });
    try {
      const record = (i: number): string =>
        JSON.stringify({
          type: "user",
          uuid: `u${i}`,
          timestamp: "2026-01-01T00:00:00Z",
          message: { role: "user", content: `${i} ${"x".repeat(3990)}` },
        });
      const text = Array.from({ length: 80 }, (_, i) => `${record(i)}\n`).join("");
      const bytes = new TextEncoder().encode(text);
      try {
        for (let at = 0; at < bytes.length;) at += await fifo.write(bytes.subarray(at));
      } catch (error) {
        // The command closed the transcript once its budget was full: what this test wants.
        if (!(error instanceof Deno.errors.BrokenPipe)) throw error;
      }
      let exited = false;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const deadline = new Promise((resolve) => timer = setTimeout(resolve, 60_000));
      await Promise.race([output.then(() => exited = true), deadline]);
      clearTimeout(timer);
      assert.ok(exited, "render ended while the transcript was still open for writing");
    } finally {
      fifo.close();
    }
    const { code, stdout } = await output;
    assert.equal(code, 0);
    // The grader's budget, less the line its head stops before (each record is one ~4 kB line).
    assert.ok(stdout.length <= 200_000 && stdout.length > 200_000 - 4_100, `${stdout.length}`);
  });
});

Deno.test("facts -f is still --follow (render's --force has no short form)", async () => {
  await inTempDir(async (dir) => {
    const example = new URL("../fixtures/claude_code/example.jsonl", import.meta.url).pathname;
    const child = spawnTask("facts", ["-f", "--interval", "20", example], { cwd: dir });
    const reader = child.stdout.getReader();
    const first = await reader.read();
    reader.releaseLock();
    assert.match(new TextDecoder().decode(first.value), /^claude-opus-5/);
    child.kill("SIGINT");
    const { code } = await child.output();
    assert.equal(code, 0);
  });
});

Deno.test({
  name:
    "render under deno task: a Ctrl-C sent as a terminal sends it, to the process group, stops the batch cleanly",
  ignore: Deno.build.os === "windows",
}, async () => {
  await inTempDir(async (dir) => {
    await Deno.writeTextFile(`${dir}/all.ndjson`, sessions(20_000).map((l) => `${l}\n`).join(""));
    // `setsid` makes the command a process group of its own, as a shell's job is: the signal
    // reaches `deno task` and render both, and `deno task` forwards its copy to render.
    const child = new Deno.Command("setsid", {
      args: [Deno.execPath(), ...taskArgs("render", ["-r", "dream", "-o", "out/", "all.ndjson"])],
      cwd: dir,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      env: { NO_COLOR: "1", INIT_CWD: dir, "?": "", npm_lifecycle_event: "" },
    }).spawn();
    await waitForFiles(`${dir}/out`, 300);
    Deno.kill(-child.pid, "SIGINT");
    const { code, stderr } = await child.output();
    const said = new TextDecoder().decode(stderr);
    assert.equal(code, 130, said);
    assert.match(
      said,
      /^render: interrupted by SIGINT: \d+ rendered, 0 unchanged, 0 failed; run /m,
    );
    const dreams = (await listDir(`${dir}/out`)).filter((name) => name.endsWith(".md"));
    const index = await Deno.readTextFile(`${dir}/out/INDEX.md`);
    assert.equal(index.split("\n").filter((row) => row.startsWith("- ")).length, dreams.length - 1);
  });
});

/** A team's renderers, as a project's deno.json names them: a folder format and a batch. */
const TEAM_MODULE = `
const first = async (source) => {
  let id = "", asks = 0;
  for await (const { session_id, event } of source) {
    id ||= session_id;
    if (event.type === "user.message") asks++;
  }
  return { id, asks };
};
export const renderers = [{
  name: "asks",
  description: "How many times the user asked",
  extension: ".txt",
  async render(source) {
    const { asks } = await first(source);
    return asks + " asks\\n";
  },
  folder: {
    indexName: "ASKS.txt",
    headBytes: 256,
    async page(source) {
      const { id, asks } = await first(source);
      return "asks-page " + JSON.stringify({ id, asks }) + "\\n" + asks + " asks\\n";
    },
    summary({ head }) {
      const match = /^asks-page (.*)\\n/.exec(head);
      return match === null ? undefined : JSON.parse(match[1]);
    },
    ownsIndex: (head) => head.startsWith("# asks\\n"),
    buildIndex(pages) {
      return "# asks\\n" +
        pages.map((p) => p.name + " " + p.summary.id + " " + p.summary.asks + "\\n").join("");
    },
  },
}, {
  name: "count-all",
  description: "Every session of the inputs, counted once",
  extension: ".txt",
  batch: { fileName: "COUNT.txt" },
  async render(source) {
    const ids = new Set();
    for await (const { session_id } of source) ids.add(session_id);
    return ids.size + " sessions\\n";
  },
}];
`;

Deno.test("render: a team renderer's hooks give it a resumable folder with its own index, and batches", async () => {
  await inTempDir(async (dir) => {
    await Deno.writeTextFile(`${dir}/team.ts`, TEAM_MODULE);
    await Deno.writeTextFile(
      `${dir}/deno.json`,
      JSON.stringify({ transcript: { renderers: ["./team.ts"] } }),
    );
    await Deno.writeTextFile(
      `${dir}/a.ndjson`,
      [entryLine(1, "sesn_a", "one"), entryLine(2, "sesn_a", "two"), entryLine(1, "sesn_b", "x")]
        .join("\n") + "\n",
    );
    await Deno.writeTextFile(`${dir}/c.ndjson`, entryLine(1, "sesn_c", "three") + "\n");
    // The page of a session named like the index keeps the index's name free.
    await Deno.writeTextFile(`${dir}/asks.ndjson`, entryLine(1, "ASKS", "clash") + "\n");

    const first = await task("render", ["-r", "asks", "--out", "out/", "a.ndjson"], { cwd: dir });
    assert.equal(first.code, 0, first.stderr);
    assert.deepEqual(await listDir(`${dir}/out`), ["ASKS.txt", "sesn_a.txt", "sesn_b.txt"]);
    assert.equal(
      await Deno.readTextFile(`${dir}/out/sesn_a.txt`),
      'asks-page {"id":"sesn_a","asks":2}\n2 asks\n',
    );
    assert.equal(
      await Deno.readTextFile(`${dir}/out/ASKS.txt`),
      "# asks\nsesn_a.txt sesn_a 2\nsesn_b.txt sesn_b 1\n",
    );
    // A file of the folder that is not one of its pages is left out of the index.
    await Deno.writeTextFile(`${dir}/out/notes.txt`, "my own notes\n");

    // Resumed: the earlier pages are unchanged, the index lists every page of the folder.
    const more = await task(
      "render",
      ["-r", "asks", "--out", "out/", "a.ndjson", "c.ndjson", "asks.ndjson"],
      { cwd: dir },
    );
    assert.equal(more.code, 0, more.stderr);
    assert.equal(more.stderr, "render: 2 rendered, 2 unchanged, 0 failed\n");
    assert.equal(
      await Deno.readTextFile(`${dir}/out/ASKS.txt`),
      "# asks\n%ASKS.txt ASKS 1\nsesn_a.txt sesn_a 2\nsesn_b.txt sesn_b 1\nsesn_c.txt sesn_c 1\n",
    );

    // To standard output, the renderer's own text, not its page.
    const single = await task("render", ["-r", "asks", "c.ndjson"], { cwd: dir });
    assert.equal(single.code, 0, single.stderr);
    assert.equal(single.stdout, "1 asks\n");

    // A batch renderer reads every input as one source, into the file it names.
    const batch = await task(
      "render",
      ["-r", "count-all", "--out", "batch/", "a.ndjson", "c.ndjson"],
      { cwd: dir },
    );
    assert.equal(batch.code, 0, batch.stderr);
    assert.deepEqual(await listDir(`${dir}/batch`), ["COUNT.txt"]);
    assert.equal(await Deno.readTextFile(`${dir}/batch/COUNT.txt`), "3 sessions\n");
  });
});

Deno.test("render: an index file the command did not write is kept unless --force; a run that wrote nothing adds none", async (t) => {
  await inTempDir(async (dir) => {
    await Deno.writeTextFile(`${dir}/a.ndjson`, entryLine(1, "sesn_a", "hi") + "\n");
    for (
      const [renderer, index] of [["html", "index.html"], ["dream", "INDEX.md"]] as const
    ) {
      await t.step(`${renderer}: ${index}`, async () => {
        const out = `${dir}/${renderer}`;
        await Deno.mkdir(out);
        await Deno.writeTextFile(`${out}/${index}`, "my own index\n");
        const kept = await task("render", ["-r", renderer, "--out", `${renderer}/`, "a.ndjson"], {
          cwd: dir,
        });
        assert.equal(kept.code, 1);
        assert.match(
          kept.stderr,
          new RegExp(
            `^render: Cannot write ${renderer}/${index}: a different file exists \\(pass --force`,
            "m",
          ),
        );
        assert.equal(await Deno.readTextFile(`${out}/${index}`), "my own index\n");
        // Its own index, once written, is rebuilt by the next run without --force.
        const forced = await task(
          "render",
          ["-r", renderer, "--force", "--out", `${renderer}/`, "a.ndjson"],
          { cwd: dir },
        );
        assert.equal(forced.code, 0, forced.stderr);
        const written = await Deno.readTextFile(`${out}/${index}`);
        assert.notEqual(written, "my own index\n");
        await Deno.remove(`${out}/${(await listDir(out)).find((n) => n !== index)!}`);
        const again = await task("render", ["-r", renderer, "--out", `${renderer}/`, "a.ndjson"], {
          cwd: dir,
        });
        assert.equal(again.code, 0, again.stderr);
        assert.equal(await Deno.readTextFile(`${out}/${index}`), written);

        // Nothing rendered into a folder with no index: none is added.
        const empty = `${renderer}-empty`;
        const failed = await task("render", ["-r", renderer, "--out", `${empty}/`, "none.ndjson"], {
          cwd: dir,
        });
        assert.equal(failed.code, 1);
        assert.deepEqual(await listDir(`${dir}/${empty}`), []);
      });
    }
  });
});

Deno.test("render: the index rebuild reads a fixed head of each file, so huge files cost little", async () => {
  await inTempDir(async (dir) => {
    await Deno.writeTextFile(`${dir}/a.ndjson`, entryLine(1, "sesn_a", "hi") + "\n");
    await Deno.mkdir(`${dir}/out`);
    // 20 MB with no </head>, and 20 MB of markdown: neither a page of ours.
    const big = "<".repeat(20 * 1024 * 1024);
    await Deno.writeTextFile(`${dir}/out/huge.html`, `<!DOCTYPE html>\n<head>${big}`);
    await Deno.writeTextFile(`${dir}/out/huge.md`, `---\nrenderer: "dream"\n${big}`);
    for (const [renderer, index] of [["html", "index.html"], ["dream", "INDEX.md"]]) {
      const started = Date.now();
      const run = await task("render", ["-r", renderer!, "--out", "out/", "a.ndjson"], {
        cwd: dir,
      });
      assert.equal(run.code, 0, run.stderr);
      assert.ok(Date.now() - started < 15_000, `${renderer} took ${Date.now() - started} ms`);
      const text = await Deno.readTextFile(`${dir}/out/${index}`);
      assert.ok(!text.includes("huge"), `${index} lists only the pages`);
    }
  });
});

/** A team renderer that counts its renders on stderr: a rerun that skips adds none. */
const COUNTING_MODULE = `
export const renderers = [{
  name: "counted",
  description: "The user messages, each render counted",
  extension: ".txt",
  async render(source) {
    console.error("[counted]");
    const out = [];
    for await (const { event } of source) if (event.type === "user.message") out.push(event.content);
    return out.join("\\n") + "\\n";
  },
}];
`;

Deno.test("render: a rerun into a folder skips the inputs whose fingerprint matches, without reading them", async (t) => {
  await inTempDir(async (dir) => {
    await Deno.writeTextFile(`${dir}/team.ts`, COUNTING_MODULE);
    await Deno.writeTextFile(
      `${dir}/deno.json`,
      JSON.stringify({ transcript: { renderers: { counted: "./team.ts" } } }),
    );
    const inputs = ["a", "b", "c"];
    for (const name of inputs) {
      await Deno.writeTextFile(`${dir}/${name}.ndjson`, entryLine(1, `sesn_${name}`, name) + "\n");
    }
    const files = inputs.map((name) => `${name}.ndjson`);
    const render = async (...extra: string[]) => {
      // Counted on stderr: a team's renderer may write only into the --out folder.
      const run = await task("render", ["-r", "counted", ...extra, "--out", "out/", ...files], {
        cwd: dir,
      });
      return { ...run, renders: run.stderr.split("[counted]\n").length - 1 };
    };
    const contents = async (): Promise<string[]> =>
      await Promise.all(
        (await listDir(`${dir}/out`)).map((n) => Deno.readTextFile(`${dir}/out/${n}`)),
      );

    const first = await render();
    assert.equal(first.code, 0, first.stderr);
    assert.equal(first.renders, 3);
    const written = await contents();

    await t.step("unchanged inputs are not rendered again", async () => {
      const again = await render();
      assert.equal(again.code, 0, again.stderr);
      assert.equal(again.stderr, "render: 0 rendered, 3 unchanged, 0 failed\n");
      assert.equal(again.renders, 0);
      assert.deepEqual(await contents(), written);
    });

    await t.step("a changed input is rendered again, and only it", async () => {
      await Deno.writeTextFile(`${dir}/b.ndjson`, entryLine(1, "sesn_b", "B!") + "\n");
      const changed = await render();
      assert.equal(changed.code, 0, "its output is the command's own, as written: replaced");
      assert.equal(changed.renders, 1);
      assert.equal(await Deno.readTextFile(`${dir}/out/sesn_b.txt`), "B!\n");
      const forced = await render("--force");
      assert.equal(forced.code, 0, forced.stderr);
      assert.equal(forced.renders, 3, "--force renders everything");
      assert.equal(await Deno.readTextFile(`${dir}/out/sesn_b.txt`), "B!\n");
      assert.equal((await render()).renders, 0);
    });

    await t.step("an output edited or removed is rendered again", async () => {
      await Deno.remove(`${dir}/out/sesn_c.txt`);
      const removed = await render();
      assert.equal(removed.code, 0, removed.stderr);
      assert.equal(removed.renders, 1);
      assert.equal(await Deno.readTextFile(`${dir}/out/sesn_c.txt`), "c\n");
      await Deno.writeTextFile(`${dir}/out/sesn_a.txt`, "edited\n");
      const edited = await render();
      assert.equal(edited.code, 1);
      assert.match(edited.stderr, /sesn_a\.txt: a different file exists/);
      assert.equal(edited.renders, 1);
    });

    await t.step("another option renders again", async () => {
      const scoped = await render("--scope", "session", "--force");
      assert.equal(scoped.code, 0, scoped.stderr);
      assert.equal(scoped.renders, 3);
      assert.equal((await render("--scope", "session")).renders, 0);
      assert.equal((await render("--scope", "all")).renders, 3);
    });

    await t.step("another renderer option renders again", async () => {
      const budget = await render("--item-budget", "100");
      assert.equal(budget.code, 0, budget.stderr);
      assert.equal(
        budget.renders,
        3,
        "a renderer that declares no options is passed them as given",
      );
      assert.equal((await render("--item-budget", "100")).renders, 0);
      assert.equal((await render("--item-budget", "200")).renders, 3);
    });
  });
});

Deno.test({
  name: "render - and facts --statusline on a terminal say what they wait for",
  ignore: Deno.build.os === "windows",
}, async () => {
  await inTempDir(async (dir) => {
    // `script` gives the command a terminal for stdin too; what is typed ends with Ctrl-D.
    const typed = async (name: string, args: string[], text: string) =>
      await bash(
        `printf '%s\\n\\004' ${JSON.stringify(text)} | timeout 60 script -qec ${
          JSON.stringify(taskLine(name, args))
        } /dev/null`,
        dir,
      );
    const render = await typed("render", ["-"], entryLine(1, "sesn_a", "typed"));
    assert.equal(render.code, 0, render.stdout);
    assert.match(
      render.stdout,
      /render: reading standard input \(a log or a Claude Code transcript\); end it with Ctrl-D\r?\n/,
    );
    assert.match(render.stdout, /\[user\]\r?\n {2}typed\r?\n/);
    const facts = await typed("facts", ["--statusline"], '{"model":{"id":"claude-opus-5"}}');
    assert.equal(facts.code, 0, facts.stdout);
    assert.match(
      facts.stdout,
      /facts: --statusline reads Claude Code's status-line JSON on standard input; end it with Ctrl-D\r?\n/,
    );
    assert.match(facts.stdout, /claude-opus-5 · no transcript\r?\n/);
  });
});

Deno.test("render: two runs into one folder at once take turns, and INDEX.md lists both", async () => {
  await inTempDir(async (dir) => {
    const rows = sessions(1_200);
    await Deno.writeTextFile(`${dir}/a.ndjson`, rows.slice(0, 600).map((l) => `${l}\n`).join(""));
    await Deno.writeTextFile(`${dir}/b.ndjson`, rows.slice(600).map((l) => `${l}\n`).join(""));
    const [a, b] = await Promise.all(
      ["a", "b"].map((name) =>
        task("render", ["-r", "dream", "--out", "out/", `${name}.ndjson`], { cwd: dir })
      ),
    );
    assert.equal(a!.code, 0, a!.stderr);
    assert.equal(b!.code, 0, b!.stderr);
    const index = await Deno.readTextFile(`${dir}/out/INDEX.md`);
    assert.equal(index.split("\n").filter((row) => row.startsWith("- ")).length, 1_200);
    const record = JSON.parse(await Deno.readTextFile(`${dir}/out/.transcript-manifest.json`));
    assert.equal(Object.keys(record.entries).length, 2, "each run's inputs recorded");
  });
});
