// Copyright 2026 the brigade authors. MIT license.

/**
 * `deno task render --renderer html --watch --out site/ FOLDER` keeps a site in step with the
 * transcripts as they grow, appear and go; `deno task render --follow FILE` prints a growing
 * transcript's items. Run as a user runs them, from another folder, stopped with Ctrl-C; the
 * live page in headless Chromium.
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { inTempDir, spawnTask, task } from "./_cli.ts";
import { type Browser, findChromium, requestsThatLeft, withBrowser } from "./_browser.ts";
import { PAGE_SCRIPT } from "../renderers/html/_script.ts";

/** A Claude Code transcript's records of one prompt and its reply. */
function exchange(sessionId: string, cwd: string, i: number, prompt: string): string {
  const at = new Date(Date.parse("2026-09-01T09:00:00.000Z") + 120_000 * i).toISOString();
  const common = { isSidechain: false, userType: "external", cwd, sessionId, version: "2.1.50" };
  const records = [{
    ...common,
    type: "user",
    uuid: `${sessionId}-u${i}`,
    timestamp: at,
    message: { role: "user", content: prompt },
  }, {
    ...common,
    type: "assistant",
    uuid: `${sessionId}-a${i}`,
    timestamp: at,
    message: {
      id: `msg_${sessionId}_${i}`,
      type: "message",
      role: "assistant",
      model: "claude-opus-5",
      content: [{ type: "text", text: `Done: ${prompt}` }],
      usage: { input_tokens: 10, output_tokens: 5 },
    },
  }];
  return records.map((record) => JSON.stringify(record)).join("\n") + "\n";
}

/** Waits until `ready` holds, polling; fails naming `what` after a minute (a stuck watch). */
async function until(what: string, ready: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!await ready().catch(() => false)) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((done) => setTimeout(done, 200));
  }
}

/** Ctrl-C to a command, then its end; one that already ended (a failure) is only waited for. */
async function interrupted(child: Deno.ChildProcess): Promise<Deno.CommandStatus> {
  try {
    child.kill("SIGINT");
  } catch {
    // It ended first: its status and output tell why.
  }
  return await child.status;
}

/** A file's identity and modification time: what a rewrite changes (writes are atomic renames). */
async function identity(path: string): Promise<string> {
  const info = await Deno.stat(path);
  return `${info.ino}:${info.mtime?.getTime()}`;
}

/** A running command's output, read as it comes so that its pipes never fill. */
function drained(child: Deno.ChildProcess): { stdout: () => string; stderr: () => string } {
  const texts = { stdout: "", stderr: "" };
  for (const name of ["stdout", "stderr"] as const) {
    child[name].pipeThrough(new TextDecoderStream()).pipeTo(
      new WritableStream({
        write: (chunk): void => {
          texts[name] += chunk;
        },
      }),
    ).catch(() => {});
  }
  return { stdout: () => texts.stdout, stderr: () => texts.stderr };
}

const REFRESH = /<meta http-equiv="refresh" content="\d+">/;

/** A projects folder: app/s-old (finished two hours ago), app/s-live (just written). */
async function projects(dir: string): Promise<{ old: string; live: string }> {
  const app = join(dir, "projects", "-home-me-app");
  await Deno.mkdir(app, { recursive: true });
  const old = join(app, "s-old.jsonl");
  const live = join(app, "s-live.jsonl");
  await Deno.writeTextFile(old, exchange("s-old", "/home/me/app", 0, "Old work"));
  const hoursAgo = new Date(Date.now() - 2 * 3_600_000);
  await Deno.utime(old, hoursAgo, hoursAgo);
  await Deno.writeTextFile(live, exchange("s-live", "/home/me/app", 1, "First step"));
  return { old, live };
}

