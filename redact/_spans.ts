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
const TRIGGER = /sk-|AKIA|bearer|key|token|secret|passw/i;

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

// Shapes 1 to 3 in one pass. A word boundary is also the end of an escape:
// a key may follow `\n` or `\u003c` in JSON text (the letter or hex digit
// before it ends the escape, at any depth of escaping since only the last
// backslash counts), or an ANSI colour sequence, raw (`\x1b[31m`) or written
// as an escape (`\u001b[31m`, `\x1b[31m`, `\033[31m`, `\e[31m`). Hence the
// nested lookbehinds: the character before a shape may be a word character
// only when one of these ends with it. Validity is checked in lookaheads so
// that a failed candidate consumes nothing; each lookahead scans one maximal
// run, and a run can start at most one candidate, so the pass stays linear.
const ESCAPE_BEFORE = String.raw`\\|\\u[0-9A-Fa-f]{3}|` +
  String.raw`(?:\x1b|\\u001[Bb]|\\x1[Bb]|\\033|\\e)\[[0-9;]{0,32}`;
const BEARER = "[Bb][Ee][Aa][Rr][Ee][Rr]";
const TOKEN_SHAPES = new RegExp(
  [
    String
      .raw`sk-(?<!(?<!${ESCAPE_BEFORE})[A-Za-z0-9_\-]sk-)(?=[A-Za-z0-9_\-]*[A-Z0-9])[A-Za-z0-9_\-]{20,}`,
    String.raw`AKIA(?<!(?<!${ESCAPE_BEFORE})\wAKIA)[A-Z0-9]{16}\b`,
    String.raw`(${BEARER}(?<!(?<!${ESCAPE_BEFORE})\w${BEARER})(?:[ \t]|\\+t)+)` +
    String.raw`(?=[\w.~+/=\-]*[A-Z0-9_~+/=])[\w.~+/=\-]{8,}`,
  ].join("|"),
  "g",
);

function collectTokens(text: string, spans: Span[]): void {
  TOKEN_SHAPES.lastIndex = 0;
  let match;
  while ((match = TOKEN_SHAPES.exec(text)) !== null) {
    // For a Bearer token, `Bearer ` stays.
    const start = match.index + (match[1]?.length ?? 0);
    spans.push([start, match.index + match[0].length]);
  }
}

// Shape 4, the name and separator; the value is read from where this match
// ends. A name needs no boundary before its keyword (names that end in one
// count) but must end at the keyword: the separator follows it, after an
// optional closing quote. `::` (a path) and `==` (a comparison) are not
// separators. The `]` is only allowed after a quote (`headers["x-api-key"] =`)
// so that the marker's own `SECRET]` never reads as a name.
const NAME_AND_SEPARATOR =
  /(api[_-]?key|token|secret(?:[_-]?(?:access[_-]?)?key)?|passw(?:or)?d)(?:\\*["'`]\]?)?(?:[ \t]|\\+t)*(:=|=>|:(?!:)|=(?!=))(?:[ \t]|\\+t)*/gi;

// A type between a name's `:` and an `=` (`api_key: SecretStr = "…"`,
// `token: string | undefined = "…"`): the value is what follows the `=`, and
// the type stays. A type has no digit, so that a credential (`api_key: a1b2c3
// = x`) is never taken for one. A space before the `=` and a space or a quote
// after it are required, as in every style guide, so that `api_key:A=0AAAAA`
// stays one value and `token: Bearer =abc…` stays a Bearer token. Every part
// is bounded, so trying it costs a constant.
const TYPE = String.raw`[A-Za-z_][A-Za-z_.]{0,63}(?:\[[A-Za-z_., |[\]]{0,64}\])?`;
const TYPED = new RegExp(
  String.raw`${TYPE}(?:[ \t]*\|[ \t]*${TYPE}){0,4}(?:[ \t]|\\+t)+=(?=[ \t"'\`\\]|$)(?:[ \t]|\\+t)*`,
  "y",
);

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
// one token, so the content splits one way only and nothing backtracks.
const MAX_ESCAPES = 7;
const DOUBLE_QUOTED_VALUE = quotedValue('"');
const SINGLE_QUOTED_VALUE = quotedValue("'");
const BACKTICK_QUOTED_VALUE = quotedValue("`");

/** The sticky pattern of a value quoted with `q` at any escape level. */
function quotedValue(q: string): RegExp {
  return new RegExp(
    String
      .raw`(\\{0,${MAX_ESCAPES}})${q}((?:[^\\${q}\r\n]|\\+(?![\\${q}])|(?!\1${q})\\+${q})*)((?:\1${q})?)`,
    "y",
  );
}

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
  NAME_AND_SEPARATOR.lastIndex = 0;
  let end = 0;
  let inQuoted = false;
  let match;
  while ((match = NAME_AND_SEPARATOR.exec(text)) !== null) {
    const start = NAME_AND_SEPARATOR.lastIndex;
    // The next name may begin inside this one's separator (`secret:\\token:`
    // reads as an escaped tab), so the search goes on from this name's end.
    NAME_AND_SEPARATOR.lastIndex = match.index + match[1]!.length;
    if (start >= end) {
      const value = readAssigned(text, start, match[2] === ":");
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
    TYPED.lastIndex = start;
    if (TYPED.test(text)) {
      const at = skipAnsi(text, TYPED.lastIndex);
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
  const quote = quoteAt(text, start);
  if (quote === '"') return readQuoted(DOUBLE_QUOTED_VALUE, text, start);
  if (quote === "'") return readQuoted(SINGLE_QUOTED_VALUE, text, start);
  if (quote === "`") return readQuoted(BACKTICK_QUOTED_VALUE, text, start);
  return readUnquoted(text, start);
}

/** The quote a value starts with, after at most `MAX_ESCAPES` backslashes. */
function quoteAt(text: string, start: number): string | undefined {
  let i = start;
  while (text.charCodeAt(i) === 0x5c && i - start <= MAX_ESCAPES) i++;
  const char = text[i];
  const isQuote = char === '"' || char === "'" || char === "`";
  return i - start <= MAX_ESCAPES && isQuote ? char : undefined;
}

function readQuoted(pattern: RegExp, text: string, start: number): Value {
  pattern.lastIndex = start;
  // Cannot fail: the opening quote is there and every other part is optional.
  const match = pattern.exec(text)!;
  const [all, opening = "", content = "", closing = ""] = match;
  const quote = text[start + opening.length];
  const from = start + opening.length + 1;
  const secret: Span | undefined = content === "" ? undefined : [from, from + content.length];
  // Without its closing quote, the value may stop at a bare quote (`"` ends
  // `\"…`): that quote counts as its end too, so that it is kept.
  let end = start + all.length;
  if (closing === "" && text[end] === quote) end++;
  return { end, secret, quoted: true, empty: content === "" && closing === "" };
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
