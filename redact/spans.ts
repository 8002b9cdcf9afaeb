// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// The shapes `redact` looks for, as ranges of the original text, so that a
// caller may read a redaction in part (its head, its size) without building
// the whole redacted text.

/** What every redacted secret becomes (exported as `REDACTED_SECRET`). */
export const MARKER = "[REDACTED_SECRET]" as const;

/** A range of text to replace: `[start, end)`. */
export type Span = [start: number, end: number];

// Every shape contains one of these words (in any case) or one of the
// case-sensitive prefixes after them, so text without any (most text) costs
// one scan and no allocation. Each alternative starts with a character that
// prose seldom holds and looks back for the rest of its prefix, so that V8
// tries few places: a word at its rarest letter (the index beside it), a
// cased prefix at `_`, `-`, `:`, `I` or `J`.
const TRIGGER_WORDS: [word: string, rarest: number][] = [
  ["sk-", 2],
  ["AKIA", 1],
  ["bearer", 0],
  ["apikey", 3],
  ["api_key", 4],
  ["api-key", 4],
  ["token", 2],
  ["secret", 2],
  ["passw", 4],
  ["authorization", 7],
];
// A URL counts only with a password in its authority (a `:` with something
// between it and an `@`, all of it of what `urlPassword` reads): most text
// that holds a URL then costs this one scan, not every pass.
const AUTHORITY_ENDS = String.raw`\x00-\x20\x7f/?#"'` + "`" + String.raw`\\<>`;
const URL_WITH_PASSWORD = String.raw`:\/\/[^${AUTHORITY_ENDS}:]*:[^${AUTHORITY_ENDS}]+@`;
const CASED_TRIGGER = String
  .raw`_(?:pat|live|test)_|_(?<=gh[pousr]_)|-(?<=xox[abprs]-|glpat-)|${URL_WITH_PASSWORD}|Iza(?<=AIza)|J(?<=eyJ)`;
const TRIGGER = triggerPattern();

/**
 * The words and the prefixes as one pattern, so that a text is scanned once:
 * the words in a case-insensitive group (`(?i:…)`) where the engine reads
 * one, else each letter as a class of its two cases (slower, the same
 * matches).
 */
function triggerPattern(): RegExp {
  const words = (cased: (text: string) => string): string =>
    TRIGGER_WORDS.map(([word, rarest]) => fromRarest(word, rarest, cased)).join("|");
  try {
    return new RegExp(`(?i:${words((text) => text)})|${CASED_TRIGGER}`);
  } catch {
    return new RegExp(`${words(anyCase)}|${CASED_TRIGGER}`);
  }
}

/** `word` as a pattern that starts at its letter `at` and looks back for the letters before. */
function fromRarest(word: string, at: number, cased: (text: string) => string): string {
  if (at === 0) return cased(word);
  return `${cased(word[at]!)}(?<=${cased(word.slice(0, at + 1))})${cased(word.slice(at + 1))}`;
}

// What text without a secret (most text) gets: one list, so that the answer costs no allocation.
const NO_SPANS: readonly Span[] = Object.freeze([]);

/**
 * The ranges of `text` that {@linkcode redactedPieces} replaces, in order of
 * their start; none for text without a secret.
 *
 * Every shape is found on the original text and the found ranges are merged
 * before anything is replaced: a match of one shape can then never hide (by
 * replacing its start) the rest of a secret of another shape.
 */
export function secretSpans(text: string): readonly Span[] {
  if (!TRIGGER.test(text)) return NO_SPANS;
  // The lists are reused: a text that merely names a key or a token (many do) finds no
  // secret, and costs no allocation.
  const assignments = ASSIGNMENTS;
  const tokens = TOKENS;
  assignments.length = 0;
  tokens.length = 0;
  try {
    collectAssignments(text, assignments);
    collectTokens(text, tokens);
    if (assignments.length === 0 && tokens.length === 0) return NO_SPANS;
    return mergeByStart(assignments.slice(), tokens.slice());
  } finally {
    assignments.length = 0;
    tokens.length = 0;
  }
}

