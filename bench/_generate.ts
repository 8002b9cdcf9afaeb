// Copyright 2026 the brigade authors. MIT license.

/**
 * Generates long, realistic Managed Agents session logs as NDJSON for the
 * benchmarks: one `LogEntry` a line (`{seq, session_id, thread_id, event}`),
 * every thread's rows in one log, in `seq` order.
 *
 * A session is a run of turns on the primary thread: a user message, then
 * model requests (`span.model_request_start` … `end` with usage), thinking
 * markers, agent messages and tool calls with their results (bash, read,
 * grep, glob, edit, write, web_search with `search_result` blocks, web_fetch,
 * an MCP tool; results from a hundred bytes to ~50 KB, a few of them errors),
 * status and usage events. Some turns delegate to child threads, whose rows
 * (the brief received, their own requests and tools, the report sent) are
 * interleaved with the coordinator's status rows; a child's call that needs
 * permission is cross-posted to the primary with a confirmation. Now and then
 * a user message lands while a request is in flight, the context is
 * compacted, a request fails and is retried, and a tool result (or user
 * message) carries a secret-like string (`sk-ant-…`, `password=…`, an AWS key,
 * a bearer token, a GitHub token) for redaction benchmarks. Text includes
 * non-ASCII (accents, CJK, emoji).
 *
 * Output is deterministic for a given event count: the same bytes on every
 * machine. {@linkcode ensureLog} writes `bench/.data/session_<events>.ndjson`
 * once, streamed in chunks, with a marker file recording the generator
 * version and the byte size, and reuses it while both still match.
 *
 * The secret-dense variant (`{ keyEvery: 4 }`, written to
 * `bench/.data/session_<events>_keys4.ndjson`) is the same session with a key
 * in every fourth event (`seq` a multiple of 4), one that `redact()` removes:
 * a line of its text where it has one (a text block after its content, an
 * `env` member of a tool call's input, the end of an error's message), else
 * in a `metadata` member no renderer shows. Its keys come from a random
 * stream of their own, so every other byte of an event is the plain log's.
 *
 * @module
 */

import { makeRandom } from "../tests/_random.ts";

/** Bump when the output changes, so stale logs are regenerated. */
export const GENERATOR_VERSION = 1;

/** The session id of every generated log. */
export const SESSION_ID = "sesn_01BenchLongRun7Q";

/** The primary thread's own id, as events name it (its rows have `thread_id: null`). */
export const PRIMARY_THREAD_ID = "sthr_01BenchPrimary7Q";

/** What a generated log holds, as recorded in its marker file. */
export interface LogInfo {
  /** The generator version that wrote the log. */
  version: number;
  /** Lines (entries) in the log. */
  events: number;
  /** The log's size in bytes. */
  bytes: number;
  /** The session id of every entry. */
  sessionId: string;
  /** Rows of the primary thread (`thread_id: null`). */
  primaryRows: number;
  /** Rows of child threads. */
  childRows: number;
  /** The longest line, in bytes. */
  maxLineBytes: number;
  /** Secret-like strings planted, by kind (`anthropic_key`, `password`, …). */
  secrets: Record<string, number>;
  /** Entries by event type. */
  types: Record<string, number>;
  /** Every how many events a key is planted (the secret-dense variant); absent in the plain log. */
  keyEvery?: number;
}

/** Which variant of the generated log. */
export interface LogOptions {
  /**
   * Plant a key that `redact()` removes in every event whose `seq` is a multiple of this.
   *
   * @default {undefined (the plain log: a secret-like string in about one event of 4,000)}
   */
  keyEvery?: number;
}

const DATA_DIR = new URL("./.data/", import.meta.url);

/** The path of the log of `events` events (whether or not it exists yet). */
export function logPath(events: number, options: LogOptions = {}): string {
  const keys = options.keyEvery === undefined ? "" : `_keys${options.keyEvery}`;
  return decodeURIComponent(new URL(`session_${events}${keys}.ndjson`, DATA_DIR).pathname);
}

function markerPath(events: number, options: LogOptions): string {
  return `${logPath(events, options)}.meta.json`;
}

