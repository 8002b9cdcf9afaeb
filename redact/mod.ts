// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

/**
 * Best-effort removal of secrets from text before it is stored or shown to a
 * model: {@linkcode redact} replaces four fixed shapes with
 * {@linkcode REDACTED_SECRET}.
 *
 * ```ts
 * import { redact } from "@brigade/transcript/redact";
 * import assert from "node:assert/strict";
 *
 * assert.equal(
 *   redact("export OPENAI_API_KEY=sk-proj-4fJx9_Qe-L2mZpR8tWc3YvHs"),
 *   "export OPENAI_API_KEY=[REDACTED_SECRET]",
 * );
 * ```
 *
 * @module
 */

import { MARKER, redactedPieces, secretSpans } from "./_spans.ts";

/**
 * What every redacted secret becomes.
 *
 * @example Usage
 * ```ts
 * import { redact, REDACTED_SECRET } from "@brigade/transcript/redact";
 * import assert from "node:assert/strict";
 *
 * assert.equal(redact("AKIAIOSFODNN7EXAMPLE"), REDACTED_SECRET);
 * ```
 */
export const REDACTED_SECRET: "[REDACTED_SECRET]" = MARKER;

/**
 * Replaces the secrets of four shapes in `text` with
 * {@linkcode REDACTED_SECRET}. The shapes are fixed in code, with no option.
 *
 * This is best-effort: a pattern cannot tell a secret from prose by meaning,
 * only by shape, and it knows nothing of the credentials it is looking for.
 *
 * 1. **An `sk-` key**: `sk-` at the start of a word (not after a letter, digit,
 *    `_` or `-`, except the end of an escape: see below), then a body of at
 *    least 20 characters of `A-Z a-z 0-9 _ -` holding at least one digit or
 *    capital. The whole run goes, so `sk-proj-…` and `sk-ant-api03-…` keys
 *    leave no tail, and `sk-learn` stays.
 * 2. **An AWS access key id**: `AKIA` and exactly 16 capitals or digits, as a
 *    whole word.
 * 3. **A Bearer token**: the word `Bearer` (any case), spaces or tabs, then at
 *    least 8 characters of `A-Z a-z 0-9 . _ ~ + / = -` holding a digit, a
 *    capital or one of `_ ~ + / =`. `Bearer ` stays and the token goes;
 *    "use a Bearer token" and "Bearer authentication" stay.
 * 4. **An assignment**: a name that ends in `api_key` (or `api-key`,
 *    `apikey`, `apiKey`), `token`, `secret` (or `secret_key`,
 *    `secret_access_key`), `password` or `passwd`, in any case, then an
 *    optional closing quote (`"`, `'`, `` ` ``, `\"`, then maybe `]`), then
 *    `=`, `:`, `:=` or `=>` (but not `::` or `==`), with spaces or tabs
 *    around. The name, the separator and the quotes stay; only the value goes.
 *    After a `:`, a type, a space and an `=` (`api_key: SecretStr = "…"`,
 *    `token: string | undefined = "…"`), the value is what follows the `=`
 *    and the type stays; a type is letters, `_` and `.`, with generics in
 *    brackets and unions with `|`, never a digit. An ANSI colour sequence before the value stays too.
 *    - a quoted value (`"…"`, `'…'`, `` `…` ``, or `\"…\"` and deeper escapes
 *      when JSON was itself escaped into a string) goes whole, up to its
 *      closing quote or the end of the line, unless it is empty;
 *    - an unquoted value runs up to a space, a quote (`"`, `'` or a backtick),
 *      ESC or one of `, ; < > ( ) { } [ ] \`, and through an `&` unless what
 *      follows starts another `name=` pair (`password=abc&def123` is one
 *      value; `?access_token=…&state=x` stops before `&state`). It goes only
 *      when it looks like a credential rather than a word: at least 6
 *      characters, holding a digit, one of `_ + / = ~ ! @ # $ % ^ * | ?`, or a
 *      capital after its first character. So "the token: it expires" and
 *      `token: expired` stay, while `db_password: hunter2` goes.
 *      `max_tokens: 4096` stays because the name ends in `tokens`.
 *
 * A word boundary before shapes 1 to 3 is also the end of an escape, so a
 * secret right after one is found: a JSON escape (`\n`, `\u003c` as Go
 * writes `<`, `a=1\u0026sk-…`) at any depth of escaping, or an ANSI colour
 * sequence, raw (ESC `[31m`) or written as an escape (`\u001b[31m`,
 * `\x1b[31m`, `\033[31m`, `\e[31m`).
 *
 * The marker matches none of the shapes and every shape is looked for in the
 * original text, so `redact(redact(x))` equals `redact(x)` for every `x`.
 * The time taken is linear in the length of the text.
 *
 * It does **not** catch: private keys (PEM blocks), cookies and session ids,
 * connection strings and URLs with a password in them, opaque tokens outside
 * an assignment (`ghp_…`, `xoxb-…`, `AIza…`), AWS secret access keys outside
 * an assignment, `ASIA` temporary key ids, `Basic` credentials, a value after
 * a space-separated flag (`--token abc`) or on the next line, an unquoted
 * value that looks like a plain word (`password=letmein`), the part of an
 * unquoted value after a character that ends it (`password=abc,def123`
 * keeps all of it: the value read is `abc`), a value inside a call or a
 * prefixed string (`token: str = SecretStr('…')` loses `SecretStr` and keeps
 * `'…'`; `b'…'` stays), a typed declaration without a space before its
 * `=` (`token: str="…"` reads `str=` as the value and keeps `"…"`), a quote
 * written as a `\u` escape (`\u0022…\u0022`), anything encoded (base64,
 * URL-encoded) and a secret split across lines, events or a truncation made
 * before redaction.
 * It errs toward removal the other way: a code reference such as
 * `api_key=api_key` or `token: CancellationToken` goes too.
 *
 * @param text The text to redact.
 * @returns The text with every secret of the four shapes replaced by
 * {@linkcode REDACTED_SECRET}; the same string when there is none.
 *
 * @example Keys and tokens go whole
 * ```ts
 * import { redact } from "@brigade/transcript/redact";
 * import assert from "node:assert/strict";
 *
 * assert.equal(
 *   redact("curl -H 'Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.e30.sig' $URL"),
 *   "curl -H 'Authorization: Bearer [REDACTED_SECRET]' $URL",
 * );
 * assert.equal(redact("id AKIAIOSFODNN7EXAMPLE"), "id [REDACTED_SECRET]");
 * assert.equal(
 *   redact(String.raw`"\u003csk-proj-4fJx9_Qe-L2mZpR8tWc3YvHs\u003e"`),
 *   String.raw`"\u003c[REDACTED_SECRET]\u003e"`,
 * );
 * ```
 *
 * @example An assignment keeps its name, separator and quotes
 * ```ts
 * import { redact } from "@brigade/transcript/redact";
 * import assert from "node:assert/strict";
 *
 * assert.equal(redact(`{"apiKey": "abc def"}`), `{"apiKey": "[REDACTED_SECRET]"}`);
 * assert.equal(redact(`{\\"api_key\\": \\"abc\\"}`), `{\\"api_key\\": \\"[REDACTED_SECRET]\\"}`);
 * assert.equal(redact("db_password: hunter2"), "db_password: [REDACTED_SECRET]");
 * assert.equal(redact('api_key: SecretStr = "abc"'), 'api_key: SecretStr = "[REDACTED_SECRET]"');
 * assert.equal(redact("password=abc&def123&next=1"), "password=[REDACTED_SECRET]&next=1");
 * ```
 *
 * @example Prose stays
 * ```ts
 * import { redact } from "@brigade/transcript/redact";
 * import assert from "node:assert/strict";
 *
 * const prose = "use sk-learn; max_tokens: 4096; the token: it expires; use a Bearer token";
 * assert.equal(redact(prose), prose);
 * ```
 */
export function redact(text: string): string {
  const spans = secretSpans(text);
  if (spans.length === 0) return text;
  let out = "";
  for (const piece of redactedPieces(text, spans)) out += piece;
  return out;
}
