// Copyright 2026 the brigade authors. MIT license.

/**
 * The server-sent event reader before and after (the `_sse.ts` of a former
 * commit, taken with `git show`, beside this checkout's), in the same run,
 * rounds interleaved, medians of the per-round ratios, CPU beside wall:
 *
 * - one event of 32 MiB (its text a run of "z"), in 64 KiB chunks as a
 *   connection gives them, read and parsed, against listing it (the page's
 *   bytes decoded whole and parsed: what the list costs);
 * - 100k small events (about 200 bytes each) in 64 KiB chunks, against the
 *   `lines/` splitter over the same bytes (each line decoded).
 *
 * Each reader is given the same chunks, from memory, so the figure is the
 * reader's alone; the listing there is its floor (no connection, no checks).
 * Then, end to end over a loopback server (this checkout only), the same
 * event through `fromManagedAgents` followed (on the session's stream)
 * against listed (on its events page). Goals (issue 28): the large event
 * followed at most 2× the listing, the small events no more than the
 * splitter. Last, 100k small events followed against fetching the same
 * stream, splitting it with `lines/` and parsing each `data` line (item 2).
 *
 *   deno task bench:sse [--runs=7] [--before=REV] [--mib=32]
 *
 * @module
 */

import { cpuUsage } from "node:process";
import { fromManagedAgents } from "../mod.ts";
import { byteLineBatches } from "../lines/byte_lines.ts";
import { median } from "./_stats.ts";
import type { SseMessage, SseOptions } from "../sources/managed_agents/_sse.ts";
import { sseBatches, sseMessages as after } from "../sources/managed_agents/_sse.ts";

type Reader = (body: ReadableStream<Uint8Array>, options: SseOptions) => AsyncIterable<SseMessage>;

const flag = (name: string, fallback: string): string =>
  Deno.args.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const runs = Number(flag("runs", "7"));
/** Where this branch left main: the reader that appended each chunk to a string. */
const before = flag("before", "6aff988");
const mib = Number(flag("mib", "32"));
const CHUNK = 64 * 1024;
const OPTIONS: SseOptions = { idleMs: 60_000, maxMessageBytes: 64 * 1024 * 1024 };

/** The `_sse.ts` of `rev`, written where this script can import it. */
async function formerReader(rev: string): Promise<Reader> {
  const root = new URL("../", import.meta.url);
  const { code, stdout, stderr } = await new Deno.Command("git", {
    args: ["show", `${rev}:sources/managed_agents/_sse.ts`],
    cwd: root,
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (code !== 0) throw new Error(`git show ${rev}: ${new TextDecoder().decode(stderr)}`);
  const dir = new URL("./.data/", import.meta.url);
  await Deno.mkdir(dir, { recursive: true });
  const path = new URL(`sse_${rev.replace(/\W/g, "_")}.ts`, dir);
  await Deno.writeFile(path, stdout);
  return (await import(path.href)).sseMessages as Reader;
}

/** `bytes` in chunks of 64 KiB, each its own copy, as a connection gives them. */
function chunksOf(bytes: Uint8Array): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += CHUNK) chunks.push(bytes.slice(at, at + CHUNK));
  return chunks;
}

function streamOf(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  let index = 0;
  return new ReadableStream({
    pull(controller): void {
      if (index === chunks.length) controller.close();
      else controller.enqueue(chunks[index++]!);
    },
  });
}

function bigEvent(): { sse: Uint8Array[]; page: Uint8Array } {
  const event = JSON.stringify({
    id: "sevt_big",
    type: "agent.message",
    processed_at: null,
    content: [{ type: "text", text: "z".repeat(mib * 1024 * 1024) }],
  });
  const encoder = new TextEncoder();
  return {
    sse: chunksOf(encoder.encode(`event: agent.message\ndata: ${event}\n\n`)),
    page: encoder.encode(`{"data":[${event}],"next_page":null}`),
  };
}

