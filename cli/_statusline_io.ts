// Copyright 2026 the brigade authors. MIT license.

/**
 * What the status line reads and writes: Claude Code's status-line JSON on standard input, read
 * whole, and its one line on standard output. Both synchronous, which a status-line process (it
 * has nothing else to do meanwhile) does fastest: `Deno.stdin.readable` would load Deno's streams
 * (about 10 ms for a status line), the asynchronous read costs about 1 ms more, and
 * `console.log`'s first call about 1 ms.
 *
 * @module
 */

/** The most status-line JSON read from standard input. */
export const MAX_STDIN_BYTES = 1 << 20;

/**
 * Standard input, whole, decoded as UTF-8. On a terminal it says first what it waits for: Claude
 * Code pipes its JSON in, and the command would otherwise look stuck.
 *
 * @returns The text, or `undefined` when it is over {@linkcode MAX_STDIN_BYTES} (the rest is
 * left unread).
 */
export function readStatusInput(): string | undefined {
  if (Deno.stdin.isTerminal()) {
    console.error(
      "facts: --statusline reads Claude Code's status-line JSON on standard input; end it with Ctrl-D",
    );
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const chunk = new Uint8Array(64 * 1024);
    const read = Deno.stdin.readSync(chunk);
    if (read === null) break;
    size += read;
    if (size > MAX_STDIN_BYTES) return undefined;
    chunks.push(chunk.subarray(0, read));
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.length;
  }
  return new TextDecoder().decode(all);
}

/** Writes `line` and a newline to standard output, whole. */
export function writeLineSync(line: string): void {
  const bytes = new TextEncoder().encode(`${line}\n`);
  for (let at = 0; at < bytes.length;) at += Deno.stdout.writeSync(bytes.subarray(at));
}
