// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// The UTF-8 helpers moved to the public `utf8.ts`; this path stays for
// modules that still import it.
export { utf8Head, utf8Length, utf8Tail } from "./utf8.ts";
