// Copyright 2026 the brigade authors. MIT license.

/**
 * `render --follow FILE`: a transcript (or a log) read as it grows, as `tail -f` does. The file is
 * read to its end, then polled every {@linkcode FOLLOW_POLL_MS} for what was appended, in reads
 * of at most {@linkcode FOLLOW_READ_BYTES}; its source takes complete lines only (a last line
 * without its newline waits for it) and bounds a line as any read does. It ends with Ctrl-C, or
 * when the file is truncated or replaced (what was printed no longer describes it).
 *
 * @module
 */

import { fromClaudeCode } from "../sources/claude_code/from_claude_code.ts";
import { fromNdjson } from "../sources/from_ndjson.ts";
import type { LogEntry } from "../events/types.ts";
import type { RenderCommand } from "./_args.ts";
import { inputName, inputSessionId } from "./_input_source.ts";
import type { BadLines } from "./_reporter.ts";
import { sleep } from "./_sleep.ts";

/** How often a followed file is looked at for what was appended. */
export const FOLLOW_POLL_MS = 250;

/** The most bytes of one read of a followed file. */
export const FOLLOW_READ_BYTES = 64 * 1024;

/** What {@linkcode followFile} reads with. */
export interface FollowFileOptions {
  command: RenderCommand;
  /** Whether a Claude Code transcript's thinking is read. */
  thinking: boolean;
  signal: AbortSignal;
  bad: BadLines;
}

/**
 * The entries of a file read as it grows, in its format (`--format`, else `.jsonl` is a Claude
 * Code transcript, any other file a log), until the signal is aborted.
 */
export function followFile(path: string, options: FollowFileOptions): AsyncIterable<LogEntry> {
  const { command, signal, bad } = options;
  const name = inputName(path);
  const format = command.format === "auto"
    ? (path.endsWith(".jsonl") ? "claude-code" : "log")
    : command.format;
  bad.readAs(format === "claude-code" ? "transcript" : "log");
  const stream = tail(path, signal);
  const sessionId = command.sessionId ?? inputSessionId(path);
  const common = { name, signal, onInvalid: bad.report, sessionId };
  return format === "claude-code"
    ? fromClaudeCode(stream, { ...common, thinking: options.thinking })
    : fromNdjson(stream, { ...common, skipInvalid: true });
}

/** Thrown when the followed file is no longer the one read. */
export class FollowedFileError extends Error {
  /** What happened to the file: `"truncated"` or `"replaced"`. */
  readonly code: "truncated" | "replaced";

  /**
   * Constructs a new instance.
   *
   * @param code What happened to the file.
   * @param name The file, as messages call it.
   */
  constructor(code: "truncated" | "replaced", name: string) {
    super(`${name} was ${code} while followed: run the command again to read it from its start`);
    this.name = "FollowedFileError";
    this.code = code;
  }
}

/**
 * The bytes of a regular file as it grows: one handle, reads of at most
 * {@linkcode FOLLOW_READ_BYTES}, a poll at its end; closed when the stream ends.
 */
function tail(path: string, signal: AbortSignal): ReadableStream<Uint8Array> {
  let file: Deno.FsFile | undefined;
  let identity = "";
  let offset = 0;
  const close = (): void => {
    file?.close();
    file = undefined;
  };
  return new ReadableStream<Uint8Array>({
    async start(): Promise<void> {
      const info = await Deno.stat(path);
      if (!info.isFile) {
        throw new Error(`${inputName(path)} is not a regular file: cannot follow it`);
      }
      file = await Deno.open(path);
      const opened = await file.stat();
      identity = `${opened.dev}:${opened.ino}`;
    },
    async pull(controller): Promise<void> {
      const buffer = new Uint8Array(FOLLOW_READ_BYTES);
      while (file !== undefined) {
        if (signal.aborted) {
          close();
          return controller.error(signal.reason);
        }
        const read = await file.read(buffer);
        if (read !== null && read > 0) {
          offset += read;
          return controller.enqueue(buffer.slice(0, read));
        }
        const problem = await changed(path, identity, offset);
        if (problem !== undefined) {
          close();
          return controller.error(new FollowedFileError(problem, inputName(path)));
        }
        await sleep(FOLLOW_POLL_MS, signal);
      }
    },
    cancel(): void {
      close();
    },
  });
}

/** What happened to the file at `path` since it was opened, if anything did. */
async function changed(
  path: string,
  identity: string,
  offset: number,
): Promise<"truncated" | "replaced" | undefined> {
  const info = await Deno.stat(path).catch(() => undefined);
  if (info === undefined || `${info.dev}:${info.ino}` !== identity) return "replaced";
  return info.size < offset ? "truncated" : undefined;
}
