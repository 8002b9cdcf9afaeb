// Copyright 2026 the brigade authors. MIT license.

/**
 * One `deno task render` invocation's work: every input, every session, each
 * written whole or not at all, the outcome counted and summed up on one line.
 *
 * @module
 */

import { excerpt } from "../redact/excerpt.ts";
import { splitSessions } from "../events/split_sessions.ts";
import type { LogEntry } from "../events/types.ts";
import type { PageOrigin, Renderer } from "../renderers/registry.ts";
import type { RenderCommand } from "./_args.ts";
import { UsageError } from "./_args.ts";
import { entriesInScope } from "./_entries_in_scope.ts";
import type { InputFormat } from "./_format.ts";
import type { FolderWriter, Reading, Rendered } from "./_folder_writer.ts";
import {
  type Input,
  inputName,
  isRecordable,
  type OpenedInput,
  openInput,
} from "./_input_source.ts";
import type { Interrupt } from "./_interrupt.ts";
import type { Manifest } from "./_manifest.ts";
import { BadLines } from "./_reporter.ts";
import { describe, RunTally } from "./_run_tally.ts";
import { ClosedOutputError, type Stderr, writeOutput } from "./_terminal.ts";
import { readsThinking, runKey } from "./_run_key.ts";

// Imported on the call that needs them (literal specifiers, so that `deno compile` and the
// registry still see them): a render of files to standard output, the common call, loads
// neither the Managed Agents source (`--session`), the follow of a file, `--since`/`--until`'s
// dates nor the folder's machinery (`--out DIR`: its lock, record, pages, index and walk, and
// `node:path`, whose load alone costs such a call more than the rest of its start-up).

/** `--session ID`'s reading from the API (the Managed Agents source). */
function apiSessionModule(): Promise<typeof import("./_api_session.ts")> {
  return import("./_api_session.ts");
}

/** `--follow`'s writing of each item as it completes. */
function followOutputModule(): Promise<typeof import("./_write_as_it_goes.ts")> {
  return import("./_write_as_it_goes.ts");
}

/** What writes into a folder: its pages, index and record, and the inputs found in folders. */
async function folderModules(): Promise<{
  lock: typeof import("./_folder_lock.ts");
  writer: typeof import("./_folder_writer.ts");
  inputs: typeof import("./_folder_inputs.ts");
  manifest: typeof import("./_manifest.ts");
  output: typeof import("./_output.ts");
  version: typeof import("./_version.ts");
}> {
  const [lock, writer, inputs, manifest, output, version] = await Promise.all([
    import("./_folder_lock.ts"),
    import("./_folder_writer.ts"),
    import("./_folder_inputs.ts"),
    import("./_manifest.ts"),
    import("./_output.ts"),
    import("./_version.ts"),
  ]);
  return { lock, writer, inputs, manifest, output, version };
}

export type { Input } from "./_input_source.ts";

/** Where the rendered text goes. */
export type Target =
  | { kind: "stdout" }
  | { kind: "file"; path: string }
  | { kind: "dir"; path: string };

/** What a run needs besides the command. */
export interface RenderRunOptions {
  renderer: Renderer;
  command: RenderCommand;
  target: Target;
  /** The inputs to read: the command's, or the bundled example. */
  inputs: Input[];
  stderr: Stderr;
  interrupt: Interrupt;
  /** `--watch`: one round of the watch, what it tells the run and learns from it. */
  watch?: WatchRound;
}

/** What a round of `render --watch` tells a run into a folder, and learns from it. */
export interface WatchRound {
  /** Whether an input's session is still growing: its page says so and reloads itself. */
  live(input: Input): boolean;
  /** The pages an input has in the folder, written or found current by this round. */
  outputs(input: Input, names: readonly string[]): void;
  /** The options the folder's index is built with: the renderer's, and the watch's. */
  indexOptions: unknown;
}

