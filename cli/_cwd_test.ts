// Copyright 2026 the brigade authors. MIT license.

import assert from "node:assert/strict";
import { type CallerFacts, decideCallerDirectory } from "./_cwd.ts";

/** What a task line hands over from a user's plain shell in `/home/me/work`. */
const PLAIN: CallerFacts = {
  named: undefined,
  initCwd: "/home/me/work",
  outer: ";deno/2.9.6 npm/? deno/2.9.6 linux x86_64",
  cwd: "/repo",
};

Deno.test("decideCallerDirectory() believes the INIT_CWD deno task set, and TRANSCRIPT_CWD first", () => {
  assert.deepEqual(decideCallerDirectory(PLAIN), { known: true, path: "/home/me/work" });
  assert.deepEqual(decideCallerDirectory({ ...PLAIN, named: "/named" }), {
    known: true,
    path: "/named",
  });
  // Outside a task (nothing handed over): the working directory.
  assert.deepEqual(decideCallerDirectory({ ...PLAIN, initCwd: undefined, outer: undefined }), {
    known: true,
    path: "/repo",
  });
  // A task line of an earlier version hands over the outer command alone.
  assert.deepEqual(decideCallerDirectory({ ...PLAIN, outer: "" }), {
    known: true,
    path: "/home/me/work",
  });
});

Deno.test("decideCallerDirectory() refuses an INIT_CWD an outer command or a package manager left", () => {
  const npm = "npm/11.19.1 node/v20.20.2 linux x64 workspaces/false";
  const cases: Array<[string, "outer" | "inherited"]> = [
    [`build;${npm}`, "outer"], // an npm script
    ["0;deno/2.9.6 npm/? deno/2.9.6 linux x86_64", "outer"], // an outer deno task
    ["build", "outer"], // an earlier task line
    [`;${npm}`, "inherited"], // no script ran, but npm's environment is around
    [";pnpm/9.15.0 npm/? node/v20.20.2 linux x64", "inherited"],
    [";bun/1.4.5 npm/? node/v24.3.0 linux x64", "inherited"],
  ];
  for (const [outer, why] of cases) {
    assert.deepEqual(
      decideCallerDirectory({ ...PLAIN, outer }),
      { known: false, initCwd: "/home/me/work", why },
      outer,
    );
  }
  // npx runs where it was typed: its INIT_CWD is that folder.
  assert.deepEqual(decideCallerDirectory({ ...PLAIN, outer: `npx;${npm}` }), {
    known: true,
    path: "/home/me/work",
  });
});