Deno.test("render --watch: a growing session's page and the index are rendered again and no other page, a new one appears, a deleted one is kept and marked, Ctrl-C leaves every file whole", async () => {
  await inTempDir(async (dir) => {
    const { old, live } = await projects(dir);
    const site = join(dir, "site");
    const index = join(site, "index.html");
    const oldPage = join(site, "-home-me-app%2Fs-old.html");
    const livePage = join(site, "-home-me-app%2Fs-live.html");
    const child = spawnTask("render", ["-r", "html", "--watch", "--out", "site/", "projects"], {
      cwd: dir,
    });
    const output = drained(child);
    try {
      await until(
        "the first round",
        async () => (await Deno.readTextFile(index)).includes("s-live"),
      );
      // A session still growing says so and reloads; a finished one does not; the index does.
      const liveText = await Deno.readTextFile(livePage);
      assert.match(liveText, REFRESH);
      assert.match(liveText, /still growing/);
      assert.doesNotMatch(await Deno.readTextFile(oldPage), REFRESH);
      assert.match(await Deno.readTextFile(index), REFRESH);
      // The policy is the same as a static page's: nothing loads or runs.
      assert.match(liveText, /default-src 'none'; style-src 'sha256-[^']+'; base-uri 'none'/);
      // The reload is a <meta>: the page's one script is still only its own (find and filter).
      assert.equal(liveText.split(`<script>${PAGE_SCRIPT}</script>`).length, 2);
      assert.doesNotMatch(
        liveText.replace(`<script>${PAGE_SCRIPT}</script>`, ""),
        /<script|unsafe-inline/,
      );

      const oldBefore = await identity(oldPage);
      const indexBefore = await identity(index);
      await Deno.writeTextFile(live, exchange("s-live", "/home/me/app", 2, "Second step"), {
        append: true,
      });
      await until(
        "the grown page",
        async () => (await Deno.readTextFile(livePage)).includes("Second step"),
      );
      await until("the index after growth", async () => await identity(index) !== indexBefore);
      assert.equal(
        await identity(oldPage),
        oldBefore,
        "the unchanged session's page was rewritten",
      );

      const lib = join(dir, "projects", "-home-me-lib");
      await Deno.mkdir(lib);
      await Deno.writeTextFile(
        join(lib, "s-new.jsonl"),
        exchange("s-new", "/home/me/lib", 3, "New"),
      );
      await until(
        "the new session",
        async () =>
          (await Deno.readTextFile(index)).includes("s-new") &&
          (await Deno.stat(join(site, "-home-me-lib%2Fs-new.html"))).isFile,
      );
      assert.equal(await identity(oldPage), oldBefore);

      await Deno.remove(old);
      await until(
        "the deleted session marked",
        async () => (await Deno.readTextFile(index)).includes("(transcript gone)"),
      );
      assert.ok((await Deno.stat(oldPage)).isFile, "the deleted session's page is kept");
      // The row, not the site search's data block, which names every page too.
      const row = (await Deno.readTextFile(index)).split("\n").find((line) =>
        line.includes("s-old") && !line.includes('id="site-words"')
      );
      assert.match(row ?? "", /\(transcript gone\)/);
    } finally {
      // Stopped and waited for even when a wait above gave up: no process outlives its test.
      await interrupted(child);
    }
    const { code } = await child.status;
    assert.equal(code, 130, output.stderr());
    assert.match(output.stderr(), /watch stopped by SIGINT/);
    // Every file whole: no temporary left, each page a complete document.
    for await (const entry of Deno.readDir(site)) {
      assert.ok(!entry.name.startsWith(".tmp") && !entry.name.endsWith(".tmp"), entry.name);
      if (!entry.name.endsWith(".html")) continue;
      const text = await Deno.readTextFile(join(site, entry.name));
      assert.match(text, /^<!DOCTYPE html>\n[^]*<\/html>\n$/, entry.name);
    }
    // The watch over, the index no longer reloads; the gone page is still marked.
    const last = await Deno.readTextFile(index);
    assert.doesNotMatch(last, REFRESH);
    assert.match(last, /\(transcript gone\)/);
  });
});

Deno.test("render --watch: a rerun without --watch renders a live page again, finished (no reload)", async () => {
  await inTempDir(async (dir) => {
    await projects(dir);
    const child = spawnTask("render", ["-r", "html", "--watch", "--out", "site/", "projects"], {
      cwd: dir,
    });
    const output = drained(child);
    const livePage = join(dir, "site", "-home-me-app%2Fs-live.html");
    try {
      await until("the live page", async () => REFRESH.test(await Deno.readTextFile(livePage)));
    } finally {
      await interrupted(child);
    }
    assert.equal((await child.status).code, 130, output.stderr());
    const run = await task("render", ["-r", "html", "--out", "site/", "projects"], { cwd: dir });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /1 rendered, 1 unchanged/);
    assert.doesNotMatch(await Deno.readTextFile(livePage), REFRESH);
  });
});

