// Copyright 2026 the brigade authors. MIT license.

/**
 * What the commands write: standard output (byte-exact to a file or a pipe,
 * control characters made visible on a terminal; a closed pipe ends the
 * command quietly) and standard error (messages, and on a terminal that
 * takes escape codes one progress line redrawn in place). No escape code is
 * written to a pipe, a file or a `TERM=dumb` terminal.
 *
 * @module
 */

import { visibleControls } from "../redact/excerpt.ts";
import { redact } from "../redact/mod.ts";

/** Standard output was closed by its reader (`… | head -1`): the command ends quietly, exit 0. */
export class ClosedOutputError extends Error {
  /** Constructs a new instance. */
  constructor() {
    super("standard output is closed");
    this.name = "ClosedOutputError";
  }
}

/** Whether an error is a write to a pipe nobody reads any more. */
export function isClosedPipe(error: unknown): boolean {
  return error instanceof Deno.errors.BrokenPipe ||
    (error as { code?: unknown })?.code === "EPIPE";
}

/**
 * Rendered text as shown on its destination: on a terminal, its control
 * characters are made visible (a log cannot retitle the terminal or move its
 * cursor); to a file or a pipe, it is unchanged.
 */
export function forDestination(text: string, isTerminal: boolean): string {
  return isTerminal ? visibleControls(text) : text;
}

/** Something a text can be written to whole: standard output by default. */
export interface Output {
  write(bytes: Uint8Array): Promise<number>;
  isTerminal(): boolean;
}

/**
 * Writes text whole to standard output (or `output`), made visible first on a
 * terminal.
 *
 * @throws {ClosedOutputError} When the reader closed the pipe.
 */
export async function writeOutput(text: string, output: Output = Deno.stdout): Promise<void> {
  const bytes = new TextEncoder().encode(forDestination(text, output.isTerminal()));
  try {
    for (let written = 0; written < bytes.length;) {
      written += await output.write(bytes.subarray(written));
    }
  } catch (error) {
    if (isClosedPipe(error)) throw new ClosedOutputError();
    throw new Error(`Cannot write to standard output: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

/**
 * Whether standard error is a terminal that takes the progress line's escape codes: not when
 * `TERM` is `dumb` (Emacs' shell, some CI logs). `TERM` is read only when it may be (the tasks
 * allow it); asking never prompts.
 */
export function drawsProgress(isTerminal: boolean = Deno.stderr.isTerminal()): boolean {
  if (!isTerminal) return false;
  const permission = Deno.permissions.querySync({ name: "env", variable: "TERM" });
  return permission.state !== "granted" || Deno.env.get("TERM") !== "dumb";
}

const encoder = new TextEncoder();
/** How often the progress line is redrawn at most. */
const PROGRESS_EVERY_MS = 100;

/**
 * Standard error: one-line messages, each prefixed with the command's name and
 * with its control characters visible, and, when it is a terminal, a progress
 * line kept below them.
 */
export class Stderr {
  readonly #prefix: string;
  readonly #terminal: boolean;
  #progress = "";
  #drawnAt = 0;

  /**
   * Constructs a new instance.
   *
   * @param prefix The command's name: `render`.
   * @param terminal Whether the progress line is drawn: standard error is a terminal that takes
   *   escape codes.
   */
  constructor(prefix: string, terminal: boolean = drawsProgress()) {
    this.#prefix = prefix;
    this.#terminal = terminal;
  }

  /** Whether the progress line is drawn. */
  get showsProgress(): boolean {
    return this.#terminal;
  }

  /**
   * Prints one message on its own line, above the progress line: redacted as a
   * whole too, since an error from deep inside may quote its input.
   */
  say = (message: string): void => {
    const line = `${this.#prefix}: ${visibleControls(redact(message), { oneLine: true })}\n`;
    this.#write(this.#progress === "" ? line : `\r\x1b[2K${line}${this.#progress}`);
  };

  /** Prints a line as it is, without the prefix (a hint under a message). */
  hint = (line: string): void => {
    this.#write(`${line}\n`);
  };

  /** Replaces the progress line (on a terminal, at most every 100 ms unless `force`). */
  progress(text: string, force = false): void {
    if (!this.#terminal) return;
    const now = Date.now();
    if (!force && now - this.#drawnAt < PROGRESS_EVERY_MS) return;
    this.#drawnAt = now;
    this.#progress = visibleControls(text, { oneLine: true });
    this.#write(`\r\x1b[2K${this.#progress}`);
  }

  /** Removes the progress line. */
  clearProgress(): void {
    if (this.#progress === "") return;
    this.#progress = "";
    this.#write("\r\x1b[2K");
  }

  #write(text: string): void {
    const bytes = encoder.encode(text);
    let tries = 0;
    for (let at = 0; at < bytes.length;) {
      try {
        at += Deno.stderr.writeSync(bytes.subarray(at));
      } catch (error) {
        // A non-blocking pipe that is full for a moment: wait a millisecond, a few times.
        if (!(error instanceof Deno.errors.WouldBlock) || ++tries > 1000) return;
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1);
      }
    }
  }
}
