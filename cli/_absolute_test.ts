// Copyright 2026 the brigade authors. MIT license.

import assert from "node:assert/strict";
import { posix, win32 } from "node:path";
import { isAbsolutePath } from "./_absolute.ts";

const PATHS = [
  "",
  "/",
  "//",
  "/a/b.jsonl",
  "a/b",
  "./a",
  "../a",
  "~/a",
  "\\",
  "\\a\\b",
  "\\\\server\\share\\x",
  "//server/share/x",
  "C:",
  "C:x",
  "C:\\x",
  "C:/x",
  "c:\\x",
  "z:/",
  "1:\\x",
  "é:\\x",
  "[:\\x",
  "@:/x",
  "CC:\\x",
  ":\\x",
  "\0example",
  " /a",
];

Deno.test("isAbsolutePath() decides as node:path's posix isAbsolute does", () => {
  for (const path of PATHS) {
    assert.equal(isAbsolutePath(path, "posix"), posix.isAbsolute(path), JSON.stringify(path));
  }
});

Deno.test("isAbsolutePath() decides as node:path's win32 isAbsolute does", () => {
  for (const path of PATHS) {
    assert.equal(isAbsolutePath(path, "windows"), win32.isAbsolute(path), JSON.stringify(path));
  }
});

Deno.test("isAbsolutePath() follows the platform the process runs on by default", () => {
  const native = Deno.build.os === "windows" ? win32 : posix;
  for (const path of PATHS) assert.equal(isAbsolutePath(path), native.isAbsolute(path));
});