const ASSIGNMENTS: Span[] = [];
const TOKENS: Span[] = [];

/**
 * Two lists of ranges as one, in order of their start. Each pass finds its
 * ranges left to right, so the lists are merged in one step rather than
 * sorted (a text dense with secrets stays linear); a list out of order, which
 * no pass should give, is sorted first.
 */
function mergeByStart(a: Span[], b: Span[]): Span[] {
  if (a.length === 0) return inOrder(b);
  if (b.length === 0) return inOrder(a);
  inOrder(a);
  inOrder(b);
  const merged: Span[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) merged.push(a[i]![0] <= b[j]![0] ? a[i++]! : b[j++]!);
  while (i < a.length) merged.push(a[i++]!);
  while (j < b.length) merged.push(b[j++]!);
  return merged;
}

function inOrder(spans: Span[]): Span[] {
  for (let k = 1; k < spans.length; k++) {
    if (spans[k]![0] < spans[k - 1]![0]) return spans.sort((x, y) => x[0] - y[0]);
  }
  return spans;
}

/**
 * The redacted text in order, a piece at a time: a kept slice of `text`, then
 * a marker, and so on, then the rest of `text`. A slice of a long text is a
 * view of it (no copy), and a kept slice is always followed by a marker, so a
 * surrogate pair is never split between two pieces.
 */
export function* redactedPieces(text: string, spans: readonly Span[]): Generator<string> {
  let copied = 0;
  for (const [start, end] of spans) {
    // Overlapping ranges become one marker.
    if (start >= copied) {
      yield text.slice(copied, start);
      yield MARKER;
    }
    copied = Math.max(copied, end);
  }
  yield text.slice(copied);
}

// The bodies of tokens. A run is read by a sticky pattern made of one
// character class under `*`, which V8 runs as a loop: no backtracking stack
// grows with the run, whatever its length. A mark (a character the body must
// hold) is looked for the same way, within the run.

/** What a token's body is made of, and a character it must hold. */
interface Body {
  /** The run, as `[class]*`. */
  run: RegExp;
  /** The run's characters up to its first mark, as `[class minus mark]*[mark]`. */
  mark: RegExp | undefined;
}

function body(chars: string, unmarked?: string, mark?: string): Body {
  return {
    run: new RegExp(`[${chars}]*`, "y"),
    mark: mark === undefined ? undefined : new RegExp(`[${unmarked}]*[${mark}]`, "y"),
  };
}

// Base64url (`A-Z a-z 0-9 _ -`), holding a digit or a capital.
const KEY_BODY = body(String.raw`\w\-`, String.raw`a-z_\-`, "A-Z0-9");
// The same, with no mark.
const BASE64URL = body(String.raw`\w\-`);
// Letters and digits, holding a digit or a capital.
const ALNUM_BODY = body("A-Za-z0-9", "a-z", "A-Z0-9");
// Letters, digits and `_`, holding a digit or a capital.
const WORD_BODY = body(String.raw`\w`, "a-z_", "A-Z0-9");
// Letters, digits and `-`, holding a digit.
const SLACK_BODY = body(String.raw`A-Za-z0-9\-`, String.raw`A-Za-z\-`, "0-9");
// A token68 credential (`A-Z a-z 0-9 . _ ~ + / = -`), holding a digit, a
// capital or one of `_ ~ + / =`.
const TOKEN_BODY = body(String.raw`\w.~+/=\-`, String.raw`a-z.\-`, String.raw`A-Z0-9_~+/=`);

/** The end of `body`'s run at `start`, if it is `min` long or longer and holds its mark; else -1. */
function bodyEnd(text: string, start: number, body: Body, min: number): number {
  body.run.lastIndex = start;
  body.run.test(text);
  const end = body.run.lastIndex;
  if (end - start < min) return -1;
  if (body.mark === undefined) return end;
  body.mark.lastIndex = start;
  return body.mark.test(text) ? end : -1;
}

/** Whether the code unit at `i` is of `A-Z a-z 0-9 _ -`. */
function isKeyChar(text: string, i: number): boolean {
  const code = text.charCodeAt(i);
  return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) ||
    (code >= 0x61 && code <= 0x7a) || code === 0x5f || code === 0x2d;
}

