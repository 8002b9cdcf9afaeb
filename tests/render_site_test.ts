// Copyright 2026 the brigade authors. MIT license.

/**
 * `deno task render --renderer html --out site/ DIR`: a Claude Code projects
 * folder in, a site out (a page per session, an index grouped by project),
 * run as a user runs it, from another folder; and the site in headless
 * Chromium.
 */

import assert from "node:assert/strict";
import { seriousViolations } from "./_axe.ts";
import { basename, join } from "node:path";
import { inTempDir, spawnTask, task } from "./_cli.ts";
import { MANIFEST_NAME } from "../cli/_manifest.ts";
import { fromClaudeCode, renderGrader } from "../mod.ts";
import { type Browser, findChromium, requestsThatLeft, withBrowser } from "./_browser.ts";
import { PAGE_SCRIPT } from "../renderers/html/_script.ts";

/** A page without its own script (find and filter) and the index's inert data block of words. */
function withoutOwnScripts(html: string): string {
  return html.replace(`<script>${PAGE_SCRIPT}</script>`, "")
    .replace(/<script type="application\/json" id="site-words">[^<]*<\/script>/, "");
}

/** The scripts of the live page but its own one and the index's data block, which never runs. */
const FOREIGN_SCRIPTS = `[...document.scripts].filter((s) =>
  s.textContent !== ${JSON.stringify(PAGE_SCRIPT)} && s.type !== "application/json").length`;

const SECRET = "sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789";

/** One Claude Code transcript: each prompt, the agent's thinking, its reply, a minute apart. */
function transcript(sessionId: string, cwd: string, start: string, prompts: string[]): string {
  const records: unknown[] = [{
    type: "file-history-snapshot",
    messageId: "m0",
    snapshot: { messageId: "m0", trackedFileBackups: {}, timestamp: start },
    isSnapshotUpdate: false,
  }];
  let minute = 0;
  const at = (): string => new Date(Date.parse(start) + 60_000 * minute++).toISOString();
  const common = { isSidechain: false, userType: "external", cwd, sessionId, version: "2.1.50" };
  for (const [i, prompt] of prompts.entries()) {
    records.push({
      ...common,
      type: "user",
      uuid: `${sessionId}-u${i}`,
      timestamp: at(),
      message: { role: "user", content: prompt },
    });
    records.push({
      ...common,
      type: "assistant",
      uuid: `${sessionId}-a${i}`,
      timestamp: at(),
      message: {
        id: `msg_${sessionId}_${i}`,
        type: "message",
        role: "assistant",
        model: "claude-opus-5",
        content: [
          { type: "thinking", thinking: `THOUGHT about ${prompt}`, signature: "s" },
          { type: "text", text: `Done: ${prompt}` },
        ],
        usage: { input_tokens: 10, output_tokens: 5 },
      },
    });
  }
  return records.map((record) => JSON.stringify(record)).join("\n") + "\n";
}

/** The sessions of the generated projects folder: project folder, cwd, session id, start. */
const SESSIONS: Array<[string, string, string, string, string[]]> = [
  ["-home-me-app", "/home/me/app", "s-app-1", "2026-09-01T09:00:00.000Z", [
    "<command-name>/model</command-name><command-args>opus</command-args>",
    "Set up the app",
  ]],
  ["-home-me-app", "/home/me/app", "s-app-2", "2026-09-03T15:00:00.000Z", [
    `Deploy with key ${SECRET}`,
    "And the docs",
  ]],
  ["-home-me-app", "/home/me/app", "s-app-3", "2026-09-05T08:00:00.000Z", [
    "Fix the \u202eevil\u202c bug",
  ]],
  ["-home-me-lib", "/home/me/lib", "s-lib-1", "2026-09-02T12:00:00.000Z", ["Write the lib"]],
  ["-home-me-lib", "/home/me/lib", "s-lib-2", "2026-09-04T23:59:00.000Z", [
    "Late one",
    "Past midnight",
  ]],
];

/**
 * A Claude Code projects folder: two projects, five sessions over five days, a
 * session's subagents folder, a file that is not a transcript, a broken link,
 * a link looping back to the projects folder.
 */
