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
// prose seldom holds, reads the letters from there and then looks back for
// the whole prefix, so that V8 tries few places and turns most of them down
// at its first check: a word at its rarest letter (the index beside it), a
// cased prefix at `-`, `_`, `:`, `b`, `q`, `z` or `J`, a shared access
// signature at the `=` of its `sig=`. The alternatives that start with the
// same character are one, tried once where that character is. V8 searches
// such a pattern fast only while few characters (16 at most) can start it: a
// new shape's trigger starts with one already there. The most frequent
// characters come first.
const TRIGGER_WORDS: [word: string, rarest: number][] = [
  ["secret", 2],
  ["AKIA", 1],
  ["apikey", 3],
  ["api_key", 4],
  ["api-key", 4],
  // Azure's key names (`AccountKey`, `SharedAccessKey`, `account_key`).
  ["accountkey", 7],
  ["accesskey", 6],
  ["account_key", 8],
  ["account-key", 8],
  ["access_key", 7],
  ["access-key", 7],
  ["token", 2],
  ["passw", 4],
  ["bearer", 0],
  ["authorization", 7],
];
// A URL counts only with a password in its authority (a `:` with something
// between it and an `@`, all of it of what `urlCredential` reads), or a key
// as its user name (a Sentry DSN: see `isKeyUser`): most text that holds a
// URL then costs this one scan, not every pass.
const AUTHORITY_ENDS = String.raw`\x00-\x20\x7f/?#"'` + "`" + String.raw`\\<>`;
const URL_WITH_PASSWORD = String.raw`[^${AUTHORITY_ENDS}:]*:[^${AUTHORITY_ENDS}]+@`;
const URL_WITH_KEY = String.raw`[\w\-]{20}[\w\-]*@`;
// The MySQL and MariaDB clients, whose names are lower case. A Google key's
// `AIza` is found at its `z`, which a word's trigger starts with too; an
// `sk-` key (in any case) at its `-`, as Slack's and GitLab's prefixes.
const CASED_TRIGGER = [
  String.raw`:\/\/(?:${URL_WITH_PASSWORD}|${URL_WITH_KEY})`,
  String.raw`-(?<=[sS][kK]-|xox[abprs]-|glpat-)`,
  String.raw`_(?:pat_|live_|test_|(?<=gh[pousr]_))`,
  String.raw`b(?<=mariadb)`,
  String.raw`ql(?<=mysql)`,
  String.raw`za(?<=AIza)`,
  String.raw`J(?<=eyJ)`,
].join("|");
// Built on the first search, not at import: a grader run (which imports the redactor through
// the kit and rarely redacts) would pay for the pattern's text at start-up.
let trigger: RegExp | undefined;

/**
 * Where the passes that find the shapes may start: before the first trigger
 * in `text` by as much as any shape's match may start before its trigger's
 * (see {@linkcode TRIGGER_LEAD}); -1 when `text` holds no trigger of any
 * shape. A shape's match holds its trigger, so none starts earlier: text
 * before the first trigger (most of a long output that names a key once, near
 * its end) is scanned once, not by every pass.
 */
function passesStart(text: string): number {
  const first = text.search(trigger ??= triggerPattern());
  return first === -1 ? -1 : Math.max(0, first - TRIGGER_LEAD);
}

/**
 * At least how far before where the trigger pattern matches a shape's match
 * may start: a trigger matches at its word's rarest letter, at a cased
 * prefix's `_`, `-`, `z`, `J`, `q` or `b` or at the `=` of a `sig=`, at most
 * 14 units into a match (`shared_access_key`'s `k`); with two to spare. Every pass
 * scans from there to the text's end: for a key near the end of its text (a
 * line after an output), a tighter lead is a good part of what is scanned,
 * four times. A new shape whose trigger sits deeper in its match needs a
 * longer lead (`trigger_test.ts` puts each shape after plain text).
 */
const TRIGGER_LEAD = 16;

/**
 * The words and the prefixes as one pattern, so that a text is scanned once:
 * the words in a case-insensitive group (`(?i:…)`) where the engine reads
 * one, else each letter as a class of its two cases (slower, the same
 * matches).
 */
function triggerPattern(): RegExp {
  const words = (cased: (text: string) => string): string =>
    [wordTriggers(cased), signatureTrigger(cased)].join("|");
  try {
    return new RegExp(`(?i:${words((text) => text)})|${CASED_TRIGGER}`);
  } catch {
    return new RegExp(`${words(anyCase)}|${CASED_TRIGGER}`);
  }
}

/**
 * The words of {@linkcode TRIGGER_WORDS}, each from its rarest letter, then
 * looked back for whole (`cret(?<=secret)`): a match starts at that letter,
 * and the engine's first check of a place reads the letters after it too.
 * The words read from the same letter are one alternative (`k(?:…)`), and
 * those read the same way look back for any of them (`ey(?<=apikey|…)`).
 */
