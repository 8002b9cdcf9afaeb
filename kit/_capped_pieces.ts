// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// The capped text's workings, apart from its public face (`CappedText`): here a piece may also
// be given by its size and a way to build it, so that a renderer past the head builds only the
// pieces the tail still holds at the end, not every piece of a long session.

import { fromNextLine, isLineBreak, toLastLine } from "./_frame.ts";
import { utf8Head, utf8Length, utf8Tail } from "./utf8.ts";

const encoder = new TextEncoder();
// A head that starts with U+FEFF keeps it: the decoder takes no byte-order mark away.
const decoder = new TextDecoder("utf-8", { ignoreBOM: true });
/** A UTF-16 unit past U+00FF: a string holding one takes two bytes a unit. */
const WIDE_UNIT = /[\u0100-\uffff]/;

/** The marker that stands where the middle of a capped text was elided. */
export function markerText(bytes: number): string {
  return `\n\n[… ${bytes} bytes elided …]\n\n`;
}

/** The room the marker needs for any byte count: the smallest cap. */
export const MARKER_ROOM: number = utf8Length(markerText(Number.MAX_SAFE_INTEGER));

/** What a piece's text is built by, when it is asked for. */
export type BuildPiece = () => string;

/**
 * What builds a piece from a part the tail holds: one function shared by
 * many pieces, so that the tail holds each piece's part alone, no closure
 * (nor what a closure would hold beside).
 */
export type BuildFrom<P> = (part: P) => string;

/** Where the head may end and the tail start; what closes a cut head. */
export interface CappedOptions {
  /** What to write after a cut head, before the marker (`CappedTextOptions.closeHead`). */
  closeHead?: (head: string) => string;
  /** Where the head may end and the tail start (`CappedTextOptions.cutAt`). */
  cutAt?: "any" | "line";
  /** A cap below the one built with (`CappedTextOptions.cap`), checked by the caller. */
  cap?: number;
}

/** A head and a rolling tail of the pieces pushed, at most `cap` UTF-8 bytes in all. */
export class CappedPieces {
  #cap: number;
  #half: number;
  #head = "";
  /**
   * The full head as UTF-8, when that is smaller than the string (one of two bytes a unit) and
   * gives it back whole; `#head` is then `""`. The head is read again only at the end.
   */
  #headUtf8: Uint8Array | undefined;
  #headBytes = 0;
  #headFull = false;
  /** Each piece: its text once built, else the part it is built from. */
  #tail: unknown[] = [];
  /** How each piece not built yet is built from its part; `undefined` once built. */
  #builds: (BuildFrom<unknown> | undefined)[] = [];
  #tailSizes: number[] = [];
  #tailStart = 0;
  #tailBytes = 0;
  #total = 0;
  /**
   * What precedes the tail's first piece in the whole text, for a cut that
   * keeps the tail whole: the head's last character, or the last piece the
   * tail dropped (a built piece is built then, only if it is asked for).
   */
  #beforeTail = "\n";
  /** When what precedes the tail is a piece not built yet: how it is built, and its part. */
  #beforeBuild: BuildFrom<unknown> | undefined;
  #beforePart: unknown;

  /** @param cap The most UTF-8 bytes of the text, marker included (checked by the caller). */
  constructor(cap: number) {
    this.#cap = cap;
    this.#half = Math.floor((cap - MARKER_ROOM) / 2);
  }

  /** The most UTF-8 bytes of the text, marker included. */
  get cap(): number {
    return this.#cap;
  }

  /** The bytes a head or a tail holds at most. */
  get half(): number {
    return this.#half;
  }

  /** UTF-8 bytes held in the head and the tail (a piece not built yet counts at its size). */
  get heldBytes(): number {
    return this.#headBytes + this.#tailBytes;
  }

  /** Appends a piece. */
  push(piece: string): void {
    this.#pushSized(piece, utf8Length(piece));
  }