/**
 * Returns the path of a generated log of exactly `events` entries, writing it
 * first unless a log of the current generator version and recorded size is
 * already there. Writing streams ~1 MiB chunks to a temporary file that is
 * renamed into place, then writes the marker, so an interrupted run leaves
 * nothing that looks complete.
 *
 * @param events How many entries (lines); at least 2.
 * @returns The absolute path of the NDJSON file.
 */
export async function ensureLog(events: number, options: LogOptions = {}): Promise<string> {
  await ensureLogInfo(events, options);
  return logPath(events, options);
}

/**
 * Like {@linkcode ensureLog}, but returns what the log holds.
 *
 * @param events How many entries (lines); at least 2.
 * @param options Which variant: the plain log, or the secret-dense one.
 * @returns The log's marker: size, rows per thread, secrets and types.
 */
export async function ensureLogInfo(events: number, options: LogOptions = {}): Promise<LogInfo> {
  if (!Number.isSafeInteger(events) || events < 2) {
    throw new RangeError(`Cannot generate a log of ${events} events: give an integer >= 2`);
  }
  const every = options.keyEvery;
  if (every !== undefined && (!Number.isSafeInteger(every) || every < 1)) {
    throw new RangeError(`Cannot plant a key every ${every} events: give an integer >= 1`);
  }
  const existing = await readMarker(events, options);
  if (existing !== undefined) return existing;
  await Deno.mkdir(DATA_DIR, { recursive: true });
  const path = logPath(events, options);
  const temporary = `${path}.${Deno.pid}.tmp`;
  let info: LogInfo;
  try {
    info = await writeLog(temporary, events, options);
    await Deno.rename(temporary, path);
  } catch (error) {
    await Deno.remove(temporary).catch(() => {});
    throw error;
  }
  await Deno.writeTextFile(markerPath(events, options), JSON.stringify(info, null, 2) + "\n");
  return info;
}

async function readMarker(events: number, options: LogOptions): Promise<LogInfo | undefined> {
  try {
    const info = JSON.parse(await Deno.readTextFile(markerPath(events, options))) as LogInfo;
    const stat = await Deno.stat(logPath(events, options));
    const fresh = info.version === GENERATOR_VERSION && info.events === events &&
      info.sessionId === SESSION_ID && info.keyEvery === options.keyEvery && stat.isFile &&
      stat.size === info.bytes;
    return fresh ? info : undefined;
  } catch {
    return undefined;
  }
}

async function writeLog(path: string, events: number, options: LogOptions): Promise<LogInfo> {
  const file = await Deno.open(path, { write: true, create: true, truncate: true });
  try {
    const session = new Session(events, options.keyEvery);
    while (!session.full) {
      session.turn();
      if (session.pending >= CHUNK_CHARS) await writeAll(file, session.drain());
    }
    session.finish();
    await writeAll(file, session.drain());
    return session.info();
  } finally {
    file.close();
  }
}

const CHUNK_CHARS = 1 << 20;
const encoder = new TextEncoder();

async function writeAll(file: Deno.FsFile, text: string): Promise<void> {
  let bytes = encoder.encode(text);
  while (bytes.length > 0) bytes = bytes.subarray(await file.write(bytes));
}

// ---------------------------------------------------------------------------
// Randomness and text

type Random = () => number;

function int(random: Random, min: number, max: number): number {
  return min + Math.floor(random() * (max - min + 1));
}

function pick<T>(random: Random, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)]!;
}

const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

function token(random: Random, length: number, alphabet = ALNUM): string {
  let out = "";
  for (let i = 0; i < length; i++) out += alphabet[Math.floor(random() * alphabet.length)];
  return out;
}

const DIRS = ["src", "src/kv", "src/http", "src/cli", "tests", "docs", "lib/util", "scripts"];
const STEMS = [
  "store",
  "watch",
  "atomic",
  "queue",
  "server",
  "router",
  "config",
  "format",
  "encode",
  "session",
  "backoff",
  "migrate",
  "snapshot",
  "index",
];
const EXTS = [".ts", ".ts", ".ts", "_test.ts", ".md", ".json", ".go"];

