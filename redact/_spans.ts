// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// The shapes `redact` looks for, as ranges of the original text, so that a
// caller may read a redaction in part (its head, its size) without building
// the whole redacted text.

/** What every redacted secret becomes (exported as `REDACTED_SECRET`). */
export const MARKER = "[REDACTED_SECRET]" as const;

/** A range of text to replace: `[start, end)`. */
export type Span = [start: number, end: number];

// Every shape contains one of these, so text without any (most events) costs
// one scan and no allocation.
const TRIGGER =
  /sk-|AKIA|bearer|key|token|secret|passw|gh[pousr]_|github_pat_|xox[abprs]-|k_live_|k_test_|AIza|glpat-|eyJ|authorization|:\/\//i;

/**
 * The ranges of `text` that {@linkcode redactedPieces} replaces, in order of
 * their start; none for text without a secret.
 *
 * Every shape is found on the original text and the found ranges are merged
 * before anything is replaced: a match of one shape can then never hide (by
 * replacing its start) the rest of a secret of another shape.
 */
export function secretSpans(text: string): Span[] {
  const spans: Span[] = [];
  if (!TRIGGER.test(text)) return spans;
  collectAssignments(text, spans);
  collectTokens(text, spans);
  return spans.sort((a, b) => a[0] - b[0]);
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

// Character classes, as bits of a table of the ASCII code points: a run of
// one class is read with a loop, never with a regular expression, so that no
// run (of any length) can grow a backtracking stack.
const ALNUM = 1; // A-Z a-z 0-9
const WORD = 2; // A-Z a-z 0-9 _
const KEY = 4; // A-Z a-z 0-9 _ -
const TOKEN = 8; // A-Z a-z 0-9 _ - . ~ + / =
const UPPER_OR_DIGIT = 16; // A-Z 0-9
const TOKEN_MARK = 32; // A-Z 0-9 _ ~ + / =
const SLACK = 64; // A-Z a-z 0-9 -
const DIGIT = 128; // 0-9

const CLASSES = new Uint8Array(128);
for (let code = 0; code < 128; code++) {
  const char = String.fromCharCode(code);
  let bits = 0;
  if (/[A-Za-z0-9]/.test(char)) bits |= ALNUM | WORD | KEY | TOKEN;
  if (char === "_") bits |= WORD | KEY | TOKEN | TOKEN_MARK;
  if (/[A-Za-z0-9-]/.test(char)) bits |= SLACK;
  if (/[0-9]/.test(char)) bits |= DIGIT;
  if (char === "-") bits |= KEY | TOKEN;
  if (/[.~+/=]/.test(char)) bits |= TOKEN;
  if (/[A-Z0-9]/.test(char)) bits |= UPPER_OR_DIGIT | TOKEN_MARK;
  if (/[~+/=]/.test(char)) bits |= TOKEN_MARK;
  CLASSES[code] = bits;
}

/** Whether the code unit at `i` is of class `bits`. */
function isClass(text: string, i: number, bits: number): boolean {
  const code = text.charCodeAt(i);
  return code < 128 && (CLASSES[code]! & bits) !== 0;
}

/** The end of the run of class `bits` that starts at `i`. */
function runEnd(text: string, i: number, bits: number): number {
  while (isClass(text, i, bits)) i++;
  return i;
}

/** Whether `text[start, end)` holds a character of class `bits`. */
function holds(text: string, start: number, end: number, bits: number): boolean {
  for (let i = start; i < end; i++) if (isClass(text, i, bits)) return true;
  return false;
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

// Shapes 1 to 3 in one pass. A word boundary is also the end of an escape:
// a key may follow `\n` or `\u003c` in JSON text (the letter or hex digit
// before it ends the escape, at any depth of escaping since only the last
// backslash counts), or an ANSI colour sequence, raw (`\x1b[31m`) or written
// as an escape (`\u001b[31m`, `\x1b[31m`, `\033[31m`, `\e[31m`). Hence the
// nested lookbehinds: the character before a shape may be a word character
// only when one of these ends with it. The pattern finds only where a shape
// starts, and its body (a run) is read by `runEnd`: a failed candidate then
// consumes nothing but its prefix, and a run can follow at most one
// candidate, so the pass stays linear.
const ESCAPE_BEFORE = String.raw`\\|\\u[0-9A-Fa-f]{3}|%[0-9A-Fa-f]|` +
  String.raw`(?:\x1b|\\u001[Bb]|\\x1[Bb]|\\033|\\e)\[[0-9;]{0,32}`;
const BEARER = "[Bb][Ee][Aa][Rr][Ee][Rr]";

/** `prefix`, not right after a character of `before` unless an escape ends there. */
function atBoundary(prefix: string, before: string): string {
  return String.raw`${prefix}(?<!(?<!${ESCAPE_BEFORE})${before}${prefix})`;
}

const TOKEN_STARTS = new RegExp(
  [
    `(?<sk>${atBoundary("sk-", String.raw`[A-Za-z0-9_\-]`)})`,
    `(?<akia>${atBoundary("AKIA", String.raw`\w`)})`,
    `(?<bearer>${atBoundary(BEARER, String.raw`\w`)})`,
    `(?<github>${atBoundary("gh[pousr]_", String.raw`\w`)})`,
    `(?<githubPat>${atBoundary("github_pat_", String.raw`\w`)})`,
    `(?<slack>${atBoundary("xox[abprs]-", String.raw`[\w\-]`)})`,
    `(?<stripe>${atBoundary("[rs]k_(?:live|test)_", String.raw`\w`)})`,
    `(?<google>${atBoundary("AIza", String.raw`[\w\-]`)})`,
    `(?<gitlab>${atBoundary("glpat-", String.raw`[\w.\-]`)})`,
    `(?<jwt>${atBoundary("eyJ", String.raw`[\w\-]`)})`,
    `(?<authorization>${anyCase("authorization")})`,
    `(?<url>://)`,
  ].join("|"),
  "g",
);

/** `word` in any case, as a pattern. */
function anyCase(word: string): string {
  return [...word].map((c) => `[${c.toUpperCase()}${c.toLowerCase()}]`).join("");
}

function collectTokens(text: string, spans: Span[]): void {
  TOKEN_STARTS.lastIndex = 0;
  let match;
  while ((match = TOKEN_STARTS.exec(text)) !== null) {
    // The search goes on after the prefix, even when a token was found: a
    // run taken for a Bearer token may hold the name of an `Authorization`
    // header, and a URL's user name a GitHub token. The ranges are merged.
    const span = tokenAt(text, match.index, TOKEN_STARTS.lastIndex, match.groups!);
    if (span !== undefined) spans.push(span);
  }
}

/** A run of class `bits` at `start`, of at least `min` characters, holding a `mark`. */
function markedRunEnd(text: string, start: number, bits: number, min: number, mark = 0): number {
  const end = runEnd(text, start, bits);
  const long = end - start >= min;
  return long && (mark === 0 || holds(text, start, end, mark)) ? end : -1;
}

/** The span `[start, end)`, or none when `end` is -1. */
function spanTo(start: number, end: number): Span | undefined {
  return end < 0 ? undefined : [start, end];
}

/** The span of the token whose prefix is `text[start, end)`, if it has a body. */
function tokenAt(
  text: string,
  start: number,
  end: number,
  groups: Record<string, string | undefined>,
): Span | undefined {
  // `sk-`: at least 20 key characters holding a digit or a capital.
  if (groups.sk !== undefined) {
    return spanTo(start, markedRunEnd(text, end, KEY, 20, UPPER_OR_DIGIT));
  }
  // `AKIA`: exactly 16 capitals or digits, then the end of a word.
  if (groups.akia !== undefined) {
    let i = end;
    while (i < end + 16 && isClass(text, i, UPPER_OR_DIGIT)) i++;
    return i === end + 16 && !isClass(text, i, WORD) ? [start, i] : undefined;
  }
  // A Bearer token: `Bearer` and the blanks after it stay.
  if (groups.bearer !== undefined) {
    const from = blanksEnd(text, end);
    return from === end ? undefined : spanTo(from, markedRunEnd(text, from, TOKEN, 8, TOKEN_MARK));
  }
  // GitHub: `ghp_` and the like, at least 36 letters or digits holding a
  // digit or a capital (so that `ghp_xxxx…` placeholders stay).
  if (groups.github !== undefined) {
    return spanTo(start, markedRunEnd(text, end, ALNUM, 36, UPPER_OR_DIGIT));
  }
  // GitHub: `github_pat_`, at least 22 of letters, digits and `_` holding a
  // digit or a capital.
  if (groups.githubPat !== undefined) {
    return spanTo(start, markedRunEnd(text, end, WORD, 22, UPPER_OR_DIGIT));
  }
  // Slack: `xoxb-` and the like, at least 10 of letters, digits and `-`,
  // holding a digit.
  if (groups.slack !== undefined) return spanTo(start, markedRunEnd(text, end, SLACK, 10, DIGIT));
  // Stripe: `sk_live_` and the like, at least 16 letters or digits holding a
  // digit or a capital.
  if (groups.stripe !== undefined) {
    return spanTo(start, markedRunEnd(text, end, ALNUM, 16, UPPER_OR_DIGIT));
  }
  // Google: `AIza`, exactly 35 key characters holding a digit or a capital
  // (a longer run is not a key).
  if (groups.google !== undefined) {
    const run = markedRunEnd(text, end, KEY, 35, UPPER_OR_DIGIT);
    return run - end === 35 ? [start, run] : undefined;
  }
  // GitLab: `glpat-`, at least 20 key characters holding a digit or a
  // capital, then further runs after single dots (the newer `glpat-….01.…`
  // form); a dot at the end stays.
  if (groups.gitlab !== undefined) {
    let run = markedRunEnd(text, end, KEY, 20, UPPER_OR_DIGIT);
    while (run >= 0 && text[run] === "." && isClass(text, run + 1, KEY)) {
      run = runEnd(text, run + 1, KEY);
    }
    return spanTo(start, run);
  }
  if (groups.jwt !== undefined) return spanTo(start, jwtEnd(text, start));
  if (groups.authorization !== undefined) return authorizationCredential(text, end);
  return urlPassword(text, start);
}

/**
 * The end of a JWT at `start`: three base64url segments joined by dots, the
 * first two starting `eyJ` (an encoded `{"`) and at least 10 characters
 * long, the third (the signature) possibly empty, as in an unsigned token.
 */
function jwtEnd(text: string, start: number): number {
  const header = markedRunEnd(text, start, KEY, 10);
  if (header < 0 || text[header] !== "." || !text.startsWith("eyJ", header + 1)) return -1;
  const payload = markedRunEnd(text, header + 1, KEY, 10);
  if (payload < 0 || text[payload] !== ".") return -1;
  return runEnd(text, payload + 1, KEY);
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
  return spanTo(from, markedRunEnd(text, from, TOKEN, 8, TOKEN_MARK));
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
 * authority runs from the `://` (after a scheme character) to a space, a
 * control character, one of `/ ? # " ' \ < >` or a backtick; the user info
 * ends at its last `@` and the password starts after its first `:`. Only the
 * password goes: `https://host:8080/` and `ssh://git@host` have none.
 */
function urlPassword(text: string, at: number): Span | undefined {
  if (!isClass(text, at - 1, ALNUM) && !"+.-".includes(text[at - 1] ?? "_")) return undefined;
  let colon = -1;
  let lastAt = -1;
  let i = at + 3;
  for (; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code <= 0x20 || code === 0x7f || ENDS_AUTHORITY.includes(text[i]!)) break;
    if (code === 0x40) lastAt = i;
    else if (code === 0x3a && colon < 0) colon = i;
  }
  return colon >= 0 && lastAt > colon + 1 ? [colon + 1, lastAt] : undefined;
}

const ENDS_AUTHORITY = "/?#\"'`\\<>";

// Shape 4, the name; the separator after it is read by `valueStart` and the
// value from where that ends. A name needs no boundary before its keyword
// (names that end in one count) but must end at the keyword: the separator
// follows it, after an optional closing quote or C array brackets. `::` (a
// path) and `==` (a comparison) are not separators. The `]` is only allowed
// after a quote (`headers["x-api-key"] =`) or a `[` (`API_KEY[] =`) so that
// the marker's own `SECRET]` never reads as a name.
const NAME = /api[_-]?key|token|secret(?:[_-]?(?:access[_-]?)?key)?|passw(?:or)?d/gi;

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

function collectAssignments(text: string, spans: Span[]): void {
  NAME.lastIndex = 0;
  let end = 0;
  let inQuoted = false;
  while (NAME.exec(text) !== null) {
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
