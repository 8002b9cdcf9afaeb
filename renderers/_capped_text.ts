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
  #tailSizes: number[] = [];
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
    let size = utf8Length(piece);
    this.#total += size;
    if (!this.#headFull) {
      if (this.#headBytes + size <= this.#half) {
        this.#head += piece;
        this.#headBytes += size;
        return;
      }
      const fit = utf8Head(rest, this.#half - this.#headBytes);
      const fitSize = utf8Length(fit);
      this.#head += fit;
      this.#headBytes += fitSize;
      this.#headFull = true;
      rest = rest.slice(fit.length);
      size -= fitSize;
    }
    this.#tail.push(rest);
    this.#tailSizes.push(size);
    this.#tailBytes += size;
    this.#trimTail();
  }

  /** Drops whole tail pieces no longer needed: only once the text is past the cap. */
  #trimTail(): void {
    if (this.#total <= this.#cap) return;
    let drop = 0;
    let bytes = this.#tailBytes;
    while (drop < this.#tail.length - 1 && bytes - this.#tailSizes[drop]! >= this.#half) {
      bytes -= this.#tailSizes[drop]!;
      drop++;
    }
    if (drop === 0) return;
    this.#tail.splice(0, drop);
    this.#tailSizes.splice(0, drop);
    this.#tailBytes = bytes;
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
