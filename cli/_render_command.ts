// Copyright 2026 the brigade authors. MIT license.

/**
 * The `render` command the whole way (`render.ts`'s `main()` runs it, unless a rerun into a
 * folder finds nothing changed): its help, the renderer's loading, the team's configuration,
 * the run.
 *
 * @module
 */

import { BUILTIN_NAMES, isBuiltin, loadBuiltin } from "./_builtins.ts";
import type { Renderer } from "../renderers/registry.ts";
import {
  parseRenderArgs,
  type RenderCommand,
  RENDERER_FLAGS,
  type RendererFlags,
  UsageError,
} from "./_args.ts";
import { RenderRun, type Target } from "./_batch.ts";
import { Interrupt } from "./_interrupt.ts";
import { ClosedOutputError, Stderr } from "./_terminal.ts";
import { type CallerDirectory, enterCallerDirectory, refuseRelative } from "./_cwd.ts";
import { EXAMPLE_INPUT, loadExample } from "./_example.ts";

// Imported on the call that needs them, so that the common call (built-in renderers, files or
// the example in, no --watch) loads none of their graphs: the team configuration's loader
// (configModule()), the help (_render_help.ts), the API's access check (_net_access.ts: the
// Managed Agents source),
// --unrendered's listing (_unrendered.ts: the Claude Code source) and --watch (_watch.ts).

/** The folder of this module, for {@linkcode configModule}'s specifier. */
const CLI_FOLDER = "cli";

/**
 * The team configuration's loader (`_config.ts`), by a specifier Deno does not read ahead (as
 * `renderers/html/lazy.ts` imports the page): a literal `import("./_config.ts")` would put
 * jsonc-parser in the graph of every call, and Deno's npm resolution with it, which checks every
 * npm package of the lockfile before the call runs, and in a fresh cache downloads them all,
 * markdown-it and diff included, for a grader run that uses none.
 */
function configModule(): Promise<typeof import("./_config.ts")> {
  return import(`../${CLI_FOLDER}/_config.ts`);
}

/** What `render.ts`'s `main()` already did: entered the caller's folder, parsed the command. */
export interface Prelude {
  caller: CallerDirectory;
  /** The command, when it parsed (else it is parsed again, for its error to be said). */
  command?: RenderCommand | undefined;
}

/**
 * Runs the command as if typed with `args` (see `main()` of `render.ts`), printing to stdout and
 * stderr; the caller exits.
 *
 * @param args The command-line arguments, as in `Deno.args`.
 * @param prelude The caller's folder, entered, and the command, when `main()` took them.
 * @returns The exit code.
 */
export async function renderCommand(args: string[], prelude?: Prelude): Promise<number> {
  const stderr = new Stderr("render");
  try {
    const caller = prelude?.caller ?? enterCallerDirectory();
    const command = prelude?.command ?? await parseRenderArgs(args);
    if (command.version) {
      console.log((await import("./_version.ts")).VERSION_LINE);
      return 0;
    }
    const problem = command.session === undefined
      ? undefined
      : await (await import("./_net_access.ts")).apiAccessProblem(
        args,
        await writeFolder(command.out, command.inputs),
      );
    if (problem !== undefined) {
      // The message, then the command to run as it is: a line to copy, not to escape.
      const [message = "", ...command] = problem.split("\n");
      stderr.say(message);
      for (const line of command) stderr.hint(line);
      return 2;
    }
    if (command.session !== undefined && !Deno.env.get("ANTHROPIC_API_KEY")) {
      throw new UsageError(
        "Cannot read a session from the Managed Agents API without a key: set ANTHROPIC_API_KEY",
      );
    }
    return await run(command, stderr, caller, args);
  } catch (error) {
    stderr.clearProgress();
    // `render … | head -1`: the reader has what it wanted.
    if (error instanceof ClosedOutputError) return 0;
    if (error instanceof UsageError) {
      stderr.say(error.message);
      stderr.hint("Run with --help for usage.");
      return 2;
    }
    stderr.say(error instanceof Error ? error.message : String(error));
    return 1;
  }
}

