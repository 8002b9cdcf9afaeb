// Copyright 2026 the brigade authors. MIT license.

/**
 * `render --watch --out DIR FOLDER|FILE…`: the folder kept in step with the transcripts. The
 * inputs are polled, not watched by the kernel: a stat of each file at an interval holds no file
 * handle and no inotify watch (a projects folder of thousands of transcripts would exhaust
 * `fs.inotify.max_user_watches` or a process's handles), and its memory is one stamp a file. A
 * change is rendered once the files have been still for {@linkcode WATCH_QUIET_MS}, or at the
 * latest {@linkcode WATCH_MAX_WAIT_MS} after it was seen (a session that never pauses is still
 * shown within seconds). Each round is an ordinary run into the folder: its record leaves every
 * unchanged input unread, so a round renders what changed and the index, and a watch stopped
 * and started again goes on where it was.
 *
 * @module
 */

import { resolve } from "node:path";
import type { Renderer } from "../renderers/registry.ts";
import { type RenderCommand, UsageError } from "./_args.ts";
import { RenderRun, type WatchRound } from "./_batch.ts";
import { FolderListings, infoStamp, subagentFilesStamp, withSubagents } from "./_file_stamp.ts";
import { writeFolderIndex } from "./_folder_index.ts";
import { expandFolders } from "./_folder_inputs.ts";
import { lockFolder } from "./_folder_lock.ts";
import type { Input } from "./_input_source.ts";
import type { Interrupt } from "./_interrupt.ts";
import { inFolder } from "./_output.ts";
import { describe } from "./_run_tally.ts";
import type { Stderr } from "./_terminal.ts";
import { sleep } from "./_sleep.ts";

/** The least time between two polls of the inputs. */
export const WATCH_POLL_MS = 1_000;

/** How long the inputs must be still before a change is rendered (the debounce). */
export const WATCH_QUIET_MS = 500;

/** The longest a change waits for the inputs to be still before it is rendered anyway. */
export const WATCH_MAX_WAIT_MS = 3_000;

/**
 * How recently a transcript must have changed for its session to count as still growing: its
 * page says so and reloads itself; once it has been still that long, its page is rendered again
 * without the reload.
 */
export const LIVE_FOR_MS = 5 * 60_000;

/** One file's stamp, as polled. */
interface Polled {
  stamp: string;
  /** Its modification time, in ms since the epoch. */
  mtime: number;
}

/** What {@linkcode watchFolder} runs and says. */
export interface WatchFolderOptions {
  /** The inputs as given: files and folders. */
  inputs: readonly Input[];
  /** The renderer's options, which the watch's (`live`, `gone`) are added to for the index. */
  rendererOptions: object;
  /** Aborted by Ctrl-C: the round in flight finishes or drops its session, and the watch ends. */
  signal: AbortSignal;
  /** One run into the folder, with this round's inputs and what the watch tells it. */
  round: (inputs: Input[], watch: WatchRound) => Promise<number>;
  /** Writes the folder's index with these options (the last one, once the watch ends). */
  writeIndex: (options: object) => Promise<void>;
}

/**
 * Renders the inputs into the folder, then again each time they change, until the signal is
 * aborted; the last index is written without its reload, every page whose transcript went
 * during the watch still marked.
 */
export async function watchFolder(options: WatchFolderOptions): Promise<void> {
  const { signal } = options;
  /** The pages of each input, by its resolved path, as the rounds found them. */
  const pagesOf = new Map<string, readonly string[]>();
  const gone = new Set<string>();
  let seen = await poll(options.inputs);
  let rendered = seen;
  let live = liveInputs(seen, Date.now());
  const round = async (): Promise<void> => {
    for (const [path, pages] of pagesOf) {
      if (seen.has(path)) continue;
      for (const page of pages) gone.add(page);
      pagesOf.delete(path);
    }
    rendered = seen;
    live = liveInputs(seen, Date.now());
    await options.round(await present(options.inputs), {
      live: (input) => live.has(resolve(input)),
      outputs: (input, names) => {
        pagesOf.set(resolve(input), names);
        for (const name of names) gone.delete(name);
      },
      indexOptions: { ...options.rendererOptions, live: true, gone: [...gone] },
    });
  };
  await round();
  let firstChange: number | undefined;
  let lastChange = 0;
  while (!signal.aborted) {
    const started = Date.now();
    const polled = await poll(options.inputs);
    const now = Date.now();
    if (!sameStamps(polled, seen)) {
      firstChange ??= now;
      lastChange = now;
      seen = polled;
    }
    // A session still for LIVE_FOR_MS has ended: its page is rendered again, without its reload.
    const ended = [...live].some((path) => !liveInputs(seen, now).has(path));
    if (ended) firstChange ??= now - WATCH_MAX_WAIT_MS;
    const due = firstChange !== undefined &&
      (now - lastChange >= WATCH_QUIET_MS || now - firstChange >= WATCH_MAX_WAIT_MS);
    if (due && (ended || !sameStamps(seen, rendered))) {
      firstChange = undefined;
      await round();
    } else if (due) {
      firstChange = undefined;
    }
    // A poll of a large folder is not repeated back to back: at most half the time is polling.
    await sleep(Math.max(WATCH_POLL_MS, 2 * (Date.now() - started)), signal);
  }
  await options.writeIndex({ ...options.rendererOptions, live: false, gone: [...gone] });
}

