// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// The Markdown parser of the html renderer's message bodies, by full specifier, so that the
// package resolves wherever it is imported from (by path, over http, from JSR) with no import map
// of the user's. A caret range, so a project that uses markdown-it too shares one copy.

export { default as MarkdownIt } from "npm:markdown-it@^15.0.3";
