// Copyright 2026 the brigade authors. MIT license.

/**
 * `deno task render`: renders session logs with a registered renderer.
 *
 * @module
 */

import { fileURLToPath } from "node:url";
import { fromClaudeCode } from "../events/from_claude_code.ts";
import { fromManagedAgents } from "../events/from_managed_agents.ts";
import { fromNdjson } from "../events/from_ndjson.ts";
import { splitSessions } from "../events/split_sessions.ts";
import type { LogEntry, Scope } from "../events/types.ts";
import { createRegistry } from "../renderers/builtin.ts";
import type { Renderer } from "../renderers/registry.ts";
import { type Dream, dreamRenderer, renderDream } from "../renderers/dream.ts";
import { INDEX_COLUMNS, indexLine, indexRenderer } from "../renderers/dream_index.ts";
import { htmlRenderer } from "../renderers/html.ts";
import { folderPages, HTML_INDEX, indexPage } from "./_html_index.ts";
import { parseRenderArgs, type RenderCommand } from "./_args.ts";
import { loadConfiguredRenderers, UsageError } from "./_config.ts";
import { sessionFileName, writeAtomic } from "./_output.ts";

const EXAMPLE = new URL("../fixtures/coordinator_all_threads.ndjson", import.meta.url);

const HELP = `Render agent-session logs as text a model reads.

Usage:
  deno task render [--renderer NAME] [--out PATH] [--scope session|all] [FILE...|-]
  deno task render [--renderer NAME] [--out PATH] --session sesn_... [--scope all]

With no FILE, renders the bundled example session through the grader to stdout.
A FILE is NDJSON: one log entry ({seq, session_id, thread_id, event}) or one bare
Managed Agents event a line; "-" reads standard input. A *.jsonl file is read as a
Claude Code transcript (~/.claude/projects/.../SESSION.jsonl), one session.

Options:
  -r, --renderer NAME   the renderer (default: grader)
  -o, --out PATH        write to PATH: a file for one session, a folder (existing,
                        or given with a trailing "/") for one file per session
      --session ID      read the session from the Managed Agents API (needs ANTHROPIC_API_KEY;
                        ANTHROPIC_BASE_URL, when set, replaces https://api.anthropic.com)
      --scope SCOPE     "session" keeps the primary thread's rows only; "all" keeps every
                        thread (the default for files; --session defaults to "session")
  -f, --force           overwrite existing output files
      --skip-invalid    skip malformed lines (each is reported) instead of failing their session
      --format FORMAT   "log" (NDJSON log entries or events) or "claude-code" (a Claude Code
                        transcript); default: claude-code for *.jsonl files, log otherwise
  -h, --help            show this help

Exit codes: 0 all rendered, 1 some input failed (each failure is reported), 2 usage error.
Renderer modules named in the nearest deno.json(c) under "transcript": { "renderers": [...] }
are registered too.`;

type Target = { kind: "stdout" } | { kind: "file"; path: string } | { kind: "dir"; path: string };

interface Rendered {
  sessionId: string;
  text: string;
  /** The dream behind the text, when the renderer is the built-in dream. */
  dream?: Dream;
}