function wordTriggers(cased: (text: string) => string): string {
  const byFirst = new Map<string, Map<string, string[]>>();
  for (const [word, rarest] of TRIGGER_WORDS) {
    const first = word[rarest]!.toLowerCase();
    const rest = word.slice(rarest + 1).toLowerCase();
    const tails = byFirst.get(first) ?? new Map<string, string[]>();
    byFirst.set(first, tails);
    // A word read from its first letter needs no look back.
    tails.set(rest, rarest === 0 ? [] : [...tails.get(rest) ?? [], word.toLowerCase()]);
  }
  return [...byFirst].map(([first, tails]) => {
    const alternatives = [...tails].map(([rest, words]) => {
      if (words.length === 0) return cased(rest);
      const behind = words.map((word) => cased(word).replaceAll("-", "\\-")).join("|");
      return `${cased(rest)}(?<=${behind})`;
    });
    return `${cased(first)}(?:${alternatives.join("|")})`;
  }).join("|");
}

/**
 * A shared access signature's `sig=` query parameter (after `?`, `&`, `;` or
 * `\u0026`), found at its `=`: with every trigger in one pattern, a text is
 * scanned once.
 */
function signatureTrigger(cased: (text: string) => string): string {
  return String.raw`=(?<=[?&;]${cased("sig")}=|\\${cased("u0026sig")}=)`;
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
  const from = passesStart(text);
  if (from === -1) return NO_SPANS;
  // The lists are reused: a text that merely names a key or a token (many do) finds no
  // secret, and costs no allocation.
  const assignments = ASSIGNMENTS;
  const tokens = TOKENS;
  const commands = COMMANDS;
  assignments.length = 0;
  tokens.length = 0;
  commands.length = 0;
  try {
    collectAssignments(text, assignments, from);
    collectTokens(text, tokens, from);
    collectCommandPasswords(text, commands, from);
    if (assignments.length === 0 && tokens.length === 0 && commands.length === 0) {
      return NO_SPANS;
    }
    const merged = mergeByStart(assignments.slice(), tokens.slice());
    return commands.length === 0 ? merged : mergeByStart(merged, commands.slice());
  } finally {
    assignments.length = 0;
    tokens.length = 0;
    commands.length = 0;
  }
}

const ASSIGNMENTS: Span[] = [];
const TOKENS: Span[] = [];
const COMMANDS: Span[] = [];

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
 * The redacted text in order, as its pieces: a kept slice of `text`, then
 * a marker, and so on, then the rest of `text`. A slice of a long text is a
 * view of it (no copy), and a kept slice is always followed by a marker, so a
 * surrogate pair is never split between two pieces.
 */
export function redactedPieces(text: string, spans: readonly Span[]): string[] {
  // A list, not a generator: both readers take every piece, and a key-dense session has many.
  const pieces: string[] = [];
  let copied = 0;
  for (const [start, end] of spans) {
    // Overlapping ranges become one marker.
    if (start >= copied) pieces.push(text.slice(copied, start), MARKER);
    copied = Math.max(copied, end);
  }
  pieces.push(text.slice(copied));
  return pieces;
}

// The bodies of tokens. A run is a maximal run of one class of ASCII
// characters, read by a loop over a table of the class (no pattern call per
// token, and no backtracking stack grows with the run, whatever its length).
// A mark (a character the body must hold) is looked for in the same loop, as
// the pattern `[class minus mark]*[mark]` would find it.

/** What a token's body is made of, and a character it must hold, as a table of ASCII. */
interface Body {
  /** The run's characters, and those of the run up to its first mark and of the mark. */
  classes: [chars: string, unmarked: string | undefined, mark: string | undefined];
  /**
   * Per ASCII code: {@linkcode IN_RUN}, {@linkcode UNMARKED}, {@linkcode MARK} as bits. Built
   * on the first token read, not at import (a grader run seldom reads one).
   */
  table: Uint8Array | undefined;
  /** Whether the body must hold a mark. */
  marked: boolean;
}

const IN_RUN = 1;
const UNMARKED = 2;
const MARK = 4;

function body(chars: string, unmarked?: string, mark?: string): Body {
  return { classes: [chars, unmarked, mark], table: undefined, marked: mark !== undefined };
}

/**
 * The table of a body's classes, each written as a pattern's character class
 * (every one of ASCII alone), each code tested against the class itself. The
 * unmarked and the mark classes share no character, so the first unit of a
 * run that is not unmarked says whether `[unmarked]*[mark]` matches there.
 */
function bodyTable({ classes: [chars, unmarked, mark] }: Body): Uint8Array {
  const table = asciiTable(chars, IN_RUN);
  if (unmarked !== undefined) asciiTable(unmarked, UNMARKED, table);
  if (mark !== undefined) asciiTable(mark, MARK, table);
  if (table.some((bits) => (bits & (UNMARKED | MARK)) === (UNMARKED | MARK))) {
    throw new Error(
      `redact: a body's mark is among its unmarked characters: [${mark}] [${unmarked}]`,
    );
  }
  // The loop reads a run of `chars` and asks of each whether it is a mark: an unmarked or mark
  // character outside the run would be a pattern the loop does not read as the regex did.
  if (table.some((bits) => bits !== 0 && (bits & IN_RUN) === 0)) {
    throw new Error(`redact: a body's marked or unmarked characters are not all in [${chars}]`);
  }
  return table;
}