const BACKSLASH = 0x5c;

/** The end of the run of spaces, tabs and escaped tabs (`\t`, `\\t`, …) at `i`. */
function blanksEnd(text: string, i: number): number {
  for (;;) {
    const code = text.charCodeAt(i);
    if (code === 0x20 || code === 0x09) {
      i++;
    } else if (code === BACKSLASH) {
      let j = i + 1;
      while (text.charCodeAt(j) === BACKSLASH) j++;
      if (text.charCodeAt(j) !== 0x74) return i;
      i = j + 1;
    } else {
      return i;
    }
  }
}

// Tokens: a prefix at the start of a word, then a body. A word boundary is
// also the end of an escape: a key may follow `\n` or `\u003c` in JSON text
// (the letter or hex digit before it ends the escape, at any depth of
// escaping since only the last backslash counts), a percent escape
// (`%22sk-…`), or an ANSI colour sequence, raw (`\x1b[31m`) or written as an
// escape (`\u001b[31m`, `\x1b[31m`, `\033[31m`, `\e[31m`). Hence the nested
// lookbehinds: the character before a prefix may be a body character only
// when one of these ends with it. The patterns find only where a token
// starts, and its body (a run) is read by `bodyEnd`: a failed candidate
// consumes nothing but its prefix, and a run follows at most one candidate
// of a shape (the character before a prefix is never one of its body's; a
// JWT's segment is read by at most three), so the pass stays linear.
const ESCAPE_BEFORE = String.raw`\\|\\u[0-9A-Fa-f]{3}|%[0-9A-Fa-f]|` +
  String.raw`(?:\x1b|\\u001[Bb]|\\x1[Bb]|\\033|\\e)\[[0-9;]{0,32}`;
const BEARER = "[Bb][Ee][Aa][Rr][Ee][Rr]";

/** `prefix`, not right after a character of `before` unless an escape ends there. */
function atBoundary(prefix: string, before: string): string {
  return String.raw`${prefix}(?<!(?<!${ESCAPE_BEFORE})${before}${prefix})`;
}

// Where a token may start: its prefix at a boundary, with a bounded look at
// its body (`{20}`: at least 20 characters of the class follow) so that most
// candidates that cannot be one are turned down by the pattern itself,
// without a match to allocate. `tokenAt` reads the body. The prefixes are
// split in two patterns: V8 searches each of these much faster than the one
// made of all of them. (An `Authorization` name is found with the names of
// assignments.)
const TOKEN_STARTS = [
  [
    atBoundary("sk-", String.raw`[A-Za-z0-9_\-]`) + String.raw`(?=[\w\-]{20})`,
    atBoundary("AKIA", String.raw`\w`) + String.raw`(?=[A-Z0-9]{16}(?!\w))`,
    atBoundary(BEARER, String.raw`\w`) + String.raw`(?=[ \t\\])`,
    atBoundary("gh[pousr]_", String.raw`\w`) + String.raw`(?=[A-Za-z0-9]{36})`,
    atBoundary("github_pat_", String.raw`\w`) + String.raw`(?=\w{22})`,
    atBoundary("glpat-", String.raw`[\w.\-]`) + String.raw`(?=[\w\-]{20})`,
  ],
  [
    atBoundary("xox[abprs]-", String.raw`[\w\-]`) + String.raw`(?=[A-Za-z0-9\-]{10})`,
    atBoundary("[rs]k_(?:live|test)_", String.raw`\w`) + String.raw`(?=[A-Za-z0-9]{16})`,
    atBoundary("AIza", String.raw`[\w\-]`) + String.raw`(?=[\w\-]{35}(?![\w\-]))`,
    atBoundary("eyJ", String.raw`[\w\-]`) + String.raw`(?=[\w\-]{7})`,
    String.raw`:\/\/(?<=[A-Za-z0-9+.\-]:\/\/)`,
  ],
].map((prefixes) => new RegExp(prefixes.join("|"), "g"));

