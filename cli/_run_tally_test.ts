// Copyright 2026 the brigade authors. MIT license.

import assert from "node:assert/strict";
import { posix, win32 } from "node:path";
import { describe, lastSegment } from "./_run_tally.ts";

const PATHS = [
  "",
  "/",
  "//",
  "a",
  "a/",
  "a//",
  "/a/b.jsonl",
  "logs/sesn_1.ndjson",
  "logs/sesn_1.ndjson///",
  "./x",
  "../x/",
  "a\\b\\c.jsonl",
  "a\\b\\",
  "C:",
  "C:\\",
  "C:\\logs\\a.jsonl",
  "C:logs",
  "c:/logs/a/",
  "\\\\server\\share\\x.ndjson",
  "dir.d/file",
  "a/b\\",
];

Deno.test("lastSegment() is node:path's basename on POSIX and on Windows", () => {
  for (const path of PATHS) {
    assert.equal(lastSegment(path, false), posix.basename(path), JSON.stringify(path));
    assert.equal(lastSegment(path, true), win32.basename(path), JSON.stringify(path));
  }
});

Deno.test("describe() names the input once: not again when the message names its file", () => {
  const name = "logs/sesn_1.ndjson";
  assert.equal(describe(new Error("sesn_1.ndjson: bad"), name), "sesn_1.ndjson: bad");
  assert.equal(describe(new Error("bad line\nmore"), name), "logs/sesn_1.ndjson: bad line");
});
