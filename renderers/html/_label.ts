// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// A speaker's label and a thread's name as the page shows them. Names come
// from the log (an agent's name, a tool's, a command's): a zero-width
// character, a bidirectional control or a look-alike letter could make a tool
// or an agent read as "user". Such characters are shown as escapes, so what
// a reader sees is what the log holds.

import { visibleControls } from "../../kit/mod.ts";

/**
 * Characters that show nothing or change how others show: the default
 * ignorable code points (zero-width space and joiners, word joiner, soft
 * hyphen, variation selectors, tag characters, the Hangul fillers…) and the
 * format controls.
 */
const INVISIBLE = /[\p{Default_Ignorable_Code_Point}\p{Cf}]/gu;

/** The words a page's labels use for its speakers, which a name must never read as. */
const RESERVED = new Set([
  "user",
  "agent",
  "system",
  "assistant",
  "human",
  "session",
  "shell",
  "tool",
  "command",
]);

/**
 * Cyrillic and Greek letters that look like Latin ones: what a name is
 * compared as, after NFKC (which folds full-width and mathematical letters).
 */
const LOOK_ALIKES: Record<string, string> = {
  "А": "A",
  "В": "B",
  "Е": "E",
  "К": "K",
  "М": "M",
  "Н": "H",
  "О": "O",
  "Р": "P",
  "С": "C",
  "Т": "T",
  "У": "Y",
  "Х": "X",
  "Ѕ": "S",
  "І": "I",
  "Ј": "J",
  "Α": "A",
  "Β": "B",
  "Ε": "E",
  "Ζ": "Z",
  "Η": "H",
  "Ι": "I",
  "Κ": "K",
  "Μ": "M",
  "Ν": "N",
  "Ο": "O",
  "Ρ": "P",
  "Τ": "T",
  "Υ": "Y",
  "Χ": "X",
  "а": "a",
  "в": "b",
  "е": "e",
  "к": "k",
  "м": "m",
  "н": "h",
  "о": "o",
  "р": "p",
  "с": "c",
  "т": "t",
  "у": "y",
  "х": "x",
  "ѕ": "s",
  "і": "i",
  "ј": "j",
  "ԁ": "d",
  "һ": "h",
  "ԛ": "q",
  "ԝ": "w",
  "ү": "y",
  "ɡ": "g",
  "ѵ": "v",
  "α": "a",
  "β": "b",
  "ε": "e",
  "η": "n",
  "ι": "i",
  "κ": "k",
  "μ": "u",
  "ν": "v",
  "ο": "o",
  "ρ": "p",
  "τ": "t",
  "υ": "u",
  "χ": "x",
  "ω": "w",
  "ѡ": "w",
};

/** A code point as an escape, as the kit writes them: `\u200b`, or `\u{e0041}` beyond. */
function escaped(char: string): string {
  const code = char.codePointAt(0)!;
  const hex = code.toString(16);
  return code > 0xffff ? `\\u{${hex}}` : `\\u${hex.padStart(4, "0")}`;
}

/** How a word reads: NFKC, marks dropped, look-alikes as the Latin letters, lower case. */
function readsAs(word: string): string {
  const folded = word.normalize("NFKD").replace(/\p{M}/gu, "").normalize("NFKC");
  // Capitals first: Greek `Ν` reads as `N`, though its lower case `ν` reads as `v`.
  return latin(latin(folded).toLowerCase());
}

/** A text with its look-alike letters as the Latin ones. */
function latin(text: string): string {
  let plain = "";
  for (const char of text) plain += LOOK_ALIKES[char] ?? char;
  return plain;
}

/**
 * A label or a name as the page shows it: controls and line breaks as
 * escapes (`\n`, `\x1b`, `\u202E`), invisible characters as `\uXXXX`, and in
 * a word that is not plain ASCII but reads as a speaker's word (`user`,
 * `agent`, `system`…: `uѕer` with a Cyrillic `ѕ`, full-width `ｕｓｅｒ`), every
 * character that is not ASCII as `\uXXXX` too, so no name passes for a speaker.
 * The label is already redacted (the kit's) and bounded.
 */
export function visibleLabel(label: string): string {
  const shown = visibleControls(label, { oneLine: true }).replace(INVISIBLE, escaped);
  // A word: letters, marks and digits, as a name's look-alike would be made of.
  return shown.replace(/[\p{L}\p{M}\p{N}]+/gu, (word) => {
    // A word is letters and digits: one of ASCII has none above U+007F.
    if (!/[^\p{ASCII}]/u.test(word) || !RESERVED.has(readsAs(word))) return word;
    return word.replace(/[^\p{ASCII}]/gu, escaped);
  });
}
