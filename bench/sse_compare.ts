// Copyright 2026 the brigade authors. MIT license.

/**
 * The server-sent event reader and the follow, measured against their floors
 * and peers in the same run, rounds interleaved, medians of the per-round
 * ratios, CPU beside wall:
 *
 * - one event of 32 MiB (its text a run of "z"), in 64 KiB chunks as a
 *   connection gives them, read and parsed, against listing it (the page's
 *   bytes decoded whole and parsed: what the list costs); with `--before`, the
 *   `_sse.ts` of a former commit (taken with `git show`) beside this one's;
 * - the same event end to end over a loopback server, through
 *   `fromManagedAgents` followed (on the session's stream) against listed (on
 *   its events page): item 1's first goal, at most 2×;
 * - 100k small events (about 200 bytes each) in 64 KiB chunks, against the
 *   `lines/` splitter over the same bytes (each line decoded): item 1's
 *   second goal, no more than the splitter;
 * - 100k small events followed over loopback, against fetching the same
 *   stream, splitting it with `lines/` and parsing each `data` line (item 2:
 *   at most 1.5×), and against the official SDK's own stream of them
 *   (`client.beta.sessions.events.stream`, `@anthropic-ai/sdk` 1.10.0: item
 *   2, faster); with `--baseline`, a former checkout's follow beside.
 *
 * Each figure with a goal is printed through `reportGoal()` (bench/_goal.ts),
 * met when both its wall and CPU ratios are.
 *
 *   deno task bench:sse [--quick] [--runs=7] [--before=REV] [--baseline=DIR] [--mib=32]
 *
 * `--quick` (what bench/goals.ts runs, about a minute): 3 runs, and no former
 * reader unless `--before` is given.
 *
 * @module
 */

import { cpuUsage } from "node:process";
import Anthropic from "@anthropic-ai/sdk";
import { fromManagedAgents } from "../mod.ts";
import { byteLineBatches } from "../lines/byte_lines.ts";
import { reportGoal, times } from "./_goal.ts";
import { median } from "./_stats.ts";
import type { SseMessage, SseOptions } from "../sources/managed_agents/_sse.ts";
import { sseBatches, sseMessages as after } from "../sources/managed_agents/_sse.ts";

type Reader = (body: ReadableStream<Uint8Array>, options: SseOptions) => AsyncIterable<SseMessage>;

const flag = (name: string, fallback: string): string =>
  Deno.args.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const quick = Deno.args.includes("--quick");
const runs = Number(flag("runs", quick ? "3" : "7"));
/** Where this branch left main: the reader that appended each chunk to a string. */
const before = flag("before", quick ? "" : "6aff988");
/** A former checkout (its root folder) whose `fromManagedAgents` follows beside this one's. */
const baseline = flag("baseline", "");
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

/** The cases' costs of one comparison: the median of the per-round ratios of one case to another. */
type Ratio = (name: string, base: string) => Cost;

/** Runs every case once a round, in turn; prints the median of each and of each ratio to `base`. */
async function compare(title: string, cases: Case, base: string): Promise<Ratio> {
  const samples: Record<string, Cost[]> = {};
  for (let round = 0; round < runs; round++) {
    for (const [name, run] of Object.entries(cases)) {
      (samples[name] ??= []).push(await timed(run));
    }
  }
  const ratio: Ratio = (name, over) => {
    const of = (key: keyof Cost): number =>
      median(samples[name]!.map((cost, round) => cost[key] / samples[over]![round]![key]));
    return { ms: of("ms"), cpuMs: of("cpuMs") };
  };
  console.log(`\n${title}\n`);
  console.log(`| case | wall | CPU | wall ÷ ${base} | CPU ÷ ${base} |`);
  console.log("| --- | ---: | ---: | ---: | ---: |");
  for (const name of Object.keys(cases)) {
    const ms = (key: keyof Cost): string =>
      median(samples[name]!.map((cost) => cost[key])).toFixed(0);
    const { ms: wall, cpuMs } = ratio(name, base);
    console.log(
      `| ${name} | ${ms("ms")} ms | ${ms("cpuMs")} ms | ${times(wall)} | ${times(cpuMs)} |`,
    );
  }
  return ratio;
}

/** Reports a ratio against its goal (`at most` it, or under it when `strictly`), wall and CPU. */
function goal(item: string, figure: string, ratio: Cost, most: number, strictly = false): void {
  const within = (value: number): boolean => strictly ? value < most : value <= most;
  reportGoal({
    item,
    figure,
    measured: `${times(ratio.ms)} wall, ${times(ratio.cpuMs)} CPU`,
    goal: `${strictly ? "<" : "≤"} ${most}×`,
    met: within(ratio.ms) && within(ratio.cpuMs),
  });
}

const SSE_HEADERS = { "content-type": "text/event-stream" };

/**
 * A loopback API with three sessions: `sesn_listed` lists the one large event
 * (and has ended), `sesn_followed` lists nothing and sends it on its stream,
 * then its end; `sesn_many` lists nothing and streams the small events, then
 * its end (also at `/many`, the floor's plain fetch).
 */
