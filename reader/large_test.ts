// Copyright 2026 the brigade authors. MIT license.

import assert from "node:assert/strict";
import { TranscriptReader } from "./mod.ts";

/** The transcript's size: twice the bound, so that a reader holding it cannot stay under. */
const FILE_MIB = 64;
/** How much a first refresh may raise the peak RSS of its process above the reader loaded. */
const BOUND_MIB = 32;

const encoder = new TextEncoder();

/** One turn of real shapes: an assistant record with usage, then a 60 KB tool result. */
function turn(n: number): string {
  const usage = {
    input_tokens: 3,
    cache_creation_input_tokens: n,
    cache_read_input_tokens: 40_000,
  };
  const assistant = {
    type: "assistant",
    message: { model: "claude-opus-5", role: "assistant", usage, content: [{ type: "text" }] },
    timestamp: "2026-02-11T18:00:00.000Z",
  };
  const output = `line ${n} \u001b[32mcafé\u001b[0m 日本語\n`.repeat(2_000);
  const result = {
    type: "user",
    message: { role: "user", content: [{ type: "tool_result", content: output }] },
  };
  return JSON.stringify(assistant) + "\n" + JSON.stringify(result) + "\n";
}

/** Writes a transcript of at least {@linkcode FILE_MIB} MiB; returns its last turn's number. */
async function writeTranscript(path: string): Promise<number> {
  const file = await Deno.open(path, { write: true, create: true, truncate: true });
  const attachment = {
    type: "attachment",
    attachment: { type: "model", identity: { modelId: "claude-opus-5[1m]" } },
  };
  let written = await file.write(encoder.encode(JSON.stringify(attachment) + "\n"));
  let n = 0;
  try {
    while (written < FILE_MIB << 20) {
      const chunk = encoder.encode(Array.from({ length: 16 }, () => turn(++n)).join(""));
      for (let at = 0; at < chunk.length;) at += await file.write(chunk.subarray(at));
      written += chunk.length;
    }
  } finally {
    file.close();
  }
  return n;
}

/**
 * The measuring process: loads the reader module given, notes its peak RSS, makes one first
 * refresh, and prints the peak before and after (KiB) with the facts.
 */
const CHILD = `
const peak = () => Number(/VmHWM:\\s+(\\d+)/.exec(Deno.readTextFileSync("/proc/self/status"))[1]);
const [module, path] = Deno.args;
const { TranscriptReader } = await import(module);
const before = peak();
const { facts, error } = await new TranscriptReader(path).refresh();
console.log(JSON.stringify({ before, after: peak(), facts, error: error?.code }));
`;

/** A reader that holds the file: what the bound must catch. */
const HOLDING_READER = `
export class TranscriptReader {
  #path;
  constructor(path) { this.#path = path; }
  async refresh() {
    const lines = (await Deno.readTextFile(this.#path)).split("\\n");
    let contextUsedTokens = 0;
    for (const line of lines) {
      if (!line.includes('"assistant"')) continue;
      const { input_tokens, cache_creation_input_tokens, cache_read_input_tokens } =
        JSON.parse(line).message.usage;
      contextUsedTokens = input_tokens + cache_creation_input_tokens + cache_read_input_tokens;
    }
    return { facts: { model: "claude-opus-5[1m]", contextUsedTokens, hasContext: true, compactedSinceUsage: false } };
  }
}
`;

interface Measured {
  before: number;
  after: number;
  facts: { model: string; contextUsedTokens: number };
  error?: string;
}

async function measure(dir: string, module: string, path: string): Promise<Measured> {
  const script = `${dir}/child.ts`;
  await Deno.writeTextFile(script, CHILD);
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    // Reading /proc/self/status takes every permission.
    args: ["run", "--allow-all", script, module, path],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(code, 0, new TextDecoder().decode(stderr));
  return JSON.parse(new TextDecoder().decode(stdout));
}

Deno.test({
  name:
    "TranscriptReader's first refresh of a 64 MiB transcript raises its peak RSS by under 32 MiB",
  // VmHWM is Linux's.
  ignore: Deno.build.os !== "linux",
  async fn(t): Promise<void> {
    const dir = await Deno.makeTempDir();
    try {
      const path = `${dir}/session.jsonl`;
      const last = await writeTranscript(path);
      const expected = 3 + last + 40_000;

      await t.step("the reader: the facts of the last turn, within the bound", async () => {
        const module = new URL("./mod.ts", import.meta.url).href;
        const { before, after, facts, error } = await measure(dir, module, path);
        assert.equal(error, undefined);
        assert.equal(facts.model, "claude-opus-5[1m]");
        assert.equal(facts.contextUsedTokens, expected);
        const grew = (after - before) / 1024;
        assert.ok(grew < BOUND_MIB, `the peak RSS grew by ${grew.toFixed(1)} MiB`);
      });

      await t.step("a reader that holds the file goes over the bound", async () => {
        const module = `${dir}/holding_reader.js`;
        await Deno.writeTextFile(module, HOLDING_READER);
        const { before, after, facts } = await measure(dir, `file://${module}`, path);
        assert.equal(facts.contextUsedTokens, expected);
        assert.ok((after - before) / 1024 >= BOUND_MIB);
      });
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("TranscriptReader's first refresh of a 64 MiB transcript lets a timer abort it", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/session.jsonl`;
    const last = await writeTranscript(path);
    const reader = new TranscriptReader(path);
    // Reading 64 MiB takes far longer than a millisecond: the timer fires at the first turn
    // of the event loop after it, which a refresh must let run while it reads.
    const early = await reader.refresh({ signal: AbortSignal.timeout(1) });
    assert.equal(early.error, undefined);
    assert.notEqual(early.facts.contextUsedTokens, 3 + last + 40_000, "stopped before the end");
    const whole = await reader.refresh();
    assert.equal(whole.facts.contextUsedTokens, 3 + last + 40_000, "then read on to the end");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