/** Every ASCII character, in order of its code. */
const ASCII = String.fromCharCode(...Array.from({ length: 128 }, (_, code) => code));

/** `table` with `bit` set at each ASCII code that the pattern class `[chars]` matches. */
function asciiTable(
  chars: string,
  bit: number,
  table: Uint8Array = new Uint8Array(128),
): Uint8Array {
  for (const char of ASCII.match(new RegExp(`[${chars}]`, "g")) ?? []) {
    table[char.charCodeAt(0)]! |= bit;
  }
  return table;
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
  const table = body.table ??= bodyTable(body);
  // Until the first unit that is not unmarked, whether the body holds a mark is not known.
  let seeking = body.marked;
  let marked = !body.marked;
  let end = start;
  for (; end < text.length; end++) {
    const code = text.charCodeAt(end);
    const bits = code < 128 ? table[code]! : 0;
    if (seeking && (bits & UNMARKED) === 0) {
      seeking = false;
      marked = (bits & MARK) !== 0;
    }
    if ((bits & IN_RUN) === 0) break;
  }
  return end - start < min || !marked ? -1 : end;
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
// escape (`\u001b[31m`, `\x1b[31m`, `\033[31m`, `\e[31m`), its parameters
// split by `;` or by `:` (the ITU form, `\x1b[38:5:196m`). Hence the nested
// lookbehinds: the character before a prefix may be a body character only
// when one of these ends with it. The patterns find only where a token
// starts, and its body (a run) is read by `bodyEnd`: a failed candidate
// consumes nothing but its prefix, and a run follows at most one candidate
// of a shape (the character before a prefix is never one of its body's; a
// JWT's segment is read by at most three), so the pass stays linear.
const ESCAPE_BEFORE = String.raw`\\|\\u[0-9A-Fa-f]{3}|%[0-9A-Fa-f]|` +
  String.raw`(?:\x1b|\\u001[Bb]|\\x1[Bb]|\\033|\\e)\[[0-9:;]{0,32}`;
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

function collectTokens(text: string, spans: Span[], from: number): void {
  for (const starts of TOKEN_STARTS) {
    starts.lastIndex = from;
    let match;
    while ((match = starts.exec(text)) !== null) {
      // The search goes on after the prefix, even when a token was found: a
      // run taken for a Bearer token may hold an `sk-` key that reaches past
      // it, and a URL's user name a GitHub token. The ranges are merged.
      const span = tokenAt(text, match.index, starts.lastIndex);
      if (span !== undefined && !isPlaceholder(text, span[0], span[1])) spans.push(span);
    }
  }
}

// A placeholder written where a key would be: a known prefix (`sk-` with up
// to two lower-case words such as `proj-` after it), then only `x`, `X`, `*`,
// `.`, `#`, `•` or `…`, at least three of them (`ghp_xxxx…`,
// `sk-proj-XXXXXXXX`, `AKIAXXXXXXXXXXXXXXXX`). It stays as written, as a
// token and as an assigned value alike.
const PLACEHOLDER_PREFIX_AT =
  /(?:gh[pousr]_|github_pat_|glpat-|xox[abprs]-|[rs]k_(?:live|test)_|sk-(?:[a-z0-9]{1,16}-){0,2}|AKIA|AIza)/y;
const PLACEHOLDER_CHARS = "xX*.#•…";
const MIN_PLACEHOLDER_RUN = 3;

/** Whether `text[start, end)` is a known prefix and a placeholder run. */
function isPlaceholder(text: string, start: number, end: number): boolean {
  // A placeholder ends in its run: a range that does not (a key) needs no search for a prefix.
  if (!PLACEHOLDER_CHARS.includes(text[end - 1] ?? "")) return false;
  const from = stickyEnd(PLACEHOLDER_PREFIX_AT, text, start);
  if (from < 0 || end - from < MIN_PLACEHOLDER_RUN) return false;
  for (let i = from; i < end; i++) {
    if (!PLACEHOLDER_CHARS.includes(text[i]!)) return false;
  }
  return true;
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
      return urlCredential(text, start);
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
 * The password of a URL's user info, `scheme://user:password@host`, or its
 * user name when that is a key (see `isKeyUser`): the authority runs from
 * the `://` (after a letter, a digit or one of `+ . -`, as the pattern
 * checked) to a space, a control character, one of `/ ? # " ' \ < >` or a
 * backtick; the user info ends at its last `@` and the password starts
 * after its first `:`. Only the password (or the key) goes:
 * `https://host:8080/` and `ssh://git@host` have none. The authority holds
 * no `/`, so no two overlap and the pass stays linear.
 */
function urlCredential(text: string, at: number): Span | undefined {
  const from = at + 3;
  AUTHORITY.lastIndex = from;
  AUTHORITY.test(text);
  const authority = text.slice(from, AUTHORITY.lastIndex);
  const lastAt = authority.lastIndexOf("@");
  const colon = authority.indexOf(":");
  if (colon >= 0 && colon + 1 < lastAt) return [from + colon + 1, from + lastAt];
  // A key ends at the first `@`, not the last: what a redaction changes after
  // it (`https://<key>@token=@h`) cannot change what a second pass reads.
  const firstAt = authority.indexOf("@");
  return isKeyUser(authority, firstAt) ? [from, from + firstAt] : undefined;
}

const MIN_KEY_USER_LENGTH = 20;

/**
 * Whether the user name `authority[0, end)` (`end` is -1 when there is
 * none) is a key rather than a name: at least 20 of `A-Z a-z 0-9 _ -`
 * holding a digit, as the public key of a Sentry DSN
 * (`https://<32 hex digits>@o1.ingest.sentry.io/2`) or a token used as a
 * user name. `git`, `anonymous` and `user` are names.
 */
function isKeyUser(authority: string, end: number): boolean {
  if (end < MIN_KEY_USER_LENGTH) return false;
  let digit = false;
  for (let i = 0; i < end; i++) {
    if (!isKeyChar(authority, i)) return false;
    const code = authority.charCodeAt(i);
    digit ||= code >= 0x30 && code <= 0x39;
  }
  return digit;
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
// `authorizationCredential`. Azure's connection strings name their keys
// `AccountKey` and `SharedAccessKey`; a shared access signature's `sig` counts
// only as a query parameter (after `?`, `&`, `;` or `\u0026`, before `=`).
const NAME =
  /api[_-]?key|token|secret(?:[_-]?(?:access[_-]?)?key)?|passw(?:or)?d|authorization|(?:account|shared[_-]?access)[_-]?key|(?<=[?&;]|\\u0026)sig(?==)/gi;

/**
 * How the value after a name is read: as an assignment's (`value`; after a
 * command-line flag, `--password=…`, whatever it looks like); as an XML
 * element's text (`<password>…</password>`, `element`); or as the token
 * after a `.netrc` `password` (`netrc`).
 */
type ValueKind = "value" | "element" | "netrc";

/** Where a value starts: after a name's closing quote, its separator and blanks. */
interface ValueStart {
  start: number;
  /** Whether the separator is `:`, after which a type may come. */
  colon: boolean;
  kind: ValueKind;
  /** For an element, the range of its name, which its closing tag repeats. */
  element?: Span;
  /** Where the name ends, when it may be a command-line flag's (before an `=`). */
  flagName?: number;
}

// C array brackets after a name (`char API_KEY[] = "…"`, `API_KEY[64]`).
const ARRAY_AT = /\[[0-9]{0,8}\]/y;
// An attribute that holds the value of the name in the one before it
// (`<add key="ApiKey" value="…"/>`, `<input name="password" value="…">`).
const VALUE_ATTRIBUTE_AT = /[Vv][Aa][Ll][Uu][Ee][ \t]{0,16}=(?!=)/y;
// A separator written as a percent escape: `%3D` (`=`) or `%3A` (`:`).
const ESCAPED_SEPARATOR_AT = /%3[AaDd]/y;
// Another `name=` pair, with a value: after an empty `password= `, it is not
// the value (`password= user=admin`, as logfmt writes an empty field).
const PAIR_AT = /[A-Za-z_][\w.\-]{0,63}=[^=\s]/y;

/**
 * The start of the value after the name that ends at `nameEnd`, if a
 * separator follows. Blanks and ANSI colour sequences may come before and
 * after the separator (as `jq -C` writes
 * `"token"ESC[0mESC[1;39m:ESC[0m ESC[0;32m"…"`). Without a separator, the
 * name may open an XML element or be a `.netrc` `password`.
 */
function valueStart(text: string, nameEnd: number): ValueStart | undefined {
  const content = elementContentStart(text, nameEnd);
  if (content !== undefined) {
    return { start: content[0], colon: false, kind: "element", element: content[1] };
  }
  let i = nameEnd;
  let j = i;
  while (text.charCodeAt(j) === BACKSLASH) j++;
  const quoted = isQuoteChar(text[j]);
  if (quoted) {
    i = j + 1;
    if (text[i] === "]") i++;
  } else if (text.charCodeAt(i) === 0x5b) {
    ARRAY_AT.lastIndex = i;
    if (ARRAY_AT.test(text)) i = ARRAY_AT.lastIndex;
  }
  const at = skipBlanksAndAnsi(text, i);
  const char = text[at];
  const next = text[at + 1];
  let end;
  let colon = false;
  let equals = false;
  if ((char === ":" && next === "=") || (char === "=" && next === ">")) end = at + 2;
  else if (char === ":" && next !== ":") [end, colon] = [at + 1, true];
  else if (char === "=" && next !== "=") [end, equals] = [at + 1, true];
  else if (char === "%" && stickyEnd(ESCAPED_SEPARATOR_AT, text, at) >= 0) end = at + 3;
  else if (quoted) end = attributeValueStart(text, nameEnd, i, at);
  if (end === undefined) {
    const netrc = quoted ? -1 : netrcValueStart(text, nameEnd);
    return netrc < 0 ? undefined : { start: netrc, colon: false, kind: "netrc" };
  }
  if (end < 0) return undefined;
  const start = skipBlanksAndAnsi(text, end);
  // `password= user=admin`: an empty field, as logfmt writes one (no blank
  // before the `=`, one after it), then another pair.
  const emptyField = equals && at === i && start > end && stickyEnd(PAIR_AT, text, start) >= 0;
  if (emptyField) return undefined;
  if (!equals || quoted) return { start, colon, kind: "value" };
  // A blank after a flag's `=` ends the argument: `--password= app` is empty.
  // Whether the name is a flag's is looked at only when its value is read:
  // a name inside a value already read (`token=token=…`) costs no more.
  if (start > end && isFlagName(text, nameEnd)) return undefined;
  return { start, colon, kind: "value", flagName: nameEnd };
}

// An attribute of a tag, with its value if it has one (`name="pw"`,
// `required`), and the blanks after it. Every part is bounded, so trying it
// costs a constant.
const ATTRIBUTE_AT = new RegExp(
  String.raw`[\w:.\-]{1,64}(?:[ \t]{0,16}=[ \t]{0,16}(?:\\{0,7}"[^"\r\n]{0,256}"|` +
    String.raw`\\{0,7}'[^'\r\n]{0,256}'|[^\s"'=<>\x60]{1,256}))?[ \t\r\n]{1,16}`,
  "y",
);
const LINE_BLANKS_AT = /[ \t\r\n]{0,16}/y;
// The end of `type="password"` (any case, the quote maybe escaped).
const PASSWORD_TYPE_BEFORE =
  /(?<=(?<![\w\-])[Tt][Yy][Pp][Ee][ \t]{0,16}=[ \t]{0,16}\\{0,7}["'`][Pp][Aa][Ss][Ss][Ww][Oo][Rr][Dd])/y;
const MAX_SKIPPED_ATTRIBUTES = 8;

/**
 * After a quoted name that ends at `nameEnd` (its closing quote ends at `i`,
 * the blanks after it at `at`), the start of an attribute `value=` that
 * holds its value: the next attribute (`<add key="ApiKey" value="…"/>`,
 * `<input name="password" value="…">`), or after `type="password"` one of
 * the next eight (`<input type="password" name="pw" value="…">`); -1 when
 * there is none.
 */
function attributeValueStart(text: string, nameEnd: number, i: number, at: number): number {
  const next = at > i ? stickyEnd(VALUE_ATTRIBUTE_AT, text, at) : -1;
  if (next >= 0 || stickyEnd(PASSWORD_TYPE_BEFORE, text, nameEnd) < 0) return next;
  let attribute = stickyEnd(LINE_BLANKS_AT, text, i);
  if (attribute === i) return -1;
  for (let k = 0; k <= MAX_SKIPPED_ATTRIBUTES; k++) {
    const value = stickyEnd(VALUE_ATTRIBUTE_AT, text, attribute);
    if (value >= 0) return value;
    attribute = stickyEnd(ATTRIBUTE_AT, text, attribute);
    if (attribute < 0) return -1;
  }
  return -1;
}

const MAX_FLAG_LENGTH = 64;

/**
 * Whether the name that ends at `nameEnd` is a long command-line flag's
 * (`--password`, `--db-password`): a run of `A-Z a-z 0-9 _ -`, at most 64
 * long, that starts with exactly two dashes, at the start of the text or
 * after a blank or a quote.
 */
function isFlagName(text: string, nameEnd: number): boolean {
  const limit = Math.max(0, nameEnd - MAX_FLAG_LENGTH);
  let j = nameEnd;
  while (j > limit && isKeyChar(text, j - 1)) j--;
  // An argument starts the text or follows a blank or a quote (not the
  // marker's `]`, so that a second pass reads the same).
  const before = text[j - 1];
  const starts = j === 0 || before === " " || before === "\t" || before === "\n" ||
    before === "\r" || isQuoteChar(before);
  return starts && text.startsWith("--", j) && text[j + 2] !== "-";
}

// An XML element's name up to the keyword (`<password>`, `<db:Password>`,
// `<AccountKey>`): at most 64 of `A-Z a-z 0-9 _ . : -` after a `<`.
const MAX_ELEMENT_NAME = 64;
// The rest of an opening tag: `>`, or attributes and `>` (not `/>`).
const ELEMENT_OPEN_AT = /(?:[ \t][^<>\r\n]{0,256})?>/y;

/** Whether the code unit at `i` may be part of an XML element's name. */
function isElementNameChar(text: string, i: number): boolean {
  const code = text.charCodeAt(i);
  return isKeyChar(text, i) || code === 0x2e || code === 0x3a;
}

/**
 * When the name that ends at `nameEnd` is an XML element's, the start of its
 * text and the range of the element's name; else none.
 */
function elementContentStart(text: string, nameEnd: number): [number, Span] | undefined {
  const char = text[nameEnd];
  if (char !== ">" && char !== " " && char !== "\t") return undefined;
  const limit = Math.max(0, nameEnd - MAX_ELEMENT_NAME);
  let j = nameEnd;
  while (j > limit && isElementNameChar(text, j - 1)) j--;
  if (text[j - 1] !== "<") return undefined;
  const content = stickyEnd(ELEMENT_OPEN_AT, text, nameEnd);
  if (content < 0 || text[content - 2] === "/") return undefined;
  return [content, [j, nameEnd]];
}

// A `.netrc` password: the token after `password` (lower case, a word) in
// an entry: `machine h` or `default`, then `login u` or `account a` (one or
// both) before it (`machine h login u password p`), or `machine h` right
// before it and a `login` or `account` right after its token
// (`machine h password p login u`). The entry may span lines, the line
// breaks maybe written as JSON escapes (`\n`, at any depth). Prose such as
// "your login and password", "the default password is" or "machine learning
// password managers" stays. A token here holds no backslash, so a gap and a
// token never share a character, and the look back, bounded in every part,
// tries few ways.
const NETRC_GAP = String.raw`(?:[ \t\r\n]|\\{1,7}[ntr]){1,32}`;
const NETRC_TOKEN = String.raw`[^\s\\]{1,256}`;
const NETRC_ENTRY = String.raw`(?:(?<![\w\-])|(?<=\\[ntr]))`;
const NETRC_PAIR = String.raw`${NETRC_GAP}(?:login|account)${NETRC_GAP}${NETRC_TOKEN}`;
const NETRC_PASSWORD_AT = new RegExp(
  String.raw`(?<=${NETRC_ENTRY}(?:machine${NETRC_GAP}${NETRC_TOKEN}|default)` +
    String.raw`${NETRC_PAIR}(?:${NETRC_PAIR})?${NETRC_GAP})password[ \t]{1,64}(?=[^\s])`,
  "y",
);
const NETRC_FIRST_PASSWORD_AT = new RegExp(
  String.raw`(?<=${NETRC_ENTRY}machine${NETRC_GAP}${NETRC_TOKEN}${NETRC_GAP})` +
    String.raw`password[ \t]{1,64}(?=[^\s])`,
  "y",
);
const NETRC_PAIR_AT = new RegExp(`${NETRC_PAIR}`, "y");
const NETRC_NAME = "password";

/** Where the token after a `.netrc` `password` that ends at `nameEnd` starts, or -1. */
function netrcValueStart(text: string, nameEnd: number): number {
  const start = nameEnd - NETRC_NAME.length;
  if (start < 0 || !text.startsWith(NETRC_NAME, start)) return -1;
  const after = stickyEnd(NETRC_PASSWORD_AT, text, start);
  if (after >= 0) return after;
  const first = stickyEnd(NETRC_FIRST_PASSWORD_AT, text, start);
  if (first < 0) return -1;
  NETRC_VALUE.lastIndex = first;
  NETRC_VALUE.test(text);
  return stickyEnd(NETRC_PAIR_AT, text, NETRC_VALUE.lastIndex) >= 0 ? first : -1;
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
// escape (at up to four levels of JSON escaping), its parameters split by `;`
// or `:`: it stays, and the value is read after it.
// deno-lint-ignore no-control-regex -- ESC starts the sequence
const ANSI_AT = /(?:\x1b|\\{1,15}(?:u001[Bb]|x1[Bb]|033|e))\[[0-9:;]{0,32}[A-Za-z]/y;

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

// What makes an unquoted value look like a credential rather than a word: one of these, or a
// capital after its first character (read by `hasCredentialMark`, as the pattern
// `[0-9_+/=~!@#$%^*|?]|.[A-Z]` would).
const CREDENTIAL_CHARS = "0-9_+/=~!@#$%^*|?";
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

function collectAssignments(text: string, spans: Span[], from: number): void {
  NAME.lastIndex = from;
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
    const { start } = found;
    if (start >= end) {
      const value = readAssigned(text, found);
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
function readAssigned(text: string, found: ValueStart): Value {
  const { start, colon, kind } = found;
  if (kind === "element") return readElement(text, start, found.element!);
  if (kind === "netrc") return readNetrc(text, start);
  if (found.flagName !== undefined && isFlagName(text, found.flagName)) {
    return readValue(text, skipAnsi(text, start), true);
  }
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
  // Every sequence starts with ESC or a backslash: anything else is no sequence, unsearched.
  const code = text.charCodeAt(start);
  if (code !== 0x1b && code !== BACKSLASH) return start;
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

/** A value, quoted or not; `always`: an unquoted one goes whatever it looks like. */
function readValue(text: string, start: number, always = false): Value {
  return quoteAt(text, start) === undefined
    ? readUnquoted(text, start, always)
    : readQuoted(text, start);
}

const ELEMENT_TEXT = /[^<\r\n]*/y;

/**
 * An XML element's text, from `start` to the next `<` on its line: it goes
 * whole (unless empty or a placeholder) when the element's closing tag
 * follows (`</password>`, or `<\/password>` as JSON writes it). Without one
 * it is not a value, and nothing is read, so that a name inside it is
 * looked at too.
 */
function readElement(text: string, start: number, [nameStart, nameEnd]: Span): Value {
  ELEMENT_TEXT.lastIndex = start;
  ELEMENT_TEXT.test(text);
  const end = ELEMENT_TEXT.lastIndex;
  if (!closesElement(text, end, nameStart, nameEnd)) {
    return { end: start, secret: undefined, quoted: false, empty: true };
  }
  const secret: Span | undefined = end === start || isPlaceholder(text, start, end)
    ? undefined
    : [start, end];
  return { end, secret, quoted: false, empty: end === start };
}

/** Whether the closing tag of the element named `text[nameStart, nameEnd)` is at `i`. */
function closesElement(text: string, i: number, nameStart: number, nameEnd: number): boolean {
  if (text[i] !== "<") return false;
  let j = i + 1;
  if (text.charCodeAt(j) === BACKSLASH) j++;
  if (text[j] !== "/") return false;
  j++;
  for (let k = nameStart; k < nameEnd; k++, j++) {
    if (text.charCodeAt(j) !== text.charCodeAt(k)) return false;
  }
  return text[j] === ">";
}

// A `.netrc` password token: up to a blank, a line break, a quote, a
// backslash (which, in JSON text, starts an escape such as `\n`) or a `[` (so
// that the marker is never read as one).
const NETRC_VALUE = /[^\s"'`\\[]*/y;

/** The token after a `.netrc` `password`: quoted, or a run; it goes whatever it looks like. */
function readNetrc(text: string, start: number): Value {
  if (quoteAt(text, start) !== undefined) return readQuoted(text, start);
  NETRC_VALUE.lastIndex = start;
  NETRC_VALUE.test(text);
  const end = NETRC_VALUE.lastIndex;
  const secret: Span | undefined = end === start || isPlaceholder(text, start, end)
    ? undefined
    : [start, end];
  return { end, secret, quoted: false, empty: end === start };
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
  const secret: Span | undefined = contentEnd === from || isPlaceholder(text, from, contentEnd)
    ? undefined
    : [from, contentEnd];
  return { end, secret, quoted: true, empty: contentEnd === from && !closed };
}

/**
 * An unquoted value: a run up to a character that ends it, going on through
 * an `&` that does not start another `name=` pair (`password=abc&def123` is
 * one value; `token=abc123&x=1` stops before `&x=1`). It goes when it looks
 * like a credential, or `always` when it is not empty; a placeholder stays.
 */
function readUnquoted(text: string, start: number, always: boolean): Value {
  let end = unquotedRunEnd(text, start);
  while (text.charCodeAt(end) === 0x26) {
    PAIR_AFTER_AMPERSAND.lastIndex = end + 1;
    if (PAIR_AFTER_AMPERSAND.test(text)) break;
    const next = unquotedRunEnd(text, end + 1);
    if (next === end + 1) break; // nothing after the `&` to carry on with
    end = next;
  }
  const credential = looksLikeCredential(text, start, end, always) &&
    !isPlaceholder(text, start, end);
  return {
    end,
    secret: credential ? [start, end] : undefined,
    quoted: false,
    empty: end === start,
  };
}

function looksLikeCredential(text: string, start: number, end: number, always: boolean): boolean {
  // A lone `$` is where a variable starts (`--password=${DB_PASSWORD}`): it stays.
  if (always) return end > start && !(end === start + 1 && text[start] === "$");
  return end - start >= MIN_UNQUOTED_LENGTH && hasCredentialMark(text, start, end);
}

/**
 * Whether `text[start, end)` looks like a credential (see {@linkcode CREDENTIAL_CHARS}), read unit by
 * unit (no slice, no pattern call): one of its characters, or a capital after any unit but a
 * line terminator (which `.` does not match).
 */
function hasCredentialMark(text: string, start: number, end: number): boolean {
  for (let i = start; i < end; i++) {
    const code = text.charCodeAt(i);
    if (code < 128 && (markChars ??= asciiTable(CREDENTIAL_CHARS, 1))[code] === 1) return true;
    if (i + 1 < end && code !== 0x0a && code !== 0x0d && code !== 0x2028 && code !== 0x2029) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0x41 && next <= 0x5a) return true;
    }
  }
  return false;
}

/** The characters that mark a credential (all ASCII), as a table, built on the first value read. */
let markChars: Uint8Array | undefined;

function unquotedRunEnd(text: string, start: number): number {
  UNQUOTED_VALUE.lastIndex = start;
  UNQUOTED_VALUE.test(text);
  return UNQUOTED_VALUE.lastIndex;
}

// Commands: a MySQL or MariaDB client's `-p` option holds the password
// joined to it (`mysql -u root -pS3cret db`, `mysqldump -p'…'`). The name is
// a word (a path or a JSON `\n` before it counts) and blanks follow it; its
// arguments are then read up to the end of the command.
const MYSQL_COMMAND =
  /(?:(?<![\w.\-])|(?<=\\[ntr]))(?:mysql(?:dump|admin|import|check|show|pump|slap|binlog)?|mariadb(?:-(?:dump|admin|import|check|show|slap|binlog))?)(?:\.exe\\?["']?)?(?=[ \t])/g;

function collectCommandPasswords(text: string, spans: Span[], from: number): void {
  // Every command's name holds one of these: a text without either (most) needs no search.
  if (text.indexOf("mysql", from) === -1 && text.indexOf("mariadb", from) === -1) return;
  MYSQL_COMMAND.lastIndex = from;
  while (MYSQL_COMMAND.test(text)) {
    // The search goes on after the command's arguments: a name among them
    // (`mysql -e "use mysql"`) is not read again, so the pass stays linear.
    MYSQL_COMMAND.lastIndex = readArguments(text, MYSQL_COMMAND.lastIndex, spans);
  }
}

/**
 * Whether the code unit at `i` ends a command: the end of the text, a line
 * break, a control operator, a redirection, a backtick, or backslashes that
 * start a JSON `\n` or `\r`.
 */
function endsCommand(text: string, i: number): boolean {
  if (i >= text.length) return true;
  switch (text.charCodeAt(i)) {
    case 0x0a: // \n
    case 0x0d: // \r
    case 0x7c: // |
    case 0x3b: // ;
    case 0x26: // &
    case 0x28: // (
    case 0x29: // )
    case 0x3c: // <
    case 0x3e: // >
    case 0x60: // `
      return true;
    case BACKSLASH: {
      // A JSON `\n` at any depth of escaping: only the last backslash counts.
      let j = i + 1;
      while (text.charCodeAt(j) === BACKSLASH && j - i < MAX_ESCAPES) j++;
      return text[j] === "n" || text[j] === "r";
    }
    default:
      return false;
  }
}

/** Past the blanks at `i`, and any line continuation (a backslash before a line break). */
function argumentGap(text: string, i: number): number {
  for (;;) {
    const code = text.charCodeAt(i);
    if (code === 0x20 || code === 0x09) i++;
    else if (code === BACKSLASH && text[i + 1] === "\n") i += 2;
    else if (code === BACKSLASH && text[i + 1] === "\r" && text[i + 2] === "\n") i += 3;
    else return i;
  }
}

/** The end of the argument at `i`: quoted parts are read to their quote, on the line. */
function argumentEnd(text: string, i: number): number {
  while (!endsCommand(text, i)) {
    const char = text[i];
    if (char === " " || char === "\t") return i;
    if (char === '"' || char === "'") {
      i++;
      while (i < text.length && text[i] !== char && text[i] !== "\n" && text[i] !== "\r") i++;
      if (text[i] === char) i++;
    } else {
      i += char === "\\" ? 2 : 1;
    }
  }
  return Math.min(i, text.length);
}

// The password joined to `-p`, unquoted: up to a blank, the end of the
// command, a quote, a backslash or a `[` (so that the marker is never read as
// one, as for an assignment's unquoted value).
const JOINED_PASSWORD = /[^\s"'`\\|;&()<>[]*/y;

/**
 * Reads the arguments of a command from `i` to the end of the command,
 * pushing the password of each `-p…` argument; returns where they end.
 */
function readArguments(text: string, i: number, spans: Span[]): number {
  for (;;) {
    i = argumentGap(text, i);
    if (endsCommand(text, i) || text[i] === "#") return Math.min(i, text.length);
    if (text[i] === "-" && text[i + 1] === "p") {
      const span = joinedPassword(text, i + 2);
      if (span !== undefined) spans.push(span);
    }
    i = argumentEnd(text, i);
  }
}

/** The password that starts at `start`, right after a `-p`: quoted, or a run. */
function joinedPassword(text: string, start: number): Span | undefined {
  const quote = text[start];
  if (quote === '"' || quote === "'") {
    let end = start + 1;
    while (end < text.length && text[end] !== quote && text[end] !== "\n") end++;
    return text[end] === quote && end > start + 1 ? [start + 1, end] : undefined;
  }
  JOINED_PASSWORD.lastIndex = start;
  JOINED_PASSWORD.test(text);
  const end = JOINED_PASSWORD.lastIndex;
  return end > start && !isPlaceholder(text, start, end) ? [start, end] : undefined;
}
