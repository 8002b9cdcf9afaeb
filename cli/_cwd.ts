// Copyright 2026 the brigade authors. MIT license.

/**
 * The directory the user ran a command in. `deno task` runs its command in the folder of
 * `deno.json`, so the tasks hand the caller's directory over: `INIT_CWD` as
 * {@linkcode TASK_CWD_VARIABLE}, with {@linkcode OUTER_VARIABLE} saying whether an outer command
 * ran the task; an installed command or a plain `deno run` is already in it. `INIT_CWD` itself is
 * never read here.
 *
 * `deno task` sets `INIT_CWD` only when it is not set already, so an `INIT_CWD` it inherited may
 * name any folder. Under an npm script (npm sets it to the folder npm was typed in), or under a
 * project's own task that changes folder before running this one (`cd sub && deno task … render`),
 * it names the outer command's folder, not the one this `deno task` started in. So when the task
 * line sees an outer command (npm's `npm_lifecycle_event` of a script, not `npx`'s, or the `?` an
 * outer `deno task` exports to its commands once one has run) or a package manager's environment
 * (its `npm_config_user_agent`, which `deno task` keeps as it keeps `INIT_CWD`), the folder is
 * unknown and relative paths are refused with the fix: name the folder in
 * {@linkcode CALLER_CWD_VARIABLE} (`TRANSCRIPT_CWD="$PWD" deno task …`), which wins over all of
 * this, or pass absolute paths. (Deno shows the folder `deno task` started in nowhere else: not
 * even `/proc/<ppid>/cwd` is readable without `--allow-all`.)
 *
 * @module
 */

import { isAbsolutePath } from "./_absolute.ts";
import { UsageError } from "./_usage_error.ts";

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
  | {
    known: false;
    initCwd: string;
    /**
     * `outer`: an outer npm script or `deno task` set `INIT_CWD`; `inherited`: no outer command
     * ran this task, but a package manager's environment holds it (its user agent is not
     * Deno's), so `deno task` kept the `INIT_CWD` it found there.
     */
    why: "outer" | "inherited";
  };

/** What {@linkcode decideCallerDirectory} decides from: what the task line hands over. */
export interface CallerFacts {
  /** {@linkcode CALLER_CWD_VARIABLE}, when set and readable. */
  named: string | undefined;
  /** The task's `INIT_CWD` ({@linkcode TASK_CWD_VARIABLE}), when set and readable. */
  initCwd: string | undefined;
  /**
   * {@linkcode OUTER_VARIABLE}, when set and readable: `$?$npm_lifecycle_event`, then `;` and
   * `$npm_config_user_agent` (the user agent `deno task` sets only when none is set).
   */
  outer: string | undefined;
  /** The process's working directory. */
  cwd: string;
}

/**
 * The caller's directory from what the task line hands over. {@linkcode CALLER_CWD_VARIABLE}
 * wins; outside a task, the working directory. `deno task` sets `INIT_CWD` only when it is not
 * set, so `INIT_CWD` is believed only when nothing says another command set it: not under an
 * outer npm script or `deno task` (`npx` runs where it was typed, so its `INIT_CWD` is that
 * folder), and not in a package manager's environment (npm, pnpm, yarn and bun set both
 * `INIT_CWD` and their user agent; `deno task` keeps either when it finds it). Otherwise the
 * folder is unknown, and relative paths are refused rather than read in another folder.
 */
export function decideCallerDirectory(facts: CallerFacts): CallerDirectory {
  const { named, initCwd, cwd } = facts;
  if (named) return { known: true, path: named };
  if (!initCwd) return { known: true, path: cwd };
  const raw = facts.outer ?? "";
  const split = raw.lastIndexOf(";");
  // A task line of an earlier version hands over the outer command alone.
  const outer = split === -1 ? raw : raw.slice(0, split);
  const agent = split === -1 ? "" : raw.slice(split + 1);
  if (outer === "npx") return { known: true, path: initCwd };
  if (outer) return { known: false, initCwd, why: "outer" };
  if (agent !== "" && !agent.startsWith("deno/")) {
    return { known: false, initCwd, why: "inherited" };
  }
  return { known: true, path: initCwd };
}

/**
 * The caller's directory: {@linkcode CALLER_CWD_VARIABLE} when set, else the task's `INIT_CWD`
 * when nothing says another command set it (see {@linkcode decideCallerDirectory}), else
 * unknown; outside a task, the working directory.
 */
export function callerDirectory(): CallerDirectory {
  return decideCallerDirectory({
    named: variable(CALLER_CWD_VARIABLE),
    initCwd: variable(TASK_CWD_VARIABLE),
    outer: variable(OUTER_VARIABLE),
    cwd: Deno.cwd(),
  });
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
  const relative = paths.find((p) => p !== undefined && p !== "-" && !isAbsolutePath(p));
  const subject = relative === undefined ? what : `the relative path "${relative}"`;
  if (subject === undefined) return;
  const why = directory.why === "outer"
    ? "was set by an outer npm script or deno task, not by this deno task"
    : "was inherited from a package manager's environment, not set by this deno task";
  throw new UsageError(
    `Cannot resolve ${subject}: INIT_CWD (${directory.initCwd}) ${why}, so the folder you ran it in is unknown. Pass absolute paths, or name the folder: ${CALLER_CWD_VARIABLE}="$PWD" deno task …`,
  );
}