function serve(event: string, many: Uint8Array[]): Deno.HttpServer<Deno.NetAddr> {
  const encoder = new TextEncoder();
  const end = '{"id":"sevt_end","type":"session.status_terminated","processed_at":null}';
  const endMessage = encoder.encode(`event: session.status_terminated\ndata: ${end}\n\n`);
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen(): void {} }, (request) => {
    const path = new URL(request.url).pathname;
    if (path === "/v1/sessions/sesn_many/events/stream" || path === "/many") {
      return new Response(ReadableStream.from([...many, endMessage]), { headers: SSE_HEADERS });
    }
    if (path.endsWith("/stream")) {
      const body = [": open\n\n", `event: agent.message\ndata: ${event}\n\n`, `data: ${end}\n\n`];
      return new Response(ReadableStream.from(body.map((part) => encoder.encode(part))), {
        headers: SSE_HEADERS,
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

/** The SDK's own stream of `sesn_many`: each event as its `Stream` gives it, parsed. */
async function sdkStream(client: Anthropic): Promise<number> {
  let count = 0;
  for await (const _ of await client.beta.sessions.events.stream("sesn_many")) count++;
  return count;
}

type Follow = typeof fromManagedAgents;

/** The events of a session of the loopback API, through a `fromManagedAgents`. */
async function drain(
  baseUrl: string,
  sessionId: string,
  follow: boolean,
  from: Follow = fromManagedAgents,
): Promise<number> {
  const apiKey = "sk-ant-api03-bench-0000000000000000";
  let count = 0;
  for await (const _ of from({ sessionId, apiKey, baseUrl, follow })) count++;
  return count;
}

/** The `fromManagedAgents` of the checkout at `root`. */
async function baselineFollow(root: string): Promise<Follow> {
  const url = new URL(
    "mod.ts",
    new URL(root.endsWith("/") ? root : `${root}/`, `file://${Deno.cwd()}/`),
  );
  return (await import(url.href)).fromManagedAgents as Follow;
}

async function main(): Promise<void> {
  const former = before === "" ? undefined : await formerReader(before);
  const past = baseline === "" ? undefined : await baselineFollow(baseline);
  console.log(
    `runs: ${runs}, rounds interleaved; medians` +
      (former === undefined ? "" : `; before = ${before}'s _sse.ts`) +
      (past === undefined ? "" : `; baseline = ${baseline}`),
  );
  const big = bigEvent();
  await compare(`One ${mib} MiB event, the reader alone`, {
    listed: () => list(big.page),
    "followed, after": () => follow(after, big.sse),
    ...(former === undefined ? {} : { "followed, before": () => follow(former, big.sse) }),
  }, "listed");
  const event = new TextDecoder().decode(big.page).slice(
    '{"data":['.length,
    -'],"next_page":null}'.length,
  );
  const small = smallEvents(100_000);
  const server = serve(event, small);
  const baseUrl = `http://127.0.0.1:${server.addr.port}`;
  const client = new Anthropic({
    apiKey: "sk-ant-api03-bench-0000",
    baseURL: baseUrl,
    maxRetries: 0,
  });
  try {
    const large = await compare(
      `One ${mib} MiB event through fromManagedAgents, loopback (goal: followed ≤ 2× listed)`,
      {
        listed: () => drain(baseUrl, "sesn_listed", false),
        followed: () => drain(baseUrl, "sesn_followed", true),
      },
      "listed",
    );
    const floor = "fetch + lines/ + JSON.parse";
    const many = await compare(
      "100k small events followed, loopback (goals: ≤ 1.5× the floor, < the SDK's stream)",
      {
        [floor]: () => fetchSplitParse(baseUrl),
        "SDK stream": () => sdkStream(client),
        followed: () => drain(baseUrl, "sesn_many", true),
        ...(past === undefined
          ? {}
          : { "followed, baseline": () => drain(baseUrl, "sesn_many", true, past) }),
      },
      floor,
    );
    const reader = await compare(
      "100k small events, the reader alone (goal: ≤ the lines/ splitter)",
      {
        "lines/ splitter": () => split(small),
        "SSE batches, after": () => batched(small),
        "SSE one by one, after": () => messages(after, small),
        ...(former === undefined ? {} : { "SSE, before": () => messages(former, small) }),
      },
      "lines/ splitter",
    );
    goal(
      "1",
      `${mib} MiB event followed ÷ listed (fromManagedAgents, loopback)`,
      large("followed", "listed"),
      2,
    );
    goal(
      "1",
      "100k small events, SSE reader ÷ lines/ splitter",
      reader("SSE batches, after", "lines/ splitter"),
      1,
    );
    goal("2", "100k small events followed ÷ fetch + split + parse", many("followed", floor), 1.5);
    goal(
      "2",
      "100k small events followed ÷ the SDK's stream",
      many("followed", "SDK stream"),
      1,
      true,
    );
    if (past !== undefined) {
      // The baseline's figures beside, in the goal lines' form but not reported as goals.
      const line = (figure: string, ratio: Cost): void =>
        console.log(
          `baseline · 2 · ${figure}: ${times(ratio.ms)} wall, ${times(ratio.cpuMs)} CPU`,
        );
      line("100k small events followed ÷ fetch + split + parse", many("followed, baseline", floor));
      line(
        "100k small events followed ÷ the SDK's stream",
        many("followed, baseline", "SDK stream"),
      );
    }
  } finally {
    await server.shutdown();
  }
}

if (import.meta.main) await main();
