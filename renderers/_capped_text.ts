// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

import { utf8Head, utf8Length, utf8Tail } from "./_utf8.ts";

/** The marker that stands where the cap elided the middle of a text. */
export function elisionMarker(bytes: number): string {
  return `\n\n[… ${bytes} bytes elided …]\n\n`;
}

/** The marker's room, reserved before the cap is split: enough for any byte count. */
const MARKER_ROOM = utf8Length(elisionMarker(Number.MAX_SAFE_INTEGER));

/**
 * A text built piece by piece and capped at a number of UTF-8 bytes: while
 * the whole fits it is kept whole; past the cap only a head and a rolling
 * tail are held, each at most half of what the marker leaves, so memory stays
 * near the cap however much is pushed.
 */
export class CappedText {
  #cap: number;
  #half: number;
  #head = "";
  #headBytes = 0;
  #headFull = false;
  #tail: string[] = [];
  #tailBytes = 0;
  #total = 0;

  /** @param cap The most UTF-8 bytes of {@linkcode CappedText.text}, marker included. */
  constructor(cap: number) {
    this.#cap = cap;
    this.#half = Math.floor((cap - MARKER_ROOM) / 2);
  }

  /** The bytes a head or a tail holds at most: what {@linkcode push} keeps in each buffer. */
  get half(): number {
    return this.#half;
  }

  /** UTF-8 bytes currently held in the head and tail buffers. */
  get heldBytes(): number {
    return this.#headBytes + this.#tailBytes;
  }

  /** Appends a piece. */
  push(piece: string): void {
    let rest = piece;
    this.#total += utf8Length(piece);
    if (!this.#headFull) {
      const fit = utf8Head(rest, this.#half - this.#headBytes);
      this.#head += fit;
      this.#headBytes += utf8Length(fit);
      rest = rest.slice(fit.length);
      if (rest === "") return;
      this.#headFull = true;
    }
    this.#tail.push(rest);
    this.#tailBytes += utf8Length(rest);
    this.#trimTail();
  }

  /** Drops whole tail pieces no longer needed: only once the text is past the cap. */
  #trimTail(): void {
    if (this.#total <= this.#cap) return;
    while (this.#tail.length > 1) {
      const first = utf8Length(this.#tail[0]!);
      if (this.#tailBytes - first < this.#half) break;
      this.#tail.shift();
      this.#tailBytes -= first;
    }
  }

  /** The bytes the cap removed: 0 while the whole fits. */
  get elidedBytes(): number {
    if (this.#total <= this.#cap) return 0;
    return this.#total - this.#headBytes - utf8Length(this.#tailText());
  }

  /** The text: whole when it fits the cap, else head, marker and tail. */
  text(): string {
    if (this.#total <= this.#cap) return this.#head + this.#tail.join("");
    return this.#head + elisionMarker(this.elidedBytes) + this.#tailText();
  }

  #tailText(): string {
    return utf8Tail(this.#tail.join(""), this.#half);
  }
}
