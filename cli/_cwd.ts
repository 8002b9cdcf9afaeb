// Copyright 2026 the brigade authors. MIT license.

/**
 * The directory the user ran a command in. `deno task` runs its command in the folder of
 * `deno.json`, so the tasks hand the caller's directory over: `INIT_CWD` as
 * {@linkcode TASK_CWD_VARIABLE}, with {@linkcode OUTER_VARIABLE} saying whether an outer command
 * ran the task; an installed command or a plain `deno run` is already in it. `INIT_CWD` itself is
 * never read here.
 *
 * `deno task` sets `INIT_CWD` only when it is not set already: under an npm script (npm sets it to
 * the folder npm was typed in), or under a project's own task that changes folder before running
 * this one (`cd sub && deno task … render`), it names the outer command's folder, not the one this
 * `deno task` started in, and Deno shows that folder nowhere else. So when the task line sees an
 * outer command (npm's `npm_lifecycle_event` of a script, not `npx`'s, or the `?` an outer
 * `deno task` exports to its commands once one has run), the folder is unknown and relative paths are refused with the fix:
 * name the folder in {@linkcode CALLER_CWD_VARIABLE} (`TRANSCRIPT_CWD="$PWD" deno task …`), which
 * wins over all of this, or pass absolute paths.
 *
 * @module
 */

import { isAbsolute } from "node:path";
import { UsageError } from "./_args.ts";

/** The variable a user names the folder in, when the command cannot know it. */
export const CALLER_CWD_VARIABLE = "TRANSCRIPT_CWD";
/** The variable the tasks hand their `INIT_CWD` over in. */
export const TASK_CWD_VARIABLE = "TRANSCRIPT_INIT_CWD";
/** The variable the tasks say in whether an outer command ran them (non-empty when one did). */
export const OUTER_VARIABLE = "TRANSCRIPT_OUTER";

/** A variable's value when it may be read (the tasks allow it); asking never prompts. */
function variable(name: string): string | undefined {
  const permission = Deno.permissions.querySync({ name: "env", variable: name });
  return permission.state === "granted" ? Deno.env.get(name) : undefined;
}

/** Where the user ran the command, or why that cannot be known. */
export type CallerDirectory =
  | { known: true; path: string }
  | { known: false; initCwd: string };

/**
 * The caller's directory: {@linkcode CALLER_CWD_VARIABLE} when set, else the task's `INIT_CWD`
 * when no outer command ran the task, else unknown; outside a task, the working directory.
 */
export function callerDirectory(): CallerDirectory {
  const named = variable(CALLER_CWD_VARIABLE);
  if (named) return { known: true, path: named };
  const initCwd = variable(TASK_CWD_VARIABLE);
  if (!initCwd) return { known: true, path: Deno.cwd() };
  // `npx` (npm exec) runs its command where it was typed: its INIT_CWD is that folder.
  const outer = variable(OUTER_VARIABLE);
  if (outer && outer !== "npx") return { known: false, initCwd };
  return { known: true, path: initCwd };
}

/**
 * Moves the process into the caller's directory, so that every relative path the user gives (the
 * inputs, `--out`) and the lookup of the project's renderer configuration start from there, and
 * every message names a path as the user wrote it.
 *
 * @returns The caller's directory as {@linkcode callerDirectory} found it.
 * @throws {Error} When the directory cannot be entered.
 */
export function enterCallerDirectory(): CallerDirectory {
  const directory = callerDirectory();
  if (!directory.known || directory.path === Deno.cwd()) return directory;
  try {
    Deno.chdir(directory.path);
  } catch (error) {
    throw new Error(`Cannot run in ${directory.path}: ${(error as Error).message}`);
  }
  return directory;
}

/**
 * Refuses a relative path when the caller's directory is unknown, naming the fix.
 *
 * @param directory What {@linkcode enterCallerDirectory} found.
 * @param paths The paths the command would resolve (`-` and absolute ones are fine).
 * @param what What else needs the folder, when no path names it (a configuration lookup).
 * @throws {UsageError} When the directory is unknown and a path is relative.
 */
export function refuseRelative(
  directory: CallerDirectory,
  paths: (string | undefined)[],
  what?: string,
): void {
  if (directory.known) return;
  const relative = paths.find((p) => p !== undefined && p !== "-" && !isAbsolute(p));
  const subject = relative === undefined ? what : `the relative path "${relative}"`;
  if (subject === undefined) return;
  throw new UsageError(
    `Cannot resolve ${subject}: INIT_CWD (${directory.initCwd}) was set by an outer npm script or deno task, not by this deno task, so the folder you ran it in is unknown. Pass absolute paths, or name the folder: ${CALLER_CWD_VARIABLE}="$PWD" deno task …`,
  );
}
