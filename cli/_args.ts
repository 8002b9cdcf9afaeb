// Copyright 2026 the brigade authors. MIT license.

import { parseArgs } from "node:util";
import { UsageError } from "./_config.ts";
import { argsProblem } from "./_args_problem.ts";
import type { Scope } from "../events/types.ts";

/** What `deno task render` was asked to do. */
export interface RenderCommand {
  renderer: string;
  out: string | undefined;
  scope: Scope | undefined;
  session: string | undefined;
  force: boolean;
  skipInvalid: boolean;
  format: "auto" | "log" | "claude-code";
  help: boolean;
  version: boolean;
  inputs: string[];
}

/** Parses the command line; a problem is a {@linkcode UsageError}. */
export function parseRenderArgs(args: string[]): RenderCommand {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      strict: true,
      options: {
        renderer: { type: "string", short: "r" },
        out: { type: "string", short: "o" },
        scope: { type: "string" },
        session: { type: "string" },
        // No short form: `-f` is `--follow` in `deno task facts`.
        force: { type: "boolean" },
        "skip-invalid": { type: "boolean" },
        format: { type: "string" },
        help: { type: "boolean", short: "h" },
        version: { type: "boolean" },
      },
    });
  } catch (error) {
    throw new UsageError(argsProblem(error));
  }
  const { values, positionals } = parsed;
  const scope = values.scope;
  if (scope !== undefined && scope !== "session" && scope !== "all") {
    throw new UsageError(`Unknown scope "${scope}": use --scope session or --scope all`);
  }
  const format = values.format ?? "auto";
  if (format !== "auto" && format !== "log" && format !== "claude-code") {
    throw new UsageError(`Unknown format "${format}": use --format log or --format claude-code`);
  }
  if (values.session !== undefined && positionals.length > 0) {
    throw new UsageError("Cannot read files and --session at once: pass one or the other");
  }
  return {
    renderer: values.renderer ?? "grader",
    out: values.out,
    scope,
    session: values.session,
    force: values.force ?? false,
    skipInvalid: values["skip-invalid"] ?? false,
    format,
    help: values.help ?? false,
    version: values.version ?? false,
    inputs: positionals,
  };
}
