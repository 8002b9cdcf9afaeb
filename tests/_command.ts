// Copyright 2026 the brigade authors. MIT license.

// Running the commands as a user does: a subprocess, in a directory of the test's choosing, with
// the environment of a user's shell.

import { fileURLToPath } from "node:url";

/** The repository's root folder, with a trailing slash. */
export const ROOT: string = fileURLToPath(new URL("../", import.meta.url));

/**
 * Deno's own cache folder, to keep a child's where it is while `XDG_CACHE_HOME`
 * moves (Deno's cache defaults under it).
 */
export async function denoDir(): Promise<string> {
  const { stdout } = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json"],
    stdout: "piped",
    stderr: "null",
  }).output();
  return JSON.parse(new TextDecoder().decode(stdout)).denoDir;
}

/** What a subprocess did. */
export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Options for {@linkcode run}. */
export interface RunOptions {
  /** The working directory. */
  cwd: string;
  /** Variables set on top of the user's environment. */
  env?: Record<string, string>;
  /** Text written to standard input, which is closed after it. */
  stdin?: string;
}

/**
 * The environment a user's shell gives a command: the tests' own, without the variables a
 * `deno task` hands over (under `deno task test` they hold the developer's folder), colours off.
 */
export function userEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env = Deno.env.toObject();
  delete env.INIT_CWD;
  delete env.TRANSCRIPT_CWD;
  // What an outer npm script or deno task leaves (`deno task ci` runs test after check).
  delete env["?"];
  delete env.npm_lifecycle_event;
  delete env.npm_config_user_agent;
  return { ...env, NO_COLOR: "1", ...extra };
}

/** Runs `program` (`"deno"` is this Deno) with `args` and waits for it. */
export async function run(program: string, args: string[], options: RunOptions): Promise<Run> {
  const child = new Deno.Command(program === "deno" ? Deno.execPath() : program, {
    args,
    cwd: options.cwd,
    env: userEnv(options.env),
    clearEnv: true,
    stdin: options.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (options.stdin !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(options.stdin));
    await writer.close();
  }
  const { code, stdout, stderr } = await child.output();
  const decoder = new TextDecoder();
  return { code, stdout: decoder.decode(stdout), stderr: decoder.decode(stderr) };
}

/** `deno task NAME ARGS…` as a user types it in `cwd` (the repository or a folder inside it). */
export function task(name: string, args: string[], options: RunOptions): Promise<Run> {
  return run("deno", ["task", "--quiet", name, ...args], options);
}

/** `deno task --config <repository>/deno.json NAME ARGS…`, typed in a folder outside it. */
export function taskFrom(name: string, args: string[], options: RunOptions): Promise<Run> {
  return run("deno", ["task", "--quiet", "--config", `${ROOT}deno.json`, name, ...args], options);
}