async function projectsFolder(dir: string): Promise<string> {
  const projects = join(dir, "projects");
  for (const [project, cwd, id, start, prompts] of SESSIONS) {
    await Deno.mkdir(join(projects, project), { recursive: true });
    await Deno.writeTextFile(
      join(projects, project, `${id}.jsonl`),
      transcript(id, cwd, start, prompts),
    );
  }
  // A subagent's transcript belongs to its session: no page of its own.
  const subagents = join(projects, "-home-me-app", "s-app-2", "subagents");
  await Deno.mkdir(subagents, { recursive: true });
  await Deno.writeTextFile(
    join(subagents, "agent-a1.jsonl"),
    transcript("s-app-2", "/home/me/app", "2026-09-03T15:00:30.000Z", ["SUBAGENT TASK"]),
  );
  await Deno.mkdir(join(projects, "-home-me-app", "s-app-2", "tool-results"));
  await Deno.writeTextFile(join(projects, "-home-me-app", "s-app-2", "tool-results", "r.txt"), "x");
  await Deno.writeTextFile(join(projects, "-home-me-lib", "broken.jsonl"), "not json\n{oops\n");
  await Deno.symlink("nowhere.jsonl", join(projects, "-home-me-lib", "gone.jsonl"));
  await Deno.symlink("..", join(projects, "-home-me-lib", "loop"));
  return projects;
}

