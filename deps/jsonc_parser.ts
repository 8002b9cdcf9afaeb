// Copyright 2026 the brigade authors. MIT license.

// The JSONC parser the `render` command reads a team's deno.json(c) with, by full specifier, so
// that the command resolves wherever it is run from (by path, over http, from JSR) with no
// import map of the user's. A caret range, so a project that uses jsonc-parser too shares one copy.

export { parse, type ParseError, printParseErrorCode } from "npm:jsonc-parser@^3.3.1";