function filePath(random: Random): string {
  return `/workspace/runtime/${pick(random, DIRS)}/${pick(random, STEMS)}${pick(random, EXTS)}`;
}

const CODE = [
  "export async function openStore(path: string, options: StoreOptions = {}): Promise<Store> {",
  "  const handle = await Deno.open(path, { read: true, write: true, create: true });",
  "  if (options.readOnly && options.create) {",
  '    throw new TypeError("Cannot open a store read-only and create it");',
  "  }",
  "  return new Store(handle, { ...DEFAULTS, ...options });",
  "}",
  "",
  "/** A versionstamp: 10 bytes, hex encoded, strictly increasing per store. */",
  "export type Versionstamp = string;",
  "  for (const [key, value] of entries) {",
  "    const encoded = encodeKey(key);",
  '    if (encoded.byteLength > MAX_KEY_BYTES) return { ok: false, reason: "key too large" };',
  "    batch.set(encoded, serialize(value));",
  "  }",
  "  await this.#wal.append(batch, { sync: this.#options.sync ?? true });",
  "func (s *Store) Get(ctx context.Context, key []byte) ([]byte, error) {",
  "\tif err := ctx.Err(); err != nil {",
  '\t\treturn nil, fmt.Errorf("get %q: %w", key, err)',
  "\t}",
  "\treturn s.tree.Get(key), nil",
  "  // Retry with exponential backoff, capped at 30 s; jitter keeps clients apart.",
  "  const delay = Math.min(30_000, 2 ** attempt * 100) * (0.5 + Math.random());",
  "  logger.debug(`watch: ${keys.length} keys, café mode=${mode}`);",
  '  assertEquals(await kv.get(["users", id]), { key: ["users", id], value: user });',
  "  // 日本語のコメント: キャッシュを無効化する",
  '  const label = done ? "✅ done" : "⏳ pending"; // 🚀',
  "} catch (error) {",
  "  if (error instanceof Deno.errors.NotFound) return undefined;",
  "  throw error;",
  "}",
  "  #pending = new Map<string, Deferred<void>>();",
  "  readonly #encoder = new TextEncoder();",
];

const SHELL = [
  "running 12 tests from ./tests/kv_test.ts",
  "set and get ... ok (3ms)",
  "atomic check fails on a stale versionstamp ... ok (5ms)",
  "watch emits on every change ... ok (41ms)",
  "list with a prefix and a cursor ... ok (2ms)",
  "queue delivers at least once ... FAILED (1s)",
  "ok | 11 passed | 1 failed (1s)",
  "error: AssertionError: Values are not equal.",
  "    [Diff] Actual / Expected",
  "-   { attempts: 2 }",
  "+   { attempts: 1 }",
  "    at assertEquals (https://deno.land/std/assert/assert_equals.ts:64:9)",
  "Check file:///workspace/runtime/src/kv/store.ts",
  "Download https://registry.npmjs.org/fast-check",
  "warning: the `--unstable-kv` flag is deprecated; use `unstable` in deno.json",
  " M src/kv/store.ts",
  "?? src/kv/queue_test.ts",
  "a1b2c3d Retry watch streams after a dropped connection",
  "9f8e7d6 Document the versionstamp format",
  "drwxr-xr-x  5 dev dev  4096 Sep 14 10:02 src",
  "-rw-r--r--  1 dev dev 18231 Sep 14 10:01 store.ts",
  "2026-09-14T10:02:13.118Z INFO  kv: compaction done in 412 ms (3 segments → 1)",
  "2026-09-14T10:02:13.902Z WARN  kv: slow write 1.8 s (fsync) — consider sync: false",
  "Compiling runtime v1.35.0 (/workspace/runtime)",
  "   Finished `release` profile [optimized] target(s) in 48.21s",
  "npm warn deprecated inflight@1.0.6: This module is not supported",
  "café.txt  naïve.md  日本語.md  rocket-🚀.txt",
];

