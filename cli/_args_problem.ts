// Copyright 2026 the brigade authors. MIT license.

// Apart from the render command's arguments: `facts` words its errors the same way without
// loading what `render` parses with.

/**
 * A `parseArgs` error in one plain sentence: its own messages quote with
 * unbalanced quotes and append advice that does not fit this command.
 */
export function argsProblem(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown })?.code;
  const quoted = /'([^']*)'/.exec(message)?.[1] ?? "";
  const option = quoted.replace(/ <value>$/, "").split(", ").pop()!;
  switch (code) {
    case "ERR_PARSE_ARGS_UNKNOWN_OPTION":
      return `Unknown option "${option}"`;
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