function smallEvents(count: number): Uint8Array[] {
  const parts: string[] = [];
  for (let n = 0; n < count; n++) {
    const event = {
      id: `sevt_${n}`,
      type: "agent.message",
      processed_at: "2026-09-14T10:00:00.000Z",
      content: [{ type: "text", text: `message ${n} ${"lorem ipsum ".repeat(6)}` }],
    };
    parts.push(`event: agent.message\ndata: ${JSON.stringify(event)}\n\n`);
  }
  return chunksOf(new TextEncoder().encode(parts.join("")));
}

interface Cost {
  ms: number;
  cpuMs: number;
}

async function timed(run: () => Promise<number>): Promise<Cost> {
  const cpu = cpuUsage();
  const started = performance.now();
  const check = await run();
  const ms = performance.now() - started;
  const used = cpuUsage(cpu);
  if (check === 0) throw new Error("nothing read");
  return { ms, cpuMs: (used.user + used.system) / 1000 };
}

/** Follows: each message read and its data parsed, as the follow does. */
async function follow(reader: Reader, chunks: Uint8Array[]): Promise<number> {
  let count = 0;
  for await (const message of reader(streamOf(chunks), OPTIONS)) {
    JSON.parse(message.data);
    count++;
  }
  return count;
}

/** Reads only the messages (no parse): against the splitter. */
async function messages(reader: Reader, chunks: Uint8Array[]): Promise<number> {
  let count = 0;
  for await (const message of reader(streamOf(chunks), OPTIONS)) {
    count += message.data.length > 0 ? 1 : 0;
  }
  return count;
}

/** As {@linkcode messages}, a batch a chunk (as the follow reads them now). */
async function batched(chunks: Uint8Array[]): Promise<number> {
  let count = 0;
  for await (const batch of sseBatches(streamOf(chunks), OPTIONS)) {
    for (const message of batch) count += message.data.length > 0 ? 1 : 0;
  }
  return count;
}

/** Lists: the page's bytes decoded whole and parsed. */
function list(page: Uint8Array): Promise<number> {
  return Promise.resolve(JSON.parse(new TextDecoder().decode(page)).data.length);
}

/** The `lines/` splitter over the same chunks, each line decoded. */
async function split(chunks: Uint8Array[]): Promise<number> {
  const decoder = new TextDecoder();
  let count = 0;
  const options = { maxLineBytes: 64 * 1024 * 1024, name: "bench" };
  for await (const batch of byteLineBatches(streamOf(chunks), options)) {
    for (const line of batch) if (line.bytes !== undefined && decoder.decode(line.bytes)) count++;
  }
  return count;
}

type Case = Record<string, () => Promise<number>>;

/** Runs every case once a round, in turn; the median of each and of each ratio to `base`. */
async function compare(title: string, cases: Case, base: string): Promise<void> {
  const samples: Record<string, Cost[]> = {};
  for (let round = 0; round < runs; round++) {
    for (const [name, run] of Object.entries(cases)) {
      (samples[name] ??= []).push(await timed(run));
    }
  }
  console.log(`\n${title}\n`);
  console.log(`| case | wall | CPU | wall ÷ ${base} | CPU ÷ ${base} |`);
  console.log("| --- | ---: | ---: | ---: | ---: |");
  for (const name of Object.keys(cases)) {
    const ratio = (key: keyof Cost): string =>
      median(samples[name]!.map((cost, round) => cost[key] / samples[base]![round]![key]))
        .toFixed(2);
    const ms = (key: keyof Cost): string =>
      median(samples[name]!.map((cost) => cost[key])).toFixed(0);
    console.log(
      `| ${name} | ${ms("ms")} ms | ${ms("cpuMs")} ms | ${ratio("ms")}× | ${ratio("cpuMs")}× |`,
    );
  }
}

/**
 * A loopback API with two sessions of the one event: `sesn_listed` lists it
 * (and has ended), `sesn_followed` lists nothing and sends it on its stream,
 * then its end.
 */
