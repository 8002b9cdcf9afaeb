// Copyright 2026 the brigade authors. MIT license.

/**
 * Generates large Claude Code transcripts with real shapes for the reader's benchmarks:
 * a model attachment near the head, then turns of assistant records (thinking, text, tool
 * use; one record per content block sharing a message id and usage), user tool results from
 * a few hundred bytes up to hundreds of KB (some with ANSI colour escapes and non-ASCII text),
 * progress, system and file-history-snapshot records. Deterministic for a given size.
 *
 * @module
 */

import { makeRandom } from "../tests/_random.ts";

const SESSION_ID = "78368290-ee0b-474f-8052-bb65a9a581d6";
const ENVELOPE = `"isSidechain":false,"userType":"external","cwd":"/Users/dev/Repositories/cli",` +
  `"sessionId":"${SESSION_ID}","version":"2.1.301","gitBranch":"main","slug":"squishy-launching-kernighan"`;

/** The facts a generated transcript yields at its end. */
export interface GeneratedFacts {
  /** The model the reader should report. */
  model: string;
  /** The context tokens of the last assistant record. */
  contextUsedTokens: number;
}

const WORDS = [
  "func",
  "return",
  "err",
  "nil",
  "session",
  "context",
  "the",
  "transcript",
  "reader",
  "checkpoint",
  "if",
  "else",
  "café",
  "naïve",
  "日本語",
  "🚀",
  "strings.Split",
  "fmt.Errorf",
  "\t",
  '"quoted"',
  "path/to/file.go:42",
];

function uuid(random: () => number): string {
  const hex = "0123456789abcdef";
  let out = "";
  for (let i = 0; i < 32; i++) {
    if (i === 8 || i === 12 || i === 16 || i === 20) out += "-";
    out += hex[Math.floor(random() * 16)];
  }
  return out;
}

function prose(random: () => number, bytes: number, ansi: boolean): string {
  const parts: string[] = [];
  let size = 0;
  while (size < bytes) {
    let word = WORDS[Math.floor(random() * WORDS.length)]!;
    if (ansi && random() < 0.02) word = `\u001b[32m${word}\u001b[0m`;
    if (random() < 0.08) word += "\n";
    parts.push(word);
    size += word.length + 1;
  }
  return parts.join(" ");
}

function timestamp(n: number): string {
  return new Date(Date.UTC(2026, 1, 11, 18, 0, 0) + n * 1000).toISOString();
}

/**
 * Writes a transcript of at least `bytes` bytes to `path`, ending with a newline, and
 * returns the facts a reader should report for it.
 */
