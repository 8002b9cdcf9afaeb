// Copyright 2026 the brigade authors. MIT license.

/**
 * What a team renderer may do. Its module runs in the command's own process, so before it is
 * imported the process gives up, for good, what this run does not need: every environment
 * variable (the command has read its own already; under `--session` the API variables stay, as the
 * source reads them), the network unless `--session` reads the API, write access when the output
 * is standard output, and running programs, FFI and system information. Permissions are revoked,
 * never requested. Deno cannot narrow a grant in place (revoking a folder under `--allow-write`
 * changes nothing), so with `--out` the write access the command was given stays: give the command
 * `--allow-write=<the --out folder>` to bound it there.
 *
 * @module
 */

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
    for (const variable of ["TRANSCRIPT_CWD", "TRANSCRIPT_INIT_CWD", "TRANSCRIPT_OUTER"]) {
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
