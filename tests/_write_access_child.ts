// Copyright 2026 the brigade authors. MIT license.

// Run by reader_statusline_test.ts in place of cli/facts.ts, by the `facts` task's own line: prints
// each candidate folder's write access as the task grants it ("start"), then gives up the write
// access the status line does not use, as `facts` does first, and prints it again ("kept").

import { dropOtherWriteAccess } from "../cli/_statusline_cache.ts";

const state = (path: string): string => Deno.permissions.querySync({ name: "write", path }).state;
for (const path of Deno.args) console.log(`start ${path} ${state(path)}`);
dropOtherWriteAccess();
for (const path of Deno.args) console.log(`kept ${path} ${state(path)}`);
