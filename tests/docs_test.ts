// Copyright 2026 the brigade authors. MIT license.

// The README is read in five minutes and the guides hold the rest: the README stays short, every
// relative link of the README and the guides reaches a file (and a heading, when it names one),
// every guide is linked from the README, and the install lines grant no more than the command
// needs (a team renderer inherits `render`'s write access; `facts` needs its cache's).

import assert from "node:assert/strict";
import { anchors, docFiles, relativeLinks, shellCommands } from "./_docs.ts";

const ROOT = new URL("../", import.meta.url);
const README_MAX_LINES = 250;

async function read(path: string): Promise<string> {
  return await Deno.readTextFile(new URL(path, ROOT));
}

Deno.test(`the README is at most ${README_MAX_LINES} lines`, async () => {
  const lines = (await read("README.md")).split("\n");
  if (lines.at(-1) === "") lines.pop();
  assert.ok(lines.length <= README_MAX_LINES, `README.md has ${lines.length} lines`);
});

Deno.test("every relative link of the README and the guides reaches a file and its heading", async () => {
  const broken: string[] = [];
  let count = 0;
  for (const file of await docFiles()) {
    const base = new URL(file, ROOT);
    for (const link of relativeLinks(await read(file))) {
      count++;
      const [path, fragment] = link.split("#", 2) as [string, string | undefined];
      const target = path === "" ? base : new URL(path, base);
      let text: string | undefined;
      try {
        const info = await Deno.stat(target);
        if (info.isFile && target.pathname.endsWith(".md")) text = await Deno.readTextFile(target);
      } catch {
        broken.push(`${file}: ${link} (no such file)`);
        continue;
      }
      if (fragment !== undefined && text !== undefined && !anchors(text).has(fragment)) {
        broken.push(`${file}: ${link} (no such heading)`);
      }
    }
  }
  assert.ok(count > 20, `only ${count} links found: the link reader is broken`);
  assert.deepEqual(broken, []);
});

Deno.test("the README links to every guide", async () => {
  const linked = new Set(relativeLinks(await read("README.md")).map((link) => link.split("#")[0]));
  const guides = (await docFiles()).filter((file) => file !== "README.md");
  assert.ok(guides.length >= 6, String(guides));
  assert.deepEqual(guides.filter((guide) => !linked.has(guide)), []);
});

Deno.test("every install and run line of render scopes --allow-write, and facts' installs give the cache's permissions", async () => {
  let renders = 0;
  let facts = 0;
  for (const file of await docFiles()) {
    for (const command of shellCommands(await read(file))) {
      if (!/^deno (install|run) /.test(command)) continue;
      if (/(\/render|cli\/render\.ts)(\s|$)/.test(command)) {
        renders++;
        assert.doesNotMatch(command, /--allow-write(\s|$)/, `${file}: ${command}`);
        assert.doesNotMatch(command, /(^|\s)(-A|--allow-all)(\s|$)/, `${file}: ${command}`);
      }
      if (command.startsWith("deno install") && /(\/facts|cli\/facts\.ts)(\s|$)/.test(command)) {
        facts++;
        assert.match(
          command,
          /--allow-env=XDG_CACHE_HOME,HOME,LOCALAPPDATA(\s|$)/,
          `${file}: ${command}`,
        );
        assert.match(command, /--allow-write=\S*brigade-transcript"?(\s|$)/, `${file}: ${command}`);
      }
    }
  }
  assert.ok(renders >= 4, `${renders} render lines found`);
  assert.ok(facts >= 3, `${facts} facts install lines found`);
});
