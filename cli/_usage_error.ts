// Copyright 2026 the brigade authors. MIT license.

/**
 * The error of a command line the user must fix, in a module of its own: the status line's call
 * that reads a transcript needs it (through `_cwd.ts`) but not `_args.ts`, the parser of every
 * other call, with its edit distance and option tables.
 *
 * @module
 */

/** A command-line problem the user must fix: reported without a stack, exit code 2. */
export class UsageError extends Error {
  /**
   * Constructs a new instance.
   *
   * @param message What is wrong and how to fix it.
   */
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}