/** `word` in any case, as a pattern. */
function anyCase(word: string): string {
  return [...word].map((c) => `[${c.toUpperCase()}${c.toLowerCase()}]`).join("");
}

function collectTokens(text: string, spans: Span[]): void {
  for (const starts of TOKEN_STARTS) {
    starts.lastIndex = 0;
    let match;
    while ((match = starts.exec(text)) !== null) {
      // The search goes on after the prefix, even when a token was found: a
      // run taken for a Bearer token may hold an `sk-` key that reaches past
      // it, and a URL's user name a GitHub token. The ranges are merged.
      const span = tokenAt(text, match.index, starts.lastIndex);
      if (span !== undefined) spans.push(span);
    }
  }
}

/** The span `[start, end)`, or none when `end` is -1. */
function spanTo(start: number, end: number): Span | undefined {
  return end < 0 ? undefined : [start, end];
}

/** The span of the token whose prefix is `text[start, end)`, if it has a body. */
function tokenAt(text: string, start: number, end: number): Span | undefined {
  switch (text[start]) {
    case "s":
      // `sk-`: at least 20 key characters holding a digit or a capital.
      if (text[start + 2] === "-") {
        return spanTo(start, bodyEnd(text, end, KEY_BODY, 20));
      }
    // falls through: `sk_live_` and the like
    case "r":
      // Stripe: `sk_live_` and the like, at least 16 letters or digits
      // holding a digit or a capital.
      return spanTo(start, bodyEnd(text, end, ALNUM_BODY, 16));
    case "A":
      // `AKIA` and exactly 16 capitals or digits as a whole word, or `AIza`
      // and exactly 35 key characters: the pattern checked both lengths.
      if (text[start + 1] === "K") return [start, end + 16];
      return spanTo(start, bodyEnd(text, end, KEY_BODY, 35));
    case "B":
    case "b": {
      // A Bearer token: `Bearer` and the blanks after it stay.
      const from = blanksEnd(text, end);
      return from === end ? undefined : spanTo(from, bodyEnd(text, from, TOKEN_BODY, 8));
    }
    case "g":
      if (text[start + 1] === "l") {
        // GitLab: `glpat-`, at least 20 key characters holding a digit or a
        // capital, then further runs after single dots (the newer
        // `glpat-….01.…` form); a dot at the end stays.
        let run = bodyEnd(text, end, KEY_BODY, 20);
        while (run >= 0 && text[run] === "." && isKeyChar(text, run + 1)) {
          run = bodyEnd(text, run + 1, BASE64URL, 0);
        }
        return spanTo(start, run);
      }
      // GitHub: `github_pat_`, at least 22 of letters, digits and `_`; or
      // `ghp_` and the like, at least 36 letters or digits; either holding a
      // digit or a capital (so that `ghp_xxxx…` placeholders stay).
      return text[start + 2] === "t"
        ? spanTo(start, bodyEnd(text, end, WORD_BODY, 22))
        : spanTo(start, bodyEnd(text, end, ALNUM_BODY, 36));
    case "x":
      // Slack: `xoxb-` and the like, at least 10 of letters, digits and `-`,
      // holding a digit.
      return spanTo(start, bodyEnd(text, end, SLACK_BODY, 10));
    case "e":
      return spanTo(start, jwtEnd(text, start));
    default:
      return urlPassword(text, start);
  }
}

/**
 * The end of a JWT at `start`: three base64url segments joined by dots, the
 * first two starting `eyJ` (an encoded `{"`) and at least 10 characters
 * long, the third (the signature) possibly empty, as in an unsigned token.
 */
function jwtEnd(text: string, start: number): number {
  const header = bodyEnd(text, start, BASE64URL, 10);
  if (header < 0 || text[header] !== "." || !text.startsWith("eyJ", header + 1)) return -1;
  const payload = bodyEnd(text, header + 1, BASE64URL, 10);
  if (payload < 0 || text[payload] !== ".") return -1;
  return bodyEnd(text, payload + 1, BASE64URL, 0);
}

