// Copyright 2026 the brigade authors. MIT license.

/**
 * One `deno task render` invocation's work: every input, every session, each
 * written whole or not at all, the outcome counted and summed up on one line.
 *
 * @module
 */

import { basename } from "node:path";
import { excerpt } from "../redact/excerpt.ts";
import { baseName } from "../lines/file_source.ts";
import { MAX_LINE_BYTES } from "../lines/byte_lines.ts";
import { fromClaudeCode } from "../sources/claude_code/from_claude_code.ts";
import { fromManagedAgents } from "../sources/managed_agents/from_managed_agents.ts";
import { fromNdjson } from "../sources/from_ndjson.ts";
import { splitSessions } from "../events/split_sessions.ts";
import type { LogEntry, Scope } from "../events/types.ts";
import type { PageOrigin, Renderer } from "../renderers/registry.ts";
import type { RenderCommand } from "./_args.ts";
import { UsageError } from "./_args.ts";
import { DEFAULT_HEAD_BYTES, folderIndex, readHead } from "./_folder_index.ts";
import {
  claudeCodeType,
  type InputFormat,
  peekFormat,
  peekSessionId,
  transcriptCwd,
} from "./_format.ts";
import { withinRange } from "./_dates.ts";
import { inputsIn } from "./_walk.ts";
import type { Interrupt } from "./_interrupt.ts";
import {
  FileExistsError,
  removeStaleTemporaries,
  sessionFileName,
  writeAtomic,
} from "./_output.ts";
import { BadLines } from "./_reporter.ts";
import { fileStamp, Manifest } from "./_manifest.ts";
import { VERSION } from "./_version.ts";
import { EXAMPLE_INPUT, EXAMPLE_NAME, exampleLogStream } from "./_example.ts";
import { checkInput } from "./_inputs.ts";
import { counted } from "./_plural.ts";
import { ClosedOutputError, type Stderr, writeOutput } from "./_terminal.ts";

/** Where the rendered text goes. */
export type Target =
  | { kind: "stdout" }
  | { kind: "file"; path: string }
  | { kind: "dir"; path: string };

/** An input as the batch reads it: a path, or standard input (`-`). */
export type Input = string;

/** The session an input's entries without one of their own belong to. */
function inputSessionId(input: Input): string {
  return input === "-" ? "stdin" : baseName(input);
}

/** What messages call an input. */
function inputName(input: Input): string {
  if (input === "-") return "stdin";
  return input === EXAMPLE_INPUT ? EXAMPLE_NAME : input;
}

/** What a run needs besides the command. */
export interface RenderRunOptions {
  renderer: Renderer;
  command: RenderCommand;
  target: Target;
  /** The inputs to read: the command's, or the bundled example. */
  inputs: Input[];
  stderr: Stderr;
  interrupt: Interrupt;
}

interface Rendered {
  sessionId: string;
  /** What its file in a folder is named from: the session id, after its project when it has one. */
  key: string;
  /** The text: into a folder, the renderer's page when it has one. */
  text: string;
}

/** How many sessions ended which way. */
interface Counts {
  rendered: number;
  unchanged: number;
  failed: number;
  /** Sessions left out by `--since` and `--until`. */
  outside: number;
}