Deno.test("render --watch: a subagent writing its own file renders its session's page again, the session's file as it was", async () => {
  await inTempDir(async (dir) => {
    const fixture = new URL("../fixtures/claude_code/current/home-dev-app/", import.meta.url);
    const session = "7f3c2a10-5b8e-4d21-9c6a-2e4f8b1d0a93";
    const app = join(dir, "projects", "-home-dev-app");
    await Deno.mkdir(join(app, session, "subagents"), { recursive: true });
    await Deno.copyFile(new URL(`${session}.jsonl`, fixture), join(app, `${session}.jsonl`));
    for await (const entry of Deno.readDir(new URL(`${session}/subagents/`, fixture))) {
      const name = join(session, "subagents", entry.name);
      await Deno.copyFile(new URL(name, fixture), join(app, name));
    }
    const page = join(dir, "site", `-home-dev-app%2F${session}.html`);
    const child = spawnTask("render", ["-r", "html", "--watch", "--out", "site/", "projects"], {
      cwd: dir,
    });
    const output = drained(child);
    try {
      await until("the first round", async () => (await Deno.readTextFile(page)).length > 0);
      assert.doesNotMatch(await Deno.readTextFile(page), /quokka/);
      const subagent = join(app, session, "subagents", "agent-a11f00dcafe0001.jsonl");
      const text = await Deno.readTextFile(subagent);
      await Deno.writeTextFile(
        subagent,
        text.replaceAll("and parses it.", "and parses it, quokka."),
      );
      await until(
        "the subagent's new words on the page",
        async () => (await Deno.readTextFile(page)).includes("and parses it, quokka."),
      );
    } finally {
      await interrupted(child);
    }
    assert.equal((await child.status).code, 130, output.stderr());
  });
});

Deno.test("render --watch refuses what it cannot keep in step", async (t) => {
  const cases: Array<[string[], RegExp]> = [
    [["--watch", "projects"], /--watch needs --out DIR/],
    [["--watch", "--out", "site/"], /--watch needs a FILE or FOLDER/],
    [["--watch", "--out", "site/", "-"], /--watch needs a FILE or FOLDER/],
    [["--watch", "--follow", "--out", "site/", "x.jsonl"], /Cannot use --watch with --follow/],
    [["-r", "index", "--watch", "--out", "site/", "x.jsonl"], /writes no folder of pages/],
  ];
  await inTempDir(async (dir) => {
    for (const [args, message] of cases) {
      await t.step(args.join(" "), async () => {
        const run = await task("render", args, { cwd: dir });
        assert.equal(run.code, 2, run.stderr);
        assert.match(run.stderr, message);
      });
    }
  });
});

Deno.test("render --follow FILE prints the items appended to a Claude Code transcript after it started, until Ctrl-C", async () => {
  await inTempDir(async (dir) => {
    const path = join(dir, "session.jsonl");
    await Deno.writeTextFile(path, exchange("s-f", "/w", 0, "Before start"));
    const child = spawnTask("render", ["--follow", "session.jsonl"], { cwd: dir });
    const output = drained(child);
    try {
      await until(
        "the first items",
        () => Promise.resolve(output.stdout().includes("Done: Before")),
      );
      assert.doesNotMatch(output.stdout(), /After start/);
      // A line written in two parts is read once it is whole.
      const next = exchange("s-f", "/w", 1, "After start");
      await Deno.writeTextFile(path, next.slice(0, 40), { append: true });
      await Deno.writeTextFile(path, next.slice(40), { append: true });
      await until(
        "the appended items",
        () => Promise.resolve(output.stdout().includes("Done: After start")),
      );
    } finally {
      await interrupted(child);
    }
    assert.equal((await child.status).code, 130, output.stderr());
    assert.match(output.stdout(), /\[user\]\n {2}After start\n/);
    assert.equal(output.stdout().match(/After start/g)?.length, 2);
  });
});

