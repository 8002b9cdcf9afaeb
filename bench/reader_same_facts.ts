// Copyright 2026 the brigade authors. MIT license.

/**
 * Reads every Claude Code fixture, the real transcripts, the generated 1 MB and 200 MB
 * transcripts and generated hostile ones (bad lines, invalid UTF-8, a byte order mark,
 * lines over the bound, usage where it does not belong, escaped types, ids and compactions,
 * sidechains, no final newline, compactions after the latest usage) with this checkout's
 * reader and another's (`--root=DIR`, e.g. a `git worktree` of `main`), under several read
 * buffer sizes, with and without the Latin-1 search, with a small `maxLineBytes`, and growing
 * in pieces between refreshes; reports every fact that differs. Exits 1 when one does.
 *
 *   deno run --allow-all bench/reader_same_facts.ts --root=/tmp/before
 *
 * @module
 */

import { ensureTranscript } from "./reader_data.ts";

const here = new URL("..", import.meta.url).pathname.replace(/\/$/, "");
const encoder = new TextEncoder();

interface Reader {
  mod: {
    TranscriptReader: new (path: string, options?: object) => {
      refresh(): Promise<{ facts: unknown; error?: { code: string } }>;
    };
  };
  scanner: { READ_BUFFER_BYTES_OPTION: symbol; LATIN1_SCAN_BYTES_OPTION: symbol };
}

async function load(root: string): Promise<Reader> {
  return {
    mod: await import(`file://${root}/reader/mod.ts`),
    scanner: await import(`file://${root}/reader/_scanner.ts`),
  };
}

async function transcripts(dir: string, into: string[]): Promise<void> {
  for await (const entry of Deno.readDir(dir)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) await transcripts(path, into);
    else if (entry.name.endsWith(".jsonl")) into.push(path);
  }
}

const ODD = [
  "not json at all",
  '{"type":"assistant","message":{"model":"claude-trunc',
  '{"type":"assistant","usage":{"input_tokens":999},"message":{"model":"top-level-usage"}}',
  '{"type":"assistant","message":{"model":"nested","content":[{"usage":{"input_tokens":77}}]}}',
  '{"type":"assistant","message":{"model":"string-usage","usage":"12"}}',
  '{"type":"\\u0061ssistant","message":{"model":"escaped-type","usage":{"input_tokens":5}}}',
  '{"type":"attachment","attachment":{"type":"model","identity":{"m\\u006fdelId":"escaped[1m]"}}}',
  '{"type":"attachment","attachment":{"type":"model","identity":{"modelId":"plain[1m]"}}}',
  '{"type":"system","subtype":"compact_boundary"}',
  '{"type":"system","subtype":"micro\\u0063ompact_boundary"}',
  '{"type":"assistant","isSidechain":true,"message":{"model":"side","usage":{"input_tokens":3}}}',
  '{"type":"assistant","message":{"model":"<synthetic>","usage":{"input_tokens":4}}}',
  '{"type":"assistant","message":{"model":"negative","usage":{"input_tokens":-4}}}',
  '{"type":"assistant","message":{"model":"duplicate","usage":{"input_tokens":1,"input_tokens":9}}}',
  '{"type":"assistant","message":{"model":"lone\\ud800","usage":{"cache_read_input_tokens":8}}}',
  '{"type":"user","text":"\\u001b[31m \\u0041 \\\\u0061 compact_boundary\\" \\"assistant\\" \\"modelId\\""}',
  '["array"]',
  "",
  '{"type":"assistant","message":{"model":"tail","usage":{"input_tokens":2}}}',
  '{"type":"system","subtype":"compact_boundary","isSidechain":true}',
];

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** Writes the hostile transcripts into `dir`: real lines with odd ones between them. */
function hostile(dir: string, real: Uint8Array): string[] {
  let seed = 42;
  const random = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const pick = (): string => ODD[Math.floor(random() * ODD.length)]!;
  const paths: string[] = [];
  for (let k = 0; k < 12; k++) {
    const parts: Uint8Array[] = k % 3 === 0 ? [new Uint8Array([0xef, 0xbb, 0xbf])] : [];
    for (let copy = 0; copy < (k < 6 ? 3 : 1); copy++) {
      parts.push(real);
      for (let i = 0; i < 30; i++) {
        parts.push(encoder.encode(pick() + "\n"));
        if (random() < 0.2) parts.push(new Uint8Array([0xff, 0xfe, 0x0a]));
        if (random() < 0.1) {
          const pad = "x".repeat(20_000 + Math.floor(random() * 2e6));
          const usage = `{"input_tokens":${i}}`;
          parts.push(encoder.encode(
            `{"type":"assistant","message":{"model":"long","usage":${usage}},"pad":"${pad}"}\n`,
          ));
        }
        if (random() < 0.3) {
          parts.push(real.subarray(0, Math.floor(random() * real.length)), encoder.encode("\n"));
        }
      }
    }
    if (k % 2 === 1) parts.push(encoder.encode(pick())); // no final newline
    paths.push(`${dir}/hostile_${k}.jsonl`);
    Deno.writeFileSync(paths[k]!, concat(parts));
  }
  // Compactions after the latest usage of a large read, plain, escaped and in a sidechain.
  const tails = [ODD[8]!, ODD[9]!, `${ODD[8]}\n${ODD[10]}`, ODD[19]!, `${ODD[9]}\n${ODD[5]}`];
  for (const [k, tail] of tails.entries()) {
    const newline = encoder.encode("\n");
    const path = `${dir}/compaction_${k}.jsonl`;
    Deno.writeFileSync(
      path,
      concat([real, newline, real, newline, real, newline, real, encoder.encode(`\n${tail}\n`)]),
    );
    paths.push(path);
  }
  return paths;
}

