// Copyright 2026 the brigade authors. MIT license.

/**
 * The directory the user ran a command in. `deno task` runs its command in the folder of
 * `deno.json`, so the tasks hand the caller's directory over explicitly in
 * {@linkcode CALLER_CWD_VARIABLE} (`TRANSCRIPT_CWD="$INIT_CWD" deno run …`); an installed command
 * or a plain `deno run` is already in it. `INIT_CWD` itself is never read here: one already in the
 * environment wins over the task's (a command spawned under another task inherits it), so only the
 * task line may use it.
 *
 * @module
 */

/** The variable the tasks hand the caller's directory over in. */
export const CALLER_CWD_VARIABLE = "TRANSCRIPT_CWD";

/**
 * The caller's directory: {@linkcode CALLER_CWD_VARIABLE} when it is set and may be read (the
 * tasks allow it), else the working directory. Asking never prompts: without the permission the
 * variable is not looked at.
 */
export function callerDirectory(): string {
  const permission = Deno.permissions.querySync({ name: "env", variable: CALLER_CWD_VARIABLE });
  const handed = permission.state === "granted" ? Deno.env.get(CALLER_CWD_VARIABLE) : undefined;
  return handed || Deno.cwd();
}

/**
 * Moves the process into the caller's directory, so that every relative path the user gives (the
 * inputs, `--out`) and the lookup of the project's renderer configuration start from there, and
 * every message names a path as the user wrote it.
 *
 * @throws {Error} When the handed-over directory cannot be entered.
 */
export function enterCallerDirectory(): void {
  const directory = callerDirectory();
  if (directory === Deno.cwd()) return;
  try {
    Deno.chdir(directory);
  } catch (error) {
    throw new Error(
      `Cannot run in ${directory} (from ${CALLER_CWD_VARIABLE}): ${(error as Error).message}`,
    );
  }
}
