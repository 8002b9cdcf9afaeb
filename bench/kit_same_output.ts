// Copyright 2026 the brigade authors. MIT license.

/**
 * Renders every fixture, a few real Claude Code transcripts and the generated
 * 10k- and 100k-event logs (and their secret-dense variants) with this checkout's renderers and another's
 * (`--root=DIR`, e.g. a `git worktree` of `main`), through every built-in
 * (grader, dream, index, json, html: whole and streamed, default and small
 * budgets) and `conversation()` in both views, and reports every output that
 * differs. Exits 1 when one does.
 *
 *   deno run --allow-all bench/kit_same_output.ts --root=/tmp/kitbase
 *
 * @module
 */

import { ensureLog } from "./_generate.ts";
import type { LogEntry } from "../mod.ts";

const here = new URL("..", import.meta.url).pathname.replace(/\/$/, "");

async function inputs(): Promise<string[]> {
  const paths: string[] = [];
  for (const dir of [`${here}/fixtures`, `${here}/fixtures/claude_code`]) {
    for await (const entry of Deno.readDir(dir)) {
      if (entry.isFile && /\.(ndjson|jsonl)$/.test(entry.name)) paths.push(`${dir}/${entry.name}`);
    }
  }
  const real = "/work/shared/data/claude-code-real";
  try {
    for await (const entry of Deno.readDir(real)) {
      if (entry.isFile && entry.name.endsWith(".jsonl")) paths.push(`${real}/${entry.name}`);
    }
  } catch {
    // No real transcripts here.
  }
  paths.push(await ensureLog(10_000), await ensureLog(100_000));
  // The secret-dense variants: a key in every fourth event.
  paths.push(await ensureLog(10_000, { keyEvery: 4 }), await ensureLog(100_000, { keyEvery: 4 }));
  return paths.sort();
}

async function digest(text: string): Promise<string> {
  const bytes = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(bytes).slice(0, 12), (b) => b.toString(16).padStart(2, "0"))
    .join("");
}

/** Every output of one root on one input, by case name. */
async function outputs(root: string, path: string): Promise<Record<string, string>> {
  // deno-lint-ignore no-explicit-any
  const kit: any = await import(`${root}/mod.ts`);
  const entries: LogEntry[] = path.endsWith(".jsonl")
    ? await Array.fromAsync(kit.fromClaudeCode(path))
    : await Array.fromAsync(kit.fromNdjson(path));
  const async = async function* (): AsyncGenerator<LogEntry> {
    yield* entries;
  };
  const out: Record<string, string> = {};
  const attempt = async (name: string, run: () => Promise<string>): Promise<void> => {
    try {
      out[name] = await digest(await run());
    } catch (error) {
      out[name] = `threw ${(error as Error).name}: ${(error as Error).message}`;
    }
  };
  const small = { itemBudget: 300, transcriptBudget: 6_000 };
  const cases: [string, string, Record<string, unknown>][] = [
    ["grader", "grader", {}],
    ["grader", "grader-small", small],
    ["grader", "grader-ends", { ...small, keep: "ends" }],
    ["grader", "grader-ends-default", { keep: "ends" }],
    ["grader", "grader-ends-outcome", { ...small, keep: "ends", outcome: true }],
    ["grader", "grader-ends-envelope", { ...small, keep: "ends", envelope: true, ids: true }],
    ["dream", "dream", {}],
    ["dream", "dream-1k", { cap: 1024 }],
    ["index", "index", {}],
    ["json", "json", {}],
    ["json", "json-small", small],
    ["json", "json-dream", { view: "dream" }],
    ["html", "html", {}],
    ["html", "html-small", { itemBudget: 500, transcriptBudget: 60_000 }],
  ];
  for (const [renderer, name, options] of cases) {
    const r = kit.registry.get(renderer);
    await attempt(name, () => r.render(entries, options));
    if (r.stream !== undefined) {
      await attempt(
        `${name} stream`,
        async () => (await Array.fromAsync(r.stream(async(), options))).join(""),
      );
    }
  }
  await attempt("dream fields", async () => {
    const { text: _, ...fields } = await kit.renderDream(async());
    return JSON.stringify(fields);
  });
  for (const view of ["grader", "dream"]) {
    for (const budgets of [{}, { itemBudget: 200, transcriptBudget: 4_000 }]) {
      await attempt(`conversation ${view} ${JSON.stringify(budgets)}`, async () => {
        const dropped: number[] = [];
        const items = await Array.fromAsync(
          kit.conversation(async(), {
            view,
            ...budgets,
            onDropped: (seq: number) => dropped.push(seq),
          }),
        );
        return JSON.stringify([items, dropped]);
      });
    }
  }
  return out;
}

if (Deno.args[0] === "--child") {
  const [, root, ...paths] = Deno.args;
  const all: Record<string, Record<string, string>> = {};
  for (const path of paths) all[path] = await outputs(root!, path);
  console.log(JSON.stringify(all));
} else {
  const other = Deno.args.find((a) => a.startsWith("--root="))?.slice(7);
  if (other === undefined) throw new Error("give --root=DIR: the checkout to compare with");
  const paths = await inputs();
  const run = async (root: string): Promise<Record<string, Record<string, string>>> => {
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--allow-all", import.meta.filename!, "--child", root, ...paths],
      stdout: "piped",
    }).output();
    if (!output.success) throw new Error(`rendering with ${root} failed`);
    return JSON.parse(new TextDecoder().decode(output.stdout));
  };
  const [mine, theirs] = await Promise.all([run(here), run(other)]);
  let differ = 0;
  let same = 0;
  for (const path of paths) {
    for (const [name, value] of Object.entries(theirs[path]!)) {
      if (mine[path]![name] === value) same++;
      else {
        differ++;
        console.log(`DIFFERS ${path} ${name}: ${mine[path]![name]} vs ${value}`);
      }
    }
  }
  console.log(`${same} outputs identical, ${differ} differ (${paths.length} inputs)`);
  if (differ > 0) Deno.exit(1);
}