const PROSE = [
  "The store keeps every key sorted, so a prefix scan is a range read.",
  "Versionstamps are assigned at commit time and grow strictly within one store.",
  "An atomic operation succeeds only when every check still holds.",
  "Watch streams reconnect after a network error and may repeat the last value.",
  "Queues deliver each message at least once; handlers must be idempotent.",
  "The flag was renamed in 1.35; the old spelling prints a deprecation warning.",
  "Compaction merges segments in the background and never blocks readers.",
  "I'll run the tests again with logging on to see which retry fires twice.",
  "The failing test expects one attempt, but the queue retried after a timeout.",
  "Next I'll check the docs for the flag's current name.",
  "Les clés sont triées ; un préfixe correspond à une plage contiguë.",
  "キーはソートされているので、プレフィックス検索は範囲読み取りです。",
  "Done — the fix is in, and the suite is green. 🎉",
];

function lines(random: Random, pool: readonly string[], bytes: number, numbered: boolean): string {
  const parts: string[] = [];
  let size = 0;
  let at = int(random, 0, pool.length - 1);
  let n = int(random, 1, 400);
  while (size < bytes) {
    const line = numbered ? `${String(n++).padStart(6)}\t${pool[at]}` : pool[at]!;
    parts.push(line);
    size += line.length + 1;
    at = random() < 0.7 ? (at + 1) % pool.length : int(random, 0, pool.length - 1);
  }
  return parts.join("\n");
}

function prose(random: Random, sentences: number): string {
  const parts: string[] = [];
  for (let i = 0; i < sentences; i++) parts.push(pick(random, PROSE));
  return parts.join(" ");
}

/** A tool result's size: mostly under a kilobyte, a tail up to ~50 KB. */
function resultBytes(random: Random): number {
  const roll = random();
  if (roll < 0.78) return int(random, 100, 1_000);
  if (roll < 0.945) return int(random, 1_000, 4_500);
  if (roll < 0.993) return int(random, 4_500, 14_000);
  return int(random, 14_000, 50_000);
}

/** A secret-like line, and its kind. */
function secret(random: Random): [kind: string, line: string] {
  switch (int(random, 0, 4)) {
    case 0:
      return [
        "anthropic_key",
        `ANTHROPIC_API_KEY=sk-ant-api03-${token(random, 93, ALNUM + "-_")}AA`,
      ];
    case 1:
      return [
        "password",
        `DATABASE_URL=postgres://app:${token(random, 16)}@db.internal:5432/runtime ` +
        `password=${token(random, 14)}`,
      ];
    case 2:
      return [
        "aws_key",
        `aws_access_key_id = AKIA${token(random, 16, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")}`,
      ];
    case 3:
      return ["bearer", `Authorization: Bearer ${token(random, 40)}`];
    default:
      return ["github_token", `GITHUB_TOKEN=ghp_${token(random, 36)}`];
  }
}

// ---------------------------------------------------------------------------
// The session

const CHILD_NAMES = ["Test runner", "Changelog reader", "Docs checker", "Security reviewer"];
const TOOLS = [
  "bash",
  "bash",
  "bash",
  "read",
  "read",
  "read",
  "grep",
  "grep",
  "glob",
  "edit",
  "edit",
  "write",
  "web_search",
  "web_fetch",
  "mcp",
];
const USER_ASKS = [
  "Check whether the KV store is stable and whether its tests pass.",
  "The queue test is flaky on CI. Find out why and fix it.",
  "Rename the `--unstable-kv` flag in the docs to the new spelling.",
  "Add a retry with backoff to the watch stream and a test for it.",
  "Summarize what changed in the store between 1.32 and 1.35.",
  "Review src/kv/store.ts for error handling gaps.",
  "Run the whole suite and tell me what fails.",
];

interface Child {
  id: string;
  name: string;
  created: boolean;
}

class Session {
  full = false;
  #limit: number;
  #random: Random;
  #seq = 0;
  #clock = Date.UTC(2026, 8, 14, 10, 2, 11, 204);
  #chunk: string[] = [];
  #pendingChars = 0;
  #bytes = 0;
  #maxLine = 0;
  #primaryRows = 0;
  #childRows = 0;
  #secrets: Record<string, number> = {};
  #types: Record<string, number> = {};
  #children: Child[];
  #context = 4_000;
  #last = "";
  #usage = { input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0 };
  #keyEvery: number | undefined;
  /** The keys' own stream: planting them draws nothing from the session's. */
  #keyRandom: Random = makeRandom(0x6b65_7973);

