// Copyright 2026 the brigade authors. MIT license.

/**
 * A command line of the plain shapes read without `node:util`: loading it costs a command's
 * start-up about 12 ms of CPU, more than the rest of most calls' start-up. Anything else (an
 * unknown option, a short group, `--`, a value that looks like an option, a value option given
 * twice, a missing value) is left to `node:util`'s parseArgs, whose errors `_args.ts` rewords.
 *
 * @module
 */

/** An option as `node:util`'s parseArgs is configured with it, as far as this reads it. */
export interface PlainOption {
  type: "string" | "boolean";
  short?: string;
  /** An option given many times, or with a default, is parseArgs' to read. */
  multiple?: boolean;
  default?: unknown;
}

/** What parseArgs gives for a command line: the options' values, and the positionals. */
export interface PlainArgs {
  values: Record<string, string | boolean>;
  positionals: string[];
}

/**
 * The parse of `args` that `node:util`'s parseArgs (`strict`, `allowPositionals`) gives, when
 * every argument is of a plain shape: a positional (`-` included), a known `--name`, `--name=VALUE`
 * or `-n` (one letter), a value option's value next (not starting with `-`) or inline, and no
 * value option twice. Undefined for any other line: parseArgs decides it, and says what is wrong.
 *
 * @example
 * ```ts
 * import { plainArgs } from "./_plain_args.ts";
 * import assert from "node:assert/strict";
 *
 * const options = { out: { type: "string", short: "o" }, force: { type: "boolean" } } as const;
 * assert.deepEqual(plainArgs(["-o", "site/", "--force", "a.jsonl"], options), {
 *   values: { out: "site/", force: true },
 *   positionals: ["a.jsonl"],
 * });
 * assert.equal(plainArgs(["--frce"], options), undefined);
 * ```
 *
 * @param args The command-line arguments.
 * @param options The options, as parseArgs is given them.
 * @returns The values and positionals, or undefined when parseArgs must decide.
 */
export function plainArgs(
  args: readonly string[],
  options: Readonly<Record<string, PlainOption>>,
): PlainArgs | undefined {
  if (Object.values(options).some((o) => o.multiple !== undefined || o.default !== undefined)) {
    return undefined;
  }
  const values: Record<string, string | boolean> = {};
  const positionals: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === "-" || !arg.startsWith("-")) {
      positionals.push(arg);
      continue;
    }
    const [name, inline] = optionOf(arg, options);
    if (name === undefined) return undefined;
    if (options[name]!.type === "boolean") {
      if (inline !== undefined) return undefined;
      values[name] = true;
      continue;
    }
    // Given twice, or without a value of its own: parseArgs' wording, and _args.ts', apply.
    if (Object.hasOwn(values, name)) return undefined;
    const value = inline ?? args[++i];
    if (value === undefined || (inline === undefined && value.startsWith("-"))) return undefined;
    values[name] = value;
  }
  return { values, positionals };
}

/** The known option an argument names, and its inline value; no name for any other shape. */
function optionOf(
  arg: string,
  options: Readonly<Record<string, PlainOption>>,
): [string | undefined, string | undefined] {
  let name: string | undefined;
  let inline: string | undefined;
  if (arg.startsWith("--")) {
    const eq = arg.indexOf("=");
    name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
    inline = eq === -1 ? undefined : arg.slice(eq + 1);
  } else if (arg.length === 2) {
    name = Object.keys(options).find((key) => options[key]!.short === arg[1]);
  }
  if (name === undefined || name === "" || !Object.hasOwn(options, name)) {
    return [undefined, inline];
  }
  return [name, inline];
}
