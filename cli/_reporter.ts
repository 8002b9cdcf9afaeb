// Copyright 2026 the brigade authors. MIT license.

/**
 * The one reporter of bad lines, for every input of both commands: the first
 * lines reported with file and line, then a count; an input whose first
 * lines are all bad is stopped with one message. It keeps counts, never the
 * lines, so a file of millions of bad lines costs no memory.
 *
 * @module
 */

import { excerpt } from "../redact/excerpt.ts";
import { counted } from "./_plural.ts";

/** Options for {@linkcode BadLines}. */
export interface BadLinesOptions {
  /**
   * Where each message goes (one line, without a line end).
   */
  say: (message: string) => void;
  /**
   * How many bad lines of one input are shown; the rest are counted.
   *
   * @default {20}
   */
  shown?: number;
  /**
   * How many bad lines before any entry make the input "not a log".
   *
   * @default {5}
   */
  notALogAfter?: number;
}

/** What an input is read as: a log (entries or events), or a Claude Code transcript. */
export type InputKind = "log" | "transcript";

/** An input whose first lines are all bad: it is not read further. */
export class NotALogError extends Error {
  /**
   * Constructs a new instance.
   *
   * @param message What was read and why it is not a log.
   */
  constructor(message: string) {
    super(message);
    this.name = "NotALogError";
  }
}

/** The bad lines of one input, reported as they come. */
export class BadLines {
  readonly #name: string;
  readonly #say: (message: string) => void;
  readonly #shown: number;
  readonly #notALogAfter: number;
  /** Reports held until the input proves to be a log: at most `notALogAfter - 1`. */
  #early: string[] = [];
  /** What the input is read as, for the messages: a log, or a Claude Code transcript. */
  #kind: InputKind = "log";
  #finished = false;
  #sawEntry = false;
  #count = 0;
  #taken = 0;

  /**
   * Constructs a new instance.
   *
   * @param name The input as messages name it (a path, "stdin").
   * @param options Where messages go and the limits.
   */
  constructor(name: string, options: BadLinesOptions) {
    this.#name = name;
    this.#say = options.say;
    this.#shown = options.shown ?? 20;
    this.#notALogAfter = options.notALogAfter ?? 5;
  }

  /**
   * Says what the input is read as, once its format is known: a `.jsonl` that is not a Claude
   * Code transcript is called "not a transcript", not "not a log".
   */
  readAs(kind: InputKind): void {
    this.#kind = kind;
  }

  /** How many bad lines were reported in all. */
  get count(): number {
    return this.#count;
  }

  /**
   * One bad line (a source's `onInvalid`).
   *
   * @throws {NotALogError} When the first lines of the input are all bad.
   */
  report = (line: number, reason: string): void => {
    this.#count++;
    if (this.#count > this.#shown) return;
    const message = `${this.#name}:${line}: ${excerpt(reason, { maxCodePoints: 160 })}`;
    if (this.#sawEntry) return this.#say(message);
    this.#early.push(message);
    if (this.#early.length >= this.#notALogAfter) {
      this.#early = [];
      const [what, records] = this.#kind === "transcript"
        ? ["a Claude Code transcript", "transcript records"]
        : ["a log", "log entries"];
      throw new NotALogError(
        `${this.#name} does not look like ${what}: its first ${this.#notALogAfter} records are not ${records} (${message})`,
      );
    }
  };

  /** An entry was read: the input is a log, and the lines held back are shown. */
  entry(): void {
    if (this.#sawEntry) return;
    this.#sawEntry = true;
    for (const message of this.#early) this.#say(message);
    this.#early = [];
  }

  /** How many bad lines were reported since the last call. */
  takeNew(): number {
    const fresh = this.#count - this.#taken;
    this.#taken = this.#count;
    return fresh;
  }

  /**
   * At the end of the input, before any verdict on it is said: shows what was held back and
   * counts the lines not shown. Once only; a later call does nothing.
   */
  finish(): void {
    if (this.#finished) return;
    this.#finished = true;
    for (const message of this.#early) this.#say(message);
    this.#early = [];
    if (this.#count > this.#shown) {
      const more = counted(this.#count - this.#shown, "more bad line", "more bad lines");
      this.#say(`${this.#name}: ${more} not shown (${this.#count} in all)`);
    }
  }
}
