// Copyright 2026 the brigade authors. MIT license.

// A command line that did not parse, in one plain sentence: imported by `_args.ts` when a parse
// fails, so that a call that parses loads none of it (nor the edit distance).

import { editDistance } from "./_edit_distance.ts";

/**
 * The option a mistyped one most likely meant: the known long option at the
 * smallest edit distance (a swap of two letters counting one), when that is
 * at most a third of the longer name (`--rendrer` → `--renderer`); undefined
 * when none is that close, or for a short option.
 */
export function nearestOption(typed: string, known: readonly string[]): string | undefined {
  if (!typed.startsWith("--")) return undefined;
  const name = typed.slice(2).split("=")[0]!;
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const option of known) {
    const distance = editDistance(name, option);
    if (distance < bestDistance && distance <= Math.max(name.length, option.length) / 3) {
      best = option;
      bestDistance = distance;
    }
  }
  return best === undefined ? undefined : `--${best}`;
}

/**
 * A `parseArgs` error in one plain sentence: its own messages quote with
 * unbalanced quotes and append advice that does not fit this command.
 */
export function argsProblem(error: unknown, known: readonly string[]): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown })?.code;
  const quoted = /'([^']*)'/.exec(message)?.[1] ?? "";
  const option = quoted.replace(/ <value>$/, "").split(", ").pop()!;
  switch (code) {
    case "ERR_PARSE_ARGS_UNKNOWN_OPTION": {
      const near = nearestOption(option, known);
      return near === undefined
        ? `Unknown option "${option}"`
        : `Unknown option "${option}": did you mean ${near}?`;
    }
    case "ERR_PARSE_ARGS_INVALID_OPTION_VALUE":
      return /argument missing/.test(message)
        ? `Option "${option}" needs a value`
        : `Option "${option}" takes no value`;
    case "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL":
      return `Unexpected argument "${option}"`;
    default:
      return message.split("\n")[0]!;
  }
}