/** Each file the inputs stand for (a folder's transcripts and logs), by resolved path. */
async function poll(inputs: readonly Input[]): Promise<Map<string, Polled>> {
  const quiet = (): void => {};
  const found = await expandFolders(inputs, { failed: quiet, note: quiet });
  const stamps = new Map<string, Polled>();
  const folders = new FolderListings();
  for (const input of found.inputs) {
    const info = await Deno.stat(input).catch(() => undefined);
    if (info?.isFile !== true) continue;
    // A session whose subagent writes its own file is live, and changed, as that file grows.
    const subagents = subagentFilesStamp(input, folders);
    const mtime = Math.max(info.mtime?.getTime() ?? 0, subagents?.mtime ?? 0);
    stamps.set(resolve(input), { stamp: withSubagents(infoStamp(info)!, subagents), mtime });
  }
  return stamps;
}

/** The inputs as given that are still there: a file named on its own may have been deleted. */
async function present(inputs: readonly Input[]): Promise<Input[]> {
  const kept: Input[] = [];
  for (const input of inputs) {
    if (await Deno.stat(input).then(() => true, () => false)) kept.push(input);
  }
  return kept;
}

function sameStamps(a: Map<string, Polled>, b: Map<string, Polled>): boolean {
  if (a.size !== b.size) return false;
  for (const [path, polled] of a) {
    if (b.get(path)?.stamp !== polled.stamp) return false;
  }
  return true;
}

/** The files changed within {@linkcode LIVE_FOR_MS} of `now`. */
function liveInputs(stamps: Map<string, Polled>, now: number): Set<string> {
  const live = new Set<string>();
  for (const [path, { mtime }] of stamps) {
    if (now - mtime < LIVE_FOR_MS) live.add(path);
  }
  return live;
}

/** What {@linkcode watchInto} runs with: a run's options, into a folder. */
export interface WatchIntoOptions {
  renderer: Renderer;
  command: RenderCommand;
  /** The `--out` folder. */
  dir: string;
  stderr: Stderr;
  interrupt: Interrupt;
}

/**
 * `render --watch`: a run into the folder each round (see {@linkcode watchFolder}), until Ctrl-C;
 * returns its exit code (130, 143).
 */
export async function watchInto(options: WatchIntoOptions): Promise<number> {
  const { renderer, command, dir, stderr, interrupt } = options;
  const folder = renderer.folder;
  if (folder === undefined || renderer.batch !== undefined) {
    throw new UsageError(
      `The ${renderer.name} renderer writes no folder of pages to keep in step: --watch takes --renderer html (or dream)`,
    );
  }
  stderr.say(`watching ${command.inputs.join(", ")} into ${dir} (Ctrl-C to stop)`);
  await watchFolder({
    inputs: command.inputs,
    rendererOptions: command.rendererOptions,
    signal: interrupt.signal,
    round: (inputs, watch) =>
      new RenderRun({
        renderer,
        command,
        target: { kind: "dir", path: dir },
        inputs,
        stderr,
        interrupt,
        watch,
      }).all(),
    writeIndex: async (rendererOptions) => {
      // The watch's last word on the folder, under its lock like any run's (a run holding it
      // for long is not waited for: the index of the next run lists the same pages).
      using _lock = await lockFolder(dir, { signal: AbortSignal.timeout(2_000), say: () => {} });
      await writeFolderIndex(dir, renderer.extension ?? ".txt", folder, {
        force: command.force,
        wroteAny: false,
        rendererOptions,
      }).catch((error) => stderr.say(describe(error, inFolder(dir, folder.indexName))));
    },
  });
  const code = interrupt.exitCode ?? 130;
  stderr.say(
    `watch stopped by ${
      code === 143 ? "SIGTERM" : "SIGINT"
    }: every page is whole; run the same command again to go on`,
  );
  return code;
}
