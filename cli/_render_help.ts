// Copyright 2026 the brigade authors. MIT license.

/**
 * The `render` command's `--help`: its text, the built-in renderers and the configured ones. Its
 * own module, imported for `--help` only: a render loads none of it.
 *
 * @module
 */

import type { RenderCommand } from "./_args.ts";
import { loadBuiltins } from "./_builtins.ts";
import type { RendererConfig } from "./_config.ts";
import type { CallerDirectory } from "./_cwd.ts";

const HELP = `Render agent-session logs as text a model reads.

Usage:
  deno task render [-r NAME] [-o PATH] [--scope session|all] [FILE...|-]
  deno task render -r html -o site/ [--since DATE] [--until DATE] FOLDER
  deno task render [-r NAME] [-o PATH] --session sesn_... [--scope all]
  deno task render [-r NAME] --session sesn_... --follow [--scope all]
  deno task render [-r NAME] --follow FILE
  deno task render -r html --watch -o site/ FOLDER|FILE...
  deno task render --unrendered FILE|FOLDER...

With no FILE, renders the bundled example session through the grader to stdout.
A FILE is NDJSON: one log entry ({seq, session_id, thread_id, event}) or one
bare Managed Agents event a line. A *.jsonl file is a Claude Code transcript
(~/.claude/projects/.../SESSION.jsonl), one session. "-" reads standard input
and a FIFO (<(zcat log.gz)) is read as a stream: either is told apart by its
first records, as a log or a transcript; a device is refused. With --out DIR,
a FOLDER is searched for *.jsonl and *.ndjson files (Claude Code's
~/.claude/projects, or any folder of them): each belongs to the project of the
folder holding it; a subagent's transcript (in a subagents/ folder) belongs to
its parent session and is not rendered on its own. Without --out DIR, a folder
is refused.

Options:
  -r, --renderer NAME   the renderer (default: grader)
  -o, --out PATH        write to PATH: a file for one session, a folder
                        (existing, given with a trailing "/", or new with a
                        folder input) for one file per session
      --session ID      read the session from the Managed Agents API (needs
                        ANTHROPIC_API_KEY; ANTHROPIC_BASE_URL, when set,
                        replaces https://api.anthropic.com; its host must be
                        allowed: a missing permission prints the command)
  -f, --follow          with --session: go on reading the session as it runs,
                        printing each item on stdout as it completes (json:
                        one NDJSON line each), until it ends or Ctrl-C; with
                        one FILE: read it as it grows (tail -f), until Ctrl-C
                        or the file is truncated, replaced or deleted
      --stop-at idle|terminated
                        when --follow ends: when the session terminates
                        ("terminated", the default) or when its turn ends
                        ("idle": the first idle after the last user message
                        that is not waiting on a tool confirmation)
      --watch           with --out DIR: keep the folder in step with each
                        FILE or FOLDER until Ctrl-C: polled every second, a
                        change rendered once still for 0.5 s (at most 3 s
                        late); only the sessions that changed and the index
                        are written again; a page of a session changed in the
                        last 5 minutes says so and reloads itself every 3 s;
                        a page whose transcript was deleted is kept, marked
                        in the index
      --scope SCOPE     "session" keeps the primary thread's rows only; "all"
                        keeps every thread (the default for files; --session
                        defaults to "session")
      --force           overwrite existing output files whose content differs
      --skip-invalid    skip bad lines (each is reported) instead of failing
                        their session
      --format FORMAT   "log" (NDJSON log entries or events) or "claude-code"
                        (a Claude Code transcript); default: claude-code for
                        *.jsonl files, log for other files, told by the first
                        records for "-" and a FIFO
      --transcript-budget BYTES
                        the most UTF-8 bytes of one output (grader, html,
                        json; default: the renderer's own, 200000 for grader)
      --item-budget BYTES
                        the most UTF-8 bytes of one item's body (grader,
                        html, json)
      --no-thinking     leave the agent's thinking out (html; shown folded by
                        default)
      --since DATE      render only the sessions that started on or after DATE:
                        a day in UTC (2026-09-01 or 20260901) or a time with
                        its zone (2026-09-01T10:00:00Z, 2026-09-01T12:00+02:00)
      --until DATE      render only the sessions that started on or before
                        DATE (a day in UTC: to its end)
      --keep head|ends  past the grader's budget, keep the session's start
                        ("head", the default) or its start and end ("ends")
      --ids             the grader: each label starts with its entry's seq,
                        [M12 · user], as json's seq, for a judge to cite
      --thread ID|NAME  the grader: one thread only ("primary", a child
                        thread's id or agent name), with --scope all
      --each-thread     the grader: each thread as a section of its own
      --outcome         the grader: a [session outcome] block first, how the
                        session ended (status, stop reason, errors, outcome
                        evaluations, a budget reached) and its task
      --envelope        the grader: the transcript between two lines
                        <<<transcript HEX>>>, HEX from its digest, for a
                        judge's prompt to name as the boundary of the data
      --chunk-bytes N   the grader: the whole session, no transcript budget,
                        in chunks of at most N bytes, each headed [chunk i ·
                        items a–b], the last [chunk n of n · items a–b]
      --previous FILE   mark each row of the index added, changed or retained
                        against FILE, the INDEX.md of an earlier run, and list
                        the sessions gone (index; dream with --out DIR); read
                        before anything renders
      --no-config       ignore the renderers configured in deno.json
      --unrendered      render nothing: count what the Claude Code transcripts
                        of each FILE or FOLDER hold that is not rendered
                        (record types, system subtypes, attachment types,
                        content blocks), with where each was first seen
      --session-id NAME the session of the one input is NAME (default: a
                        Claude Code transcript's own sessionId when read from
                        "-" or a pipe, else the file's name; a log's entries
                        keep their session_id)
  -h, --help            show this help
  -V, --version         print the package's name and version

A folder is resumable: a file that already holds what would be written is left
alone ("unchanged"), a page the command wrote from an input that changed since
(a session that went on) is replaced, one edited by hand is kept unless
--force, and INDEX.md (dream) or index.html (html: grouped by project, newest
first) always lists every page in the folder, from this run or an earlier one.
Ctrl-C finishes or drops the session in flight, writes INDEX.md, and exits; run
the same command again to render the rest.

Exit codes: 0 all rendered, 1 some input failed (each failure is reported),
2 usage error, 130 interrupted (SIGINT), 143 terminated (SIGTERM).

Team renderers are configured in the nearest deno.json(c), under
"transcript": { "renderers": { "NAME": "./module.ts" } } (or a list of
modules). A module is code from the folder you run in: it is imported only
when a renderer it defines is named, never for --help or a built-in.`;

