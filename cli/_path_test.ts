// Copyright 2026 the brigade authors. MIT license.

import assert from "node:assert/strict";
import { dirname, resolve } from "node:path";
import { folderOf, resolvePath } from "./_path.ts";

const PATHS = [
  "",
  "/",
  "//",
  "a",
  "a/",
  "a//",
  "a/b",
  "a//b",
  "a/b/",
  "/a",
  "/a/",
  "//a",
  "./a",
  "../a",
  "a/./b",
  "a/../b",
  ".",
  "..",
  ".a",
  "a..b",
  "a/.b/c",
  "..a",
  "/a/b//c///",
  "in/0_x.jsonl",
  "out/INDEX.md",
];

Deno.test("resolvePath() and folderOf() give what node:path's resolve() and dirname() give", () => {
  for (const path of PATHS) {
    assert.equal(folderOf(path), dirname(path), JSON.stringify(path));
    for (const cwd of ["/", "/home/me", "/home/me/", "/h/./x", "/h/../x"]) {
      assert.equal(resolvePath(cwd, path), resolve(cwd, path), `${cwd} ${JSON.stringify(path)}`);
    }
  }
});