/** Each project of an index: its heading and the files its rows link to, in order. */
function indexGroups(html: string): Array<{ name: string; links: string[] }> {
  return [...html.matchAll(/<h2 id="project-\d+">([^<]*)<\/h2>([\s\S]*?)<\/section>/g)].map(
    (match) => ({
      name: match[1]!,
      links: [...match[2]!.matchAll(/<a href="([^"#]+)">/g)].map((m) => decodeURIComponent(m[1]!)),
    }),
  );
}

/** The session ids an index lists, in order. */
function indexedSessions(html: string): string[] {
  return [...html.matchAll(/<td class="id">([^<]*)<\/td>/g)].map((m) => m[1]!);
}

async function pages(dir: string): Promise<string[]> {
  return (await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name)
    .filter((name) => name !== MANIFEST_NAME).sort();
}

Deno.test("render --renderer html --out site/ PROJECTS: a page per session, an index grouped by project", async (t) => {
  await inTempDir(async (dir) => {
    await projectsFolder(dir);
    const site = join(dir, "site");
    const first = await task("render", ["-r", "html", "--out", "site/", "projects"], { cwd: dir });

    await t.step("every session rendered; the bad files reported, the loop passed over", () => {
      assert.equal(first.code, 1, first.stderr);
      const lines = first.stderr.split("\n");
      assert.ok(
        lines.some((l) =>
          l.startsWith(
            "render: no Claude Code transcript records in projects/-home-me-lib/broken.jsonl",
          )
        ),
      );
      assert.ok(lines.some((l) => l.startsWith("render: projects/-home-me-lib/gone.jsonl")));
      assert.ok(
        lines.includes(
          "render: projects/-home-me-lib/loop: passed over, a link to a folder already read",
        ),
      );
      assert.equal(lines.at(-2), "render: 5 rendered, 0 unchanged, 2 failed");
    });

    await t.step("a page per session, named after its project; no subagent's page", async () => {
      assert.deepEqual(await pages(site), [
        "-home-me-app%2Fs-app-1.html",
        "-home-me-app%2Fs-app-2.html",
        "-home-me-app%2Fs-app-3.html",
        "-home-me-lib%2Fs-lib-1.html",
        "-home-me-lib%2Fs-lib-2.html",
        "index.html",
      ]);
      for (const name of await pages(site)) {
        assert.ok(!(await Deno.readTextFile(join(site, name))).includes("SUBAGENT TASK"), name);
      }
    });

    const index = await Deno.readTextFile(join(site, "index.html"));
    await t.step("projects and sessions newest first, named by the cwd their records give", () => {
      assert.deepEqual(indexGroups(index), [
        {
          name: "/home/me/app",
          links: [
            "-home-me-app%2Fs-app-3.html",
            "-home-me-app%2Fs-app-2.html",
            "-home-me-app%2Fs-app-1.html",
          ],
        },
        {
          name: "/home/me/lib",
          links: ["-home-me-lib%2Fs-lib-2.html", "-home-me-lib%2Fs-lib-1.html"],
        },
      ]);
      assert.match(index, /<span class="folder">-home-me-app<\/span> · 3 sessions/);
      assert.match(index, /<dt>Projects<\/dt><dd>2<\/dd><\/div><div><dt>Sessions<\/dt><dd>5<\/dd>/);
    });

    await t.step(
      "each row: its date, turns, size and first prompt, redacted, controls shown",
      async () => {
        const row = index.match(/<tr><td class="when">.*s-app-2<\/td><\/tr>/)![0];
        assert.match(
          row,
          /<time datetime="2026-09-03T15:00:00.000Z">2026-09-03 15:00:00 UTC<\/time>/,
        );
        assert.match(row, /<td class="num">2<\/td>/);
        const size = (await Deno.stat(join(dir, "projects/-home-me-app/s-app-2.jsonl"))).size;
        assert.match(row, new RegExp(`<td class="num">${(size / 1000).toFixed(1)} kB</td>`));
        assert.match(row, /<td class="prompt">Deploy with key \[REDACTED_SECRET\]<\/td>/);
        // A slash command is not the first prompt: the first prompt after it is.
        assert.match(index, /<td class="prompt">Set up the app<\/td><td class="id">s-app-1<\/td>/);
        assert.ok(!index.includes(SECRET) && !index.includes("\u202e"));
        assert.match(index, /Fix the \\u202eevil\\u202c bug/);
      },
    );

    await t.step("every link is relative and names a file of the site", async () => {
      const hrefs = [...index.matchAll(/href="([^"]+)"/g)].map((m) => m[1]!);
      assert.equal(hrefs.filter((href) => !href.startsWith("#")).length, 5);
      for (const href of hrefs) {
        if (href.startsWith("#")) {
          assert.ok(index.includes(`id="${href.slice(1)}"`), href);
          continue;
        }
        assert.ok(!href.includes("/") && !href.includes(":"), href);
        const page = await Deno.readTextFile(join(site, decodeURIComponent(href)));
        // A page links back to the index, and says its project.
        assert.match(
          page,
          /<nav class="up" aria-label="Site"><a href="index.html">All sessions<\/a><\/nav>/,
        );
        assert.match(page, /<dt>Project<\/dt><dd>\/home\/me\/(?:app|lib)<\/dd>/);
      }
    });

    await t.step("the agent's thinking is on the pages, folded", async () => {
      const page = await Deno.readTextFile(join(site, "-home-me-lib%2Fs-lib-1.html"));
      assert.match(page, /<details class="item k-thinking[^"]*" id="item-2"[^>]*>/);
      assert.match(page, /THOUGHT about Write the lib/);
    });

    await t.step("a rerun over the unchanged folder skips every transcript", async () => {
      const before = await Deno.readTextFile(join(site, "index.html"));
      const again = await task("render", ["-r", "html", "--out", "site/", "projects"], {
        cwd: dir,
      });
      assert.equal(again.code, 1);
      assert.equal(again.stderr.split("\n").at(-2), "render: 0 rendered, 5 unchanged, 2 failed");
      assert.equal(await Deno.readTextFile(join(site, "index.html")), before);
    });

    await t.step(
      "a transcript that grew: its page rendered again, no --force needed",
      async () => {
        const path = join(dir, "projects/-home-me-lib/s-lib-1.jsonl");
        await Deno.writeTextFile(
          path,
          transcript("s-lib-1", "/home/me/lib", "2026-09-02T12:00:00.000Z", [
            "Write the lib",
            "More",
          ]),
        );
        // The page is the command's own, as written: the session went on, so it is replaced.
        const again = await task("render", ["-r", "html", "--out", "site/", "projects"], {
          cwd: dir,
        });
        assert.equal(again.stderr.split("\n").at(-2), "render: 1 rendered, 4 unchanged, 2 failed");
        assert.match(await Deno.readTextFile(join(site, "-home-me-lib%2Fs-lib-1.html")), /More/);
      },
    );

    await t.step("one project's folder given: its pages named the same, one project", async () => {
      const one = await task(
        "render",
        ["-r", "html", "--out", "one/", "projects/-home-me-app"],
        { cwd: dir },
      );
      assert.equal(one.code, 0, one.stderr);
      assert.deepEqual(await pages(join(dir, "one")), [
        "-home-me-app%2Fs-app-1.html",
        "-home-me-app%2Fs-app-2.html",
        "-home-me-app%2Fs-app-3.html",
        "index.html",
      ]);
      assert.equal(
        await Deno.readTextFile(join(dir, "one", "-home-me-app%2Fs-app-3.html")),
        await Deno.readTextFile(join(site, "-home-me-app%2Fs-app-3.html")),
      );
    });

    await t.step(
      "a run cut short, then run again, gives the index one whole run gives",
      async () => {
        // The first run did one project (as an interrupted run would have done part of the folder).
        const part = await task("render", [
          "-r",
          "html",
          "--out",
          "resumed/",
          "projects/-home-me-app",
        ], {
          cwd: dir,
        });
        assert.equal(part.code, 0, part.stderr);
        const rest = await task("render", ["-r", "html", "--out", "resumed/", "projects"], {
          cwd: dir,
        });
        assert.equal(rest.stderr.split("\n").at(-2), "render: 2 rendered, 3 unchanged, 2 failed");
        assert.equal(
          await Deno.readTextFile(join(dir, "resumed", "index.html")),
          await Deno.readTextFile(join(site, "index.html")),
        );
      },
    );
  });
});

Deno.test({
  name:
    "render --out site/ PROJECTS: SIGINT mid-folder leaves an index of what is done; a rerun completes it",
  ignore: Deno.build.os === "windows",
  fn: async () => {
    await inTempDir(async (dir) => {
      await projectsFolder(dir);
      // A transcript that is a FIFO holds the run at it until Ctrl-C: "-home-me-app" is done then.
      // (Named on its own: in a folder, a FIFO is passed over, never opened.)
      const held = join(dir, "held.jsonl");
      const made = await new Deno.Command("mkfifo", { args: [held] }).output();
      assert.equal(made.code, 0);
      const child = spawnTask("render", [
        "-r",
        "html",
        "--out",
        "site/",
        "projects/-home-me-app",
        "held.jsonl",
        "projects/-home-me-lib",
      ], { cwd: dir });
      const deadline = Date.now() + 60_000;
      const written = async (): Promise<number> =>
        (await pages(join(dir, "site")).catch(() => [])).filter((n) => !n.startsWith(".")).length;
      // A page appears whole (renamed from a hidden temporary file) once it is done.
      while (await written() < 3) {
        if (Date.now() > deadline) throw new Error("the first project was never rendered");
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      // The run is at the FIFO, or on its way (files go in path order): nothing more is written.
      child.kill("SIGINT");
      const interrupted = await child.output();
      const stderr = new TextDecoder().decode(interrupted.stderr);
      assert.equal(interrupted.code, 130, stderr);
      assert.match(
        stderr,
        /interrupted by SIGINT: 3 rendered, 0 unchanged, 0 failed; run the same/,
      );
      const partial = await Deno.readTextFile(join(dir, "site", "index.html"));
      assert.deepEqual(indexedSessions(partial), ["s-app-3", "s-app-2", "s-app-1"]);

      await Deno.remove(held);
      const rerun = await task("render", ["-r", "html", "--out", "site/", "projects"], {
        cwd: dir,
      });
      assert.equal(rerun.stderr.split("\n").at(-2), "render: 2 rendered, 3 unchanged, 2 failed");
      const whole = await task("render", ["-r", "html", "--out", "whole/", "projects"], {
        cwd: dir,
      });
      assert.equal(whole.code, 1, whole.stderr);
      assert.equal(
        await Deno.readTextFile(join(dir, "site", "index.html")),
        await Deno.readTextFile(join(dir, "whole", "index.html")),
      );
    });
  },
});

Deno.test("render --since/--until select sessions by their start; a bad date is a usage error", async (t) => {
  await inTempDir(async (dir) => {
    await projectsFolder(dir);
    const run = (out: string, ...flags: string[]): ReturnType<typeof task> =>
      task("render", ["-r", "html", "--out", `${out}/`, ...flags, "projects"], { cwd: dir });

    await t.step("days: --since from the day's start, --until to its end (UTC)", async () => {
      const days = await run("days", "--since", "2026-09-02", "--until", "2026-09-04");
      assert.equal(
        days.stderr.split("\n").at(-2),
        "render: 3 rendered, 0 unchanged, 2 failed, 2 not started within --since/--until",
      );
      const index = await Deno.readTextFile(join(dir, "days", "index.html"));
      // Grouped: the project of the newest session first.
      assert.deepEqual(indexedSessions(index), ["s-lib-2", "s-lib-1", "s-app-2"]);
    });

    await t.step("to standard output, a session left out says so", async () => {
      const out = await task(
        "render",
        ["-r", "html", "--since", "2026-10-01", "projects/-home-me-app/s-app-1.jsonl"],
        { cwd: dir },
      );
      assert.equal(out.code, 0, out.stderr);
      assert.equal(out.stdout, "");
      assert.equal(
        out.stderr,
        "render: 0 rendered, 0 unchanged, 0 failed, 1 not started within --since/--until\n",
      );
    });

    await t.step("a time with its zone", async () => {
      const late = await run("late", "--since", "2026-09-05T00:59:00+01:00");
      assert.deepEqual(
        indexedSessions(await Deno.readTextFile(join(dir, "late", "index.html"))),
        ["s-app-3", "s-lib-2"],
      );
      assert.equal(late.code, 1, late.stderr);
      const early = await run("early", "--until", "2026-09-01T09:00:00Z");
      assert.deepEqual(
        indexedSessions(await Deno.readTextFile(join(dir, "early", "index.html"))),
        ["s-app-1"],
      );
      assert.equal(early.code, 1, early.stderr);
    });

    for (
      const [flags, message] of [
        [
          ["--since", "2026-13-01"],
          `Option "--since" takes a day in UTC (2026-09-01 or 20260901) or a time with its zone (2026-09-01T10:00:00Z, 2026-09-01T12:00+02:00): "2026-13-01"`,
        ],
        [
          ["--until", "yesterday"],
          `Option "--until" takes a day in UTC (2026-09-01 or 20260901) or a time with its zone (2026-09-01T10:00:00Z, 2026-09-01T12:00+02:00): "yesterday"`,
        ],
        [
          ["--since", "2026-09-01T10:00"],
          `Option "--since" takes a day in UTC (2026-09-01 or 20260901) or a time with its zone (2026-09-01T10:00:00Z, 2026-09-01T12:00+02:00): "2026-09-01T10:00"`,
        ],
        [
          ["--since", "2026-02-30"],
          `Option "--since" takes a day in UTC (2026-09-01 or 20260901) or a time with its zone (2026-09-01T10:00:00Z, 2026-09-01T12:00+02:00): "2026-02-30"`,
        ],
        [
          ["--since", "2026-09-05", "--until", "2026-09-01"],
          "Cannot select sessions from --since 2026-09-05 to --until 2026-09-01: the range ends before it starts",
        ],
      ] as const
    ) {
      await t.step(`${flags.join(" ")}: exit 2 before any input is read`, async () => {
        const bad = await task(
          "render",
          ["-r", "html", "--out", "bad/", ...flags, "missing-folder"],
          { cwd: dir },
        );
        assert.equal(bad.code, 2);
        assert.equal(bad.stderr, `render: ${message}\nRun with --help for usage.\n`);
        await assert.rejects(Deno.stat(join(dir, "bad")), Deno.errors.NotFound);
      });
    }
  });
});

Deno.test("render --no-thinking leaves thinking out of the html; grader, dream and json never get it", async (t) => {
  await inTempDir(async (dir) => {
    const path = join(dir, "s.jsonl");
    await Deno.writeTextFile(
      path,
      transcript("s", "/home/me/app", "2026-09-01T09:00:00.000Z", ["Fix it"]),
    );
    await t.step("html: thinking folded by default, left out with --no-thinking", async () => {
      const shown = await task("render", ["-r", "html", "s.jsonl"], { cwd: dir });
      assert.equal(shown.code, 0, shown.stderr);
      assert.match(shown.stdout, /class="item k-thinking/);
      assert.match(shown.stdout, /THOUGHT about Fix it/);
      const without = await task("render", ["-r", "html", "--no-thinking", "s.jsonl"], {
        cwd: dir,
      });
      assert.equal(without.code, 0, without.stderr);
      assert.doesNotMatch(without.stdout, /class="item k-thinking|THOUGHT/);
    });
    await t.step(
      "grader: as the library renders the transcript read without thinking",
      async () => {
        const grader = await task("render", ["s.jsonl"], { cwd: dir });
        assert.equal(grader.code, 0, grader.stderr);
        assert.equal(grader.stdout, await renderGrader(fromClaudeCode(path)));
        assert.doesNotMatch(grader.stdout, /THOUGHT/);
      },
    );
    for (const renderer of ["dream", "json"]) {
      await t.step(`${renderer}: no thinking`, async () => {
        const run = await task("render", ["-r", renderer, "s.jsonl"], { cwd: dir });
        assert.equal(run.code, 0, run.stderr);
        assert.match(run.stdout, /Fix it/);
        assert.doesNotMatch(run.stdout, /THOUGHT/);
      });
    }
    await t.step("a renderer that takes no thinking refuses --no-thinking: exit 2", async () => {
      const run = await task("render", ["--no-thinking", "s.jsonl"], { cwd: dir });
      assert.equal(run.code, 2);
      assert.match(run.stderr, /^render: The grader renderer takes no --no-thinking\n/);
    });
  });
});

Deno.test("render --out site/: a hostile project folder and cwd stay text in the index and on the page", async () => {
  await inTempDir(async (dir) => {
    const folder = `<img src=x onerror="window.__pwned=1">`;
    const cwd = `/home/\u202eme/<script>alert(1)</script>/${SECRET}`;
    await Deno.mkdir(join(dir, "projects", folder), { recursive: true });
    await Deno.writeTextFile(
      join(dir, "projects", folder, "s.jsonl"),
      transcript("s", cwd, "2026-09-01T09:00:00.000Z", ["Hi"]),
    );
    const run = await task("render", ["-r", "html", "--out", "site/", "projects"], { cwd: dir });
    assert.equal(run.code, 0, run.stderr);
    const [page] = (await pages(join(dir, "site"))).filter((name) => name !== "index.html");
    assert.equal(page, "%3Cimg%20src%3Dx%20onerror%3D%22window%2E__pwned%3D1%22%3E%2Fs.html");
    for (const name of ["index.html", page!]) {
      const html = await Deno.readTextFile(join(dir, "site", name));
      assert.doesNotMatch(withoutOwnScripts(html), /<img|<script/, name);
      assert.ok(!html.includes("\u202e") && !html.includes(SECRET), name);
      assert.match(
        html,
        /\/home\/\\u202eme\/&lt;script&gt;alert\(1\)&lt;\/script&gt;\/\[REDACTED_SECRET\]/,
      );
    }
    const index = await Deno.readTextFile(join(dir, "site", "index.html"));
    assert.match(
      index,
      /<span class="folder">&lt;img src=x onerror=&quot;window.__pwned=1&quot;&gt;<\/span>/,
    );
  });
});

Deno.test("render: a folder without --out DIR is refused, with what would read it", async () => {
  await inTempDir(async (dir) => {
    await projectsFolder(dir);
    const run = await task("render", ["-r", "html", "projects"], { cwd: dir });
    assert.equal(run.code, 1);
    assert.match(
      run.stderr,
      /^render: projects: Cannot read the input: it is not a regular file \(a directory: with --out DIR, the transcripts in it are rendered\)\n/,
    );
  });
});

Deno.test("render --out site (no slash, not there yet) with a folder input writes the folder", async () => {
  await inTempDir(async (dir) => {
    await projectsFolder(dir);
    const run = await task("render", ["-r", "html", "--out", "site", "projects"], { cwd: dir });
    assert.match(run.stderr, /render: 5 rendered, 0 unchanged, \d+ failed\n$/);
    assert.ok((await Deno.stat(join(dir, "site"))).isDirectory);
    assert.ok((await Deno.stat(join(dir, "site", "index.html"))).isFile);
    // A file input still goes to the one file --out names.
    const one = await task("render", ["--out", "one.txt", "projects/-home-me-lib/s-lib-1.jsonl"], {
      cwd: dir,
    });
    assert.equal(one.code, 0, one.stderr);
    assert.ok((await Deno.stat(join(dir, "one.txt"))).isFile);
  });
});

Deno.test("render --out site/ over real Claude Code transcripts: each a page, each project named by its cwd", async () => {
  await inTempDir(async (dir) => {
    const source = new URL("../fixtures/claude_code/real/", import.meta.url).pathname;
    const names = (await Array.fromAsync(Deno.readDir(source))).map((e) => e.name)
      .filter((name) => name.endsWith(".jsonl")).sort();
    assert.ok(names.length >= 2);
    // As Claude Code keeps them: a folder per directory a session ran in.
    const cwds: string[] = [];
    const folders: string[] = [];
    for (const name of names) {
      const text = await Deno.readTextFile(join(source, name));
      const cwd = /"cwd":"([^"]*)"/.exec(text)![1]!;
      if (!cwds.includes(cwd)) cwds.push(cwd);
      folders.push(`project-${cwds.indexOf(cwd)}`);
      const project = join(dir, "projects", folders.at(-1)!);
      await Deno.mkdir(project, { recursive: true });
      await Deno.copyFile(join(source, name), join(project, name));
    }
    assert.ok(cwds.length >= 2);
    const run = await task("render", ["-r", "html", "--out", "site/", "projects"], { cwd: dir });
    assert.equal(run.code, 0, run.stderr);
    const index = await Deno.readTextFile(join(dir, "site", "index.html"));
    const groups = indexGroups(index);
    assert.equal(groups.flatMap((g) => g.links).length, names.length);
    for (const group of groups) {
      // A project is named by the directory its sessions ran in.
      assert.ok(cwds.includes(group.name), group.name);
      for (const link of group.links) await Deno.stat(join(dir, "site", link));
    }
    assert.equal(groups.length, cwds.length);
    for (const [i, name] of names.entries()) {
      const page = join(dir, "site", `${folders[i]}%2F${basename(name, ".jsonl")}.html`);
      assert.match(await Deno.readTextFile(page), /<dt>Project<\/dt>/);
    }
  });
});

// ---------------------------------------------------------------- in a real browser

const chromium = await findChromium();
const inCi = Deno.env.get("CI") === "true";

Deno.test({
  name:
    "the project index in headless Chromium: grouped rows, links to pages, nothing run or loaded, axe-core clean",
  ignore: chromium === undefined && !inCi,
  async fn(t): Promise<void> {
    if (chromium === undefined) {
      throw new Error("Chromium is not installed, and CI=true requires the browser checks");
    }
    await inTempDir(async (dir) => {
      await projectsFolder(dir);
      const run = await task("render", ["-r", "html", "--out", "site/", "projects"], { cwd: dir });
      assert.equal(run.code, 1, run.stderr);
      const url = new URL(`file://${dir}/site/index.html`).href;
      await withBrowser(chromium, async (browser: Browser) => {
        const page = await browser.open(url);
        try {
          await t.step(
            "the live DOM: projects, their sessions newest first, each link a page",
            async () => {
              const shown = await page.evaluate<Array<{ name: string; rows: string[][] }>>(`
              [...document.querySelectorAll("section.project")].map((section) => ({
                name: section.querySelector("h2").textContent,
                rows: [...section.querySelectorAll("tbody tr")].map((tr) =>
                  [...tr.cells].map((td) => td.innerText)),
              }))`);
              assert.deepEqual(shown.map((s) => s.name), ["/home/me/app", "/home/me/lib"]);
              assert.deepEqual(shown[0]!.rows[1], [
                "2026-09-03 15:00:00 UTC",
                "2",
                shown[0]!.rows[1]![2],
                "Deploy with key [REDACTED_SECRET]",
                "s-app-2",
              ]);
              assert.deepEqual(shown[1]!.rows.map((r) => r[4]), ["s-lib-2", "s-lib-1"]);
              const hrefs = await page.evaluate<string[]>(
                `[...document.querySelectorAll("td.when a")].map((a) => a.href)`,
              );
              assert.equal(hrefs.length, 5);
              for (const href of hrefs) {
                assert.ok(href.startsWith(new URL(`file://${dir}/site/`).href), href);
                await Deno.stat(new URL(href));
              }
            },
          );
          await t.step("no script, no request but the page's own", async () => {
            assert.equal(await page.evaluate(FOREIGN_SCRIPTS), 0);
            assert.deepEqual(requestsThatLeft(page, url), []);
            assert.deepEqual(page.requests.filter((r) => r.url !== url), []);
          });
          for (const scheme of ["light", "dark"]) {
            await t.step(`axe-core finds nothing serious, ${scheme}`, async () => {
              await page.send("Emulation.setEmulatedMedia", {
                features: [{ name: "prefers-color-scheme", value: scheme }],
              });
              assert.equal(
                await page.evaluate(`matchMedia('(prefers-color-scheme: ${scheme})').matches`),
                true,
              );
              assert.deepEqual(await seriousViolations(page), []);
            });
          }
        } finally {
          await page.close();
        }
        await t.step("a session's page links back to the index, and passes axe-core", async () => {
          const first = await browser.open(
            new URL(`file://${dir}/site/${encodeURIComponent("-home-me-app%2Fs-app-2.html")}`).href,
          );
          try {
            assert.equal(
              await first.evaluate(`document.querySelector("nav.up a").href`),
              url,
            );
            assert.equal(await first.evaluate(FOREIGN_SCRIPTS), 0);
            assert.deepEqual(await seriousViolations(first), []);
          } finally {
            await first.close();
          }
        });
      });
    });
  },
});
