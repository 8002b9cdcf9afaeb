// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

/**
 * Best-effort removal of secrets from text before it is stored or shown to a
 * model: {@linkcode redact} replaces secrets of fixed shapes (keys and tokens
 * of well-known prefixes, Bearer, token and Basic credentials, URL passwords
 * and the values of secret-named assignments) with
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

import { MARKER, redactedPieces, secretSpans } from "./spans.ts";

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
 * Replaces the secrets of the shapes below in `text` with
 * {@linkcode REDACTED_SECRET}. The shapes are fixed in code, with no option.
 *
 * This is best-effort: a pattern cannot tell a secret from prose by meaning,
 * only by shape, and it knows nothing of the credentials it is looking for.
 *
 * **Tokens that go whole.** Each starts a word: not right after a letter,
 * digit or `_` (nor after a `-` for the shapes named so below), except the
 * end of an escape (see below). Each body is a maximal run of the characters
 * named, so a token ends at the first character that cannot be part of it.
 *
 * 1. **An `sk-` key**: `sk-` (not after a `-` either), then at least 20 of
 *    `A-Z a-z 0-9 _ -` holding a digit or a capital. The whole run goes, so
 *    `sk-proj-…` and `sk-ant-api03-…` keys leave no tail, and `sk-learn`
 *    stays.
 * 2. **An AWS access key id**: `AKIA` and exactly 16 capitals or digits, as a
 *    whole word.
 * 3. **A GitHub token**: `ghp_`, `gho_`, `ghu_`, `ghs_` or `ghr_`, then at
 *    least 36 letters or digits holding a digit or a capital; or
 *    `github_pat_`, then at least 22 of `A-Z a-z 0-9 _` holding a digit or a
 *    capital. (`ghp_xxxx…` placeholders stay: see below.)
 * 4. **A Slack token**: `xoxb-`, `xoxp-`, `xoxa-`, `xoxr-` or `xoxs-` (not
 *    after a `-`), then at least 10 of `A-Z a-z 0-9 -` holding a digit.
 *    (`xoxb-your-token` stays.)
 * 5. **A Stripe secret or restricted key**: `sk_live_`, `rk_live_`,
 *    `sk_test_` or `rk_test_`, then at least 16 letters or digits holding a
 *    digit or a capital. Test keys go too: they read and write the account's
 *    test data. Publishable keys (`pk_live_…`) are public and stay, and so
 *    does `sk_test` as a word.
 * 6. **A Google API key**: `AIza` (not after a `-`), then exactly 35 of
 *    `A-Z a-z 0-9 _ -` holding a digit or a capital: a longer run is not a
 *    key.
 * 7. **A GitLab personal access token**: `glpat-` (not after a `-` or a
 *    `.`), then at least 20 of `A-Z a-z 0-9 _ -` holding a digit or a
 *    capital, then any further runs after single dots (`glpat-….01.…`); a dot
 *    at the end stays.
 * 8. **A JWT**: three base64url segments (`A-Z a-z 0-9 _ -`) joined by dots,
 *    the first two starting `eyJ` (not after a `-`) and at least 10
 *    characters long, the third (the signature) possibly empty.
 *
 * **Credentials whose label stays.**
 *
 * 9. **A Bearer token**: the word `Bearer` (any case), spaces or tabs, then at
 *    least 8 characters of `A-Z a-z 0-9 . _ ~ + / = -` holding a digit, a
 *    capital or one of `_ ~ + / =`. `Bearer ` stays and the token goes;
 *    "use a Bearer token" and "Bearer authentication" stay.
 * 10. **An `Authorization` token or Basic credential**: a name that ends in
 *    `authorization` (any case, so `Proxy-Authorization` too), an optional
 *    closing quote, `:` or `=`, an optional opening quote, the scheme word
 *    `token` or `Basic` (any case), spaces or tabs, then a credential read as
 *    a Bearer token is. The name and the scheme word stay.
 * 11. **A password in a URL**: `scheme://user:password@host`. The authority
 *    runs from the `://` (after a letter, a digit or one of `+ . -`) to a
 *    space, a control character, one of `/ ? # " ' \ < >` or a backtick; its
 *    user info ends at its last `@`, and the password runs from the first
 *    `:` of the user info to that `@`. Only the password goes (`redis://:p@h`
 *    counts); `https://host:8080/`, `ssh://git@host` and `user@example.com`
 *    have none and stay. A user name that is a key (up to the first `@`, at
 *    least 20 of `A-Z a-z 0-9 _ -` holding a digit) goes too, as the public
 *    key of a Sentry DSN (`https://<key>@o1.ingest.sentry.io/2`).
 * 12. **An assignment**: a name that ends in `api_key` (or `api-key`,
 *    `apikey`, `apiKey`), `token`, `secret` (or `secret_key`,
 *    `secret_access_key`), `password` or `passwd`, Azure's `AccountKey` or
 *    `SharedAccessKey`, in any case, or a query parameter `sig` (a shared
 *    access signature: after `?`, `&`, `;` or `\u0026`), then an
 *    optional closing quote (`"`, `'`, `` ` ``, `\"`, then maybe `]`) or C
 *    array brackets (`API_KEY[]`, `password[64]`), then `=`, `:`, `:=`, `=>`
 *    (but not `::` or `==`), `%3D` or `%3A`, or, after a quoted name, an
 *    attribute `value=` (`<add key="ApiKey" value="…"/>`), the next attribute
 *    or, after `type="password"`, one of the next eight
 *    (`<input type="password" name="pw" value="…">`). Spaces, tabs and
 *    ANSI colour sequences may come around the separator (as `jq -C` colours
 *    JSON). The name, the separator and the quotes stay; only the value goes.
 *    After a `:`, a type, a space and an `=` (`api_key: SecretStr = "…"`,
 *    `token: string | undefined = "…"`, `API_KEY: &'static str = "…"`), the
 *    value is what follows the `=` and the type stays; a type is letters,
 *    `_` and `.`, with generics in brackets, unions with `|` and a Rust
 *    reference (`&`, a lifetime, `mut`) before it, never a digit.
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
 *      `max_tokens: 4096` and `token_count: 12` stay because the name does
 *      not end at the keyword. After a long command-line flag
 *      (`--password=`, `--db-password=`) it goes whatever it looks like;
 *      `--password= app` is empty.
 *    - an empty field before another pair stays empty: in
 *      `password= user=admin` (no blank before the `=`, one after it, as
 *      logfmt writes an empty field) `user=admin` is not the value.
 * 13. **An XML element's text**: an element whose name ends in one of those
 *    names (`<password>`, `<db:Password>`, `<AccountKey>`), its text up to
 *    the next `<` on the line, when that is its closing tag
 *    (`</password>`, or `<\/password>` in JSON). The tags stay.
 * 14. **A MySQL or MariaDB client's `-p` password**: after the command
 *    `mysql`, `mysqldump`, `mysqladmin` (and the other `mysql…` clients) or
 *    `mariadb`, the text joined to a `-p` argument (`-pS3cret`, `-p'…'`),
 *    up to the end of the command (a line break, `|`, `;`, `&`, a
 *    redirection). `-p` alone (a prompt) has none.
 * 15. **A `.netrc` password**: the token after `password` in an entry:
 *    `machine h` or `default`, then `login u` or `account a` (or both), then
 *    `password p`; or `machine h password p` and a `login` or `account`
 *    after it. On one line or several. "your login and password" and "the
 *    default password is" stay.
 *
 * **Placeholders stay.** A known prefix followed only by `x`, `X`, `*`, `.`,
 * `#`, `•` or `…` (at least three: `ghp_xxxx…`, `sk-proj-XXXX…`,
 * `AKIAXXXXXXXXXXXXXXXX`) is left as written, as a token and as a value.
 *
 * A word boundary before a token is also the end of an escape, so a secret
 * right after one is found: a JSON escape (`\n`, `\u003c` as Go writes `<`,
 * `a=1\u0026sk-…`) at any depth of escaping, a percent escape
 * (`q=%22sk-…%22`, `api_key%3Dsk-…`), or an ANSI colour sequence, raw (ESC
 * `[31m`) or written as an escape (`\u001b[31m`, `\x1b[31m`, `\033[31m`,
 * `\e[31m`), its parameters split by `;` or `:` (`ESC[38:5:196m`).
 *
 * The marker matches none of the shapes (an element's text that is only the
 * marker is replaced by itself) and every shape is looked for in the original
 * text (a token inside another's run too), so `redact(redact(x))`
 * equals `redact(x)` for every `x`. The time taken is linear in the length of
 * the text, and no input makes it throw: runs are read by loops, never by a
 * pattern that backtracks over them.
 *
 * It does **not** catch: private keys (PEM blocks), cookies and session ids
 * (unless a JWT or a secret-named assignment), tokens of other services
 * (`npm_…`, `dckr_pat_…`, `xapp-…`, `hf_…`, Slack webhook URLs, …), Stripe
 * webhook secrets (`whsec_…`), AWS secret access keys outside an assignment,
 * `ASIA` temporary key ids, `Digest` or other `Authorization` schemes, a
 * `curl -u user:password` or any value after a space-separated flag
 * (`--token abc`) or on the next line, a URL whose slashes are escaped
 * (`https:\/\/u:p@h`) or whose password holds one of the characters that end
 * an authority, an unquoted value that looks like a plain word
 * (`password=letmein`), the part of an unquoted value after a character that
 * ends it (`password=abc,def123` keeps all of it: the value read is `abc`), a
 * value inside a call or a prefixed string (`token: str = SecretStr('…')`
 * loses `SecretStr` and keeps `'…'`; `b'…'` stays), a typed declaration
 * without a space before its `=` (`token: str="…"` reads `str=` as the value
 * and keeps `"…"`) or with a type written another way (Go's
 * `const apiKey string = "…"`), a quote written as a `\u` or percent escape
 * (`\u0022…\u0022`, `api_key%22%3A%22…`), anything encoded (base64,
 * URL-encoded beyond the escapes above) and a secret split across lines,
 * events or a truncation made before redaction. Nor: an `<input>` whose
 * `value` comes before its `type="password"` or more than eight attributes
 * after it, an element's text that spans lines or holds a `<` (CDATA), tags
 * written as escapes (`\u003cpassword\u003e`), a MySQL password given as
 * `MYSQL_PWD=…` or in a `-p` cluster (`-upS3cret`), the part of a `-p` or
 * `.netrc` password after a `[`, a `.netrc` entry without a `login` or
 * `account` or whose tokens hold a backslash, and a URL key shorter than 20
 * characters or without a digit.
 * It errs toward removal the other way: a code reference such as
 * `api_key=api_key` or `token: CancellationToken` goes too, as does a
 * placeholder password in a URL (`postgres://user:password@host`), the
 * rest of an unquoted value (`token:ghs_…@github.com/org/repo` loses the
 * host too) and a format string after a flag (`--password=%s`).
 *
 * @param text The text to redact.
 * @returns The text with every secret of these shapes replaced by
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
 * assert.equal(
 *   redact("git push https://ghp_16C7e42F292c6912E7710c838347Ae178B4a@github.com/o/r"),
 *   "git push https://[REDACTED_SECRET]@github.com/o/r",
 * );
 * ```
 *
 * @example A credential's label stays
 * ```ts
 * import { redact } from "@brigade/transcript/redact";
 * import assert from "node:assert/strict";
 *
 * assert.equal(
 *   redact("Authorization: Basic dXNlcjpwYXNzd29yZA=="),
 *   "Authorization: Basic [REDACTED_SECRET]",
 * );
 * assert.equal(
 *   redact("postgres://app:s3cr3t@db:5432/app"),
 *   "postgres://app:[REDACTED_SECRET]@db:5432/app",
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
 * assert.equal(redact("AccountName=a;AccountKey=Eby8vd+M02==;"), "AccountName=a;AccountKey=[REDACTED_SECRET];");
 * assert.equal(redact("password= user=admin"), "password= user=admin");
 * ```
 *
 * @example Config files and command lines
 * ```ts
 * import { redact } from "@brigade/transcript/redact";
 * import assert from "node:assert/strict";
 *
 * assert.equal(redact("<password>hunter2</password>"), "<password>[REDACTED_SECRET]</password>");
 * assert.equal(redact("mysql -u root -pS3cret app"), "mysql -u root -p[REDACTED_SECRET] app");
 * assert.equal(
 *   redact("machine example.com login me password hunter2"),
 *   "machine example.com login me password [REDACTED_SECRET]",
 * );
 * assert.equal(
 *   redact("https://e3b0c44298fc1c149afbf4c8996fb924@o1.ingest.sentry.io/2"),
 *   "https://[REDACTED_SECRET]@o1.ingest.sentry.io/2",
 * );
 * ```
 *
 * @example Prose stays
 * ```ts
 * import { redact } from "@brigade/transcript/redact";
 * import assert from "node:assert/strict";
 *
 * const prose = "use sk-learn; max_tokens: 4096; the token: it expires; use a Bearer token";
 * assert.equal(redact(prose), prose);
 * const lookAlikes = "ghp or eyJ or AIza in prose; sk_test; https://example.com:443/path; " +
 *   "user@example.com; 123e4567-e89b-12d3-a456-426614174000; " +
 *   "GITHUB_TOKEN=ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx; your login and password";
 * assert.equal(redact(lookAlikes), lookAlikes);
 * ```
 */
export function redact(text: string): string {
  const spans = secretSpans(text);
  if (spans.length === 0) return text;
  let out = "";
  for (const piece of redactedPieces(text, spans)) out += piece;
  return out;
}