/** Runs the command; returns the exit code. */
export async function main(args: string[]): Promise<number> {
  try {
    return await run(parseRenderArgs(args));
  } catch (error) {
    if (error instanceof UsageError) {
      console.error(`render: ${error.message}\nRun with --help for usage.`);
      return 2;
    }
    console.error(`render: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}

async function run(command: RenderCommand): Promise<number> {
  const registry = createRegistry();
  const configured = await loadConfiguredRenderers(Deno.cwd());
  for (const renderer of configured.renderers) {
    try {
      registry.register(renderer);
    } catch (error) {
      throw new UsageError(`${(error as Error).message} (from ${configured.configPath})`);
    }
  }
  if (command.help) {
    const names = registry.list().map((r) => `  ${r.name.padEnd(10)} ${r.description}`);
    console.log(`${HELP}\n\nRenderers:\n${names.join("\n")}`);
    return 0;
  }
  if (!registry.has(command.renderer)) {
    const known = registry.list().map((r) => r.name).join(", ");
    throw new UsageError(`Unknown renderer "${command.renderer}": known renderers are ${known}`);
  }
  const renderer = registry.resolve(command.renderer);
  const target = await outputTarget(command.out);
  return await new RenderRun(renderer, command, target).all();
}

async function outputTarget(out: string | undefined): Promise<Target> {
  if (out === undefined) return { kind: "stdout" };
  const info = await Deno.stat(out).catch(() => undefined);
  if (info?.isDirectory || out.endsWith("/")) {
    await Deno.mkdir(out, { recursive: true });
    return { kind: "dir", path: out };
  }
  return { kind: "file", path: out };
}

/** One invocation's work: every input, every session, the failures counted. */
class RenderRun {
  #renderer: Renderer;
  #command: RenderCommand;
  #target: Target;
  #single: Rendered | undefined;
  #written = new Set<string>();
  #indexRows: string[] = [];
  #rendered = 0;
  #failed = 0;
  #progress = Deno.stderr.isTerminal();

  constructor(renderer: Renderer, command: RenderCommand, target: Target) {
    this.#renderer = renderer;
    this.#command = command;
    this.#target = target;
  }

  async all(): Promise<number> {
    if (this.#command.session !== undefined) {
      const sessionId = this.#command.session;
      const scope = this.#command.scope ?? "session";
      // ANTHROPIC_BASE_URL points at a proxy or gateway, as in Anthropic's SDKs.
      const baseUrl = Deno.env.get("ANTHROPIC_BASE_URL");
      const source = fromManagedAgents({ sessionId, scope, ...(baseUrl ? { baseUrl } : {}) });
      await this.#sessions(source, []);
    } else if (this.#renderer === indexRenderer) {
      await this.#index();
    } else {
      for (const input of this.#inputs()) await this.#file(input);
    }
    if (this.#progress && this.#rendered + this.#failed > 1) console.error();
    if (this.#target.kind === "dir" && this.#renderer === dreamRenderer) {
      await this.#writeIndex(this.#target.path);
    }
    if (this.#target.kind === "dir" && this.#renderer === htmlRenderer) {
      await this.#writeHtmlIndex(this.#target.path);
    }
    if (this.#single !== undefined) await this.#emitSingle(this.#single);
    return this.#failed > 0 ? 1 : 0;
  }

  #inputs(): string[] {
    return this.#command.inputs.length > 0 ? this.#command.inputs : [fileURLToPath(EXAMPLE)];
  }

  /** One input's entries; `problems` collects the lines skipped as they come. */
  #source(input: string, problems: string[]): AsyncIterable<LogEntry> {
    const name = input === "-" ? "stdin" : input;
    if (isClaudeCode(input, this.#command.format)) {
      // A Claude Code transcript is tolerant by nature: bad lines are skipped, as Claude Code does.
      return fromClaudeCode(input);
    }
    return fromNdjson(input === "-" ? Deno.stdin.readable : input, {
      ...(input === "-" ? { name, sessionId: name } : {}),
      skipInvalid: true,
      onInvalid: (line, reason) => problems.push(`${name}:${line}: ${reason}`),
    });
  }

  async #file(input: string): Promise<void> {
    const problems: string[] = [];
    await this.#sessions(this.#source(input, problems), problems, input === "-" ? "stdin" : input);
  }

  /** The index renderer reads every input as one batch: one INDEX.md for all sessions. */
  async #index(): Promise<void> {
    const text = await indexRenderer.render(this.#batch());
    await this.#emit({ sessionId: "INDEX", text });
  }

  async *#batch(): AsyncGenerator<LogEntry, void, undefined> {
    for (const input of this.#inputs()) {
      const problems: string[] = [];
      try {
        yield* scoped(this.#source(input, problems), this.#command.scope);
        if (this.#flush(problems)) this.#fail(`${input} has malformed lines`);
      } catch (error) {
        this.#flush(problems);
        this.#fail((error as Error).message);
      }
    }
  }

  /** Renders each session of a source; `problems` collects its skipped lines as they come. */
  async #sessions(source: AsyncIterable<LogEntry>, problems: string[], name = ""): Promise<void> {
    try {
      for await (const group of splitSessions(scoped(source, this.#command.scope))) {
        const rendered = await this.#render(group.sessionId, group.entries);
        if (this.#flush(problems)) {
          this.#fail(`session "${group.sessionId}" was not written: it has malformed lines`);
          continue;
        }
        await this.#emit(rendered);
      }
      if (this.#flush(problems)) this.#fail(`${name} has malformed lines outside any session`);
    } catch (error) {
      if (error instanceof UsageError) throw error;
      this.#flush(problems);
      this.#fail((error as Error).message);
    }
  }

  async #render(sessionId: string, entries: AsyncIterable<LogEntry>): Promise<Rendered> {
    if (this.#renderer !== dreamRenderer) {
      return { sessionId, text: await this.#renderer.render(entries) };
    }
    const dream = await renderDream(entries);
    return { sessionId, text: dream.text, dream };
  }

  /** Reports the lines skipped so far; whether they fail their session. */
  #flush(problems: string[]): boolean {
    for (const problem of problems) console.error(`render: ${problem}`);
    const failing = problems.length > 0 && !this.#command.skipInvalid;
    problems.length = 0;
    return failing;
  }

  #fail(message: string): void {
    this.#failed++;
    console.error(`render: ${message}`);
  }

  async #emit(rendered: Rendered): Promise<void> {
    this.#rendered++;
    if (this.#target.kind === "dir") {
      await this.#emitToDir(this.#target.path, rendered);
    } else if (this.#single === undefined) {
      this.#single = rendered;
    } else {
      throw new UsageError(
        `The input holds more than one session ("${this.#single.sessionId}", "${rendered.sessionId}"): pass --out DIR to write one file per session`,
      );
    }
    if (this.#progress && this.#rendered > 1) {
      Deno.stderr.writeSync(
        new TextEncoder().encode(`\r\x1b[2Krendered ${this.#rendered} sessions`),
      );
    }
  }

  async #writeIndex(dir: string): Promise<void> {
    const rows = this.#indexRows.map((row) => `${row}\n`).join("");
    const text = `# Index\n\n${INDEX_COLUMNS}\n\n${rows}`;
    try {
      await writeAtomic(`${dir.replace(/\/+$/, "")}/INDEX.md`, text, this.#command);
    } catch (error) {
      this.#fail((error as Error).message);
    }
  }

  /** The folder's index.html, rebuilt from every session page in it (so always replaced). */
  async #writeHtmlIndex(dir: string): Promise<void> {
    try {
      const text = await indexPage(await folderPages(dir));
      await writeAtomic(`${dir.replace(/\/+$/, "")}/${HTML_INDEX}`, text, { force: true });
    } catch (error) {
      this.#fail((error as Error).message);
    }
  }

  async #emitToDir(dir: string, rendered: Rendered): Promise<void> {
    const name = this.#renderer === indexRenderer
      ? "INDEX.md"
      : await sessionFileName(rendered.sessionId, this.#renderer.extension ?? ".txt");
    if (this.#written.has(name)) {
      this.#fail(
        `session "${rendered.sessionId}" appears twice in the input; its second run was not written`,
      );
      return;
    }
    this.#written.add(name);
    try {
      await writeAtomic(`${dir.replace(/\/+$/, "")}/${name}`, rendered.text, this.#command);
      if (rendered.dream) {
        this.#indexRows.push(indexLine(this.#indexRows.length + 1, rendered.dream));
      }
    } catch (error) {
      this.#fail((error as Error).message);
    }
  }

  async #emitSingle(rendered: Rendered): Promise<void> {
    if (this.#target.kind === "file") {
      try {
        await writeAtomic(this.#target.path, rendered.text, this.#command);
      } catch (error) {
        this.#fail((error as Error).message);
      }
      return;
    }
    const bytes = new TextEncoder().encode(rendered.text);
    for (let written = 0; written < bytes.length;) {
      written += await Deno.stdout.write(bytes.subarray(written));
    }
  }
}

/** Whether an input is a Claude Code transcript: `--format`, else a `.jsonl` file. */
function isClaudeCode(input: string, format: RenderCommand["format"]): boolean {
  if (format !== "auto") return format === "claude-code";
  return input !== "-" && input.endsWith(".jsonl");
}

async function* scoped(
  source: AsyncIterable<LogEntry>,
  scope: Scope | undefined,
): AsyncGenerator<LogEntry, void, undefined> {
  for await (const entry of source) {
    if (scope !== "session" || entry.thread_id === null) yield entry;
  }
}

if (import.meta.main) {
  Deno.exit(await main(Deno.args));
}
