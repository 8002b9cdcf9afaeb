// Copyright 2026 the brigade authors. MIT license.

/**
 * The redactor against a former checkout's, as an oracle: `redact()` and
 * `secretSpans()` of both are run on the same random texts (fragments of
 * every shape, their look-alikes, separators, quotes, escapes and prose, put
 * together by a seeded generator) and on the texts of the generated log, and
 * every answer must be the same; then both are timed on the log's texts, as
 * the dream hands them over (CPU time, interleaved rounds, medians), so that
 * the redactor's own share of the dream is a ratio of one run.
 *
 * Run: `deno run --allow-all bench/redact_oracle.ts --root=/tmp/before
 * [--texts=200000] [--runs=5] [--seed=1]`, where `/tmp/before` holds the
 * former checkout (`git archive <commit> | tar -x -C /tmp/before`). It exits
 * with status 1 when any answer differs, printing the first few.
 *
 * @module
 */

import process from "node:process";
import { makeRandom } from "../tests/_random.ts";
import { median } from "./_stats.ts";
import { ensureLog } from "./_generate.ts";
import * as current from "../redact/spans.ts";
import { redact as currentRedact } from "../redact/mod.ts";

const arg = (name: string): string | undefined =>
  Deno.args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);

/** Pieces the random texts are made of: each shape, its trigger alone, look-alikes, syntax. */
const FRAGMENTS = [
  "sk-proj-4fJx9_Qe-L2mZpR8tWc3YvHs",
  "sk-ant-api03-AbCdEfGhIjKlMnOp0123",
  "sk-learn",
  "sk-",
  "SK-",
  "AKIAIOSFODNN7EXAMPLE",
  "AKIA",
  "akia",
  "AKIAXXXXXXXXXXXXXXXX",
  "ghp_16C7e42F292c6912E7710c838347Ae178B4a",
  "ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
  "gho_",
  "github_pat_11ABCDEFG0123456789abcdef",
  "xoxb-1234567890-abcdef",
  "xoxp-",
  "xoxb-your-token",
  "sk_live_4eC39HqLyjWDarjtT1zdp7dc",
  "rk_test_",
  "pk_live_abc",
  "_pat_",
  "_live_",
  "_test_",
  "AIzaSyA1B2C3D4E5F6G7H8I9J0KLMNOPQRSTU",
  "AIza",
  "glpat-AbCdEfGhIjKlMnOp1234",
  "glpat-",
  ".01.",
  "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.sig",
  "eyJ",
  "Bearer ",
  "bearer",
  "BEARER\t",
  "Authorization: ",
  "Proxy-Authorization=",
  "token ",
  "Basic dXNlcjpwYXNzd29yZA==",
  "https://",
  "postgres://app:s3cr3t@db:5432/app",
  "redis://:p@h",
  "ssh://git@host",
  "https://e3b0c44298fc1c149afbf4c8996fb924@o1.ingest.sentry.io/2",
  "://",
  "api_key",
  "apiKey",
  "API-KEY",
  "apikey",
  "token",
  "TOKEN",
  "Token",
  "max_tokens",
  "secret",
  "Secret_Key",
  "secret_access_key",
  "password",
  "PASSWD",
  "passw",
  "AccountKey",
  "SharedAccessKey",
  "account_key",
  "access-key",
  "?sig=",
  "&sig=",
  "\\u0026sig=",
  "SIG=",
  "sig",
  "<password>",
  "</password>",
  "<\\/password>",
  '<input type="password" name="pw" value="',
  '<add key="ApiKey" value="',
  "mysql -u root -p",
  "mysqldump ",
  "mariadb ",
  "-pS3cret",
  "machine example.com",
  " login me",
  " password ",
  "default",
  "=",
  ":",
  ": ",
  ":=",
  "=>",
  "%3D",
  "%3A",
  "==",
  "::",
  '"',
  "'",
  "`",
  '\\"',
  '\\\\\\"',
  "[]",
  "[64]",
  ": SecretStr = ",
  ": string | undefined = ",
  "&",
  "&amp;",
  ";",
  ",",
  " ",
  "\t",
  "\n",
  "\\n",
  "\\t",
  "\\u003c",
  "%22",
  "\x1b[31m",
  "\\u001b[1;31m",
  "\\x1b[0m",
  "\\033[38:5:196m",
  "--password=",
  "--db-password= ",
  "hunter2",
  "abc def",
  "A0b1c2d3e4",
  "Eby8vd+M02==",
  "xxxxxxxx",
  "…",
  "•••",
  "[REDACTED_SECRET]",
  "The reader keeps one page of entries in memory. ",
  "const encoded = encodeKey(key);",
  "é",
  "日本",
  "😀",
  "\ud800",
];