/** One invocation's work: every input, every session, the outcomes counted. */
export class RenderRun {
  readonly #renderer: Renderer;
  readonly #command: RenderCommand;
  readonly #target: Target;
  #inputs: Input[];
  readonly #interrupt: Interrupt;
  readonly #tally: RunTally;
  /** The one session written to stdout or a file, at the end. */
  #single: Rendered | undefined;
  /** Into a folder: its pages and index. */
  #folder: FolderWriter | undefined;
  /** The folder's record of its inputs, for a batch of files into a folder. */
  #manifest: Manifest | undefined;
  /** Into a folder: the modules that write there, imported when the run opens it. */
  #folderModules: Awaited<ReturnType<typeof folderModules>> | undefined;
  /** The input being rendered into a folder, its outputs, and whether the record vouches. */
  #reading: Reading | undefined;
  /** Into a folder: what an input's outputs depend on besides the input, the options' key. */
  #key = "";
  /** The project of each input found in a folder given as an input, by its path. */
  #projects = new Map<string, string>();
  /** Where the session being rendered into a folder was read from. */
  #origin: PageOrigin | undefined;
  /**
   * Whether a Claude Code transcript's thinking is read: for a renderer that
   * says it takes a `thinking` option, unless `--no-thinking`.
   */
  readonly #thinking: boolean;
  readonly #watch: WatchRound | undefined;

