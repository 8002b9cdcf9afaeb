// Copyright 2026 the brigade authors. MIT license.

/**
 * What a batch into a folder remembers between runs, so that a rerun costs what changed: for each
 * input file that rendered without a failure, a fingerprint of the input (its device, inode,
 * size and modification time) and of the run's options (the package's version, the renderer and
 * the options that change what is written), and the outputs it wrote, each with its size and
 * modification time. A rerun skips an input whose fingerprints match and whose outputs are all
 * still as written, without reading it: they count as unchanged. An input that changed, an output
 * that was edited or removed, another renderer or option, or `--force` renders it again. (So the
 * bad lines an unchanged input's first run reported, without failing it, are not reported again.)
 * A team renderer's code is not in the fingerprint: after changing it, rerun with `--force`.
 *
 * The record is one hidden file in the folder ({@linkcode MANIFEST_NAME}), written atomically at
 * the end of each run (an interrupted one included). A record that cannot be read, or is not
 * one, only costs a full run.
 *
 * @module
 */

import { resolve } from "node:path";
import { writeAtomic } from "./_output.ts";

/** The record's file name in the folder: hidden, and no session's (those never start with "."). */
export const MANIFEST_NAME = ".transcript-manifest.json";

/** The largest record read: an entry is a few hundred bytes, 40,000 inputs a few megabytes. */
const MAX_MANIFEST_BYTES = 64 * 1024 * 1024;

/** What the record holds of one input. */
export interface ManifestEntry {
  /** The options' fingerprint. */
  key: string;
  /** The input's fingerprint. */
  input: string;
  /** Each output's name in the folder and its stamp when written. */
  outputs: [name: string, stamp: string][];
}

/** A file's fingerprint: device, inode, size and modification time; undefined for a non-file. */
export async function fileStamp(path: string): Promise<string | undefined> {
  try {
    const info = await Deno.stat(path);
    if (!info.isFile) return undefined;
    return `${info.dev}:${info.ino ?? ""}:${info.size}:${info.mtime?.getTime() ?? ""}`;
  } catch {
    return undefined;
  }
}

function isEntry(value: unknown): value is ManifestEntry {
  const v = value as Partial<ManifestEntry> | null;
  return typeof v === "object" && v !== null && typeof v.key === "string" &&
    typeof v.input === "string" && Array.isArray(v.outputs) &&
    v.outputs.every((o) =>
      Array.isArray(o) && o.length === 2 && typeof o[0] === "string" && typeof o[1] === "string" &&
      !o[0].includes("/") && !o[0].startsWith(".")
    );
}

/** A folder's record of its inputs, read at the start of a run and saved at its end. */
export class Manifest {
  readonly #dir: string;
  readonly #entries: Map<string, ManifestEntry>;
  readonly #existed: boolean;
  #changed = false;

  private constructor(dir: string, entries: Map<string, ManifestEntry>, existed: boolean) {
    this.#dir = dir;
    this.#entries = entries;
    this.#existed = existed;
  }

  /** The folder's record; an empty one when there is none or it cannot be read. */
  static async load(dir: string): Promise<Manifest> {
    const path = `${dir.replace(/\/+$/, "")}/${MANIFEST_NAME}`;
    const entries = new Map<string, ManifestEntry>();
    let existed = false;
    try {
      const info = await Deno.lstat(path);
      existed = true;
      if (info.isFile && info.size <= MAX_MANIFEST_BYTES) {
        const parsed = JSON.parse(await Deno.readTextFile(path)) as { entries?: unknown };
        if (typeof parsed?.entries === "object" && parsed.entries !== null) {
          for (const [input, entry] of Object.entries(parsed.entries)) {
            if (isEntry(entry)) entries.set(input, entry);
          }
        }
      }
    } catch {
      // No record, or not one: every input is rendered.
    }
    return new Manifest(dir, entries, existed);
  }

  /**
   * The outputs of an input that need not be rendered again: its record's, when the options and
   * the input are as recorded and every output is still as written; undefined otherwise.
   */
  async unchanged(input: string, key: string): Promise<string[] | undefined> {
    const entry = this.#entries.get(resolve(input));
    if (entry === undefined || entry.key !== key || entry.outputs.length === 0) return undefined;
    if (await fileStamp(input) !== entry.input) return undefined;
    for (const [name, stamp] of entry.outputs) {
      if (await fileStamp(`${this.#dir.replace(/\/+$/, "")}/${name}`) !== stamp) return undefined;
    }
    return entry.outputs.map(([name]) => name);
  }

  /**
   * Whether the folder's `name` is an output the record says this input wrote and that is still
   * as written (its stamp unchanged): the command may replace it without `--force`, since no one
   * else has touched it. A session that grew since its page was written is rendered again so.
   */
  async wrote(input: string, name: string): Promise<boolean> {
    const stamp = this.#entries.get(resolve(input))?.outputs.find(([output]) => output === name)
      ?.[1];
    if (stamp === undefined) return false;
    return await fileStamp(`${this.#dir.replace(/\/+$/, "")}/${name}`) === stamp;
  }

  /**
   * Records an input that rendered without a failure, with its outputs' stamps as they are now;
   * an input whose fingerprint cannot be taken (a stream) is not recorded.
   */
  async record(input: string, key: string, stampBefore: string, outputs: string[]): Promise<void> {
    const path = resolve(input);
    // An input changed while it was read is rendered again next time.
    if (await fileStamp(input) !== stampBefore) return this.forget(input);
    const stamped: [string, string][] = [];
    for (const name of outputs) {
      const stamp = await fileStamp(`${this.#dir.replace(/\/+$/, "")}/${name}`);
      if (stamp === undefined) return this.forget(input);
      stamped.push([name, stamp]);
    }
    this.#entries.set(path, { key, input: stampBefore, outputs: stamped });
    this.#changed = true;
  }

  /** Forgets an input (it failed, or changed): the next run renders it. */
  forget(input: string): void {
    if (this.#entries.delete(resolve(input))) this.#changed = true;
  }

  /** Writes the record, when it changed; a run that recorded nothing adds none to a folder. */
  async save(): Promise<void> {
    if (!this.#changed || (!this.#existed && this.#entries.size === 0)) return;
    const entries: Record<string, ManifestEntry> = {};
    for (const key of [...this.#entries.keys()].sort()) entries[key] = this.#entries.get(key)!;
    const text = `${JSON.stringify({ version: 1, entries })}\n`;
    await writeAtomic(`${this.#dir.replace(/\/+$/, "")}/${MANIFEST_NAME}`, text, { force: true });
  }
}
