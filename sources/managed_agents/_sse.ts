// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// Server-sent events (the WHATWG `text/event-stream` format) read from a
// response body, one message at a time, pulled: nothing is read from the
// connection until the consumer asks for the next message.

/** One message of a stream: its `event` field (null when absent) and its `data` lines joined. */
export interface SseMessage {
  event: string | null;
  data: string;
  /** The last `id` field seen in the stream so far, `""` when none. */
  id: string;
}

/** Why a stream stopped being read, other than its end or the caller's abort. */
export class SseFailure extends Error {
  /** `idle`: nothing arrived in time; `too_large`: a message over the cap. */
  readonly kind: "idle" | "too_large";
  constructor(kind: "idle" | "too_large", message: string) {
    super(message);
    this.name = "SseFailure";
    this.kind = kind;
  }
}

/** How {@linkcode sseMessages} reads. */
export interface SseOptions {
  /** The longest wait for the next bytes, in milliseconds. */
  idleMs: number;
  /** The most bytes one message (its lines together) may have. */
  maxMessageBytes: number;
  /**
   * Stops the reading at once when it aborts, with its reason: the body's
   * own abort (through the fetch's signal) is not always delivered, and a
   * wait for the next bytes must not outlast the follow.
   */
  signal?: AbortSignal;
}

/**
 * Yields the messages of `body`. A message with no data is skipped (a
 * comment or a keep-alive). Stops reading, cancels the body and throws an
 * {@linkcode SseFailure} when nothing arrives for `idleMs`, or when a message
 * grows past `maxMessageBytes`. The body is cancelled whenever the iteration
 * ends, so the connection is let go.
 */
export async function* sseMessages(
  body: ReadableStream<Uint8Array>,
  options: SseOptions,
): AsyncGenerator<SseMessage> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  let event: string | null = null;
  let data: string[] = [];
  let id = "";
  let bytes = 0;
  let first = true;
  /** How much of `buffer` is known to hold no line end. */
  let scanned = 0;
  try {
    for (;;) {
      const chunk = await readWithin(reader, options.idleMs, options.signal);
      if (chunk === undefined) return;
      bytes += chunk.byteLength;
      buffer += decoder.decode(chunk, { stream: true });
      if (first && buffer.length > 0) {
        if (buffer.charCodeAt(0) === 0xfeff) buffer = buffer.slice(1);
        first = false;
      }
      for (;;) {
        const end = lineEnd(buffer, scanned);
        if (end === undefined) {
          // What was scanned holds no line end: the next chunk's scan starts past it.
          scanned = Math.max(0, buffer.length - 1);
          break;
        }
        scanned = 0;
        const line = buffer.slice(0, end.at);
        buffer = buffer.slice(end.at + end.length);
        if (line === "") {
          if (data.length > 0) yield { event, data: data.join("\n"), id };
          event = null;
          data = [];
          // What is left of the chunk counts toward the next message (in code units: close enough).
          bytes = buffer.length;
          continue;
        }
        const colon = line.indexOf(":");
        if (colon === 0) continue;
        const field = colon === -1 ? line : line.slice(0, colon);
        let value = colon === -1 ? "" : line.slice(colon + 1);
        if (value.startsWith(" ")) value = value.slice(1);
        if (field === "event") event = value;
        else if (field === "data") data.push(value);
        else if (field === "id" && !value.includes("\0")) id = value;
      }
      if (bytes > options.maxMessageBytes) {
        throw new SseFailure(
          "too_large",
          `the API sent a stream message over the ${options.maxMessageBytes}-byte cap ` +
            `("maxPageBytes"); reading stopped at ${bytes} bytes`,
        );
      }
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}

/**
 * Where the first line of `text` ends (CRLF, LF or CR), looking from `from`,
 * or undefined when it is not whole yet.
 */
function lineEnd(text: string, from: number): { at: number; length: number } | undefined {
  for (let index = from; index < text.length; index++) {
    const char = text.charCodeAt(index);
    if (char === 0x0a) return { at: index, length: 1 };
    if (char === 0x0d) {
      // A CR at the end may be the first half of a CRLF still on its way.
      if (index + 1 === text.length) return undefined;
      return { at: index, length: text.charCodeAt(index + 1) === 0x0a ? 2 : 1 };
    }
  }
  return undefined;
}

/**
 * The next chunk, undefined at the end; an {@linkcode SseFailure} past `ms` of
 * silence; the signal's reason as soon as it aborts.
 */
function readWithin(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  ms: number,
  signal: AbortSignal | undefined,
): Promise<Uint8Array | undefined> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const settle = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      reject(new SseFailure("idle", `the stream sent nothing for ${ms} ms ("timeoutMs")`));
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
    reader.read().then(
      (result) => {
        settle();
        resolve(result.done ? undefined : result.value);
      },
      (error) => {
        settle();
        reject(error);
      },
    );
  });
}