  /**
   * Constructs a new instance.
   *
   * @param options The renderer, the command, where output goes, the inputs and the terminal.
   */
  constructor(options: RenderRunOptions) {
    this.#renderer = options.renderer;
    this.#command = options.command;
    this.#target = options.target;
    this.#inputs = options.inputs;
    this.#interrupt = options.interrupt;
    this.#watch = options.watch;
    this.#tally = new RunTally({
      stderr: options.stderr,
      interrupt: options.interrupt,
      target: options.target.kind,
      counted: options.command.session === undefined,
      ranged: options.command.range !== undefined,
    });
    this.#tally.inputs.total = options.inputs.length;
    this.#thinking = readsThinking(this.#renderer, this.#command.rendererOptions);
  }

  /** Runs the batch; returns the exit code (130 or 143 when interrupted). */
  async all(): Promise<number> {
    const dir = this.#target.kind === "dir" ? this.#target.path : undefined;
    if (dir !== undefined) {
      this.#folderModules = await folderModules();
      this.#key = runKey(this.#command, this.#renderer, this.#folderModules.version.VERSION);
    }
    // One run at a time writes into a folder: its index and record are the folder's whole.
    using _lock = dir === undefined ? null : await this.#folderModules!.lock.lockFolder(dir, {
      signal: this.#interrupt.signal,
      say: this.#tally.say,
    });
    if (this.#stopped) {
      // Interrupted while another run held the folder: nothing was done.
      this.#tally.summary();
      return this.#interrupt.exitCode ?? 130;
    }
    if (dir !== undefined) await this.#openFolder(dir);
    await this.#work();
    this.#tally.clearProgress();
    await this.#folder?.writeIndex();
    // Only a faster next run depends on the record: one that cannot be written costs no more.
    await this.#manifest?.save().catch(() => {});
    if (this.#single !== undefined && !this.#stopped) await this.#emitSingle(this.#single);
    this.#tally.summary();
    return this.#tally.exitCode();
  }

  /** Into a folder: its leftovers cleared, its record read, the folders among the inputs walked. */
  async #openFolder(dir: string): Promise<void> {
    const { output, manifest, writer, inputs } = this.#folderModules!;
    await output.removeStaleTemporaries(dir);
    const files = this.#command.session === undefined;
    if (files && this.#renderer.batch === undefined) {
      this.#manifest = await manifest.Manifest.load(dir, { say: this.#tally.say });
    }
    this.#folder = new writer.FolderWriter({
      dir,
      renderer: this.#renderer,
      force: this.#command.force,
      manifest: this.#manifest,
      tally: this.#tally,
      rendererOptions: this.#watch?.indexOptions ?? this.#command.rendererOptions,
      // An index marked against --previous, or a watch's, is not the one a plain rerun builds.
      indexKey: this.#watch === undefined && this.#command.previous === undefined
        ? this.#key
        : undefined,
    });
    if (!files) return;
    const found = await inputs.expandFolders(this.#inputs, {
      failed: this.#tally.fail,
      note: this.#tally.say,
    });
    this.#inputs = found.inputs;
    this.#projects = found.projects;
    // Under --force no input is looked up; else each file's stat just taken is its stamp.
    if (this.#manifest !== undefined && !this.#command.force) {
      for (const [input, info] of found.stats) {
        if (isRecordable(input)) this.#manifest.stamped(input, info);
      }
    }
    this.#tally.inputs.total = found.inputs.length;
  }

  /** The command's work: a session from the API, one batch of every input, or each input. */
  async #work(): Promise<void> {
    const session = this.#command.session;
    if (session !== undefined && this.#command.follow) return await this.#follow(session);
    if (session !== undefined) return await this.#session(session);
    if (this.#command.follow) return await this.#followFile(this.#inputs[0]!);
    if (this.#renderer.batch !== undefined) return await this.#index();
    for (const input of this.#inputs) {
      if (this.#stopped) break;
      await this.#input(input);
      this.#tally.inputs.done++;
      this.#tally.progress();
    }
  }

  get #stopped(): boolean {
    return this.#interrupt.signal.aborted;
  }

  /** `--session ID`: one session read from the Managed Agents API. */
  async #session(sessionId: string): Promise<void> {
    const { scope } = this.#command;
    const { apiSession, sessionName } = await apiSessionModule();
    const source = apiSession(sessionId, { scope, follow: false, signal: this.#interrupt.signal });
    const name = sessionName(sessionId);
    await this.#guard(name, undefined, async () => {
      const tally = { entries: 0 };
      await this.#split(this.#entries(source, undefined, tally, undefined), undefined, name);
      if (tally.entries === 0 && !this.#stopped) this.#tally.fail(`no log entries in ${name}`);
    });
  }

  /**
   * `--session ID --follow`: the session read as it runs, each item written to standard output
   * as it completes, until the session ends (its turn, with `--stop-at idle`) or Ctrl-C.
   */
  async #follow(sessionId: string): Promise<void> {
    const { scope, stopAt } = this.#command;
    const signal = this.#interrupt.signal;
    const [{ apiSession, sessionName }, { writeAsItGoes }] = await Promise.all([
      apiSessionModule(),
      followOutputModule(),
    ]);
    const source = apiSession(sessionId, { scope, follow: true, stopAt, signal });
    try {
      await writeAsItGoes(this.#renderer, source, this.#command.rendererOptions);
      this.#tally.counts.rendered++;
    } catch (error) {
      if (error instanceof UsageError || error instanceof ClosedOutputError) throw error;
      if (!this.#stopped) this.#tally.fail(describe(error, sessionName(sessionId)));
    }
  }

  /**
   * `--follow FILE`: the file read as it grows, each item written to standard output as it
   * completes, until Ctrl-C (or the file is truncated or replaced).
   */
  async #followFile(input: Input): Promise<void> {
    if (this.#renderer.stream === undefined) {
      throw new UsageError(
        `The ${this.#renderer.name} renderer does not stream: --follow prints each item as it completes (use grader, json or one that streams)`,
      );
    }
    const name = inputName(input);
    const bad = new BadLines(name, { say: this.#tally.say });
    const [{ followFile }, { writeAsItGoes }] = await Promise.all([
      import("./_follow_file.ts"),
      followOutputModule(),
    ]);
    const source = followFile(input, {
      command: this.#command,
      thinking: this.#thinking,
      signal: this.#interrupt.signal,
      bad,
    });
    try {
      await writeAsItGoes(this.#renderer, this.#entries(source, bad, { entries: 0 }, undefined), {
        ...this.#command.rendererOptions,
      });
      this.#tally.counts.rendered++;
    } catch (error) {
      if (error instanceof UsageError || error instanceof ClosedOutputError) throw error;
      if (!this.#stopped) this.#tally.fail(describe(error, name));
    } finally {
      bad.finish();
    }
  }

  /**
   * Reads one input: its format, its sessions, its bad lines. Into a folder, an input file
   * whose outputs the folder's record says are current is not read at all.
   */
  async #input(input: Input): Promise<void> {
    const name = inputName(input);
    const manifest = this.#manifest;
    const stamp = manifest !== undefined && isRecordable(input)
      ? manifest.inputStamp(input)
      : undefined;
    // A page carries its project, and is named after it: a project is part of the fingerprint.
    const project = this.#projects.get(input);
    const projected = project === undefined ? this.#key : JSON.stringify([this.#key, project]);
    // A live page (it reloads itself) is another output than the finished one: its own key.
    const key = this.#watch?.live(input) === true ? JSON.stringify([projected, "live"]) : projected;
    if (manifest !== undefined && stamp !== undefined && !this.#command.force) {
      const outputs = manifest.unchanged(input, key, stamp);
      if (outputs !== undefined && this.#folder!.claim(outputs, name)) {
        this.#tally.counts.unchanged += outputs.length;
        this.#watch?.outputs(input, outputs);
        return;
      }
    }
    const failed = this.#tally.counts.failed;
    const reading: Reading = { input, stamped: stamp !== undefined, outputs: [] };
    this.#reading = reading;
    await this.#readInput(input, name, new BadLines(name, { say: this.#tally.say }));
    this.#reading = undefined;
    if (manifest === undefined || stamp === undefined) return;
    // Interrupted: the session in flight was finished, its page written; the rest is not. An
    // input that wrote nothing keeps its entry as it was.
    if (this.#stopped) {
      if (reading.outputs.length > 0) await manifest.readAgain(input, key, reading.outputs);
      return;
    }
    if (this.#tally.counts.failed === failed) {
      await manifest.record(input, key, stamp, reading.outputs);
      this.#watch?.outputs(input, reading.outputs.map((output) => output.name));
    } else {
      await manifest.readAgain(input, key, reading.outputs);
    }
  }

  async #readInput(input: Input, name: string, bad: BadLines): Promise<void> {
    await this.#guard(name, bad, async () => {
      const tally = { entries: 0 };
      const { format, source, sessionId } = await this.#open(input, bad);
      this.#origin = this.#target.kind === "dir"
        ? await this.#folderModules!.inputs.inputOrigin(input, format, this.#projects.get(input))
        : undefined;
      if (this.#origin !== undefined && this.#watch?.live(input) === true) {
        this.#origin = { ...this.#origin, live: true };
      }
      const entries = this.#entries(source, bad, tally, format === "log" ? name : undefined);
      if (format === "claude-code") {
        // A transcript is one session: rendering it stops reading once the renderer stops.
        const rendered = await this.#render(sessionId, entries);
        if (tally.entries > 0 && rendered !== undefined) await this.#emit(rendered, name);
      } else {
        await this.#split(entries, bad, name);
      }
      // Its bad lines are the reasons: said before the verdict.
      bad.finish();
      if (tally.entries === 0 && !this.#stopped) this.#tally.fail(nothingIn(name, format));
    });
    this.#origin = undefined;
  }

  /** Runs an input's work; a failure of the input is reported, an interruption is not. */
  async #guard(name: string, bad: BadLines | undefined, work: () => Promise<void>): Promise<void> {
    try {
      await work();
    } catch (error) {
      if (error instanceof UsageError) throw error;
      bad?.finish();
      if (!this.#stopped) this.#tally.fail(describe(error, name));
    } finally {
      bad?.finish();
    }
  }

  async #open(input: Input, bad: BadLines): Promise<OpenedInput> {
    return await openInput(input, {
      command: this.#command,
      thinking: this.#thinking,
      signal: this.#interrupt.signal,
      say: this.#tally.say,
      bad,
    });
  }

  /** A source's entries in scope, each counted and marking its input as a log. */
  #entries(
    source: AsyncIterable<LogEntry>,
    bad: BadLines | undefined,
    tally: { entries: number },
    log: string | undefined,
  ): AsyncGenerator<LogEntry, void, undefined> {
    return entriesInScope(source, { scope: this.#command.scope, bad, tally, log });
  }

  /** Renders each session of a source of several, one after another. */
  async #split(
    entries: AsyncIterable<LogEntry>,
    bad: BadLines | undefined,
    name: string,
  ): Promise<void> {
    for await (const group of splitSessions(entries)) {
      const rendered = await this.#render(group.sessionId, group.entries);
      const malformed = bad?.takeNew() ?? 0;
      if (rendered === undefined) {
        // Left out by --since/--until: counted, not written.
      } else if (malformed > 0 && !this.#command.skipInvalid) {
        this.#tally.fail(
          `session "${excerpt(group.sessionId)}" of ${name} was not written: ${malformed} bad ${
            malformed === 1 ? "line" : "lines"
          } in or after it (pass --skip-invalid to render it without them)`,
        );
      } else {
        await this.#emit(rendered, name);
      }
      if (this.#stopped) return;
      this.#tally.progress();
    }
  }

  /** Renders a session; undefined when --since/--until leave it out (it is counted). */
  async #render(
    sessionId: string,
    entries: AsyncIterable<LogEntry>,
  ): Promise<Rendered | undefined> {
    const range = this.#command.range;
    const selected = range === undefined
      ? entries
      : await (await import("./_dates.ts")).withinRange(entries, range);
    if (selected === undefined) {
      if (!this.#stopped) this.#tally.counts.outside++;
      return undefined;
    }
    // The flags' options, checked against the renderer before any input was read.
    const options = this.#command.rendererOptions;
    const page = this.#target.kind === "dir" ? this.#renderer.folder?.page : undefined;
    const origin = this.#origin ?? {};
    const text = page === undefined
      ? await this.#renderer.render(selected, options)
      : await page.call(this.#renderer.folder, selected, options, origin);
    const { project } = origin;
    const key = project === undefined ? sessionId : `${project}/${sessionId}`;
    return { sessionId, key, text, ...(project === undefined ? {} : { project }) };
  }

  /** A renderer that takes whole batches reads every input as one source: one text for all. */
  async #index(): Promise<void> {
    const text = await this.#renderer.render(this.#batch(), this.#command.rendererOptions);
    if (!this.#stopped) await this.#emit({ sessionId: "INDEX", key: "INDEX", text }, "the inputs");
  }

  async *#batch(): AsyncGenerator<LogEntry, void, undefined> {
    for (const input of this.#inputs) {
      if (this.#stopped) return;
      const name = inputName(input);
      const bad = new BadLines(name, { say: this.#tally.say });
      const tally = { entries: 0 };
      try {
        const { format, source } = await this.#open(input, bad);
        yield* this.#entries(source, bad, tally, format === "log" ? name : undefined);
        bad.finish();
        if (bad.count > 0 && !this.#command.skipInvalid) {
          this.#tally.fail(`${name} has bad lines (pass --skip-invalid to index it without them)`);
        } else if (tally.entries === 0) {
          this.#tally.fail(nothingIn(name, format));
        }
      } catch (error) {
        if (error instanceof UsageError) throw error;
        bad.finish();
        if (!this.#stopped) this.#tally.fail(describe(error, name));
      } finally {
        bad.finish();
        this.#tally.inputs.done++;
        this.#tally.progress();
      }
    }
  }

  async #emit(rendered: Rendered, input: string): Promise<void> {
    if (this.#folder !== undefined) return await this.#folder.write(rendered, input, this.#reading);
    if (this.#single !== undefined) {
      throw new UsageError(
        `The input holds more than one session ("${excerpt(this.#single.sessionId)}", "${
          excerpt(rendered.sessionId)
        }"): pass --out DIR to write one file per session`,
      );
    }
    this.#single = rendered;
  }

  async #emitSingle(rendered: Rendered): Promise<void> {
    if (this.#target.kind === "file") {
      const { writeCounted } = await import("./_folder_writer.ts");
      await writeCounted(this.#target.path, rendered.text, this.#command.force, this.#tally);
      return;
    }
    this.#tally.counts.rendered++;
    await writeOutput(rendered.text);
  }
}

/** What is said of an input that held nothing to render, in the words of its format. */
function nothingIn(name: string, format: InputFormat): string {
  return format === "claude-code"
    ? `no Claude Code transcript records in ${name}`
    : `no log entries in ${name}`;
}
