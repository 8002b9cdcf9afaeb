// Copyright 2026 the brigade authors. MIT license.

// The README and the guides as the tests read them: which files they are, their prose without
// code blocks, the headings' anchors, the relative links, and the shell commands of their blocks.

const ROOT = new URL("../", import.meta.url);

/** The README and every guide under `docs/`, as paths relative to the checkout, README first. */
export async function docFiles(): Promise<string[]> {
  const guides: string[] = [];
  for await (const entry of Deno.readDir(new URL("docs/", ROOT))) {
    if (entry.isFile && entry.name.endsWith(".md")) guides.push(`docs/${entry.name}`);
  }
  return ["README.md", ...guides.sort()];
}

/** A fenced block of a Markdown file: its info string and its lines. */
export interface Block {
  info: string;
  lines: string[];
}

/** Splits Markdown into its prose lines (blocks blanked) and its fenced blocks. */
export function splitMarkdown(text: string): { prose: string; blocks: Block[] } {
  const prose: string[] = [];
  const blocks: Block[] = [];
  let open: { fence: string; block: Block } | undefined;
  for (const line of text.split("\n")) {
    const fence = /^\s*(`{3,}|~{3,})(.*)$/.exec(line);
    if (open === undefined && fence !== null) {
      open = { fence: fence[1]!, block: { info: fence[2]!.trim(), lines: [] } };
      prose.push("");
    } else if (open !== undefined) {
      const closes = fence !== null && fence[1]!.startsWith(open.fence) && fence[2]!.trim() === "";
      if (closes) {
        blocks.push(open.block);
        open = undefined;
      } else {
        open.block.lines.push(line);
      }
      prose.push("");
    } else {
      prose.push(line);
    }
  }
  return { prose: prose.join("\n"), blocks };
}

/** The anchor GitHub gives a heading's text (without its `#`s); JSR's are the same for these. */
export function slug(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, "").replaceAll(" ", "-");
}

/** The anchors of a Markdown file's headings, the second of a name suffixed `-1`, and so on. */
export function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const line of splitMarkdown(text).prose.split("\n")) {
    const heading = /^#{1,6} +(.*)$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const base = slug(heading);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    out.add(count === 0 ? base : `${base}-${count}`);
  }
  return out;
}

/** The targets of a Markdown file's links and images that are neither URLs nor mail addresses. */
export function relativeLinks(text: string): string[] {
  // Code spans first: a `[x](y)` inside backticks is code, not a link.
  const prose = splitMarkdown(text).prose.replace(/`[^`]*`/g, "");
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1]!)
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}

/** The commands of a file's `sh` blocks, a line continued with `\` joined to the next. */
export function shellCommands(text: string): string[] {
  const commands: string[] = [];
  for (const block of splitMarkdown(text).blocks) {
    if (block.info !== "sh") continue;
    let pending = "";
    for (const line of block.lines) {
      if (line.endsWith("\\")) {
        pending += line.slice(0, -1);
        continue;
      }
      commands.push((pending + line).replace(/\s+/g, " ").trim());
      pending = "";
    }
  }
  return commands.filter((command) => command !== "" && !command.startsWith("#"));
}
