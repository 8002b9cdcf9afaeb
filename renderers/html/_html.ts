// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// The one way HTML is built: `markup` is a tagged template that escapes every
// value it is given, unless the value is an `Html` fragment, which only this
// module's trusted callers make (through `markup` itself, or `trusted()` for
// markup a safe library produced). No HTML is ever concatenated from strings.

/** Only this module holds it: a fragment cannot be made elsewhere but through its functions. */
const TOKEN: unique symbol = Symbol("html");

/** A piece of markup known to be safe: built by {@linkcode markup}, never from raw text. */
export class Html {
  readonly #markup: string;

  /** @param token This module's token; any other value throws. */
  constructor(token: symbol, markup: string) {
    if (token !== TOKEN) throw new TypeError("an Html fragment is made only by markup``");
    this.#markup = markup;
  }

  /** The markup. */
  toString(): string {
    return this.#markup;
  }
}

function make(markup: string): Html {
  return new Html(TOKEN, markup);
}

/** What may be interpolated: text (escaped), numbers, built fragments, lists of them, or nothing. */
export type HtmlValue =
  | Html
  | string
  | number
  | boolean
  | null
  | undefined
  | readonly HtmlValue[];

/**
 * Builds markup: the template's literal parts are taken as they are, every
 * value is escaped (`&<>"'`), except an {@linkcode Html} fragment, which is
 * inserted as built. An array's values are inserted one after the other;
 * `null`, `undefined` and `false` insert nothing.
 */
export function markup(strings: TemplateStringsArray, ...values: HtmlValue[]): Html {
  if (!Array.isArray(strings) || !Array.isArray((strings as { raw?: unknown }).raw)) {
    throw new TypeError("markup must be used as a tagged template");
  }
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) {
    out += valueMarkup(values[i]) + strings[i + 1]!;
  }
  return make(out);
}

/** Fragments one after the other, as one fragment. */
export function joinHtml(parts: readonly HtmlValue[]): Html {
  return make(valueMarkup(parts));
}

/**
 * Markup produced by a library that escapes what it is given (the Markdown
 * parser with raw HTML off, the diff formatter through {@linkcode markup}). The
 * name is the warning: never pass it text from the log.
 */
export function trusted(markup: string): Html {
  return make(markup);
}

function valueMarkup(value: HtmlValue): string {
  if (value instanceof Html) return value.toString();
  if (typeof value === "string") return escapeHtml(value);
  if (typeof value === "number") return String(value);
  if (value === null || value === undefined || value === false) return "";
  if (value === true) return "true";
  let out = "";
  for (const part of value) out += valueMarkup(part);
  return out;
}

/** Escapes text for an element's content or a quoted attribute value. */
export function escapeHtml(text: string): string {
  return /[&<>"']/.test(text) ? text.replace(/[&<>"']/g, (char) => ESCAPES[char]!) : text;
}

const ESCAPES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};