const SCHEME_AT = new RegExp(`(?:${anyCase("token")}|${anyCase("basic")})`, "y");

/**
 * The credential of an `Authorization` header (or of any name that ends in
 * `authorization`) whose scheme is `token` or `Basic`, in any case: after
 * the name, an optional closing quote, `:` or `=`, an optional opening quote
 * and the scheme word and blanks, a run of at least 8 characters of
 * `A-Z a-z 0-9 . _ ~ + / = -` holding a digit, a capital or one of
 * `_ ~ + / =`, as a Bearer token. The scheme word stays.
 */
function authorizationCredential(text: string, i: number): Span | undefined {
  i = skipQuote(text, i);
  i = skipBlanksAndAnsi(text, i);
  const char = text[i];
  if (!((char === ":" && text[i + 1] !== ":") || (char === "=" && text[i + 1] !== "="))) {
    return undefined;
  }
  i = skipQuote(text, skipBlanksAndAnsi(text, i + 1));
  SCHEME_AT.lastIndex = i;
  if (!SCHEME_AT.test(text)) return undefined;
  const from = blanksEnd(text, SCHEME_AT.lastIndex);
  if (from === SCHEME_AT.lastIndex) return undefined;
  return spanTo(from, bodyEnd(text, from, TOKEN_BODY, 8));
}

/** Past a quote at `i` (after any backslashes), or `i` when there is none. */
function skipQuote(text: string, i: number): number {
  let j = i;
  while (text.charCodeAt(j) === BACKSLASH) j++;
  return isQuoteChar(text[j]) ? j + 1 : i;
}

/** Past the spaces, tabs, escaped tabs and ANSI colour sequences at `i`. */
function skipBlanksAndAnsi(text: string, i: number): number {
  for (;;) {
    const next = skipAnsi(text, blanksEnd(text, i));
    if (next === i) return i;
    i = next;
  }
}

/**
 * The password of a URL's user info, `scheme://user:password@host`: the
 * authority runs from the `://` (after a letter, a digit or one of `+ . -`,
 * as the pattern checked) to a space, a control character, one of
 * `/ ? # " ' \ < >` or a backtick; the user info ends at its last `@` and
 * the password starts after its first `:`. Only the password goes:
 * `https://host:8080/` and `ssh://git@host` have none. The authority holds
 * no `/`, so no two overlap and the pass stays linear.
 */
function urlPassword(text: string, at: number): Span | undefined {
  const from = at + 3;
  AUTHORITY.lastIndex = from;
  AUTHORITY.test(text);
  const authority = text.slice(from, AUTHORITY.lastIndex);
  const lastAt = authority.lastIndexOf("@");
  const colon = authority.indexOf(":");
  return colon >= 0 && colon + 1 < lastAt ? [from + colon + 1, from + lastAt] : undefined;
}