function serve(event: string, many: Uint8Array[]): Deno.HttpServer<Deno.NetAddr> {
  const encoder = new TextEncoder();
  const end = '{"id":"sevt_end","type":"session.status_terminated","processed_at":null}';
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen(): void {} }, (request) => {
    const path = new URL(request.url).pathname;
    if (path === "/v1/sessions/sesn_many/events/stream" || path === "/many") {
      const end = encoder.encode('data: {"id":"sevt_end","type":"session.status_terminated"}\n\n');
      return new Response(ReadableStream.from([...many, end]), {
        headers: { "content-type": "text/event-stream" },
      });
    }
    if (path.endsWith("/stream")) {
      const body = [": open\n\n", `event: agent.message\ndata: ${event}\n\n`, `data: ${end}\n\n`];
      return new Response(ReadableStream.from(body.map((part) => encoder.encode(part))), {
        headers: { "content-type": "text/event-stream" },
      });
    }
    if (path === "/v1/sessions/sesn_listed/events") {
      return new Response(`{"data":[${event},${end}],"next_page":null}`, {
        headers: { "content-type": "application/json" },
      });
    }
    if (path.endsWith("/events")) return Response.json({ data: [], next_page: null });
    const status = path.endsWith("sesn_listed") ? "terminated" : "running";
    return Response.json({ type: "session", id: path.split("/").at(-1), status, title: null });
  });
}

/** The floor of following `/many`: fetched, split into lines, each `data` line parsed. */
async function fetchSplitParse(baseUrl: string): Promise<number> {
  const response = await fetch(`${baseUrl}/many`);
  const decoder = new TextDecoder();
  const options = { maxLineBytes: 64 * 1024 * 1024, name: "bench" };
  let count = 0;
  for await (const batch of byteLineBatches(response.body!, options)) {
    for (const line of batch) {
      const bytes = line.bytes;
      if (bytes === undefined || bytes[0] !== 0x64) continue;
      JSON.parse(decoder.decode(bytes.subarray(6)));
      count++;
    }
  }
  return count;
}

/** The events of a session of the loopback API, through `fromManagedAgents`. */
async function drain(baseUrl: string, sessionId: string, follow: boolean): Promise<number> {
  const apiKey = "sk-ant-api03-bench-0000000000000000";
  let count = 0;
  for await (const _ of fromManagedAgents({ sessionId, apiKey, baseUrl, follow })) count++;
  return count;
}

async function main(): Promise<void> {
  const former = await formerReader(before);
  console.log(`runs: ${runs}, rounds interleaved; medians; before = ${before}'s _sse.ts`);
  const big = bigEvent();
  await compare(`One ${mib} MiB event (goal: followed ≤ 2× listed)`, {
    listed: () => list(big.page),
    "followed, after": () => follow(after, big.sse),
    "followed, before": () => follow(former, big.sse),
  }, "listed");
  const event = new TextDecoder().decode(big.page).slice(
    '{"data":['.length,
    -'],"next_page":null}'.length,
  );
  const small = smallEvents(100_000);
  const server = serve(event, small);
  const baseUrl = `http://127.0.0.1:${server.addr.port}`;
  await compare(`One ${mib} MiB event through fromManagedAgents, loopback (after only)`, {
    listed: () => drain(baseUrl, "sesn_listed", false),
    followed: () => drain(baseUrl, "sesn_followed", true),
  }, "listed");
  await compare(
    "100k small events through fromManagedAgents, loopback (after only; item 2's floor)",
    {
      "fetch + lines/ + JSON.parse": () => fetchSplitParse(baseUrl),
      followed: () => drain(baseUrl, "sesn_many", true),
    },
    "fetch + lines/ + JSON.parse",
  );
  await server.shutdown();
  await compare("100k small events (goal: SSE ≤ the lines/ splitter)", {
    "lines/ splitter": () => split(small),
    "SSE batches, after": () => batched(small),
    "SSE one by one, after": () => messages(after, small),
    "SSE, before": () => messages(former, small),
  }, "lines/ splitter");
}

if (import.meta.main) await main();
