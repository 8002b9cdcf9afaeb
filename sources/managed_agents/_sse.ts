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
 * grows past `maxMessageBytes` (its bytes counted as they arrive, line ends
 * included). The body is cancelled whenever the iteration ends, so the
 * connection is let go.
 */
export async function* sseMessages(
  body: ReadableStream<Uint8Array>,
  options: SseOptions,
): AsyncGenerator<SseMessage> {
  for await (const batch of sseBatches(body, options)) yield* batch;
}

/**
 * The messages of `body` as {@linkcode sseMessages} gives them, one batch
 * for each chunk read that completes any, so a message costs no await of its
 * own. The messages of a batch before a failure are given first.
 *
 * Linear in the bytes: each chunk is scanned once for line ends, from where
 * the last scan stopped, and a line that spans chunks is kept as its pieces,
 * joined and decoded once when its end arrives.
 */
export async function* sseBatches(
  body: ReadableStream<Uint8Array>,
  options: SseOptions,
): AsyncGenerator<SseMessage[]> {
  const reader = body.getReader();
  const parser = new SseParser(options.maxMessageBytes);
  try {
    for (;;) {
      const chunk = await readWithin(reader, options.idleMs, options.signal);
      if (chunk === undefined) return;
      const messages = parser.push(chunk);
      if (messages.length > 0) yield messages;
      if (parser.failure !== undefined) throw parser.failure;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
}

/** How many chunks after one that is not ASCII have their values decoded one by one. */
const NOT_ASCII_SKIP = 8;

const LF = 0x0a;
const CR = 0x0d;
const COLON = 0x3a;
const SPACE = 0x20;

/** Whether `a` and `b` hold the same bytes. */
function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index++) if (a[index] !== b[index]) return false;
  return true;
}

/**
 * The field of the line from `start` to `end` of `bytes`, when it is one this
 * reader uses, by the length of its name: 4 `data`, 5 `event`, 2 `id`; 0 for
 * any other field and for a comment. A name is the line's bytes up to its
 * first colon, or all of them.
 */
function fieldOf(bytes: Uint8Array, start: number, end: number): 0 | 2 | 4 | 5 {
  const first = bytes[start];
  if (first === 0x64) {
    return bytes[start + 1] === 0x61 && bytes[start + 2] === 0x74 && bytes[start + 3] === 0x61 &&
        nameEnds(bytes, start + 4, end)
      ? 4
      : 0;
  }
  if (first === 0x65) {
    return bytes[start + 1] === 0x76 && bytes[start + 2] === 0x65 && bytes[start + 3] === 0x6e &&
        bytes[start + 4] === 0x74 && nameEnds(bytes, start + 5, end)
      ? 5
      : 0;
  }
  return first === 0x69 && bytes[start + 1] === 0x64 && nameEnds(bytes, start + 2, end) ? 2 : 0;
}

/** Whether a field's name ends at `at` of a line ending at `end`: the line's end, or a colon. */
function nameEnds(bytes: Uint8Array, at: number, end: number): boolean {
  return at === end || (at < end && bytes[at] === COLON);
}

/**
 * The state of a stream's parse between chunks: the pieces of the line not
 * ended yet, the fields of the message so far, and its size.
 */
class SseParser {
  #cap: number;
  // `ignoreBOM`: each line is decoded on its own, and only the stream's first may lose a BOM.
  #decoder = new TextDecoder("utf-8", { ignoreBOM: true });
  /** The pieces of the line not ended yet (views of the chunks read: a stream's chunks are its reader's). */
  #pieces: Uint8Array[] = [];
  #pieceBytes = 0;
  /** A chunk ended in a CR: an LF first in the next one is the rest of that CRLF. */
  #afterCr = false;
  #firstLine = true;
  #event: string | null = null;
  #data: string[] = [];
  #id = "";
  #lastEvent: { bytes: Uint8Array; text: string } | undefined;
  /** The chunk being parsed, and its text when it is ASCII and ends a line ("" when not). */
  #chunk: Uint8Array | undefined;
  #chunkText = "";
  /** How many chunks more to decode line by line, after one that was not ASCII. */
  #skipChunks = 0;
  /** The bytes of the message so far, the lines ended and their ends. */
  #messageBytes = 0;
  /** Set when a message passed the cap: the parse stopped there, after the messages before it. */
  failure: SseFailure | undefined;

  constructor(cap: number) {
    this.#cap = cap;
  }

  /** The messages `chunk` completes, in order. */
  push(chunk: Uint8Array): SseMessage[] {
    const messages: SseMessage[] = [];
    let start = 0;
    if (this.#afterCr && chunk.length > 0) {
      this.#afterCr = false;
      if (chunk[0] === LF) {
        start = 1;
        this.#messageBytes += 1;
      }
    }
    // The next LF and CR at or after `start`, each found once and kept until passed: CRs are
    // rare, and a search per line for one that is not there would scan the chunk again each line.
    let nextLf = chunk.indexOf(LF, start);
    let nextCr = -2;
    // Searched in the chunk's text when it has one: a string's search costs a fraction of a
    // byte array's, and a small event's lines are many searches.
    const text = this.#textOf(chunk, nextLf);
    while (start < chunk.length && this.failure === undefined) {
      if (nextCr !== -1 && nextCr < start) {
        nextCr = text === "" ? chunk.indexOf(CR, start) : text.indexOf("\r", start);
      }
      if (nextLf !== -1 && nextLf < start) {
        nextLf = text === "" ? chunk.indexOf(LF, start) : text.indexOf("\n", start);
      }
      let end = nextLf;
      let endLength = 1;
      if (nextCr !== -1 && (end === -1 || nextCr < end)) {
        end = nextCr;
        if (end + 1 === chunk.length) this.#afterCr = true;
        else if (chunk[end + 1] === LF) endLength = 2;
      }
      if (end === -1) {
        this.#pieces.push(chunk.subarray(start));
        this.#pieceBytes += chunk.length - start;
        break;
      }
      const message = this.#line(chunk, start, end, endLength);
      if (this.failure !== undefined) break;
      if (message !== undefined) messages.push(message);
      start = end + endLength;
    }
    this.#checkCap(this.#messageBytes + this.#pieceBytes);
    this.#chunk = undefined;
    this.#chunkText = "";
    return messages;
  }