/**
 * The help, the configured renderers listed from the configuration alone, nothing imported.
 *
 * @example Usage
 * ```ts ignore
 * console.log(await helpText(command, caller, configModule));
 * ```
 *
 * @param command The command (`--no-config` skips the configuration).
 * @param caller The folder the command runs for: the configuration is read only when known.
 * @param configModule The team configuration's loader, imported by the caller's specifier.
 * @returns The help's text.
 */
export async function helpText(
  command: RenderCommand,
  caller: CallerDirectory,
  configModule: () => Promise<typeof import("./_config.ts")>,
): Promise<string> {
  const builtins = (await loadBuiltins()).map((r) =>
    `  ${r.name.padEnd(10)} ${wrap(r.description, HELP_COLUMNS - 13).join(`\n${" ".repeat(13)}`)}`
  );
  let text = `${HELP}\n\nRenderers:\n${builtins.join("\n")}`;
  if (command.noConfig || !caller.known) return text;
  let config: RendererConfig | undefined;
  try {
    config = await (await configModule()).readRendererConfig(Deno.cwd());
  } catch (error) {
    return `${text}\n\nConfigured renderers: none read (${(error as Error).message})`;
  }
  if (config === undefined) return text;
  const lines = [
    ...[...config.named].map(([name, path]) => `  ${name.padEnd(10)} ${path}`),
    ...config.modules.map((path) => `  ${"(module)".padEnd(10)} ${path}`),
  ];
  text += `\n\nConfigured in ${config.configPath} (imported only when named; --no-config skips):`;
  return `${text}\n${lines.join("\n")}`;
}

/** The width the help is written to: a terminal's default, as `deno --help` keeps. */
const HELP_COLUMNS = 80;

/** Words in lines of at most `width` columns (a longer word stands alone). */
function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line !== "" && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line === "" ? word : `${line} ${word}`;
    }
  }
  return [...lines, line];
}
