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
 * read, a loop, is passed over with a note); a link that leads out of the
 * given folder is followed with a note naming the link (never what it holds);
 * a folder that cannot be read is reported and the search goes on. Only
 * regular files are inputs: a FIFO, a socket or a device named `*.jsonl`
 * would block or never end, so it is passed over with a note, never opened.
 *
 * @module
 */

import { basename, isAbsolute, join, relative, resolve } from "node:path";

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
  // Where the given folder really is: a link whose target is not inside it is said.
  const top = await Deno.realPath(dir).catch(() => resolve(dir));
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
      const link = entry.isSymlink ? await linkKind(path, top) : undefined;
      const kind = link?.kind ?? (entry.isDirectory ? "dir" : entry.isFile ? "file" : "other");
      // A link out of the folder is followed, and said: its path only, never what it holds.
      const outside = (): void => {
        if (link?.outside) report.note(`${path}: a link out of the folder, followed`);
      };
      if (kind === "dir") {
        // A session's own folder, and subagents' folders: their transcripts are the session's.
        if (entry.name === "subagents" || sessions.has(entry.name)) continue;
        outside();
        folders.push(path);
      } else if (!INPUT.test(entry.name) || SUBAGENT_FILE.test(entry.name)) {
        continue;
      } else if (kind === "other") {
        report.note(`${path}: passed over, not a regular file (a FIFO, a socket or a device)`);
      } else {
        outside();
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

/**
 * What a link leads to: a folder, a regular file (or nothing: a broken link is read as a file,
 * and fails when it is read), or something else (a FIFO, a socket, a device); and whether it
 * leads out of the given folder (`top`, its real path).
 */
async function linkKind(
  path: string,
  top: string,
): Promise<{ kind: "dir" | "file" | "other"; outside: boolean }> {
  const info = await Deno.stat(path).catch(() => undefined);
  if (info === undefined) return { kind: "file", outside: false };
  const real = await Deno.realPath(path).catch(() => undefined);
  const outside = real !== undefined && !isInside(real, top);
  return { kind: info.isDirectory ? "dir" : info.isFile ? "file" : "other", outside };
}

/** Whether a real path is the folder `top` or inside it. */
function isInside(path: string, top: string): boolean {
  const inside = relative(top, path);
  return inside === "" || (!inside.startsWith("..") && !isAbsolute(inside));
}

function reason(error: unknown): string {
  if (error instanceof Deno.errors.PermissionDenied) return "permission denied";
  if (error instanceof Deno.errors.NotFound) return "no such folder";
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n")[0]!.replace(/,? \w+ '.*'$/, "");
}
