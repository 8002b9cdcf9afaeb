// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// The last long text whose UTF-8 size was worked out, and that size: a
// renderer often asks the size of the same long text twice (to cut it, then
// to frame it). Shared by `utf8Length` and the cuts that learn a size while
// they encode.

/** The last long text measured, and its size (never a huge one: it is kept until the next). */
let lastText = "";
let lastBytes = 0;
/** Texts shorter than this are measured again: remembering them would cost more. */
const REMEMBERED_UNITS = 256;
/** Texts longer than this are not kept: a huge one would stay alive. */
const KEPT_UNITS = 8192;

/** The remembered size of `text`, or -1 when it is not the text remembered. */
export function rememberedSize(text: string): number {
  return text === lastText ? lastBytes : -1;
}

/** Remembers `text`'s UTF-8 size, when it is long enough to be worth it and short enough to keep. */
export function rememberSize(text: string, bytes: number): void {
  if (text.length >= REMEMBERED_UNITS && text.length <= KEPT_UNITS) {
    lastText = text;
    lastBytes = bytes;
  }
}
