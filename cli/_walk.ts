// Copyright 2026 the brigade authors. MIT license.

/**
 * A folder given as an input: Claude Code's projects folder
 * (`~/.claude/projects/<project>/<session>.jsonl`), one project's folder, or
 * any folder of transcripts and logs, searched recursively for `*.jsonl` and
 * `*.ndjson` files. Each file found belongs to a project: the folder holding
 * it, named relative to the folder given (a file right in the given folder:
 * the given folder's own name), so a project is named the same whether the
 * projects folder or the project's own folder is given.
 *
 * A subagent's transcript belongs to its parent session and is not a session
 * of its own: a session's folder (the folder named as a transcript beside it,
 * `<session>/`, where Claude Code keeps `subagents/` and tool results), any
 * `subagents/` folder, and an `agent-*.jsonl` file (the older layout, beside
 * its parent's) are passed over. The parent's page shows the subagent's task,
 * its report, and the turns Claude Code copies into the parent's transcript.
 * Hidden files and folders (a name starting with `.`) are passed over too.
 *
 * Links are followed, each folder read once (a link back to a folder already
 * read, a loop, is passed over with a note); a folder that cannot be read is
 * reported and the search goes on.
 *
 * @module
 */

import { basename, join, relative, resolve } from "node:path";

/** A transcript or log found in a folder, and the project it belongs to. */
export interface FoundInput {
  /** Its path: the given folder's path, joined with the path inside it. */
  path: string;
  /** The folder holding it, relative to the given folder (`/`-separated). */
  project: string;
}

/** What the search reports as it goes. */
export interface WalkReport {
  /** A folder that could not be read: the input fails, the search goes on. */
  failed(message: string): void;
  /** Something passed over on purpose that a person may not expect. */
  note(message: string): void;
}

/** The file names read as inputs. */
const INPUT = /\.(?:jsonl|ndjson)$/;
/** A subagent's transcript in the older layout: beside its parent's, in the project folder. */
const SUBAGENT_FILE = /^agent-.*\.jsonl$/;
/** How deep the search goes below the given folder. */
const MAX_DEPTH = 32;

/**
 * The inputs in a folder, each with its project: a folder's files in name order, then its
 * subfolders' in name order.
 *
 * @param dir The folder given to the command.
 * @param report Where a folder that cannot be read, and a loop, are reported.
 */
export async function inputsIn(dir: string, report: WalkReport): Promise<FoundInput[]> {
  const found: FoundInput[] = [];
  const seen = new Set<string>();
  const root = basename(resolve(dir));
  const walk = async (folder: string, depth: number): Promise<void> => {
    let real: string;
    const entries: Deno.DirEntry[] = [];
    try {
      real = await Deno.realPath(folder);
      if (seen.has(real)) {
        report.note(`${folder}: passed over, a link to a folder already read`);
        return;
      }
      seen.add(real);
      for await (const entry of Deno.readDir(folder)) entries.push(entry);
    } catch (error) {
      report.failed(`${folder}: Cannot read the folder: ${reason(error)}`);
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const sessions = new Set(
      entries.filter((e) => e.name.endsWith(".jsonl")).map((e) => e.name.slice(0, -6)),
    );
    const folders: string[] = [];
    for (const entry of entries) {
      if (entry.name.startsWith(".")) continue;
      const path = join(folder, entry.name);
      const kind = entry.isSymlink ? await linkKind(path) : entry.isDirectory ? "dir" : "file";
      if (kind === "dir") {
        // A session's own folder, and subagents' folders: their transcripts are the session's.
        if (entry.name === "subagents" || sessions.has(entry.name)) continue;
        folders.push(path);
      } else if (INPUT.test(entry.name) && !SUBAGENT_FILE.test(entry.name)) {
        // A file that cannot be read, or a broken link, fails when it is read: it is reported.
        const inside = relative(dir, folder).replaceAll("\\", "/");
        found.push({ path, project: inside === "" ? root : inside });
      }
    }
    for (const path of folders) {
      if (depth >= MAX_DEPTH) {
        report.note(`${path}: passed over, more than ${MAX_DEPTH} folders deep`);
        continue;
      }
      await walk(path, depth + 1);
    }
  };
  await walk(dir, 0);
  return found;
}

/** What a link leads to: a folder, or anything else (a file, or nothing: read as a file). */
async function linkKind(path: string): Promise<"dir" | "file"> {
  const info = await Deno.stat(path).catch(() => undefined);
  return info?.isDirectory ? "dir" : "file";
}

function reason(error: unknown): string {
  if (error instanceof Deno.errors.PermissionDenied) return "permission denied";
  if (error instanceof Deno.errors.NotFound) return "no such folder";
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n")[0]!.replace(/,? \w+ '.*'$/, "");
}
