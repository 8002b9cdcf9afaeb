// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

/** A slash command read from Claude Code's wrappers: its name and its command line. */
export interface SlashCommand {
  /** The name with its slash: `/model`. */
  name: string;
  /** What the user typed: `/model opus`. */
  line: string;
}

/** What a command printed locally, from a `<local-command-stdout>` (or stderr) wrapper. */
export interface CommandOutput {
  /** The text, terminal styling removed. */
  text: string;
  /** Whether it came from the command's standard error. */
  stderr: boolean;
}

const NAME = /<command-name>([\s\S]*?)<\/command-name>/;
const ARGS = /<command-args>([\s\S]*?)<\/command-args>/;
const OUTPUT = /^\s*<local-command-(stdout|stderr)>([\s\S]*?)<\/local-command-\1>\s*$/;
// CSI sequences (colours, bold): Claude Code writes a command's terminal output as it showed it.
// deno-lint-ignore no-control-regex -- the escape character is what is matched
const STYLING = /\x1b\[[0-9;?]*[ -/]*[@-~]/g;

/**
 * The slash command a user record's text holds (`<command-name>/exit</command-name>`
 * with `<command-message>` and `<command-args>`, in either order), or
 * undefined when it holds none.
 */
export function slashCommand(text: string): SlashCommand | undefined {
  if (!text.includes("<command-name>")) return undefined;
  const raw = NAME.exec(text)?.[1]?.trim();
  if (raw === undefined || raw === "") return undefined;
  const name = raw.startsWith("/") ? raw : `/${raw}`;
  const args = ARGS.exec(text)?.[1]?.trim() ?? "";
  return { name, line: args === "" ? name : `${name} ${args}` };
}

/** A command's local output when the text is exactly one output wrapper, else undefined. */
export function commandOutput(text: string): CommandOutput | undefined {
  if (!text.includes("<local-command-")) return undefined;
  const match = OUTPUT.exec(text);
  if (match === null) return undefined;
  return { text: match[2]!.replace(STYLING, "").trim(), stderr: match[1] === "stderr" };
}
