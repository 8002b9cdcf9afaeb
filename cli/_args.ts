// Copyright 2026 the brigade authors. MIT license.

// The two commands' command lines, parsed one way: `node:util`'s parseArgs, strict, its errors
// reworded by argsProblem (_args_problem.ts) into a UsageError (exit code 2). node:util is
// imported when a parse needs it, so the status line's own call (`facts --statusline`) never
// loads it; the wording, when a parse fails.

import type { parseArgs, ParseArgsOptionsConfig } from "node:util";
import type { Scope } from "../events/types.ts";
import type { ManagedAgentsStopAt as StopAt } from "../sources/managed_agents/from_managed_agents.ts";
import { EXAMPLE_INPUT } from "./_example.ts";
import type { DateRange } from "./_dates.ts";
import { counted } from "./_plural.ts";
import { plainArgs, type PlainOption } from "./_plain_args.ts";
import { UsageError } from "./_usage_error.ts";

export { UsageError } from "./_usage_error.ts";

/** What {@linkcode strictArgs} parses with: positionals allowed, an unknown option an error. */
type StrictConfig<T extends ParseArgsOptionsConfig> = {
  args: string[];
  options: T;
  allowPositionals: true;
  strict: true;
  tokens: true;
};

/**
 * `node:util`'s parseArgs, strict, loaded on first use; a problem is a
 * {@linkcode UsageError} worded by {@linkcode argsProblem}.
 */
async function strictArgs<T extends ParseArgsOptionsConfig>(
  args: string[],
  options: T,
): Promise<ReturnType<typeof parseArgs<StrictConfig<T>>>> {
  // The common calls (`render log.ndjson`, `render -r dream --out dreams/ logs/`, `facts PATH`):
  // what parseArgs gives for them, without the load of `node:util`, which costs more than a parse.
  const plain = plainArgs(args, options as Readonly<Record<string, PlainOption>>);
  if (plain !== undefined) {
    return plain as unknown as ReturnType<typeof parseArgs<StrictConfig<T>>>;
  }
  const { parseArgs } = await import("node:util");
  let parsed: ReturnType<typeof parseArgs<StrictConfig<T>>>;
  try {
    parsed = parseArgs({ args, options, allowPositionals: true, strict: true, tokens: true });
  } catch (error) {
    const { argsProblem } = await import("./_args_problem.ts");
    throw new UsageError(argsProblem(error, Object.keys(options)));
  }
  // An option that takes a value keeps the last one given: a second one is a mistake, not a choice.
  const seen = new Set<string>();
  for (const token of parsed.tokens) {
    if (token.kind !== "option" || options[token.name]?.type !== "string") continue;
    if (seen.has(token.name)) {
      throw new UsageError(`Option "--${token.name}" was given twice: give it once`);
    }
    seen.add(token.name);
  }
  return parsed;
}

/** What `deno task render` was asked to do. */
export interface RenderCommand {
  renderer: string;
  out: string | undefined;
  scope: Scope | undefined;
  session: string | undefined;
  /**
   * `--follow`, `-f`: go on reading the `--session` (or the one FILE, as it grows) as it runs,
   * printing each item.
   */
  follow: boolean;
  /** `--stop-at idle|terminated`: when a `--follow` ends; the library's default when not given. */
  stopAt: StopAt | undefined;
  /** `--watch`: keep the `--out` folder in step with the inputs, until Ctrl-C. */
  watch: boolean;
  force: boolean;
  skipInvalid: boolean;
  format: "auto" | "log" | "claude-code";
  help: boolean;
  version: boolean;
  inputs: string[];
  /** `--no-config`: the project's configured renderers are not read. */
  noConfig: boolean;
  /** `--session-id NAME`: the session of the one input is named NAME. */
  sessionId: string | undefined;
  /**
   * The renderer's options given by flag (`--item-budget`, `--transcript-budget`, `--keep`,
   * `--no-thinking`).
   */
  rendererOptions: RendererFlags;
  /** `--since` and `--until`: the sessions rendered are those that started in the range. */
  range: DateRange | undefined;
  /** `--unrendered`: count what the Claude Code inputs hold that is not rendered, render nothing. */
  unrendered: boolean;
  /**
   * `--previous FILE`: the previous run's INDEX.md, read (as `previous`, named by `previousName`
   * in {@linkcode RendererFlags}) before anything renders, to mark the new index against.
   */
  previous: string | undefined;
}

