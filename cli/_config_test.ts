// Copyright 2026 the brigade authors. MIT license.

import assert from "node:assert/strict";
import { nearMiss } from "./_config.ts";

const KNOWN = ["grader", "dream", "index", "html", "json", "team-md"];

Deno.test("nearMiss() takes a name one edit from a known one as its typo", () => {
  for (
    const [typed, meant] of [
      ["gradr", "grader"], // deleted
      ["graderr", "grader"], // inserted
      ["grader2", "grader"],
      ["drema", "dream"], // neighbours swapped
      ["jsom", "json"], // replaced
      ["JSON", "json"], // case only
      ["team-mdd", "team-md"],
    ] as const
  ) {
    assert.equal(nearMiss(typed, KNOWN), meant, typed);
  }
});

Deno.test("nearMiss() leaves a known name, and one two edits away, alone", () => {
  for (const typed of ["grader", "team", "gradle", "team-wiki", "jsonl-x", ""]) {
    assert.equal(nearMiss(typed, KNOWN), undefined, typed);
  }
});