Deno.test("render --follow FILE with json prints one NDJSON line an item; a renderer that does not stream is refused", async () => {
  await inTempDir(async (dir) => {
    await Deno.writeTextFile(join(dir, "s.jsonl"), exchange("s-j", "/w", 0, "Hello"));
    const child = spawnTask("render", ["-r", "json", "--follow", "s.jsonl"], { cwd: dir });
    const output = drained(child);
    try {
      await until("the items", () => Promise.resolve(output.stdout().includes("Done: Hello")));
    } finally {
      await interrupted(child);
    }
    assert.equal((await child.status).code, 130, output.stderr());
    for (const line of output.stdout().trimEnd().split("\n")) JSON.parse(line);
    const html = await task("render", ["-r", "html", "--follow", "s.jsonl"], { cwd: dir });
    assert.equal(html.code, 2, html.stderr);
    assert.match(html.stderr, /html renderer does not stream/);
    const two = await task("render", ["--follow", "s.jsonl", "s.jsonl"], { cwd: dir });
    assert.equal(two.code, 2, two.stderr);
    assert.match(two.stderr, /Cannot follow more than one FILE/);
  });
});

// ---------------------------------------------------------------- in a real browser

const chromium = await findChromium();
const inCi = Deno.env.get("CI") === "true";

Deno.test({
  name:
    "render --watch in headless Chromium: the open page of a growing session reloads itself and shows what was appended, requesting nothing but itself",
  ignore: chromium === undefined && !inCi,
  async fn(): Promise<void> {
    if (chromium === undefined) {
      throw new Error("Chromium is not installed, and CI=true requires the browser checks");
    }
    await inTempDir(async (dir) => {
      const { live } = await projects(dir);
      const child = spawnTask("render", ["-r", "html", "--watch", "--out", "site/", "projects"], {
        cwd: dir,
      });
      const output = drained(child);
      const livePage = join(dir, "site", "-home-me-app%2Fs-live.html");
      try {
        await until("the live page", async () => (await Deno.stat(livePage)).isFile);
        const url = pathToFileURL(livePage).href;
        await withBrowser(chromium, async (browser: Browser) => {
          const page = await browser.open(url);
          try {
            assert.equal(
              await page.evaluate(
                `[...document.scripts].filter((s) => s.textContent !== ${
                  JSON.stringify(PAGE_SCRIPT)
                }).length`,
              ),
              0,
            );
            assert.match(
              await page.evaluate<string>(`document.querySelector(".live").textContent`),
              /still growing/,
            );
            await Deno.writeTextFile(live, exchange("s-live", "/home/me/app", 2, "Shown live"), {
              append: true,
            });
            // Nothing navigates the page: it reloads itself.
            await until(
              "the reloaded page",
              async () =>
                (await page.evaluate<string>("document.body.innerText")).includes("Shown live"),
            );
            assert.deepEqual(requestsThatLeft(page, url), []);
            assert.deepEqual(page.requests.filter((r) => r.url !== url), []);
            const shot = await page.screenshot();
            await Deno.writeFile(join(Deno.env.get("WATCH_SHOT_DIR") ?? dir, "live.png"), shot);
          } finally {
            await page.close();
          }
        });
      } finally {
        await interrupted(child);
      }
      assert.equal((await child.status).code, 130, output.stderr());
    });
  },
});

Deno.test("render --follow FILE ends when the file is truncated: what was printed no longer describes it", async () => {
  await inTempDir(async (dir) => {
    const path = join(dir, "s.jsonl");
    await Deno.writeTextFile(path, exchange("s-t", "/w", 0, "Hello"));
    const child = spawnTask("render", ["--follow", "s.jsonl"], { cwd: dir });
    const output = drained(child);
    try {
      await until("the items", () => Promise.resolve(output.stdout().includes("Done: Hello")));
      await Deno.truncate(path, 0);
    } catch (error) {
      await interrupted(child);
      throw error;
    }
    assert.equal((await child.status).code, 1, output.stderr());
    assert.match(output.stderr(), /s\.jsonl was truncated while followed/);
  });
});