  /**
   * Takes the line that ends at `end` of `chunk` (its rest from `start`, after
   * the pieces kept); a message when it ends one.
   */
  #line(chunk: Uint8Array, start: number, end: number, endLength: number): SseMessage | undefined {
    const length = this.#pieceBytes + end - start;
    this.#messageBytes += length + endLength;
    if (length === 0) {
      this.#firstLine = false;
      return this.#dispatch();
    }
    if (!this.#checkCap(this.#messageBytes)) return undefined;
    let line = chunk;
    if (this.#pieces.length > 0) {
      line = this.#join(chunk.subarray(start, end));
      start = 0;
      end = line.length;
    }
    if (this.#firstLine) {
      this.#firstLine = false;
      // The stream's BOM: a line of it alone is a blank line.
      if (line[start] === 0xef && line[start + 1] === 0xbb && line[start + 2] === 0xbf) start += 3;
      if (start === end) return this.#dispatch();
    }
    this.#field(line, start, end);
    return undefined;
  }

  /** The bytes of the line whose pieces are kept and whose rest is `last`; the pieces let go. */
  #join(last: Uint8Array): Uint8Array {
    const joined = new Uint8Array(this.#pieceBytes + last.length);
    let at = 0;
    for (const piece of this.#pieces) {
      joined.set(piece, at);
      at += piece.length;
    }
    joined.set(last, at);
    this.#pieces = [];
    this.#pieceBytes = 0;
    return joined;
  }

  /**
   * Reads the field line from `start` to `end` of `bytes`. Only its first
   * bytes are looked at to know its field, and only the value of one this
   * reader uses is decoded: a comment, `retry` or a field it does not know
   * costs no decoding.
   */
  #field(bytes: Uint8Array, start: number, end: number): void {
    const name = fieldOf(bytes, start, end);
    if (name === 0) return;
    let from = start + name + 1;
    if (from < end && bytes[from] === SPACE) from++;
    const value = from >= end ? "" : undefined;
    if (name === 4) {
      this.#data.push(value ?? this.#value(bytes, from, end));
    } else if (name === 5) {
      this.#event = value ?? this.#eventType(bytes.subarray(from, end));
    } else {
      const id = value ?? this.#value(bytes, from, end);
      if (!id.includes("\0")) this.#id = id;
    }
  }

  /**
   * The text of the value from `from` to `end` of `bytes`: a slice of the
   * chunk's text when the line lies in the chunk and the chunk has one (its
   * byte offsets are then its text's), else its bytes decoded. The chunk is
   * decoded once rather than once a value: a decoding is a call out of
   * JavaScript that costs more than a small event's own bytes.
   */
  #value(bytes: Uint8Array, from: number, end: number): string {
    if (bytes === this.#chunk && this.#chunkText !== "") return this.#chunkText.slice(from, end);
    return this.#decoder.decode(bytes.subarray(from, end));
  }

  /**
   * Takes `chunk` as the one being parsed, with its text ({@linkcode #chunkText})
   * when it is ASCII and ends a line (`firstLf`, its first LF, is not -1): a
   * chunk that ends none (a piece of a large line) is not decoded. When it is
   * not ASCII, the next chunks are not tried for a while, so that a stream
   * that is not ASCII is not decoded twice. Every byte that decodes to one
   * unit is ASCII or an invalid byte (a U+FFFD): a text as long as its bytes
   * and without one has the bytes' offsets.
   */
  #textOf(chunk: Uint8Array, firstLf: number): string {
    this.#chunk = chunk;
    this.#chunkText = "";
    if (this.#skipChunks > 0) {
      this.#skipChunks--;
      return "";
    }
    if (firstLf === -1) return "";
    const text = this.#decoder.decode(chunk);
    if (text.length === chunk.length && !text.includes("\uFFFD")) return this.#chunkText = text;
    this.#skipChunks = NOT_ASCII_SKIP;
    return "";
  }

  #text(bytes: Uint8Array): string {
    return bytes.length === 0 ? "" : this.#decoder.decode(bytes);
  }

  /** An `event` value: the last one's text again when its bytes are the same (as most are). */
  #eventType(bytes: Uint8Array): string {
    const last = this.#lastEvent;
    if (last !== undefined && sameBytes(last.bytes, bytes)) return last.text;
    const text = this.#text(bytes);
    if (bytes.length <= 64) this.#lastEvent = { bytes: bytes.slice(), text };
    return text;
  }

  /** Ends the message at a blank line: it, when it has data; the fields start again. */
  #dispatch(): SseMessage | undefined {
    const message = this.#data.length === 0 ? undefined : {
      event: this.#event,
      data: this.#data.length === 1 ? this.#data[0]! : this.#data.join("\n"),
      id: this.#id,
    };
    this.#event = null;
    this.#data = [];
    this.#messageBytes = 0;
    return message;
  }

  /** Whether `bytes` are within the cap; sets {@linkcode failure} when not. */
  #checkCap(bytes: number): boolean {
    if (bytes <= this.#cap) return true;
    this.failure ??= new SseFailure(
      "too_large",
      `the API sent a stream message over the ${this.#cap}-byte cap ` +
        `("maxPageBytes"); reading stopped at ${bytes} bytes`,
    );
    return false;
  }
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