  /** Appends a piece of `size` UTF-8 bytes, already counted. */
  #pushSized(piece: string, size: number): void {
    let rest = piece;
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
      this.#beforeTail = this.#head === "" ? "\n" : this.#head.at(-1)!;
      this.#packHead();
      rest = rest.slice(fit.length);
      size -= fitSize;
    }
    this.#toTail(rest, size);
  }

  /**
   * Holds the full head as UTF-8 when its string takes two bytes a unit (it holds a unit past
   * U+00FF) and its UTF-8 is shorter: a head of accented or emoji text is held in about half
   * the memory, out of the heap, until the end, where it is decoded once. A head that is not
   * well-formed UTF-16 (a lone surrogate, which UTF-8 cannot carry) stays a string.
   */
  #packHead(): void {
    const head = this.#head;
    if (this.#headBytes >= 2 * head.length || !WIDE_UNIT.test(head)) return;
    if (typeof head.isWellFormed !== "function" || !head.isWellFormed()) return;
    this.#headUtf8 = encoder.encode(head);
    this.#head = "";
  }

  /** The head as a string. */
  #headText(): string {
    return this.#headUtf8 === undefined ? this.#head : decoder.decode(this.#headUtf8);
  }

  /**
   * Appends the piece `build` gives, of `size` UTF-8 bytes: built now while
   * the head takes it, else only if the tail still holds it when the text is
   * read.
   */
  pushBuilt(size: number, build: BuildPiece): void {
    // An empty piece is pushed as the text it is: unbuilt, it could stand for what precedes
    // the tail and hide the character before it.
    if (size === 0 || !this.#headFull) return this.#pushSized(build(), size);
    this.#total += size;
    this.#toTail(build, size);
  }

  /**
   * Appends the piece `build(part)` gives, of `size` UTF-8 bytes, as
   * {@linkcode CappedPieces.pushBuilt} does: the tail holds `part` and the
   * shared `build`, not a closure per piece.
   */
  pushPart<P>(size: number, build: BuildFrom<P>, part: P): void {
    if (size === 0 || !this.#headFull) return this.#pushSized(build(part), size);
    this.#total += size;
    this.#toTail(build as BuildFrom<unknown>, size, part);
  }

  /** A piece to the tail: a text, or a build (with its part) to call if it is kept. */
  #toTail(piece: string | BuildFrom<unknown>, size: number, part?: unknown): void {
    if (typeof piece === "string") {
      this.#tail.push(piece);
      this.#builds.push(undefined);
    } else {
      this.#tail.push(part);
      this.#builds.push(piece);
    }
    this.#tailSizes.push(size);
    this.#tailBytes += size;
    this.#trimTail();
  }

  /** Drops whole tail pieces no longer needed: only once the text is past the cap. */
  #trimTail(): void {
    if (this.#total <= this.#cap) return;
    const last = this.#tail.length - 1;
    let drop = this.#tailStart;
    let bytes = this.#tailBytes;
    while (drop < last && bytes - this.#tailSizes[drop]! >= this.#half) {
      bytes -= this.#tailSizes[drop]!;
      drop++;
    }
    if (drop === this.#tailStart) return;
    this.#beforeLastOf(this.#tailStart, drop);
    // Dropped pieces are let go at once; the lists are shortened in one splice now and then,
    // not on every push.
    for (let i = this.#tailStart; i < drop; i++) {
      this.#tail[i] = "";
      this.#builds[i] = undefined;
    }
    this.#tailBytes = bytes;
    this.#tailStart = drop;
    if (drop >= 64 && drop * 2 >= this.#tail.length) {
      this.#tail.splice(0, drop);
      this.#tailSizes.splice(0, drop);
      this.#builds.splice(0, drop);
      this.#tailStart = 0;
    }
  }

  /**
   * Takes as what precedes the tail the last character of the pieces from
   * `start` to `end` (not included), or the piece that ends them when it is
   * not built yet; when they are empty, what preceded them stays.
   */
  #beforeLastOf(start: number, end: number): void {
    for (let i = end - 1; i >= start; i--) {
      const build = this.#builds[i];
      if (build !== undefined) {
        this.#beforeBuild = build;
        this.#beforePart = this.#tail[i];
        return;
      }
      const piece = this.#tail[i] as string;
      if (piece !== "") {
        this.#beforeTail = piece.at(-1)!;
        this.#beforeBuild = this.#beforePart = undefined;
        return;
      }
    }
  }

  /** Whether the tail's first piece starts a line of the whole text: after a line break. */
  #tailStartsLine(first: string): boolean {
    if (this.#beforeBuild !== undefined) {
      this.#beforeTail = this.#beforeBuild(this.#beforePart).at(-1) ?? "";
      this.#beforeBuild = this.#beforePart = undefined;
    }
    const before = this.#beforeTail;
    // After CR, a tail that starts with the LF of a CRLF is still inside the line break.
    return isLineBreak(before, 0) && !(before === "\r" && first[0] === "\n");
  }

  /** The bytes the cap removed: 0 while the whole fits. */
  get elidedBytes(): number {
    if (this.#total <= this.#cap) return 0;
    return this.#total - this.#headBytes - utf8Length(this.#tailText());
  }

  /** The text (whole when it fits, else head, marker and tail) and the bytes elided. */
  capped(options: CappedOptions = {}): { text: string; elidedBytes: number } {
    const cap = options.cap ?? this.#cap;
    const whole = this.#headText();
    if (this.#total <= cap) return { text: whole + this.#joined(), elidedBytes: 0 };
    // A smaller cap than the one built with: both buffers hold at least its halves, so the head
    // and the tail it keeps are cut from them (before the head's line cut, which only shortens).
    const half = Math.floor((cap - MARKER_ROOM) / 2);
    const tail = this.#tailText(options.cutAt ?? "any", half);
    const cut = half < this.#headBytes ? utf8Head(whole, half) : whole;
    let head = options.cutAt === "line" ? toLastLine(cut) : cut;
    let close = options.closeHead?.(head) ?? "";
    if (close !== "") {
      // Room for the closing text is taken from the head's end; what that
      // leaves open is closed again (never more than the head held).
      const headBytes = utf8Length(head);
      head = utf8Head(head, Math.max(0, headBytes - utf8Length(close)));
      if (options.cutAt === "line") head = toLastLine(head);
      close = utf8Head(options.closeHead!(head), headBytes - utf8Length(head));
    }
    const elidedBytes = this.#total - utf8Length(head) - utf8Length(tail);
    return { text: head + close + markerText(elidedBytes) + tail, elidedBytes };
  }

  /** The tail's pieces joined, each built (once) if it was pushed unbuilt. */
  #joined(): string {
    let text = "";
    for (let i = this.#tailStart; i < this.#tail.length; i++) {
      const build = this.#builds[i];
      if (build !== undefined) {
        this.#tail[i] = build(this.#tail[i]);
        this.#builds[i] = undefined;
      }
      text += this.#tail[i] as string;
    }
    return text;
  }

  #tailText(from: "any" | "line" = "any", half: number = this.#half): string {
    const whole = this.#joined();
    const tail = utf8Tail(whole, half);
    if (from === "any") return tail;
    if (tail.length === whole.length) {
      return this.#tailStartsLine(whole) ? tail : fromNextLine(tail);
    }
    const before = whole.length - tail.length - 1;
    // After CR, a tail that starts with the LF of a CRLF is still inside the line break.
    const atLineStart = isLineBreak(whole, before) && !(whole[before] === "\r" && tail[0] === "\n");
    return atLineStart ? tail : fromNextLine(tail);
  }
}