/** A random text of `FRAGMENTS` and random printable characters. */
function randomText(random: () => number): string {
  const pieces = 1 + Math.floor(random() * 12);
  let text = "";
  for (let i = 0; i < pieces; i++) {
    if (random() < 0.15) {
      const length = 1 + Math.floor(random() * 24);
      for (let j = 0; j < length; j++) {
        text += String.fromCharCode(0x20 + Math.floor(random() * 0x5f));
      }
    } else {
      text += FRAGMENTS[Math.floor(random() * FRAGMENTS.length)]!;
    }
  }
  return text;
}

/** The texts the dream redacts in the generated log: each event's text fields, as JSON. */
async function logTexts(events: number): Promise<string[]> {
  const path = await ensureLog(events);
  const texts: string[] = [];
  const collect = (value: unknown): void => {
    if (typeof value === "string") texts.push(value);
    else if (Array.isArray(value)) value.forEach(collect);
    else if (typeof value === "object" && value !== null) {
      for (const [key, field] of Object.entries(value)) {
        if (key === "input") texts.push(JSON.stringify(field));
        else collect(field);
      }
    }
  };
  for (const line of (await Deno.readTextFile(path)).split("\n")) {
    if (line !== "") collect(JSON.parse(line).event);
  }
  return texts;
}

interface Redactor {
  redact(text: string): string;
  secretSpans(text: string): readonly (readonly [number, number])[];
}

/** The texts on which the two redactors answer differently (at most `limit` kept). */
function differences(texts: Iterable<string>, a: Redactor, b: Redactor, limit = 5): {
  count: number;
  checked: number;
  first: string[];
} {
  let count = 0;
  let checked = 0;
  const first: string[] = [];
  for (const text of texts) {
    checked++;
    const same = a.redact(text) === b.redact(text) &&
      JSON.stringify(a.secretSpans(text)) === JSON.stringify(b.secretSpans(text));
    if (same) continue;
    count++;
    if (first.length < limit) first.push(JSON.stringify(text));
  }
  return { count, checked, first };
}

function* randomTexts(count: number, seed: number): Generator<string> {
  const random = makeRandom(seed);
  for (let i = 0; i < count; i++) yield randomText(random);
}

/** CPU time of `secretSpans` over every text, in ms. */
function cpuOf(redactor: Redactor, texts: readonly string[]): number {
  const start = process.cpuUsage();
  let found = 0;
  for (const text of texts) found += redactor.secretSpans(text).length;
  const { user, system } = process.cpuUsage(start);
  if (found < 0) throw new Error("Cannot happen: a count only grows");
  return (user + system) / 1000;
}

async function main(): Promise<void> {
  const root = arg("root");
  if (root === undefined) {
    throw new TypeError("redact_oracle: --root=<former checkout> is required");
  }
  const count = Number(arg("texts") ?? 200_000);
  const runs = Number(arg("runs") ?? 5);
  const seed = Number(arg("seed") ?? 1);
  const rootUrl = new URL(`file://${await Deno.realPath(root)}/`);
  const formerSpans = await import(new URL("redact/spans.ts", rootUrl).href);
  const formerMod = await import(new URL("redact/mod.ts", rootUrl).href);
  const former: Redactor = { redact: formerMod.redact, secretSpans: formerSpans.secretSpans };
  const now: Redactor = { redact: currentRedact, secretSpans: current.secretSpans };

  const texts = await logTexts(Number(arg("events") ?? 20_000));
  let failed = false;
  for (
    const [name, corpus] of [
      [`random texts (seed ${seed})`, randomTexts(count, seed)],
      ["the generated log's texts", texts],
    ] as const
  ) {
    const { count: differ, checked, first } = differences(corpus, former, now);
    console.log(`${name}: ${checked} checked, ${differ} answered differently`);
    for (const text of first) console.log(`  ${text}`);
    failed ||= differ > 0;
  }

  const times: { former: number[]; now: number[] } = { former: [], now: [] };
  cpuOf(former, texts);
  cpuOf(now, texts);
  for (let run = 0; run < runs; run++) {
    times.former.push(cpuOf(former, texts));
    times.now.push(cpuOf(now, texts));
  }
  let units = 0;
  for (const text of texts) units += text.length;
  const [before, after] = [median(times.former), median(times.now)];
  console.log(
    `secretSpans() over the log's ${texts.length} texts (${units} units), CPU, median of ${runs}: ` +
      `former ${before.toFixed(1)} ms, now ${after.toFixed(1)} ms, ` +
      `now ÷ former ${(after / before).toFixed(2)}×`,
  );
  if (failed) Deno.exit(1);
}

if (import.meta.main) await main();
