// Copyright 2026 the brigade authors. MIT license.

/**
 * An input file, FIFO or standard input opened as a source of log entries, in its format
 * (`--format`, else `.jsonl` or a peek at a stream): imported on the call that reads one, so
 * that a render of the bundled example loads neither the line splitter, the NDJSON source nor
 * the format's peek.
 *
 * @module
 */

import { MAX_LINE_BYTES } from "../lines/byte_lines.ts";
import { fromNdjson } from "../sources/from_ndjson.ts";
import type { LogEntry } from "../events/types.ts";
import type { RenderCommand } from "./_args.ts";
import { type InputFormat, peekFormat, peekSessionId } from "./_format.ts";
import { checkInput } from "./_inputs.ts";
import type { BadLines } from "./_reporter.ts";

/** An input opened: its format, its entries, the session they belong to. */
export interface OpenedInput {
  format: InputFormat;
  source: AsyncIterable<LogEntry>;
  sessionId: string;
}

/** What opening an input needs besides the input. */
export interface OpenInputOptions {
  command: RenderCommand;
  /** Whether a Claude Code transcript's thinking is read. */
  thinking: boolean;
  signal: AbortSignal;
  say: (message: string) => void;
  /** Where bad lines are reported. */
  bad: BadLines;
}

/**
 * A file, FIFO or standard input (`-`) as a source in its format: `--format`, else `.jsonl` or a
 * peek at a stream's start.
 *
 * @param input The input's path, or `-`.
 * @param name What messages call it.
 * @param defaultSessionId The session its entries without one of their own belong to, unless
 *   `--session-id` names one (a transcript from a stream: its records' own `sessionId`).
 * @param options The command, the signal, where notes and bad lines go.
 * @returns Its format, its entries and their session.
 */
export async function openFileInput(
  input: string,
  name: string,
  defaultSessionId: string,
  options: OpenInputOptions,
): Promise<OpenedInput> {
  const { command, signal, bad } = options;
  const common = { name, signal, onInvalid: bad.report };
  let { format, stream } = await openStream(input, options);
  // A stream (stdin, `<(…)`, a named pipe) has no name to go by unless it ends in .jsonl: its
  // first records say what it is, as for a file.
  if (stream !== undefined && command.format === "auto" && !input.endsWith(".jsonl")) {
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
  let sessionId = command.sessionId ?? defaultSessionId;
  if (format === "claude-code" && stream !== undefined && command.sessionId === undefined) {
    const peeked = await peekSessionId(stream, MAX_LINE_BYTES);
    stream = peeked.stream;
    sessionId = peeked.sessionId ?? sessionId;
  }
  if (format === "claude-code") {
    // Imported here: a log's call (the bundled example's among them) loads no Claude Code source.
    const { fromClaudeCode } = await import("../sources/claude_code/from_claude_code.ts");
    const source = fromClaudeCode(stream ?? input, {
      ...common,
      sessionId,
      thinking: options.thinking,
    });
    return { format, source, sessionId };
  }
  const source = fromNdjson(stream ?? input, { ...common, sessionId, skipInvalid: true });
  return { format, source, sessionId };
}

/**
 * The stream an input is read from, when it is one (standard input, a FIFO), and the format its
 * name or `--format` says. A directory or a device is refused before a byte is read; a FIFO is
 * read as a stream, which Ctrl-C stops even while a read waits for its writer.
 */
async function openStream(
  input: string,
  options: OpenInputOptions,
): Promise<{ format: InputFormat | "unknown"; stream: ReadableStream<Uint8Array> | undefined }> {
  const { command, signal } = options;
  const format = command.format === "auto"
    ? (input.endsWith(".jsonl") ? "claude-code" : "log")
    : command.format;
  if (input === "-") {
    // On a terminal, a command reading standard input would otherwise look stuck.
    if (Deno.stdin.isTerminal()) {
      options.say("reading standard input (a log or a Claude Code transcript); end it with Ctrl-D");
    }
    return { format, stream: abortable(Deno.stdin.readable, signal) };
  }
  if ((await checkInput(input)).fifo) {
    // Opening a FIFO waits for its writer: Ctrl-C stops the wait too (one Ctrl-C, not two).
    const fifo = await untilAborted(Deno.open(input), signal);
    return { format, stream: abortable(fifo.readable, signal) };
  }
  return { format, stream: undefined };
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
function abortable(
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