// deno-lint-ignore no-control-regex -- a control character ends an authority
const AUTHORITY = /[^\x00-\x20\x7f/?#"'`\\<>]*/y;

// Assignments: the name; the separator after it is read by `valueStart`
// and the value from where that ends. A name needs no boundary before its
// keyword (names that end in one count) but must end at the keyword: the
// separator follows it, after an optional closing quote or C array brackets.
// `::` (a path) and `==` (a comparison) are not separators. The `]` is only
// allowed after a quote (`headers["x-api-key"] =`) or a `[` (`API_KEY[] =`)
// so that the marker's own `SECRET]` never reads as a name. An
// `Authorization` name is found here too, and read by
// `authorizationCredential`.
const NAME = /api[_-]?key|token|secret(?:[_-]?(?:access[_-]?)?key)?|passw(?:or)?d|authorization/gi;

/** Where a value starts: after a name's closing quote, its separator and blanks. */
interface ValueStart {
  start: number;
  /** Whether the separator is `:`, after which a type may come. */
  colon: boolean;
}

// C array brackets after a name (`char API_KEY[] = "…"`, `API_KEY[64]`).
const ARRAY_AT = /\[[0-9]{0,8}\]/y;
// An attribute that holds the value of the name in the one before it
// (`<add key="ApiKey" value="…"/>`, `<input name="password" value="…">`).
const VALUE_ATTRIBUTE_AT = /[Vv][Aa][Ll][Uu][Ee][ \t]{0,16}=(?!=)/y;
// A separator written as a percent escape: `%3D` (`=`) or `%3A` (`:`).
const ESCAPED_SEPARATOR_AT = /%3[AaDd]/y;

/**
 * The start of the value after the name that ends at `i`, if a separator
 * follows. Blanks and ANSI colour sequences may come before and after the
 * separator (as `jq -C` writes `"token"ESC[0mESC[1;39m:ESC[0m ESC[0;32m"…"`).
 */
function valueStart(text: string, i: number): ValueStart | undefined {
  let j = i;
  while (text.charCodeAt(j) === BACKSLASH) j++;
  const quoted = isQuoteChar(text[j]);
  if (quoted) {
    i = j + 1;
    if (text[i] === "]") i++;
  } else {
    ARRAY_AT.lastIndex = i;
    if (ARRAY_AT.test(text)) i = ARRAY_AT.lastIndex;
  }
  const at = skipBlanksAndAnsi(text, i);
  const char = text[at];
  const next = text[at + 1];
  let end;
  let colon = false;
  if ((char === ":" && next === "=") || (char === "=" && next === ">")) end = at + 2;
  else if (char === ":" && next !== ":") [end, colon] = [at + 1, true];
  else if (char === "=" && next !== "=") end = at + 1;
  else if (char === "%" && stickyEnd(ESCAPED_SEPARATOR_AT, text, at) >= 0) end = at + 3;
  else if (quoted && at > i) end = stickyEnd(VALUE_ATTRIBUTE_AT, text, at);
  if (end === undefined || end < 0) return undefined;
  return { start: skipBlanksAndAnsi(text, end), colon };
}

/** Where the sticky `pattern` ends when it matches at `i`, or -1. */
function stickyEnd(pattern: RegExp, text: string, i: number): number {
  pattern.lastIndex = i;
  return pattern.test(text) ? pattern.lastIndex : -1;
}

function isQuoteChar(char: string | undefined): boolean {
  return char === '"' || char === "'" || char === "`";
}

// A type between a name's `:` and an `=` (`api_key: SecretStr = "…"`,
// `token: string | undefined = "…"`): the value is what follows the `=`, and
// the type stays. A type has no digit, so that a credential (`api_key: a1b2c3
// = x`) is never taken for one. A space before the `=` and a space or a quote
// after it are required, as in every style guide, so that `api_key:A=0AAAAA`
// stays one value and `token: Bearer =abc…` stays a Bearer token. Every part
// of the pattern is bounded, so trying it costs a constant; the blanks and
// the `=` after it are read by `typedValueStart`.
const TYPE = String.raw`(?:&(?:'[A-Za-z_]{1,32}[ \t]{1,16})?(?:mut[ \t]{1,16})?)?` +
  String.raw`[A-Za-z_][A-Za-z_.]{0,63}(?:\[[A-Za-z_., |[\]]{0,64}\])?`;
const TYPE_AT = new RegExp(String.raw`${TYPE}(?:[ \t]{0,16}\|[ \t]{0,16}${TYPE}){0,4}`, "y");

/** Where the value after a type that starts at `i` starts, if one is there. */
function typedValueStart(text: string, i: number): number | undefined {
  TYPE_AT.lastIndex = i;
  if (!TYPE_AT.test(text)) return undefined;
  const typeEnd = TYPE_AT.lastIndex;
  const equals = blanksEnd(text, typeEnd);
  if (equals === typeEnd || text[equals] !== "=") return undefined;
  const after = text[equals + 1];
  const spaced = after === undefined || after === " " || after === "\t" ||
    after === "\\" || isQuoteChar(after);
  return spaced ? blanksEnd(text, equals + 1) : undefined;
}

// An ANSI colour sequence at the start of a value, raw or written as an
// escape (at up to four levels of JSON escaping): it stays, and the value is
// read after it.
// deno-lint-ignore no-control-regex -- ESC starts the sequence
const ANSI_AT = /(?:\x1b|\\{1,15}(?:u001[Bb]|x1[Bb]|033|e))\[[0-9;]{0,32}[A-Za-z]/y;

// An unquoted value ends where prose or syntax resumes. `[` is excluded, so
// the marker can never be read as a value; ESC, so a colour sequence after a
// value stays. An `&` ends it only before another `name=` pair (a query
// string or a form body; `&amp;` too): see `readUnquoted`.
// deno-lint-ignore no-control-regex -- ESC ends a value
const UNQUOTED_VALUE = /[^\s"'`,;&<>(){}[\]\\\x1b]*/y;
const PAIR_AFTER_AMPERSAND = /(?:amp;)?[\w.%[\]-]{1,256}=/y;

// A quoted value: the opening quote with the backslashes before it (7 when
// JSON was escaped three times), then everything up to the same quote with
// exactly as many backslashes, or to the end of the line. A backslash run is
// read whole, so the content splits one way only: see `readQuoted`.
const MAX_ESCAPES = 7;

// What makes an unquoted value look like a credential rather than a word.
const CREDENTIAL_MARK = /[0-9_+/=~!@#$%^*|?]|.[A-Z]/;
const MIN_UNQUOTED_LENGTH = 6;

/** A value read after a name and a separator. */
interface Value {
  /** Index just past the value and the quote that closes it. */
  end: number;
  /** What to replace, when the value goes. */
  secret: Span | undefined;
  /** Whether the value is quoted. */
  quoted: boolean;
  /** Whether nothing was read: an empty run, or a lone opening quote. */
  empty: boolean;
}

/**
 * Whether the name that ends at `end` is an `Authorization` one: no other
 * alternative of `NAME` ends with these letters, so the match needs no
 * capture (read without allocating one).
 */
function endsAuthorization(text: string, end: number): boolean {
  const start = end - AUTHORIZATION.length;
  if (start < 0) return false;
  for (let i = 0; i < AUTHORIZATION.length; i++) {
    if ((text.charCodeAt(start + i) | 0x20) !== AUTHORIZATION.charCodeAt(i)) return false;
  }
  return true;
}

const AUTHORIZATION = "authorization";

function collectAssignments(text: string, spans: Span[]): void {
  NAME.lastIndex = 0;
  let end = 0;
  let inQuoted = false;
  while (NAME.test(text)) {
    // An `Authorization` name is not an assignment's: its value keeps its
    // scheme word. The search goes on after it.
    if (endsAuthorization(text, NAME.lastIndex)) {
      const credential = authorizationCredential(text, NAME.lastIndex);
      if (credential !== undefined) spans.push(credential);
      continue;
    }
    // The next name may begin inside this one's separator (`secret:\\token:`
    // reads as an escaped tab), so the search goes on from this name's end,
    // where `exec` leaves it.
    const found = valueStart(text, NAME.lastIndex);
    if (found === undefined) continue;
    const { start, colon } = found;
    if (start >= end) {
      const value = readAssigned(text, start, colon);
      if (value.secret !== undefined) spans.push(value.secret);
      end = value.end;
      inQuoted = value.quoted && value.secret !== undefined;
    } else if (inQuoted && quoteAt(text, start) !== undefined) {
      end = Math.max(end, readNested(text, start, end, spans));
    }
    // Any other value starting inside one already read goes with it, or is
    // the suffix of a run that does not look like a credential, so neither
    // does it. Skipping it keeps the pass linear on `token=token=token=…`.
  }
}

/**
 * The value after a name's separator: after a `:`, a type, spaces and an
 * `=`, the value is what follows the `=` and the type stays. When nothing
 * follows the `=` (`api_key:A0b1c2 = `, or only a quote that opens nothing,
 * as when the text is a JSON string), what looked like a type is the value.
 * The marker after the `=` counts as a value, so a second pass reads the
 * same.
 */
function readAssigned(text: string, start: number, colon: boolean): Value {
  if (colon) {
    const typed = typedValueStart(text, start);
    if (typed !== undefined) {
      const at = skipAnsi(text, typed);
      const value = readValue(text, at);
      const found = !value.empty || text.startsWith(MARKER, at);
      if (found) return value;
    }
  }
  return readValue(text, skipAnsi(text, start));
}

/** Where a value begins: past an ANSI colour sequence, which stays. */
function skipAnsi(text: string, start: number): number {
  ANSI_AT.lastIndex = start;
  return ANSI_AT.test(text) ? ANSI_AT.lastIndex : start;
}

// A quoted value that starts inside a quoted one may reach past it. Only the
// part past the first goes: its closing quote stays, so the first reads the
// same on a second pass and redaction stays idempotent.
function readNested(text: string, start: number, end: number, spans: Span[]): number {
  const value = readValue(text, start);
  if (value.secret !== undefined && value.secret[1] > end) {
    spans.push([Math.max(value.secret[0], end), value.secret[1]]);
  }
  return value.end;
}

function readValue(text: string, start: number): Value {
  return quoteAt(text, start) === undefined ? readUnquoted(text, start) : readQuoted(text, start);
}

/** The quote a value starts with, after at most `MAX_ESCAPES` backslashes. */
function quoteAt(text: string, start: number): string | undefined {
  let i = start;
  while (text.charCodeAt(i) === BACKSLASH && i - start <= MAX_ESCAPES) i++;
  const char = text[i];
  return i - start <= MAX_ESCAPES && isQuoteChar(char) ? char : undefined;
}

/**
 * A quoted value at `start` (its opening quote after `level` backslashes):
 * its content runs to the same quote after exactly `level` backslashes (the
 * closing quote), to a bare quote (which ends it too, and is kept), or to
 * the end of the line.
 */
function readQuoted(text: string, start: number): Value {
  let from = start;
  while (text.charCodeAt(from) === BACKSLASH) from++;
  const level = from - start;
  const quote = text.charCodeAt(from);
  from++;
  let i = from;
  let contentEnd = -1;
  let end = -1;
  let closed = false;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (code === 0x0a || code === 0x0d) break;
    if (code === quote) {
      // A bare quote: the closing one when the value has no backslash before
      // its opening quote; otherwise it ends the value all the same.
      [contentEnd, end, closed] = [i, i + 1, level === 0];
      break;
    }
    if (code !== BACKSLASH) {
      i++;
      continue;
    }
    let j = i + 1;
    while (text.charCodeAt(j) === BACKSLASH) j++;
    if (text.charCodeAt(j) !== quote) {
      i = j;
    } else if (j - i === level) {
      [contentEnd, end, closed] = [i, j + 1, true];
      break;
    } else {
      i = j + 1;
    }
  }
  if (contentEnd < 0) [contentEnd, end] = [i, i];
  const secret: Span | undefined = contentEnd === from ? undefined : [from, contentEnd];
  return { end, secret, quoted: true, empty: contentEnd === from && !closed };
}

/**
 * An unquoted value: a run up to a character that ends it, going on through
 * an `&` that does not start another `name=` pair (`password=abc&def123` is
 * one value; `token=abc123&x=1` stops before `&x=1`).
 */
function readUnquoted(text: string, start: number): Value {
  let end = unquotedRunEnd(text, start);
  while (text.charCodeAt(end) === 0x26) {
    PAIR_AFTER_AMPERSAND.lastIndex = end + 1;
    if (PAIR_AFTER_AMPERSAND.test(text)) break;
    const next = unquotedRunEnd(text, end + 1);
    if (next === end + 1) break; // nothing after the `&` to carry on with
    end = next;
  }
  const value = text.slice(start, end);
  const credential = value.length >= MIN_UNQUOTED_LENGTH && CREDENTIAL_MARK.test(value);
  return {
    end,
    secret: credential ? [start, end] : undefined,
    quoted: false,
    empty: end === start,
  };
}

function unquotedRunEnd(text: string, start: number): number {
  UNQUOTED_VALUE.lastIndex = start;
  UNQUOTED_VALUE.test(text);
  return UNQUOTED_VALUE.lastIndex;
}