export async function writeTranscript(path: string, bytes: number): Promise<GeneratedFacts> {
  const random = makeRandom(0x5eed);
  const encoder = new TextEncoder();
  const file = await Deno.open(path, { write: true, create: true, truncate: true });
  const pending: string[] = [];
  let pendingSize = 0;
  let written = 0;
  let n = 0;
  let parent = uuid(random);
  async function emit(record: string): Promise<void> {
    pending.push(record, "\n");
    pendingSize += record.length + 1;
    if (pendingSize > 1 << 20) await flush();
  }
  async function flush(): Promise<void> {
    const data = encoder.encode(pending.join(""));
    pending.length = 0;
    pendingSize = 0;
    let off = 0;
    while (off < data.length) off += await file.write(data.subarray(off));
    written += data.length;
  }
  function envelope(type: string): string {
    const id = uuid(random);
    const head = `{"parentUuid":"${parent}",${ENVELOPE},"type":"${type}","uuid":"${id}",` +
      `"timestamp":"${timestamp(n++)}"`;
    parent = id;
    return head;
  }
  let context = 0;
  const model = "claude-opus-5[1m]";
  try {
    await emit(
      `{"type":"file-history-snapshot","messageId":"${uuid(random)}","snapshot":{"messageId":"${
        uuid(random)
      }","trackedFileBackups":{},"timestamp":"${timestamp(0)}"},"isSnapshotUpdate":false}`,
    );
    await emit(
      `${
        envelope("progress")
      },"data":{"type":"hook_progress","hookEvent":"SessionStart","hookName":"SessionStart:startup","command":"bash \${CLAUDE_PROJECT_DIR}/.claude/scripts/setup.sh"}}`,
    );
    await emit(
      `${
        envelope("user")
      },"message":{"role":"user","content":"Let's make the transcript reader incremental."},"permissionMode":"bypassPermissions"}`,
    );
    await emit(
      `${
        envelope("attachment")
      },"attachment":{"type":"model","identity":{"modelId":"${model}","marketingName":"Opus 5 (1M context)","knowledgeCutoff":"2026-01"},"text":"You are powered by the model named Opus 5."}}`,
    );
    let cache = 15_764;
    while (written + pendingSize < bytes) {
      const messageId = `msg_${uuid(random).replaceAll("-", "").slice(0, 24)}`;
      const request = `req_${uuid(random).replaceAll("-", "").slice(0, 24)}`;
      const creation = 200 + Math.floor(random() * 4_000);
      cache = (cache + creation) % 900_000;
      const input = 1 + Math.floor(random() * 5);
      context = input + creation + cache;
      const usage =
        `"usage":{"input_tokens":${input},"cache_creation_input_tokens":${creation},"cache_read_input_tokens":${cache},"cache_creation":{"ephemeral_5m_input_tokens":0,"ephemeral_1h_input_tokens":${creation}},"output_tokens":${
          Math.floor(random() * 900)
        },"service_tier":"standard","inference_geo":"not_available"}`;
      const blocks = [
        `{"type":"thinking","thinking":${
          JSON.stringify(prose(random, 300 + random() * 2_000, false))
        },"signature":"${"ErEDCkYICxgCKkDC/YHk1DaTiRzU".repeat(20)}"}`,
        `{"type":"text","text":${JSON.stringify(prose(random, 100 + random() * 800, false))}}`,
        `{"type":"tool_use","id":"toolu_${messageId.slice(4)}","name":"Bash","input":{"command":${
          JSON.stringify(prose(random, 40 + random() * (random() < 0.05 ? 30_000 : 300), false))
        }}}`,
      ];
      for (const block of blocks) {
        await emit(
          `{"parentUuid":"${parent}",${ENVELOPE},"message":{"model":"claude-opus-5","id":"${messageId}","type":"message","role":"assistant","content":[${block}],"stop_reason":null,"stop_sequence":null,${usage}},"requestId":"${request}","type":"assistant","uuid":"${
            uuid(random)
          }","timestamp":"${timestamp(n++)}"}`,
        );
      }
      const roll = random();
      const resultSize = roll < 0.7
        ? 200 + random() * 4_000
        : roll < 0.95
        ? 4_000 + random() * 40_000
        : 40_000 + random() * 400_000;
      const output = prose(random, resultSize, random() < 0.3);
      await emit(
        `${envelope("user")},"message":{"role":"user","content":[{"tool_use_id":"toolu_${
          messageId.slice(4)
        }","type":"tool_result","content":${
          JSON.stringify(output)
        },"is_error":false}]},"toolUseResult":{"stdout":${
          JSON.stringify(output)
        },"stderr":"","interrupted":false},"sourceToolAssistantUUID":"${uuid(random)}"}`,
      );
      const progress = Math.floor(random() * 4);
      for (let i = 0; i < progress; i++) {
        await emit(
          `${envelope("progress")},"data":{"type":"bash_progress","output":${
            JSON.stringify(prose(random, 50 + random() * 600, true))
          },"elapsedTimeSeconds":${i}},"toolUseID":"toolu_${messageId.slice(4)}"}`,
        );
      }
      if (random() < 0.05) {
        await emit(
          `${
            envelope("system")
          },"subtype":"stop_hook_summary","hookCount":1,"hookInfos":[{"command":"entire hooks claude-code stop"}],"hookErrors":[],"preventedContinuation":false,"stopReason":"","hasOutput":true,"level":"suggestion"}`,
        );
      }
      if (random() < 0.03) {
        await emit(
          `{"type":"file-history-snapshot","messageId":"${uuid(random)}","snapshot":{"messageId":"${
            uuid(random)
          }","trackedFileBackups":{},"timestamp":"${timestamp(n)}"},"isSnapshotUpdate":false}`,
        );
      }
    }
    await flush();
  } finally {
    file.close();
  }
  return { model, contextUsedTokens: context };
}

/**
 * The bytes a benchmark appends to a transcript between two reads: four
 * assistant turns with usage, `bytes` in all.
 */
export function appendedTurns(bytes: number): Uint8Array {
  const record = JSON.stringify({
    type: "assistant",
    message: { model: "claude-opus-5", usage: { input_tokens: 1, cache_read_input_tokens: 2 } },
    pad: "",
  });
  const line = record.replace('"pad":""', `"pad":"${"x".repeat(bytes / 4 - record.length - 1)}"`) +
    "\n";
  return new TextEncoder().encode(line.repeat(4));
}

/**
 * Writes a transcript of at least `bytes` at `path` unless one is there
 * already (generated files are kept in `bench/.data/` between runs).
 */
export async function ensureTranscript(path: string, bytes: number): Promise<void> {
  try {
    if ((await Deno.stat(path)).size >= bytes) return;
  } catch {
    // Not generated yet.
  }
  console.error(`generating ${path} (${(bytes / 1e6).toFixed(0)} MB)…`);
  // Not node:path: the measured child process imports this module, and loads no node: module.
  await Deno.mkdir(path.slice(0, Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\"))), {
    recursive: true,
  });
  await writeTranscript(path, bytes);
}
