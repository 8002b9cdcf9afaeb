// Copyright 2026 the brigade authors. MIT license.

// Run by reader_statusline_test.ts with the `facts` task's permissions: gives up the write access
// the status line does not use, as `facts` does first, then prints each candidate folder's state.

import { dropOtherWriteAccess } from "../cli/_statusline_cache.ts";

dropOtherWriteAccess();
for (const path of Deno.args) {
  console.log(`${path} ${Deno.permissions.querySync({ name: "write", path }).state}`);
}