/** The renderer's options the command line sets, by option name. */
export interface RendererFlags {
  itemBudget?: number;
  transcriptBudget?: number;
  keep?: string;
  /** `--no-thinking`: `false`; a renderer that shows thinking leaves it out. */
  thinking?: boolean;
  // The grader's: what a model judge reads.
  /** `--ids`: each label carries its entry's seq, `[M12 · user]`. */
  ids?: boolean;
  /** `--thread ID|NAME`: one thread's items. */
  thread?: string;
  /** `--each-thread`: `"each"`, each thread as a section of its own. */
  threads?: "each";
  /** `--envelope`: the transcript between two marker lines. */
  envelope?: boolean;
  /** `--outcome`: a `[session outcome]` block first. */
  outcome?: boolean;
  /** `--chunk-bytes N`: the whole session in chunks of at most N bytes. */
  chunks?: { bytes: number };
  // The index's: what a memory run reads.
  /** `--previous FILE`: the file's text (an index renderer marks its rows against it). */
  previous?: string;
  /** `--previous FILE`: the FILE, as given, for the renderer's messages. */
  previousName?: string;
}

/** The flag of each renderer option the command line sets. */
export const RENDERER_FLAGS: Readonly<Record<keyof RendererFlags, string>> = {
  itemBudget: "--item-budget",
  transcriptBudget: "--transcript-budget",
  keep: "--keep",
  thinking: "--no-thinking",
  ids: "--ids",
  thread: "--thread",
  threads: "--each-thread",
  envelope: "--envelope",
  outcome: "--outcome",
  chunks: "--chunk-bytes",
  previous: "--previous",
  previousName: "--previous",
};

