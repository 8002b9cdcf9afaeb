// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// The diff library of the html renderer's edit bodies, by full specifier, so that the package
// resolves wherever it is imported from (by path, over http, from JSR) with no import map of the
// user's. A caret range, so a project that uses diff too shares one copy.

export { diffArrays } from "npm:diff@^9.0.0";