async function run(
  command: RenderCommand,
  stderr: Stderr,
  caller: CallerDirectory,
  args: string[],
): Promise<number> {
  if (command.help) {
    const { helpText } = await import("./_render_help.ts");
    console.log(await helpText(command, caller, configModule));
    return 0;
  }
  if (command.unrendered) {
    const { printUnrendered } = await import("./_unrendered.ts");
    return await printUnrendered(command.inputs, {
      line: (text) => console.log(text),
      problem: stderr.say,
    });
  }
  const configured = !isBuiltin(command.renderer) && !command.noConfig;
  refuseRelative(
    caller,
    [...command.inputs, command.out, command.previous],
    configured ? `the renderer configuration for "${command.renderer}"` : undefined,
  );
  // The bundled example's data loads while the built-in's graph does: one wait, not two.
  const example = isBuiltin(command.renderer) && command.inputs.length === 0
    ? loadExample()
    : undefined;
  let renderer = isBuiltin(command.renderer) ? await loadBuiltin(command.renderer) : undefined;
  await example;
  if (renderer === undefined) {
    // Only a name that is not a built-in reads the configuration, and imports what defines it.
    const { loadConfiguredRenderer, nearMiss, readRendererConfig } = await configModule();
    const config = command.noConfig ? undefined : await readRendererConfig(Deno.cwd());
    const builtins: string[] = [...BUILTIN_NAMES];
    const known = [...builtins, ...(config?.named.keys() ?? [])];
    // A typo of a known name imports nothing: it is reported as one, with the name meant.
    const typo = config?.named.has(command.renderer)
      ? undefined
      : nearMiss(command.renderer, known);
    if (config !== undefined && typo === undefined) {
      // Imported here: only a team's renderer runs with its access bounded.
      const team = await import("./_team_access.ts");
      if (team.boundedWorkers()) {
        // A team's module runs with what this run needs, no more: in a worker, write access only
        // under --out; else in this process, what Deno can give up.
        const folder = await writeFolder(command.out, command.inputs);
        const write = folder === undefined
          ? undefined
          : (await import("node:path")).resolve(folder);
        return await team.runInBoundedWorker(args, {
          session: command.session !== undefined,
          write,
        });
      }
      team.dropAccessForTeamCode({
        session: command.session !== undefined,
        out: command.out !== undefined,
      });
      renderer = await loadConfiguredRenderer(config, command.renderer, builtins);
    }
    if (renderer === undefined) {
      const meant = typo === undefined ? "" : ` (did you mean "${typo}"?)`;
      throw new UsageError(
        `Unknown renderer "${command.renderer}": known renderers are ${known.join(", ")}${meant}`,
      );
    }
  }
  if (command.previous !== undefined) {
    command.rendererOptions.previous = await readPrevious(command.previous);
    command.rendererOptions.previousName = command.previous;
  }
  if (command.follow) unboundedFollow(renderer, command.rendererOptions);
  await checkRendererOptions(renderer, command.rendererOptions);
  if (command.range !== undefined && renderer.batch !== undefined) {
    throw new UsageError(
      `The ${renderer.name} renderer reads every input as one batch: --since and --until select sessions rendered one by one`,
    );
  }
  const target = await outputTarget(command.out, command.inputs);
  if (command.previous !== undefined && renderer.batch === undefined && target.kind !== "dir") {
    throw new UsageError(
      `Cannot mark one ${renderer.name} output against --previous: it marks an index (--renderer index, or --out DIR)`,
    );
  }
  const inputs = command.inputs.length > 0 ? command.inputs : [EXAMPLE_INPUT];
  using interrupt = new Interrupt();
  if (command.watch) {
    if (target.kind !== "dir") {
      throw new UsageError("Option --watch writes into a folder: give --out DIR/ (a trailing /)");
    }
    const { watchInto } = await import("./_watch.ts");
    return await watchInto({ renderer, command, dir: target.path, stderr, interrupt });
  }
  return await new RenderRun({ renderer, command, target, inputs, stderr, interrupt }).all();
}

/** The most bytes of a `--previous` index read: an INDEX.md of a million sessions. */
const PREVIOUS_MAX_BYTES = 512 * 1024 * 1024;