/** One invocation's work: every input, every session, the outcomes counted. */
export class RenderRun {
  readonly #renderer: Renderer;
  readonly #command: RenderCommand;
  readonly #target: Target;
  #inputs: Input[];
  readonly #stderr: Stderr;
  readonly #interrupt: Interrupt;
  readonly #started = Date.now();
  #single: Rendered | undefined;
  #names = new Map<string, string>();
  #counts: Counts = { rendered: 0, unchanged: 0, failed: 0, outside: 0 };
  #inputsDone = 0;
  /** The folder's record of its inputs, for a batch of files into a folder. */
  #manifest: Manifest | undefined;
  /**
   * The input being rendered: the names it has written into the folder, and whether the folder's
   * record can vouch for its earlier outputs (a file, not a stream).
   */
  #reading: { input: Input; stamped: boolean; outputs: string[] } | undefined;
  /** What an input's outputs depend on besides the input: the options' fingerprint. */
  readonly #key: string;
  /** The project of each input found in a folder given as an input, by its path. */
  #projects = new Map<string, string>();
  /** Where the session being rendered into a folder was read from. */
  #origin: PageOrigin | undefined;
  /**
   * Whether a Claude Code transcript's thinking is read: for a renderer that
   * says it takes a `thinking` option, unless `--no-thinking`.
   */
  readonly #thinking: boolean;

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
    this.#stderr = options.stderr;
    this.#interrupt = options.interrupt;
    const { scope, format, skipInvalid, sessionId, rendererOptions } = this.#command;
    this.#thinking = this.#renderer.optionNames?.includes("thinking") === true &&
      rendererOptions.thinking !== false;
    this.#key = JSON.stringify([
      VERSION,
      this.#renderer.name,
      this.#renderer.extension ?? ".txt",
      scope ?? null,
      format,
      skipInvalid,
      sessionId ?? null,
      rendererOptions,
      this.#thinking,
    ]);
  }

  /** Runs the batch; returns the exit code (130 or 143 when interrupted). */
  async all(): Promise<number> {
    // One run at a time writes into a folder: its index and record are the folder's whole.
    using _lock = this.#target.kind === "dir" ? await this.#lockFolder(this.#target.path) : null;
    if (this.#stopped) {
      // Interrupted while another run held the folder: nothing was done.
      this.#summary();
      return this.#interrupt.exitCode ?? 130;
    }
    if (this.#target.kind === "dir") {
      await removeStaleTemporaries(this.#target.path);
      if (this.#command.session === undefined && this.#renderer.batch === undefined) {
        this.#manifest = await Manifest.load(this.#target.path);
      }
      if (this.#command.session === undefined) this.#inputs = await this.#expand(this.#inputs);
    }
    if (this.#command.session !== undefined && this.#command.follow) {
      await this.#follow(this.#command.session);
    } else if (this.#command.session !== undefined) {
      await this.#session(this.#command.session);
    } else if (this.#renderer.batch !== undefined) {
      await this.#index();
    } else {
      for (const input of this.#inputs) {
        if (this.#stopped) break;
        await this.#input(input);
        this.#inputsDone++;
        this.#progress();
      }
    }
    this.#stderr.clearProgress();
    if (this.#target.kind === "dir" && this.#renderer.folder !== undefined) {
      await this.#writeIndex(this.#target.path);
    }
    // Only a faster next run depends on the record: one that cannot be written costs no more.
    await this.#manifest?.save().catch(() => {});
    if (this.#single !== undefined && !this.#stopped) await this.#emitSingle(this.#single);
    this.#summary();
    return this.#interrupt.exitCode ?? (this.#counts.failed > 0 ? 1 : 0);
  }

  /**
   * Takes the folder's lock (an exclusive `flock` of the folder itself, which the system
   * releases when the process ends, however it ends), saying so when another run holds it;
   * null where a folder cannot be locked (the run goes on as before).
   */
  async #lockFolder(dir: string): Promise<Disposable | null> {
    let folder: Deno.FsFile;
    try {
      folder = await Deno.open(dir, { read: true });
    } catch {
      return null;
    }
    const locked = folder.lock(true).then(() => true, () => false);
    const waited = setTimeout(
      () => this.#say(`waiting for another render into ${dir} to finish`),
      200,
    );
    const stopped = new Promise<false>((resolve) => {
      if (this.#stopped) resolve(false);
      this.#interrupt.signal.addEventListener("abort", () => resolve(false), { once: true });
    });
    const got = await Promise.race([locked, stopped]);
    clearTimeout(waited);
    if (!got) {
      if (!this.#stopped) folder.close();
      return null;
    }
    return { [Symbol.dispose]: () => folder.close() };
  }

  get #stopped(): boolean {
    return this.#interrupt.signal.aborted;
  }

  #say = (message: string): void => this.#stderr.say(message);

  #fail(message: string): void {
    this.#counts.failed++;
    this.#say(message);
  }

  #progress(): void {
    const { rendered, unchanged } = this.#counts;
    const seconds = ((Date.now() - this.#started) / 1000).toFixed(1);
    const inputs = this.#command.session === undefined
      ? `inputs ${this.#inputsDone}/${this.#inputs.length} · `
      : "";
    const last = this.#inputsDone === this.#inputs.length;
    this.#stderr.progress(
      `${inputs}${counted(rendered + unchanged, "session")} rendered · ${seconds} s`,
      last,
    );
  }

  /** One line at the end: always for a file or folder, for stdout only when there is news. */
  #summary(): void {
    const { rendered, unchanged, failed, outside } = this.#counts;
    const code = this.#interrupt.exitCode;
    // To stdout, a session left out by the dates is news: else nothing would say why.
    if (this.#target.kind === "stdout" && failed === 0 && outside === 0 && code === undefined) {
      return;
    }
    const range = this.#command.range === undefined
      ? ""
      : `, ${outside} not started within --since/--until`;
    const counts = `${rendered} rendered, ${unchanged} unchanged, ${failed} failed${range}`;
    if (code === undefined) return this.#say(counts);
    const by = code === 143 ? "SIGTERM" : "SIGINT";
    const rest = this.#target.kind === "dir"
      ? "; run the same command again to render the rest"
      : "";
    this.#say(`interrupted by ${by}: ${counts}${rest}`);
  }

  /** `--session ID`: one session read from the Managed Agents API. */
  async #session(sessionId: string): Promise<void> {
    const scope = this.#command.scope ?? "session";
    // ANTHROPIC_BASE_URL points at a proxy or gateway, as in Anthropic's SDKs.
    const baseUrl = Deno.env.get("ANTHROPIC_BASE_URL");
    const source = fromManagedAgents({
      sessionId,
      scope,
      signal: this.#interrupt.signal,
      ...(baseUrl ? { baseUrl } : {}),
    });
    const name = `session ${excerpt(sessionId)}`;
    await this.#guard(name, undefined, async () => {
      const tally = { entries: 0 };
      await this.#split(this.#entries(source, undefined, tally, undefined), undefined, name);
      if (tally.entries === 0 && !this.#stopped) this.#fail(`no log entries in ${name}`);
    });
  }

  /**
   * `--session ID --follow`: the session read as it runs, each chunk of the renderer's
   * `stream` (each item, as it completes) written whole to standard output before the next
   * is asked for, until the session ends or Ctrl-C; a renderer without `stream` prints its
   * whole text at the end.
   */
  async #follow(sessionId: string): Promise<void> {
    const scope = this.#command.scope ?? "session";
    const baseUrl = Deno.env.get("ANTHROPIC_BASE_URL");
    const source = fromManagedAgents({
      sessionId,
      scope,
      follow: true,
      signal: this.#interrupt.signal,
      ...(baseUrl ? { baseUrl } : {}),
    });
    const name = `session ${excerpt(sessionId)}`;
    const options = this.#command.rendererOptions;
    const renderer = this.#renderer;
    const chunks = renderer.stream?.(source, options) ??
      (async function* (): AsyncGenerator<string> {
        yield await renderer.render(source, options);
      })();
    try {
      for await (const chunk of chunks) {
        // Whole, before the next is asked for: Ctrl-C stops the reading, never a write.
        await writeOutput(chunk);
      }
      this.#counts.rendered++;
    } catch (error) {
      if (error instanceof UsageError || error instanceof ClosedOutputError) throw error;
      if (!this.#stopped) this.#fail(describe(error, name));
    }
  }

  /**
   * Reads one input: its format, its sessions, its bad lines. Into a folder, an input file
   * whose outputs the folder's record says are current is not read at all.
   */
  async #input(input: Input): Promise<void> {
    const name = inputName(input);
    const manifest = this.#manifest;
    const stamp = manifest !== undefined && input !== "-" && input !== EXAMPLE_INPUT
      ? await fileStamp(input)
      : undefined;
    // A page carries its project, and is named after it: a project is part of the fingerprint.
    const project = this.#projects.get(input);
    const key = project === undefined ? this.#key : JSON.stringify([this.#key, project]);
    if (manifest !== undefined && stamp !== undefined && !this.#command.force) {
      const outputs = await manifest.unchanged(input, key);
      if (outputs !== undefined && outputs.every((output) => !this.#names.has(output))) {
        for (const output of outputs) this.#names.set(output, name);
        this.#counts.unchanged += outputs.length;
        return;
      }
    }
    const failed = this.#counts.failed;
    const outputs: string[] = [];
    this.#reading = { input, stamped: stamp !== undefined, outputs };
    const bad = new BadLines(name, { say: this.#say });
    await this.#readInput(input, name, bad);
    this.#reading = undefined;
    if (manifest === undefined || stamp === undefined || this.#stopped) return;
    if (this.#counts.failed === failed) {
      await manifest.record(input, key, stamp, outputs);
    } else {
      manifest.forget(input);
    }
  }

  async #readInput(input: Input, name: string, bad: BadLines): Promise<void> {
    await this.#guard(name, bad, async () => {
      const tally = { entries: 0 };
      const { format, source, sessionId } = await this.#open(input, name, bad);
      this.#origin = await this.#originOf(input, format);
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
      if (tally.entries === 0 && !this.#stopped) this.#fail(nothingIn(name, format));
    });
    this.#origin = undefined;
  }

  /**
   * Into a folder, where an input's sessions come from, for their pages: the project of an input
   * found in a folder, the directory a transcript's records say it ran in, the input's size.
   */
  async #originOf(input: Input, format: InputFormat): Promise<PageOrigin | undefined> {
    if (this.#target.kind !== "dir") return undefined;
    if (input === "-" || input === EXAMPLE_INPUT) return {};
    const project = this.#projects.get(input);
    const info = await Deno.stat(input).catch(() => undefined);
    // A FIFO is read once, by its source: its size says nothing, and a peek would take its bytes.
    const file = info?.isFile === true;
    const bytes = file ? info.size : undefined;
    const cwd = file && project !== undefined && format === "claude-code"
      ? await transcriptCwd(input)
      : undefined;
    return {
      ...(project === undefined ? {} : { project }),
      ...(cwd === undefined ? {} : { cwd }),
      ...(bytes === undefined ? {} : { bytes }),
    };
  }

  /**
   * The inputs with each folder among them replaced by the transcripts and logs found in it,
   * each found one's project noted. A folder with none is a failure of that input.
   */
  async #expand(inputs: Input[]): Promise<Input[]> {
    const expanded: Input[] = [];
    for (const input of inputs) {
      const info = input === "-" || input === EXAMPLE_INPUT
        ? undefined
        : await Deno.stat(input).catch(() => undefined);
      if (!info?.isDirectory) {
        expanded.push(input);
        continue;
      }
      const found = await inputsIn(input, { failed: (m) => this.#fail(m), note: this.#say });
      if (found.length === 0) {
        this.#fail(`${input}: no transcripts (*.jsonl) or logs (*.ndjson) in the folder`);
      }
      for (const { path, project } of found) {
        this.#projects.set(path, project);
        expanded.push(path);
      }
    }
    return expanded;
  }

  /** Runs an input's work; a failure of the input is reported, an interruption is not. */
  async #guard(name: string, bad: BadLines | undefined, work: () => Promise<void>): Promise<void> {
    try {
      await work();
    } catch (error) {
      if (error instanceof UsageError) throw error;
      bad?.finish();
      if (!this.#stopped) this.#fail(describe(error, name));
    } finally {
      bad?.finish();
    }
  }

  /** An input's source in its format: `--format`, else `.jsonl` or a peek at a stream's start. */
  async #open(
    input: Input,
    name: string,
    bad: BadLines,
  ): Promise<{ format: InputFormat; source: AsyncIterable<LogEntry>; sessionId: string }> {
    const common = { name, signal: this.#interrupt.signal, onInvalid: bad.report };
    if (input === EXAMPLE_INPUT) {
      const source = fromNdjson(exampleLogStream(), common);
      return { format: "log", source, sessionId: inputSessionId(input) };
    }
    // A directory or a device is refused before a byte is read; a FIFO is read as a stream,
    // which Ctrl-C stops even while a read waits for its writer.
    let stream: ReadableStream<Uint8Array> | undefined;
    if (input !== "-" && (await checkInput(input)).fifo) {
      // Opening a FIFO waits for its writer: Ctrl-C stops the wait too (one Ctrl-C, not two).
      const fifo = await untilAborted(Deno.open(input), this.#interrupt.signal);
      stream = abortable(fifo.readable, this.#interrupt.signal);
    }
    let format: InputFormat | "unknown" = this.#command.format === "auto"
      ? (input.endsWith(".jsonl") ? "claude-code" : "log")
      : this.#command.format;
    if (input === "-") {
      // On a terminal, a command reading standard input would otherwise look stuck.
      if (Deno.stdin.isTerminal()) {
        this.#say("reading standard input (a log or a Claude Code transcript); end it with Ctrl-D");
      }
      stream = abortable(Deno.stdin.readable, this.#interrupt.signal);
    }
    // A stream (stdin, `<(…)`, a named pipe) has no name to go by unless it ends in .jsonl: its
    // first records say what it is, as for a file.
    if (stream !== undefined && this.#command.format === "auto" && !input.endsWith(".jsonl")) {
      ({ format, stream } = await peekFormat(stream, MAX_LINE_BYTES));
    }
    if (format === "unknown") {
      await stream?.cancel();
      throw new Error(
        `Cannot tell the format of ${name}: its first record is neither a log entry, an event nor a Claude Code record (pass --format log or --format claude-code)`,
      );
    }
    bad.readAs(format === "claude-code" ? "transcript" : "log");
    // A transcript, and a log's bare events, belong to a session named after the input (by
    // --session-id, else the file's name); a transcript from a stream, by its records' sessionId.
    let sessionId = this.#command.sessionId ?? inputSessionId(input);
    if (format === "claude-code" && stream !== undefined && this.#command.sessionId === undefined) {
      const peeked = await peekSessionId(stream, MAX_LINE_BYTES);
      stream = peeked.stream;
      sessionId = peeked.sessionId ?? sessionId;
    }
    if (format === "claude-code") {
      const thinking = this.#thinking;
      const source = fromClaudeCode(stream ?? input, { ...common, sessionId, thinking });
      return { format, source, sessionId };
    }
    const source = fromNdjson(stream ?? input, { ...common, sessionId, skipInvalid: true });
    return { format, source, sessionId };
  }

  /** A source's entries in scope, each counted and marking its input as a log. */
  async *#entries(
    source: AsyncIterable<LogEntry>,
    bad: BadLines | undefined,
    tally: { entries: number },
    log: string | undefined,
  ): AsyncGenerator<LogEntry, void, undefined> {
    const scope: Scope | undefined = this.#command.scope;
    // A Claude Code transcript read as a log is all events of unknown types: it would render
    // as nothing, with success. Its first records say so before a session is written.
    let transcriptLike = 0;
    for await (const entry of source) {
      tally.entries++;
      bad?.entry();
      if (log !== undefined && tally.entries <= LOOKED_AT) {
        if (claudeCodeType(entry.event) !== undefined) transcriptLike++;
        if (transcriptLike === LOOKED_AT) throw transcriptAsLog(log);
      }
      if (scope !== "session" || entry.thread_id === null) yield entry;
    }
    if (log !== undefined && tally.entries > 0 && transcriptLike === tally.entries) {
      throw transcriptAsLog(log);
    }
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
        this.#fail(
          `session "${excerpt(group.sessionId)}" of ${name} was not written: ${malformed} bad ${
            malformed === 1 ? "line" : "lines"
          } in or after it (pass --skip-invalid to render it without them)`,
        );
      } else {
        await this.#emit(rendered, name);
      }
      if (this.#stopped) return;
      this.#progress();
    }
  }

  /** Renders a session; undefined when --since/--until leave it out (it is counted). */
  async #render(
    sessionId: string,
    entries: AsyncIterable<LogEntry>,
  ): Promise<Rendered | undefined> {
    const range = this.#command.range;
    const selected = range === undefined ? entries : await withinRange(entries, range);
    if (selected === undefined) {
      if (!this.#stopped) this.#counts.outside++;
      return undefined;
    }
    // The flags' options, checked against the renderer before any input was read.
    const options = this.#command.rendererOptions;
    const page = this.#target.kind === "dir" ? this.#renderer.folder?.page : undefined;
    const origin = this.#origin ?? {};
    const text = page === undefined
      ? await this.#renderer.render(selected, options)
      : await page.call(this.#renderer.folder, selected, options, origin);
    const key = origin.project === undefined ? sessionId : `${origin.project}/${sessionId}`;
    return { sessionId, key, text };
  }

  /** A renderer that takes whole batches reads every input as one source: one text for all. */
  async #index(): Promise<void> {
    const text = await this.#renderer.render(this.#batch());
    if (!this.#stopped) await this.#emit({ sessionId: "INDEX", key: "INDEX", text }, "the inputs");
  }

  async *#batch(): AsyncGenerator<LogEntry, void, undefined> {
    for (const input of this.#inputs) {
      if (this.#stopped) return;
      const name = inputName(input);
      const bad = new BadLines(name, { say: this.#say });
      const tally = { entries: 0 };
      try {
        const { format, source } = await this.#open(input, name, bad);
        yield* this.#entries(source, bad, tally, format === "log" ? name : undefined);
        bad.finish();
        if (bad.count > 0 && !this.#command.skipInvalid) {
          this.#fail(`${name} has bad lines (pass --skip-invalid to index it without them)`);
        } else if (tally.entries === 0) {
          this.#fail(nothingIn(name, format));
        }
      } catch (error) {
        if (error instanceof UsageError) throw error;
        bad.finish();
        if (!this.#stopped) this.#fail(describe(error, name));
      } finally {
        bad.finish();
        this.#inputsDone++;
        this.#progress();
      }
    }
  }

  async #emit(rendered: Rendered, input: string): Promise<void> {
    if (this.#target.kind === "dir") {
      return await this.#emitToDir(this.#target.path, rendered, input);
    }
    if (this.#single !== undefined) {
      throw new UsageError(
        `The input holds more than one session ("${excerpt(this.#single.sessionId)}", "${
          excerpt(rendered.sessionId)
        }"): pass --out DIR to write one file per session`,
      );
    }
    this.#single = rendered;
  }

  async #emitToDir(dir: string, rendered: Rendered, input: string): Promise<void> {
    const name = this.#renderer.batch?.fileName ??
      await sessionFileName(rendered.key, this.#renderer.extension ?? ".txt", {
        reserved: this.#renderer.folder?.indexName,
      });
    const path = `${dir.replace(/\/+$/, "")}/${name}`;
    const first = this.#names.get(name);
    if (first !== undefined) {
      this.#fail(
        `session "${
          excerpt(rendered.sessionId)
        }" appears twice: its run in ${input} was not written, ${path} holds the one in ${first}`,
      );
      return;
    }
    this.#names.set(name, input);
    // A page this input wrote before and no one edited since is the command's to replace.
    const reading = this.#reading;
    const ours = reading?.stamped === true &&
      await this.#manifest?.wrote(reading.input, name) === true;
    if (await this.#write(path, rendered.text, ours)) reading?.outputs.push(name);
  }

  /**
   * Writes a file whole; false when it could not (the failure is counted and said). An existing
   * file with other content is replaced when `ours` or under `--force`, else kept and reported.
   */
  async #write(path: string, text: string, ours = false): Promise<boolean> {
    try {
      const options = ours ? { ...this.#command, force: true } : this.#command;
      const outcome = await writeAtomic(path, text, options);
      this.#counts[outcome === "written" ? "rendered" : "unchanged"]++;
      return true;
    } catch (error) {
      this.#fail(error instanceof FileExistsError ? error.message : describe(error, path));
      return false;
    }
  }

  /**
   * The folder's index lists every page of the folder, from this run or an earlier one. An
   * existing index is rebuilt when the renderer wrote it; any other file is kept and reported
   * unless --force. A run that wrote nothing leaves a folder without an index as it was.
   */
  async #writeIndex(dir: string): Promise<void> {
    const folder = this.#renderer.folder!;
    const path = `${dir.replace(/\/+$/, "")}/${folder.indexName}`;
    try {
      const info = await Deno.lstat(path).catch((error) => {
        if (error instanceof Deno.errors.NotFound) return undefined;
        throw error;
      });
      if (info === undefined && this.#counts.rendered + this.#counts.unchanged === 0) return;
      const headBytes = folder.headBytes ?? DEFAULT_HEAD_BYTES;
      const owned = info?.isFile === true &&
        folder.ownsIndex?.((await readHead(path, headBytes)).head) === true;
      const text = await folderIndex(dir, this.#renderer.extension ?? ".txt", folder);
      await writeAtomic(path, text, { force: info === undefined || owned || this.#command.force });
    } catch (error) {
      this.#fail(error instanceof FileExistsError ? error.message : describe(error, path));
    }
  }

  async #emitSingle(rendered: Rendered): Promise<void> {
    if (this.#target.kind === "file") {
      await this.#write(this.#target.path, rendered.text);
      return;
    }
    this.#counts.rendered++;
    await writeOutput(rendered.text);
  }
}

/**
 * A promise that fails with the signal's reason as soon as it is aborted; what it would have
 * given later (an open file) is closed then.
 */
async function untilAborted(
  opening: Promise<Deno.FsFile>,
  signal: AbortSignal,
): Promise<Deno.FsFile> {
  signal.throwIfAborted();
  let abort = (): void => {};
  const aborted = new Promise<never>((_, reject) => {
    abort = (): void => reject(signal.reason);
    signal.addEventListener("abort", abort, { once: true });
  });
  try {
    return await Promise.race([opening, aborted]);
  } catch (error) {
    opening.then((file) => file.close(), () => {});
    throw error;
  } finally {
    signal.removeEventListener("abort", abort);
  }
}

/**
 * A stream that fails with the signal's reason as soon as it is aborted, even
 * while a read waits (stdin, a FIFO: a source checks its signal only between
 * reads), so the session in flight is dropped, never taken as complete.
 */
export function abortable(
  stream: ReadableStream<Uint8Array>,
  signal: AbortSignal,
): ReadableStream<Uint8Array> {
  const reader = stream.getReader();
  const aborted = new Promise<never>((_, reject) => {
    const fail = (): void => reject(signal.reason);
    if (signal.aborted) fail();
    else signal.addEventListener("abort", fail, { once: true });
  });
  aborted.catch(() => {});
  return new ReadableStream<Uint8Array>({
    async pull(controller): Promise<void> {
      try {
        const { done, value } = await Promise.race([reader.read(), aborted]);
        if (done) controller.close();
        else controller.enqueue(value);
      } catch (error) {
        controller.error(error);
        reader.cancel(error).catch(() => {});
      }
    },
    async cancel(reason): Promise<void> {
      await reader.cancel(reason);
    },
  });
}

/** How many first entries of a log input are looked at for a Claude Code transcript. */
const LOOKED_AT = 5;

function transcriptAsLog(name: string): Error {
  return new Error(
    `${name} does not look like a log: its first records are a Claude Code transcript's (pass --format claude-code)`,
  );
}

/** What is said of an input that held nothing to render, in the words of its format. */
function nothingIn(name: string, format: InputFormat): string {
  return format === "claude-code"
    ? `no Claude Code transcript records in ${name}`
    : `no log entries in ${name}`;
}

/** An error as one line that names its input once. */
function describe(error: unknown, name: string): string {
  const message = error instanceof Error ? error.message : String(error);
  const line = message.split("\n")[0]!;
  return line.includes(name) || line.includes(basename(name)) ? line : `${name}: ${line}`;
}
