// Copyright 2026 the brigade authors. MIT license.

/**
 * What a team renderer may do. Its module runs in the command's own process, so before it is
 * imported the process gives up, for good, what this run does not need: every environment
 * variable (the command has read its own already; under `--session` the API variables stay, as the
 * source reads them), the network unless `--session` reads the API, write access when the output
 * is standard output, and running programs, FFI and system information. Permissions are revoked,
 * never requested. Deno cannot narrow a grant in place (revoking a folder under `--allow-write`
 * changes nothing), so with `--out` the write access the command was given stays: give the command
 * `--allow-write=<the --out folder>` to bound it there. The import permission stays until the
 * team's module graph is loaded, and is revoked before any of it runs (`importTeamModules`).
 *
 * @module
 */

import { teamRun, WORKER_NAME } from "./_team_run.ts";

/** The variables the API source reads under `--session`. */
const API_VARIABLES = ["ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL"];

function revoke(descriptor: Deno.PermissionDescriptor): void {
  try {
    Deno.permissions.revokeSync(descriptor);
  } catch {
    // Nothing to give up.
  }
}

/** Gives up what a run with `options` does not need, before a team's module is imported. */
export function dropAccessForTeamCode(options: { session: boolean; out: boolean }): void {
  if (options.session) {
    // Only the API variables stay: any other granted one (the tasks' own) goes.
    for (
      const variable of [
        "TRANSCRIPT_CWD",
        "TRANSCRIPT_INIT_CWD",
        "TRANSCRIPT_OUTER",
        WORKER_OPTIONS_VARIABLE,
      ]
    ) {
      if (!API_VARIABLES.includes(variable)) revoke({ name: "env", variable });
    }
  } else {
    revoke({ name: "env" });
    revoke({ name: "net" });
  }
  if (!options.out) revoke({ name: "write" });
  revoke({ name: "run" });
  revoke({ name: "ffi" });
  revoke({ name: "sys" });
}

/**
 * The variable that says the process may give a worker its own permissions (Deno's
 * `--unstable-worker-options`, without which creating one ends the process): the `render` task
 * sets it beside the flag.
 */
export const WORKER_OPTIONS_VARIABLE = "TRANSCRIPT_WORKER_OPTIONS";

function granted(descriptor: Deno.PermissionDescriptor): boolean {
  return Deno.permissions.querySync(descriptor).state === "granted";
}

/** Whether a team's run can be moved to a worker of its own permissions. */
export function boundedWorkers(): boolean {
  if (teamRun.inWorker) return false;
  return granted({ name: "env", variable: WORKER_OPTIONS_VARIABLE }) &&
    Deno.env.get(WORKER_OPTIONS_VARIABLE) === "1";
}

/**
 * Runs the command, as typed with `args`, in a worker that may write only under `write` (the
 * `--out` folder, or the folder of the `--out` file, where its temporary file is made), read the
 * API variables and reach the network only under `--session`, import only the team's module graph
 * (see {@linkcode dropAccessForTeamCode}), and run nothing else: the process's
 * own grant (the task's write access everywhere) stays with the main thread, which only waits.
 *
 * @returns The exit code.
 */
export function runInBoundedWorker(
  args: string[],
  options: { session: boolean; write: string | undefined },
): Promise<number> {
  const env = options.session
    ? API_VARIABLES.filter((variable) => granted({ name: "env", variable }))
    : [];
  const write = options.write !== undefined && granted({ name: "write", path: options.write })
    ? [options.write]
    : false;
  const worker = new Worker(new URL("./render.ts", import.meta.url), {
    type: "module",
    name: WORKER_NAME,
    deno: {
      permissions: {
        read: "inherit",
        write,
        env: env.length > 0 ? env : false,
        net: options.session ? "inherit" : false,
        // The team's graph is fetched in the worker (from JSR, a URL it maps); once it is, before
        // any of it runs, the worker revokes its import permission for good.
        import: "inherit",
        run: false,
        ffi: false,
        sys: false,
      },
    },
  });
  return new Promise<number>((resolve) => {
    worker.onmessage = (event: MessageEvent<number>): void => {
      worker.terminate();
      resolve(event.data);
    };
    worker.onerror = (event: ErrorEvent): void => {
      event.preventDefault();
      worker.terminate();
      console.error(`render: ${event.message}`);
      resolve(1);
    };
    worker.postMessage({ args });
  });
}