/** Parses the `render` command line; a problem is a {@linkcode UsageError}. */
export async function parseRenderArgs(args: string[]): Promise<RenderCommand> {
  const { values, positionals } = await strictArgs(args, {
    renderer: { type: "string", short: "r" },
    out: { type: "string", short: "o" },
    scope: { type: "string" },
    session: { type: "string" },
    // `-f` is `--follow`, as in `deno task facts`; `--force` has no short form.
    follow: { type: "boolean", short: "f" },
    "stop-at": { type: "string" },
    watch: { type: "boolean" },
    force: { type: "boolean" },
    "skip-invalid": { type: "boolean" },
    format: { type: "string" },
    "item-budget": { type: "string" },
    "transcript-budget": { type: "string" },
    keep: { type: "string" },
    "no-thinking": { type: "boolean" },
    // The grader's: what a model judge reads.
    ids: { type: "boolean" },
    thread: { type: "string" },
    "each-thread": { type: "boolean" },
    envelope: { type: "boolean" },
    outcome: { type: "boolean" },
    "chunk-bytes": { type: "string" },
    // The previous run's index (issue 30): the index renderer's, or a dream folder's.
    previous: { type: "string" },
    since: { type: "string" },
    until: { type: "string" },
    help: { type: "boolean", short: "h" },
    // `-V`, as `deno -V` and ccusage; `-v` stays free (it would be --verbose elsewhere).
    version: { type: "boolean", short: "V" },
    "no-config": { type: "boolean" },
    "session-id": { type: "string" },
    unrendered: { type: "boolean" },
  });
  const scope = values.scope;
  if (scope !== undefined && scope !== "session" && scope !== "all") {
    throw new UsageError(`Unknown scope "${scope}": use --scope session or --scope all`);
  }
  const format = values.format ?? "auto";
  if (format !== "auto" && format !== "log" && format !== "claude-code") {
    throw new UsageError(`Unknown format "${format}": use --format log or --format claude-code`);
  }
  if (values.session === "") throw new UsageError('Option "--session" needs a session id');
  if (values.session !== undefined && positionals.length > 0) {
    throw new UsageError("Cannot read files and --session at once: pass one or the other");
  }
  const follow = values.follow ?? false;
  if (follow && values.session === undefined && positionals.length === 0) {
    throw new UsageError("Cannot follow without a session: --follow takes --session ID");
  }
  if (
    follow && values.session === undefined && (positionals.length > 1 || positionals[0] === "-")
  ) {
    throw new UsageError(
      "Cannot follow more than one FILE: --follow takes --session ID, or one FILE that grows",
    );
  }
  const watch = values.watch ?? false;
  if (watch) watchProblem(values, positionals);
  if (follow && values.out !== undefined) {
    throw new UsageError(
      "Cannot follow into --out: --follow prints each item on standard output (redirect it)",
    );
  }
  if (follow && values["transcript-budget"] !== undefined) {
    throw new UsageError(
      "Cannot follow within --transcript-budget: --follow prints every item to the session's end",
    );
  }
  for (const flag of ["envelope", "outcome"] as const) {
    if (follow && values[flag]) {
      throw new UsageError(
        `Cannot follow with --${flag}: it needs the session's end, --follow prints each item as it completes`,
      );
    }
  }
  const unrendered = values.unrendered ?? false;
  if (unrendered) unrenderedProblem(values, positionals);
  const stopAt = stopAtOption(values["stop-at"], follow);
  let range: DateRange | undefined;
  try {
    // Imported here: the dates' rules are no load for a call without --since or --until.
    if (values.since !== undefined || values.until !== undefined) {
      range = (await import("./_dates.ts")).dateRange(values.since, values.until);
    }
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (follow && range !== undefined) {
    throw new UsageError(
      "Cannot follow with --since or --until: they select among finished sessions",
    );
  }
  if (values.previous === "") throw new UsageError('Option "--previous" needs a FILE');
  if (follow && values.previous !== undefined) {
    throw new UsageError("Cannot follow with --previous: it marks the rows of a folder's index");
  }
  return {
    renderer: values.renderer ?? "grader",
    out: values.out,
    scope,
    session: values.session,
    follow,
    stopAt,
    watch,
    force: values.force ?? false,
    skipInvalid: values["skip-invalid"] ?? false,
    format,
    help: values.help ?? false,
    version: values.version ?? false,
    inputs: positionals,
    noConfig: values["no-config"] ?? false,
    sessionId: sessionIdOption(values["session-id"], positionals),
    rendererOptions: rendererFlags(values),
    range,
    unrendered,
    previous: values.previous,
  };
}

/** `--watch` keeps a folder in step with files and folders: what it needs and cannot go with. */
function watchProblem(values: Record<string, unknown>, inputs: string[]): void {
  const others = ["session", "follow", "unrendered", "since", "until", "previous"]
    .filter((name) => values[name] !== undefined);
  if (others.length > 0) {
    throw new UsageError(
      `Cannot use --watch with --${
        others[0]
      }: it keeps an --out folder in step with FILE or FOLDER`,
    );
  }
  if (values.out === undefined) {
    throw new UsageError("Option --watch needs --out DIR: the folder kept in step");
  }
  if (inputs.length === 0 || inputs.includes("-")) {
    throw new UsageError("Option --watch needs a FILE or FOLDER to watch (not standard input)");
  }
}

/** `--unrendered` reads files and folders and renders nothing: what it cannot go with. */
function unrenderedProblem(values: Record<string, unknown>, inputs: string[]): void {
  const others = ["renderer", "out", "session", "follow", "since", "until", "session-id"]
    .filter((name) => values[name] !== undefined);
  if (others.length > 0) {
    throw new UsageError(
      `Cannot use --unrendered with --${
        others[0]
      }: it counts what FILE or FOLDER holds, and renders nothing`,
    );
  }
  if (inputs.length === 0 || inputs.includes("-")) {
    throw new UsageError("Option --unrendered needs a FILE or FOLDER of Claude Code transcripts");
  }
}

/** The end conditions `--stop-at` takes: those of the library's `stopAt`. */
const STOP_AT: readonly StopAt[] = ["idle", "terminated"];

/** `--stop-at`, checked: one of {@linkcode STOP_AT}, with `--follow` only. */
function stopAtOption(value: string | undefined, follow: boolean): StopAt | undefined {
  if (value === undefined) return undefined;
  if (!STOP_AT.includes(value as StopAt)) {
    throw new UsageError(
      `Unknown --stop-at "${value}": use --stop-at idle or --stop-at terminated`,
    );
  }
  if (!follow) throw new UsageError("Cannot use --stop-at without --follow: it ends a follow");
  return value as StopAt;
}

/**
 * The renderer options given by flag. A budget must be written as a number;
 * whether the number (or `--keep`'s word) suits the renderer is the
 * renderer's to say, with the library's own message.
 */
function rendererFlags(
  values: {
    "item-budget"?: string;
    "transcript-budget"?: string;
    keep?: string;
    "no-thinking"?: boolean;
    ids?: boolean;
    thread?: string;
    "each-thread"?: boolean;
    envelope?: boolean;
    outcome?: boolean;
    "chunk-bytes"?: string;
  },
): RendererFlags {
  const flags: RendererFlags = {};
  const bytes = (flag: string, value: string): number => {
    if (!/^\s*[-+]?\d+(\.\d+)?\s*$/.test(value)) {
      throw new UsageError(`Option "${flag}" takes a number of bytes: "${value}"`);
    }
    return Number(value);
  };
  if (values["item-budget"] !== undefined) {
    flags.itemBudget = bytes("--item-budget", values["item-budget"]);
  }
  if (values["transcript-budget"] !== undefined) {
    flags.transcriptBudget = bytes("--transcript-budget", values["transcript-budget"]);
  }
  if (values.keep !== undefined) flags.keep = values.keep;
  if (values["no-thinking"]) flags.thinking = false;
  if (values.ids) flags.ids = true;
  if (values.thread !== undefined) flags.thread = values.thread;
  if (values["each-thread"]) flags.threads = "each";
  if (values.envelope) flags.envelope = true;
  if (values.outcome) flags.outcome = true;
  if (values["chunk-bytes"] !== undefined) {
    flags.chunks = { bytes: bytes("--chunk-bytes", values["chunk-bytes"]) };
  }
  return flags;
}

/** `--session-id NAME`: a name for one input's session, never empty. */
function sessionIdOption(name: string | undefined, inputs: string[]): string | undefined {
  if (name === undefined) return undefined;
  if (name === "") throw new UsageError('Option "--session-id" needs a name: got an empty one');
  if (inputs.length !== 1) {
    throw new UsageError(
      `Cannot name the session of ${
        counted(inputs.length, "input")
      }: --session-id takes one FILE or "-"`,
    );
  }
  return name;
}

/** How often `facts --follow` polls when not told: once a second. */
const DEFAULT_INTERVAL_MS = 1_000;

/** What `deno task facts` was asked to do. */
export interface FactsCommand {
  path: string;
  json: boolean;
  follow: boolean;
  intervalMs: number;
  statusline: boolean;
  help: boolean;
  version: boolean;
}

const FACTS_DEFAULTS: FactsCommand = {
  path: EXAMPLE_INPUT,
  json: false,
  follow: false,
  intervalMs: DEFAULT_INTERVAL_MS,
  statusline: false,
  help: false,
  version: false,
};

/**
 * Parses the `facts` command line; a problem is a {@linkcode UsageError}.
 * `node:util` is loaded only past the status line's own call.
 */
export async function parseFactsArgs(args: string[]): Promise<FactsCommand> {
  if (args.length === 1 && args[0] === "--statusline") {
    // Claude Code's own call, every few hundred ms: spared the import of `node:util`, which
    // costs more than the rest of its work.
    return { ...FACTS_DEFAULTS, statusline: true };
  }
  if (args.length === 2 && args.includes("--statusline") && args.includes("--json")) {
    // The same, for a status-line script of one's own that reads the JSON line.
    return { ...FACTS_DEFAULTS, statusline: true, json: true };
  }
  const { values, positionals } = await strictArgs(args, {
    json: { type: "boolean" },
    follow: { type: "boolean", short: "f" },
    interval: { type: "string" },
    statusline: { type: "boolean" },
    help: { type: "boolean", short: "h" },
    version: { type: "boolean", short: "V" },
  });
  if (positionals.length > 1) {
    throw new UsageError(
      `Cannot read more than one transcript: got ${counted(positionals.length, "path")}`,
    );
  }
  const follow = values.follow ?? false;
  let intervalMs = DEFAULT_INTERVAL_MS;
  if (values.interval !== undefined) {
    if (!follow) throw new UsageError("Cannot use --interval without --follow");
    intervalMs = Number(values.interval);
    if (!/^\d+$/.test(values.interval) || intervalMs < 10 || intervalMs > 3_600_000) {
      throw new UsageError(
        `Cannot poll every "${values.interval}" ms: --interval takes a whole number from 10 to 3600000`,
      );
    }
  }
  const statusline = values.statusline ?? false;
  if (statusline && (positionals.length > 0 || follow)) {
    throw new UsageError(
      "Cannot combine --statusline with a PATH or --follow: it reads the path from standard input",
    );
  }
  if (follow && positionals.length === 0) {
    throw new UsageError("Cannot follow the bundled example: pass the PATH of a transcript");
  }
  return {
    path: positionals[0] ?? EXAMPLE_INPUT,
    json: values.json ?? false,
    follow,
    intervalMs,
    statusline,
    help: values.help ?? false,
    version: values.version ?? false,
  };
}