  constructor(events: number, keyEvery?: number) {
    this.#limit = events - 1; // the last line is the final idle
    this.#random = makeRandom(0x5e55_1011); // one seed: a shorter log is a longer one's head
    this.#keyEvery = keyEvery;
    this.#children = CHILD_NAMES.map((name, i) => ({
      id: `sthr_01BenchChild${i}${name.replace(/\s/g, "")}`,
      name,
      created: false,
    }));
    this.#emit(null, { type: "session.status_running" });
  }

  /** Characters buffered and not yet drained. */
  get pending(): number {
    return this.#pendingChars;
  }

  /** The buffered lines, as one chunk, and empties the buffer. */
  drain(): string {
    const text = this.#chunk.join("");
    this.#chunk = [];
    this.#pendingChars = 0;
    return text;
  }

  info(): LogInfo {
    return {
      version: GENERATOR_VERSION,
      events: this.#seq,
      bytes: this.#bytes,
      sessionId: SESSION_ID,
      primaryRows: this.#primaryRows,
      childRows: this.#childRows,
      maxLineBytes: this.#maxLine,
      secrets: this.#secrets,
      types: this.#types,
      ...(this.#keyEvery === undefined ? {} : { keyEvery: this.#keyEvery }),
    };
  }

  /** Ends the log: the session's idle, or its termination when it is idle already. */
  finish(): void {
    this.full = false;
    this.#limit++;
    if (this.#last === "session.status_idle") {
      this.#emit(null, { type: "session.status_terminated" });
    } else this.#emit(null, { type: "session.status_idle", stop_reason: { type: "end_turn" } });
  }

  /** One user turn, with its model requests, tools and delegations. */
  turn(): void {
    const random = this.#random;
    this.#userMessage(null);
    const steps = int(random, 1, 14);
    for (let step = 0; step < steps && !this.full; step++) {
      const roll = random();
      if (roll < 0.07) this.#delegate();
      else this.#toolStep(null);
    }
    this.#finalAnswer(null);
    if (random() < 0.6) this.#sessionUsage();
    if (random() < 0.015) {
      this.#emit(null, { type: "agent.thread_context_compacted" });
      this.#context = 6_000;
    }
    this.#emit(null, { type: "session.status_idle", stop_reason: { type: "end_turn" } });
    this.#emit(null, { type: "session.status_running" });
  }

  #userMessage(thread: string | null): void {
    const random = this.#random;
    let text = pick(random, USER_ASKS);
    if (random() < 0.25) text += ` ${prose(random, int(random, 1, 4))}`;
    if (random() < 0.08) {
      text += `\n\nHere is the output I got:\n\n${
        lines(random, SHELL, int(random, 300, 6_000), false)
      }`;
    }
    if (random() < 0.002) text += `\n\n${this.#plant()}`;
    this.#emit(thread, { type: "user.message", content: [{ type: "text", text }] }, 800);
  }

  #plant(): string {
    const [kind, line] = secret(this.#random);
    this.#secrets[kind] = (this.#secrets[kind] ?? 0) + 1;
    return line;
  }

  /** A model request that calls a tool, then the tool's result. */
  #toolStep(thread: string | null): void {
    const random = this.#random;
    const start = this.#emit(thread, { type: "span.model_request_start" }, 300);
    if (random() < 0.6) this.#emit(thread, { type: "agent.thinking" }, 900);
    if (random() < 0.35) {
      this.#emit(thread, {
        type: "agent.message",
        content: [{ type: "text", text: prose(random, int(random, 1, 3)) }],
      }, 1_200);
    }
    if (thread === null && random() < 0.02) this.#userMessage(null); // lands in flight
    const tool = pick(random, TOOLS);
    const call = this.#call(thread, tool);
    if (random() < 0.01) {
      this.#emit(thread, {
        type: "session.error",
        error: {
          type: pick(random, ["model_overloaded_error", "model_rate_limited_error"]),
          message: "The model is temporarily unavailable; retrying.",
          retry_status: { type: "retrying" },
        },
      }, 400);
      this.#emit(null, { type: "session.status_rescheduled" }, 2_000);
    }
    this.#spanEnd(thread, start);
    this.#result(thread, tool, call);
  }

  #spanEnd(thread: string | null, start: string): void {
    const random = this.#random;
    const output = int(random, 20, 900);
    this.#context += int(random, 200, 6_000);
    this.#emit(thread, {
      type: "span.model_request_end",
      model_request_start_id: start,
      is_error: false,
      model_usage: {
        input_tokens: int(random, 200, 3_000),
        output_tokens: output,
        cache_creation_input_tokens: int(random, 0, 2_000),
        cache_read_input_tokens: this.#context,
      },
    }, 2_500);
    this.#usage.input_tokens += this.#context;
    this.#usage.output_tokens += output;
    this.#usage.cache_read_input_tokens += this.#context;
  }

  #call(thread: string | null, tool: string, permission = "allow"): string {
    const random = this.#random;
    const event: Record<string, unknown> = tool === "mcp"
      ? {
        type: "agent.mcp_tool_use",
        name: "query",
        mcp_server_name: "postgres",
        input: {
          sql: `SELECT key, value FROM kv_entries WHERE key LIKE '${
            pick(random, STEMS)
          }%' LIMIT 50`,
        },
      }
      : { type: "agent.tool_use", name: tool, input: this.#input(tool) };
    event.evaluated_permission = permission;
    return this.#emit(thread, event, 40);
  }

  #input(tool: string): Record<string, unknown> {
    const random = this.#random;
    switch (tool) {
      case "bash":
        return {
          command: pick(random, [
            "deno test -A tests/kv_test.ts",
            "git status --short",
            "git log --oneline -20",
            "deno task check",
            "ls -la src/kv",
            "cat deno.json",
            "cargo build --release 2>&1 | tail -40",
          ]),
        };
      case "read":
        return { file_path: filePath(random) };
      case "grep":
        return {
          pattern: pick(random, ["unstable-kv", "TODO", "versionstamp", "retry"]),
          path: "/workspace/runtime",
        };
      case "glob":
        return { pattern: `**/*${pick(random, EXTS)}` };
      case "edit":
        return {
          file_path: filePath(random),
          old_string: lines(random, CODE, int(random, 40, 300), false),
          new_string: lines(random, CODE, int(random, 40, 400), false),
        };
      case "write":
        return {
          file_path: filePath(random),
          content: lines(random, CODE, int(random, 300, 3_000), false),
        };
      case "web_search":
        return { query: `deno kv ${pick(random, STEMS)} release notes` };
      default:
        return {
          url: `https://docs.example.org/runtime/${pick(random, STEMS)}`,
          prompt: "Summarize the page.",
        };
    }
  }

  #result(thread: string | null, tool: string, call: string): void {
    const random = this.#random;
    const size = resultBytes(random);
    let isError = false;
    let content: unknown[];
    switch (tool) {
      case "bash":
        isError = random() < 0.06;
        content = [{ type: "text", text: lines(random, SHELL, size, false) }];
        break;
      case "read":
        content = [{ type: "text", text: lines(random, CODE, size, true) }];
        break;
      case "grep":
        content = [{
          type: "text",
          text: lines(random, CODE, Math.min(size, 4_000), false).split("\n")
            .map((line, i) => `${filePath(random)}:${i + 1}:${line}`).join("\n"),
        }];
        break;
      case "glob":
        content = [{
          type: "text",
          text: Array.from({ length: int(random, 3, 60) }, () => filePath(random)).join("\n"),
        }];
        break;
      case "edit":
      case "write":
        isError = random() < 0.03;
        content = [{
          type: "text",
          text: isError
            ? "String to replace not found in file."
            : `The file ${filePath(random)} has been updated.`,
        }];
        break;
      case "web_search":
        content = Array.from({ length: int(random, 2, 6) }, (_, i) => ({
          type: "search_result",
          source: `https://example.org/blog/runtime-1-${30 + i}`,
          title: `Runtime 1.${30 + i} release notes`,
          citations: { enabled: true },
          content: [{ type: "text", text: prose(random, int(random, 2, 8)) }],
        }));
        break;
      case "web_fetch":
        content = [{
          type: "text",
          text: `# ${pick(random, STEMS)}\n\n${prose(random, Math.ceil(size / 70))}`,
        }];
        break;
      default:
        content = [{
          type: "text",
          text: JSON.stringify(
            Array.from(
              { length: Math.ceil(size / 80) },
              (_, i) => ({ key: `${pick(random, STEMS)}/${i}`, value: token(random, 24) }),
            ),
          ),
        }];
    }
    if (random() < 0.003) {
      const first = content[0] as { type: string; text?: string };
      if (first.type === "text") first.text = `${first.text}\n${this.#plant()}`;
    }
    const event: Record<string, unknown> = tool === "mcp"
      ? { type: "agent.mcp_tool_result", mcp_tool_use_id: call }
      : { type: "agent.tool_result", tool_use_id: call };
    event.is_error = isError;
    event.content = content;
    this.#emit(thread, event, size < 2_000 ? 150 : 1_500);
  }

  #finalAnswer(thread: string | null): void {
    const random = this.#random;
    const start = this.#emit(thread, { type: "span.model_request_start" }, 300);
    if (random() < 0.5) this.#emit(thread, { type: "agent.thinking" }, 900);
    let text = prose(random, int(random, 1, 6));
    if (random() < 0.2) {
      text += `\n\n\`\`\`ts\n${lines(random, CODE, int(random, 200, 1_500), false)}\n\`\`\``;
    }
    this.#emit(thread, { type: "agent.message", content: [{ type: "text", text }] }, 1_500);
    this.#spanEnd(thread, start);
  }

  #sessionUsage(): void {
    this.#emit(null, {
      type: "session.usage",
      usage: {
        ...this.#usage,
        list_cost: { amount: String(Math.round(this.#usage.output_tokens * 1.5)), currency: "USD" },
      },
    }, 20);
  }

  /** The coordinator delegates to a child, which works and reports back. */
  #delegate(): void {
    const random = this.#random;
    const child = pick(random, this.#children);
    const start = this.#emit(null, { type: "span.model_request_start" }, 300);
    if (!child.created) {
      child.created = true;
      this.#emit(null, {
        type: "session.thread_created",
        session_thread_id: child.id,
        agent_name: child.name,
      }, 100);
    }
    const brief = [{
      type: "text",
      text: `${pick(random, USER_ASKS)} ${prose(random, int(random, 0, 2))}`.trim(),
    }];
    this.#emit(null, {
      type: "agent.thread_message_sent",
      to_session_thread_id: child.id,
      to_agent_name: child.name,
      content: brief,
    }, 60);
    this.#spanEnd(null, start);
    this.#emit(child.id, {
      type: "agent.thread_message_received",
      from_session_thread_id: PRIMARY_THREAD_ID,
      content: brief,
    }, 120);
    this.#emit(null, {
      type: "session.thread_status_running",
      session_thread_id: child.id,
      agent_name: child.name,
    }, 20);
    const steps = int(random, 1, 8);
    for (let step = 0; step < steps && !this.full; step++) {
      if (random() < 0.1) {
        // A call needing the user's permission is cross-posted to the primary.
        const tool = pick(random, ["bash", "write"]);
        const here = this.#emit(child.id, { type: "span.model_request_start" }, 300);
        const input = this.#input(tool);
        const call = this.#emit(child.id, {
          type: "agent.tool_use",
          name: tool,
          input,
          evaluated_permission: "ask",
        }, 40);
        this.#emit(null, {
          type: "agent.tool_use",
          name: tool,
          input,
          evaluated_permission: "ask",
          session_thread_id: child.id,
        }, 10);
        this.#emit(null, {
          type: "session.thread_status_idle",
          session_thread_id: child.id,
          agent_name: child.name,
          stop_reason: { type: "requires_action", event_ids: [call] },
        }, 20);
        this.#emit(null, {
          type: "user.tool_confirmation",
          tool_use_id: call,
          result: "allow",
          session_thread_id: child.id,
        }, 4_000);
        this.#spanEnd(child.id, here);
        this.#result(child.id, tool, call);
      } else {
        this.#toolStep(child.id);
      }
    }
    const report = [{ type: "text", text: prose(random, int(random, 1, 5)) }];
    const last = this.#emit(child.id, { type: "span.model_request_start" }, 300);
    this.#emit(child.id, {
      type: "agent.thread_message_sent",
      to_session_thread_id: PRIMARY_THREAD_ID,
      content: report,
    }, 1_200);
    this.#spanEnd(child.id, last);
    this.#emit(null, {
      type: "session.thread_status_idle",
      session_thread_id: child.id,
      agent_name: child.name,
      stop_reason: { type: "end_turn" },
    }, 20);
    this.#emit(null, {
      type: "agent.thread_message_received",
      from_session_thread_id: child.id,
      from_agent_name: child.name,
      content: report,
    }, 50);
  }

  /** Writes one entry (unless the log is full); returns the event's id. */
  #emit(thread: string | null, event: Record<string, unknown>, millis = 100): string {
    const id = `sevt_01B${(this.#seq + 1).toString(36).toUpperCase().padStart(9, "0")}`;
    if (this.#seq >= this.#limit) {
      this.full = true;
      return id;
    }
    this.#clock += millis + Math.floor(this.#random() * millis);
    const type = event.type as string;
    const seq = ++this.#seq;
    const keyed = this.#keyEvery !== undefined && seq % this.#keyEvery === 0;
    const line = JSON.stringify({
      seq,
      session_id: SESSION_ID,
      thread_id: thread,
      event: {
        type,
        id,
        processed_at: new Date(this.#clock).toISOString(),
        ...(keyed ? this.#withKey(event) : event),
      },
    }) + "\n";
    this.#chunk.push(line);
    this.#pendingChars += line.length;
    const bytes = utf8Bytes(line);
    this.#bytes += bytes;
    if (bytes > this.#maxLine) this.#maxLine = bytes;
    if (thread === null) this.#primaryRows++;
    else this.#childRows++;
    this.#types[type] = (this.#types[type] ?? 0) + 1;
    this.#last = type;
    if (this.#seq >= this.#limit) this.full = true;
    return id;
  }

  /** A copy of `event` carrying a key: in its text where it has one (the event may be shared). */
  #withKey(event: Record<string, unknown>): Record<string, unknown> {
    const [kind, line] = secret(this.#keyRandom);
    this.#secrets[kind] = (this.#secrets[kind] ?? 0) + 1;
    const { content, input, error } = event;
    if (Array.isArray(content)) {
      return { ...event, content: [...content, { type: "text", text: line }] };
    }
    if (typeof input === "object" && input !== null) {
      return { ...event, input: { ...input, env: line } };
    }
    if (typeof error === "object" && error !== null) {
      const { message } = error as { message?: unknown };
      return { ...event, error: { ...error, message: `${String(message)} (${line})` } };
    }
    return { ...event, metadata: { note: line } };
  }
}

function utf8Bytes(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) continue;
    if (unit < 0x800) bytes += 1;
    else if (unit >= 0xd800 && unit <= 0xdbff) {
      bytes += 2;
      i++;
    } else bytes += 2;
  }
  return bytes;
}

if (import.meta.main) {
  // `--keys=N`: the secret-dense variant, a key every N events.
  const keys = Deno.args.find((arg) => arg.startsWith("--keys="));
  const options: LogOptions = keys === undefined ? {} : { keyEvery: Number(keys.slice(7)) };
  const sizes = Deno.args.filter((arg) => !arg.startsWith("--"));
  for (const arg of sizes.length > 0 ? sizes : ["100000"]) {
    const started = performance.now();
    const info = await ensureLogInfo(Number(arg), options);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    console.log(`${logPath(info.events, options)}: ${info.bytes} bytes, ${seconds} s`);
    console.log(JSON.stringify(info));
  }
}