/** The text of `--previous FILE`; a file that cannot be read is a usage error naming it. */
async function readPrevious(path: string): Promise<string> {
  const refuse = (why: string): never => {
    throw new UsageError(`Cannot read the previous index "${path}": ${why}`);
  };
  const info = await Deno.stat(path).catch((error) =>
    refuse(error instanceof Deno.errors.NotFound ? "no such file" : (error as Error).name)
  );
  if (!info.isFile) refuse("it is not a file");
  if (info.size > PREVIOUS_MAX_BYTES) refuse(`it is over ${PREVIOUS_MAX_BYTES} bytes`);
  try {
    return new TextDecoder().decode(await Deno.readFile(path));
  } catch (error) {
    return refuse((error as Error).name);
  }
}

/**
 * Refuses, before any input is read, a flag the renderer does not take (as
 * its `optionNames` say) and a value it refuses: it is asked to render an
 * empty source with the options, and to build an empty folder index with
 * them when it has one (a `--previous` index is read there), so its own
 * message is the one shown. A renderer that declares no `optionNames` is
 * given the options as they are, and is not run before its inputs.
 */
async function checkRendererOptions(renderer: Renderer, options: RendererFlags): Promise<void> {
  const given = Object.keys(options) as (keyof RendererFlags)[];
  if (given.length === 0 || renderer.optionNames === undefined) return;
  for (const name of given) {
    if (!renderer.optionNames.includes(name)) {
      throw new UsageError(`The ${renderer.name} renderer takes no ${RENDERER_FLAGS[name]}`);
    }
  }
  try {
    await renderer.render([], options);
    await renderer.folder?.buildIndex([], options);
  } catch (error) {
    if (error instanceof RangeError || error instanceof TypeError || error instanceof SyntaxError) {
      throw new UsageError(error.message);
    }
    throw error;
  }
}

/**
 * Under `--follow`, no whole-session budget may end the follow: a renderer
 * that streams and takes `transcriptBudget` is given `Infinity` (the grader
 * and json show every item, each within its item budget). The dream's cap is
 * not a budget that ends it: it keeps its head and its tail.
 */
function unboundedFollow(renderer: Renderer, options: RendererFlags): void {
  if (renderer.stream === undefined) return;
  if (renderer.optionNames?.includes("transcriptBudget") !== true) return;
  options.transcriptBudget = Infinity;
}

/**
 * Whether `--out` names a folder: it ends with `/`, is one, or does not exist yet while an input is
 * a folder (whose transcripts can only go a page each into a folder).
 */
/**
 * The folder a run writes in, as given (relative to where the command runs): the `--out` folder,
 * or that of the `--out` file (its temporary file goes there); undefined for standard output.
 */
async function writeFolder(
  out: string | undefined,
  inputs: readonly string[],
): Promise<string | undefined> {
  if (out === undefined) return undefined;
  // `node:path` imported here: a render to standard output would load it for nothing.
  return await namesFolder(out, inputs) ? out : (await import("node:path")).dirname(out);
}

async function namesFolder(out: string, inputs: readonly string[]): Promise<boolean> {
  if (out.endsWith("/")) return true;
  const info = await Deno.stat(out).catch(() => undefined);
  if (info !== undefined) return info.isDirectory;
  for (const input of inputs) {
    if (input === "-") continue;
    if ((await Deno.stat(input).catch(() => undefined))?.isDirectory) return true;
  }
  return false;
}

async function outputTarget(out: string | undefined, inputs: readonly string[]): Promise<Target> {
  if (out === undefined) return { kind: "stdout" };
  const info = await Deno.stat(out).catch(() => undefined);
  if (await namesFolder(out, inputs)) {
    if (info !== undefined && !info.isDirectory) {
      throw new UsageError(
        `Cannot write a file per session into ${out}: it is a file, not a folder`,
      );
    }
    try {
      await Deno.mkdir(out, { recursive: true });
    } catch (error) {
      throw new Error(`Cannot create the folder ${out}: ${(error as Error).message}`);
    }
    return { kind: "dir", path: out };
  }
  return { kind: "file", path: out };
}