interface Case {
  maxLineBytes?: number;
  buffer?: number;
  latin1?: number;
  /** Grows a copy of the file in this many pieces, a refresh after each. */
  pieces?: number;
}

const CASES: Case[] = [
  {},
  { buffer: 4096 },
  { buffer: 65536, latin1: 0 },
  { latin1: 0 },
  { maxLineBytes: 10_000 },
  { maxLineBytes: 1_000_000, buffer: 300_000 },
  { pieces: 9 },
  { pieces: 40, buffer: 8192, latin1: 0 },
];

async function facts(reader: Reader, path: string, test: Case): Promise<string> {
  const options: Record<string | symbol, number> = {};
  if (test.maxLineBytes) options.maxLineBytes = test.maxLineBytes;
  if (test.buffer) options[reader.scanner.READ_BUFFER_BYTES_OPTION] = test.buffer;
  if (test.latin1 !== undefined) options[reader.scanner.LATIN1_SCAN_BYTES_OPTION] = test.latin1;
  if (!test.pieces) {
    const { facts, error } = await new reader.mod.TranscriptReader(path, options).refresh();
    return JSON.stringify([facts, error?.code]);
  }
  const bytes = await Deno.readFile(path);
  const copy = `${path}.${test.pieces}.grow`;
  await Deno.writeFile(copy, new Uint8Array(0));
  const growing = new reader.mod.TranscriptReader(copy, options);
  let seed = test.pieces * 7919;
  const cut = (): number =>
    Math.floor(((seed = (seed * 48271) % 2147483647) / 2147483647) * bytes.length);
  const cuts = Array.from({ length: test.pieces }, cut).sort((a, b) => a - b);
  const seen: unknown[] = [];
  let at = 0;
  try {
    for (const end of [...cuts, bytes.length]) {
      await Deno.writeFile(copy, bytes.subarray(at, end), { append: true });
      at = end;
      seen.push((await growing.refresh()).facts);
    }
  } finally {
    await Deno.remove(copy);
  }
  return JSON.stringify(seen);
}

async function main(): Promise<number> {
  const root = Deno.args.find((arg) => arg.startsWith("--root="))?.slice("--root=".length);
  if (root === undefined) {
    console.error("Usage: deno run --allow-all bench/reader_same_facts.ts --root=DIR");
    return 2;
  }
  const [before, after] = [await load(await Deno.realPath(root)), await load(here)];
  const paths: string[] = [];
  await transcripts(`${here}/fixtures/claude_code`, paths);
  const real = "/work/shared/data/claude-code-real";
  try {
    await transcripts(real, paths);
  } catch {
    // Not on this machine.
  }
  const small = `${here}/bench/.data/transcript_1mb.jsonl`;
  const big = `${here}/bench/.data/transcript_200mb.jsonl`;
  await ensureTranscript(small, 1e6);
  await ensureTranscript(big, 200e6);
  paths.push(small);
  const dir = await Deno.makeTempDir();
  let compared = 0;
  let differ = 0;
  try {
    // The largest transcript of the fixtures, so that the hostile ones take the large-read path.
    const sizes = new Map<string, number>();
    for (const path of paths) sizes.set(path, (await Deno.stat(path)).size);
    const sample = paths.filter((path) => path.startsWith(`${here}/fixtures/`))
      .sort((a, b) => sizes.get(b)! - sizes.get(a)!)[0]!;
    paths.push(...hostile(dir, await Deno.readFile(sample)));
    const runs: [string, Case[]][] = [
      ...paths.map((path): [string, Case[]] => [path, CASES]),
      [big, [{}, { buffer: 65536 }]],
    ];
    for (const [path, cases] of runs) {
      for (const test of cases) {
        const [was, is] = [await facts(before, path, test), await facts(after, path, test)];
        compared++;
        if (was === is) continue;
        differ++;
        console.log(`differs: ${path} ${JSON.stringify(test)}\n  before ${was}\n  after  ${is}`);
      }
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  console.log(`${compared} readings of ${paths.length + 1} transcripts, ${differ} differ`);
  return differ === 0 ? 0 : 1;
}

if (import.meta.main) Deno.exit(await main());
