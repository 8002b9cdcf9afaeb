// Copyright 2026 the brigade authors. MIT license.

/** Runs the commands the way a user does: `deno task …` from another folder. */

export const ROOT: URL = new URL("../", import.meta.url);
export const CONFIG: string = new URL("deno.json", ROOT).pathname;

/** What a finished command gave. */
export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Options for {@linkcode task}. */
export interface TaskOptions {
  /** The folder the command is started from (also its `INIT_CWD`). */
  cwd: string;
  /** Standard input, written whole then closed. */
  stdin?: string | Uint8Array;
  /** Extra environment variables. */
  env?: Record<string, string>;
}

/** The argument list of `deno task -q --config <repo>/deno.json NAME ARGS…`. */
export function taskArgs(name: string, args: string[]): string[] {
  return ["task", "-q", "--config", CONFIG, name, ...args];
}

/** Starts `deno task NAME ARGS…` from `cwd` with piped standard streams. */
export function spawnTask(
  name: string,
  args: string[],
  options: Omit<TaskOptions, "stdin"> & { stdin?: "piped" | "null" },
): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: taskArgs(name, args),
    cwd: options.cwd,
    stdin: options.stdin ?? "null",
    stdout: "piped",
    stderr: "piped",
    // deno task keeps an INIT_CWD it inherits: set it as a user's shell would have none.
    // Nor what an outer npm script or deno task leaves (`deno task ci` runs test after check), nor
    // a package manager's user agent (`deno task` then keeps it, and so would a user's INIT_CWD).
    env: {
      NO_COLOR: "1",
      INIT_CWD: options.cwd,
      "?": "",
      npm_lifecycle_event: "",
      npm_config_user_agent: "",
      ...options.env,
    },
  }).spawn();
}

/** Runs `deno task NAME ARGS…` from `cwd` to its end. */
export async function task(name: string, args: string[], options: TaskOptions): Promise<Run> {
  const child = spawnTask(name, args, {
    cwd: options.cwd,
    stdin: options.stdin === undefined ? "null" : "piped",
    ...(options.env ? { env: options.env } : {}),
  });
  if (options.stdin !== undefined) {
    const bytes = typeof options.stdin === "string"
      ? new TextEncoder().encode(options.stdin)
      : options.stdin;
    const writer = child.stdin.getWriter();
    await writer.write(bytes);
    await writer.close();
  }
  const { code, stdout, stderr } = await child.output();
  const decode = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);
  return { code, stdout: decode(stdout), stderr: decode(stderr) };
}

/** Runs a bash script (pipes, PIPESTATUS) from `cwd`; its stdout and stderr are captured. */
export async function bash(script: string, cwd: string): Promise<Run> {
  const { code, stdout, stderr } = await new Deno.Command("bash", {
    args: ["-c", script],
    cwd,
    stdout: "piped",
    stderr: "piped",
    env: {
      NO_COLOR: "1",
      INIT_CWD: cwd,
      "?": "",
      npm_lifecycle_event: "",
      npm_config_user_agent: "",
    },
  }).output();
  const decode = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);
  return { code, stdout: decode(stdout), stderr: decode(stderr) };
}

/** Quotes a word for bash. */
export function shellQuote(word: string): string {
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** The `deno task …` command line, quoted for bash. */
export function taskLine(name: string, args: string[]): string {
  return [Deno.execPath(), ...taskArgs(name, args)].map(shellQuote).join(" ");
}

/** One log entry line of a `user.message`. */
export function entryLine(
  seq: number,
  session: string,
  text: string,
  processedAt?: string,
): string {
  return JSON.stringify({
    seq,
    session_id: session,
    thread_id: null,
    event: {
      id: `sevt_${seq}`,
      type: "user.message",
      ...(processedAt === undefined ? {} : { processed_at: processedAt }),
      content: text,
    },
  });
}

/** Two sessions' logs, `a.ndjson` and `b.ndjson`, in `dir`. */
export async function twoLogs(dir: string): Promise<string[]> {
  await Deno.writeTextFile(
    `${dir}/a.ndjson`,
    `${entryLine(1, "sesn_a", "question a", "2026-09-14T10:01:00Z")}\n`,
  );
  await Deno.writeTextFile(
    `${dir}/b.ndjson`,
    `${entryLine(1, "sesn_b", "question b", "2026-09-14T10:02:00Z")}\n`,
  );
  return ["a.ndjson", "b.ndjson"];
}

/** Runs `work` in a fresh temporary folder, removed afterwards. */
export async function inTempDir(work: (dir: string) => Promise<void>): Promise<void> {
  const dir = await Deno.makeTempDir();
  try {
    await work(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
