// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

import { secretSafeHead } from "./_compact.ts";

/** The most UTF-16 units of an agent name kept for labels: a name is a word, not a payload. */
const NAME_UNITS_KEPT = 200;

/**
 * An agent's name as {@linkcode conversation} writes it in a child thread's
 * speaker (`@name`): cut to 200 UTF-16 units where no secret straddles the
 * cut, control characters and runs of white space as one space, brackets as
 * parentheses (so a name can never close a label), trimmed. A renderer that
 * matches speakers to the names a log gives (`thread_created`, thread
 * messages) names them the same way.
 *
 * @param name The name as the log gives it.
 * @returns The name as labels carry it.
 *
 * @example Usage
 * ```ts
 * import { agentLabel } from "@brigade/transcript/kit";
 * import assert from "node:assert/strict";
 *
 * assert.equal(agentLabel("  Test [runner]\n"), "Test (runner)");
 * ```
 */
export function agentLabel(name: string): string {
  // deno-lint-ignore no-control-regex -- control characters are what is removed
  return secretSafeHead(name, NAME_UNITS_KEPT).replace(/[\u0000-\u001f\u007f]+/g, " ")
    .replace(/\[/g, "(").replace(/\]/g, ")").replace(/\s+/g, " ").trim();
}
