// Copyright 2026 the brigade authors. MIT license.

/**
 * What a batch into a folder remembers between runs, so that a rerun costs what changed: for each
 * input file that rendered without a failure, a fingerprint of the input (its device, inode,
 * size and modification time) and of the run's options (the package's version, the renderer and
 * the options that change what is written), and the outputs it wrote, each with its stamp when
 * written (device, inode, size, modification time) and the SHA-256 of the bytes written. A rerun
 * skips an input whose fingerprints match and whose outputs all have their stamps, without
 * reading it: they count as unchanged. An input that changed, an output that was edited or
 * removed, another renderer or option, or `--force` renders it again. (So the bad lines an
 * unchanged input's first run reported, without failing it, are not reported again.) A team
 * renderer's code is not in the fingerprint: after changing it, rerun with `--force`.
 *
 * What the record is trusted with: it may make a run skip an input, and it may let a run replace,
 * without `--force`, an output of the same input, when that file still has its stamp AND its
 * bytes hash to the SHA-256 the entry says was written (and it is at most
 * {@linkcode MAX_VOUCHED_BYTES}). The record is a file in the folder, so anyone who can write it
 * can write an entry; what the check guarantees is that an entry naming a file this command did
 * not write matches only if its author knew that file's bytes. Whoever cannot read a file (or
 * wrote the record before the file existed) cannot make a run replace it. Whoever can both read
 * the file and write the record can, and the file is then replaced with the command's rendering
 * of the user's own input, never with text of their choosing; a forged entry can also make a run
 * skip an input, leaving its pages as they are. Without a secret kept outside the folder, nothing
 * tells more apart; `--force` replaces every page that differs, whatever the record.
 *
 * The record ends with the folder's state as the run left it ({@linkcode FolderState}), when every
 * entry was current at its end: with it, a rerun tells from stats alone that nothing changed
 * (`_quick_rerun.ts`), and the index is not built again while its pages and file are as they were.
 * A forged state can keep a forged index and make a run skip inputs, as a forged entry can: its
 * author can write the index and the pages themselves, in the same folder; it never makes a run
 * write anything.
 *
 * The record is one hidden file in the folder ({@linkcode MANIFEST_NAME}), written atomically at
 * the end of each run (an interrupted one included), of at most {@linkcode MAX_MANIFEST_BYTES}
 * (this run's inputs are kept first; those left out are said, and read again next time). Each run
 * drops the entries whose input is gone or whose outputs all are, and stops vouching for an
 * output that is gone or changed. A record that is larger, cannot be read, is not one, or was
 * written by an earlier version is not read: the run renders every input, as into a folder
 * without a record (a page that differs is kept unless `--force`), and writes a new one.
 *
 * @module
 */

import {
  fileDigest,
  fileStamp,
  FolderListings,
  inputStampNow,
  outputStamp,
  outputStampNow,
  stampSize,
} from "./_file_stamp.ts";
import {
  EMPTY_RECORD_BYTES,
  entryLine,
  type FolderState,
  MANIFEST_NAME,
  type ManifestEntry,
  MAX_MANIFEST_BYTES,
  mib,
  readRecord,
  recordBody,
  type RecordedOutput,
  recordText,
  recordWithState,
  type Stamps,
  utf8Length,
} from "./_manifest_file.ts";
import type { KnownHead, KnownHeads } from "./_folder_index.ts";
import { sameStamps } from "./_folder_pages.ts";
import { inFolder, writeAtomic } from "./_output.ts";
import { resolvePath } from "./_path.ts";

export { MANIFEST_NAME, MAX_MANIFEST_BYTES };
export type { FolderState };

/** The folder's index as this run built it (or found it current), for the record's state. */
export interface BuiltIndex {
  /** The run's key, the index's options. */
  key: string;
  /** Each page's name and stamp when the index was built (`pagesListing()`). */
  pages: ReadonlyMap<string, string>;
  /** The index file's stamp once written. */
  index: string;
}

/**
 * The largest output the record vouches for: its bytes are read whole to be hashed, and an entry
 * someone else wrote could name any file. Every built-in's page is far smaller.
 */
export const MAX_VOUCHED_BYTES = 64 * 1024 * 1024;

/** How a folder's record is read and kept. */
export interface ManifestOptions {
  /** Where a note goes: a record not read, or too full to hold every input. */
  say: (message: string) => void;
  /**
   * The most bytes of record read or written.
   *
   * @default {MAX_MANIFEST_BYTES}
   */
  maxBytes?: number;
}

/** An output as just written: its name, the SHA-256 of its bytes, the head its summary needs. */
export interface WrittenOutput {
  name: string;
  digest: string;
  /** The shortest head of the page that gives its summary (`recordedHead`), when known. */
  head?: string;
}

/** A folder's record of its inputs, read at the start of a run and saved at its end. */
export class Manifest implements KnownHeads {
  readonly #dir: string;
  readonly #entries: Map<string, ManifestEntry>;
  readonly #existed: boolean;
  readonly #say: (message: string) => void;
  readonly #maxBytes: number;
  /** The folders the run looked into for its inputs' subagents, each listed once. */
  readonly #folders = new FolderListings();
  /** The inputs recorded by this run: they are kept first when the record is full. */
  readonly #recorded = new Set<string>();
  /** The inputs this run looked up: their entries were checked against their files then. */
  readonly #looked = new Set<string>();
  /** The outputs whose stamps this run found as recorded, or took when it wrote them. */
  readonly #current = new Map<string, RecordedOutput>();
  /** Input stamps from stats the run already took (see {@linkcode Manifest.stamped}). */
  readonly #stampedInputs = new Map<string, string | undefined>();
  /** The recorded outputs by name (built when the index first asks). */
  #byName: Map<string, RecordedOutput[]> | undefined;
  #changed = false;
  /** The folder as the record's run left it, as read. */
  readonly #state: FolderState | undefined;
  /** The folder's index as this run built it or found it; undefined: the state is dropped. */
  #built: BuiltIndex | undefined;
  /** The folder the run started in, taken once (every input's path is resolved against it). */
  readonly #cwd = Deno.cwd();

  private constructor(
    dir: string,
    entries: Map<string, ManifestEntry>,
    existed: boolean,
    options: ManifestOptions,
    state?: FolderState,
  ) {
    this.#dir = dir;
    this.#entries = entries;
    this.#state = state;
    this.#existed = existed;
    this.#say = options.say;
    this.#maxBytes = options.maxBytes ?? MAX_MANIFEST_BYTES;
  }

  /**
   * The folder's record; an empty one when there is none or it cannot be read (a record over the
   * bound is not read at all, and that is said).
   */
  static async load(dir: string, options: ManifestOptions): Promise<Manifest> {
    const path = inFolder(dir, MANIFEST_NAME);
    const read = await readRecord(path, options.maxBytes ?? MAX_MANIFEST_BYTES);
    const manifest = new Manifest(dir, read.entries, read.existed, options, read.state);
    if (read.problem !== undefined) {
      options.say(
        `${path} was not read: ${read.problem}; every input is rendered again, and a page that differs from what would be written is kept unless --force`,
      );
      // Rewritten at the end, with this run's inputs: the next run reads it again.
      manifest.#changed = true;
    }
    return manifest;
  }

  /** An input's path as the record keeps it: absolute, against the folder the run started in. */
  #resolve(input: string): string {
    return resolvePath(this.#cwd, input);
  }

  #path(name: string): string {
    return inFolder(this.#dir, name);
  }

  /**
   * Drops, of the entries this run did not look up (the others were checked then, and recorded
   * again or forgotten), what no longer matches a file: an entry whose input is gone, an output
   * gone or changed since written (the entry then no longer vouches for it, and its input is
   * read again), an entry left with no output.
   */
  async #prune(): Promise<void> {
    for (const [input, entry] of this.#entries) {
      if (this.#looked.has(input)) continue;
      const kept = await this.#stillThere(input, entry);
      if (kept === entry) continue;
      if (kept === undefined) this.#entries.delete(input);
      else this.#entries.set(input, kept);
      this.#changed = true;
    }
  }

  async #stillThere(input: string, entry: ManifestEntry): Promise<ManifestEntry | undefined> {
    if (await fileStamp(input) === undefined) return undefined;
    const outputs = [];
    for (const output of entry.outputs) {
      if (await outputStamp(this.#path(output.name)) === output.stamp) outputs.push(output);
    }
    if (outputs.length === 0) return undefined;
    return outputs.length === entry.outputs.length ? entry : { ...entry, input: "", outputs };
  }

  /** An input's stamp ({@linkcode inputStampNow}), its folder listed once for the run. */
  #inputStamp(input: string, info?: Deno.FileInfo): string | undefined {
    return inputStampNow(input, info, this.#folders);
  }

  /**
   * An input's stamp from a stat the run already took (when it looked for folders among its
   * inputs), so that its turn takes none of its own.
   */
  stamped(input: string, info: Deno.FileInfo): void {
    this.#stampedInputs.set(this.#resolve(input), this.#inputStamp(input, info));
  }

  /**
   * An input's stamp: the one {@linkcode Manifest.stamped} was given, else taken now (at once,
   * not by Deno's async stat: a stat takes microseconds, the async call's round trip through
   * Deno's thread pool ten times that in CPU, times every input and page).
   */
  inputStamp(input: string): string | undefined {
    const path = this.#resolve(input);
    const given = this.#stampedInputs.has(path);
    const stamp = given ? this.#stampedInputs.get(path) : this.#inputStamp(input);
    this.#stampedInputs.delete(path);
    return stamp;
  }

  /**
   * The outputs of an input that need not be rendered again: its record's, when the options and
   * the input are as recorded and every output still has its stamp; undefined otherwise.
   *
   * @param input The input's path.
   * @param key The options' fingerprint.
   * @param stamp The input's stamp, when the caller just took it (else it is taken).
   */
  unchanged(input: string, key: string, stamp?: string): string[] | undefined {
    const path = this.#resolve(input);
    this.#looked.add(path);
    const entry = this.#entries.get(path);
    if (entry === undefined || entry.key !== key || entry.outputs.length === 0) return undefined;
    if ((stamp ?? this.#inputStamp(input)) !== entry.input) return undefined;
    const changed = (output: RecordedOutput): boolean =>
      outputStampNow(this.#path(output.name)) !== output.stamp;
    if (entry.outputs.some(changed)) return undefined;
    for (const output of entry.outputs) this.#current.set(output.name, output);
    return entry.outputs.map(({ name }) => name);
  }

  /**
   * Whether the folder's `name` is an output the record says this input wrote and that is still
   * as written: its stamp unchanged and its bytes hashing to the SHA-256 of what was written. The
   * command may replace it without `--force`: a session that grew since its page was written is
   * rendered again so.
   */
  async mayReplace(input: string, name: string): Promise<boolean> {
    const recorded = this.#resolve(input);
    this.#looked.add(recorded);
    const output = this.#entries.get(recorded)?.outputs.find((o) => o.name === name);
    if (output === undefined) return false;
    const path = this.#path(name);
    const size = stampSize(output.stamp);
    if (!(size <= MAX_VOUCHED_BYTES) || await outputStamp(path) !== output.stamp) return false;
    return await fileDigest(path, size) === output.digest;
  }

  /**
   * Records an input that rendered without a failure, with its outputs' stamps as they are now;
   * an input whose fingerprint cannot be taken (a stream) is not recorded. An input that changed
   * while it was read is recorded to be read again ({@linkcode Manifest.readAgain}).
   */
  async record(
    input: string,
    key: string,
    stampBefore: string,
    outputs: readonly WrittenOutput[],
  ): Promise<void> {
    // A live session grows while it is read: its pages are then not of the stamp taken before.
    if (this.#inputStamp(input) !== stampBefore) return await this.readAgain(input, key, outputs);
    const recorded = await this.#stamped(outputs);
    // A page gone since written (deleted during the run): the others stay this command's.
    if (recorded.length < outputs.length) return await this.readAgain(input, key, outputs);
    this.#enter(input, { key, input: stampBefore, outputs: recorded }, recorded);
  }

  /**
   * Records an input to be rendered again by the next run (it failed, or changed while it was
   * read), its outputs still this command's to replace without `--force`: those this run wrote,
   * and those of its entry before that this run did not write again. Forgotten when none is left.
   */
  async readAgain(input: string, key: string, outputs: readonly WrittenOutput[]): Promise<void> {
    const written = await this.#stamped(outputs);
    const names = new Set(written.map(({ name }) => name));
    const before = [];
    for (const output of this.#entries.get(this.#resolve(input))?.outputs ?? []) {
      // Of the former pages, those still as recorded: a page changed since is no longer vouched.
      if (names.has(output.name)) continue;
      if (await outputStamp(this.#path(output.name)) === output.stamp) before.push(output);
    }
    const kept = [...written, ...before];
    if (kept.length === 0) return this.forget(input);
    this.#enter(input, { key, input: "", outputs: kept }, written);
  }

  /** The outputs as recorded, each with its stamp now: those still there. */
  async #stamped(outputs: readonly WrittenOutput[]): Promise<RecordedOutput[]> {
    const recorded: RecordedOutput[] = [];
    for (const { name, digest, head } of outputs) {
      const stamp = await outputStamp(this.#path(name));
      if (stamp === undefined) continue;
      recorded.push(head === undefined ? { name, stamp, digest } : { name, stamp, digest, head });
    }
    return recorded;
  }

  /** Sets an input's entry; `written` are the outputs whose stamps were just taken. */
  #enter(input: string, entry: ManifestEntry, written: readonly RecordedOutput[]): void {
    for (const output of written) this.#current.set(output.name, output);
    const path = this.#resolve(input);
    this.#looked.add(path);
    this.#entries.set(path, entry);
    this.#recorded.add(path);
    this.#changed = true;
  }

  /**
   * The head the record keeps of the folder's page `name`, and the page's size, when the page
   * still has the stamp recorded with it: what the folder's index reads of it, without opening
   * it. A page this run found unchanged or wrote is not looked at again; any other is, once
   * (its stamp). Undefined when the record keeps no head of it, or the page changed since.
   */
  async get(name: string): Promise<KnownHead | undefined> {
    let output = this.#current.get(name);
    if (output === undefined) {
      const stamp = await outputStamp(this.#path(name));
      output = this.#outputsNamed(name).find((o) => o.stamp === stamp);
      if (output === undefined) return undefined;
      // Found by its stamp: the page is the one the record knows, with or without its head.
      this.#current.set(name, output);
    }
    return output.head === undefined
      ? undefined
      : { head: output.head, size: stampSize(output.stamp) };
  }

  /**
   * Keeps the head of a page the record knows by its stamp but keeps no head of (an earlier
   * version wrote the record), read back just now: the next run does not read it.
   */
  learn(name: string, head: string): void {
    const output = this.#current.get(name);
    if (output === undefined || output.head !== undefined) return;
    // The entry's own output: the record saved at the end of the run keeps the head.
    output.head = head;
    this.#changed = true;
  }

  /** Says the folder's `name` was written again (or tried): its head is the record's no longer. */
  wrote(name: string): void {
    this.#current.delete(name);
  }

  /** The recorded outputs named `name` (the map built when the index first asks). */
  #outputsNamed(name: string): RecordedOutput[] {
    if (this.#byName === undefined) {
      this.#byName = new Map();
      for (const { outputs } of this.#entries.values()) {
        for (const output of outputs) {
          const same = this.#byName.get(output.name);
          if (same === undefined) this.#byName.set(output.name, [output]);
          else same.push(output);
        }
      }
    }
    return this.#byName.get(name) ?? [];
  }

  /**
   * The folder as the record's run left it, when the record keeps it (see
   * {@linkcode FolderState}): with it, the index is not built again while its pages and file are
   * as they were.
   */
  get state(): FolderState | undefined {
    return this.#state;
  }

  /**
   * Says how this run left the folder's index: built (or found current) with `built`'s key from
   * its listing of pages, or, undefined, not one a rerun builds (marked against `--previous`, a
   * watch's, or not written). The record saved keeps the folder's state only after the first.
   */
  indexBuilt(built: BuiltIndex | undefined): void {
    this.#built = built;
  }

  /** Forgets an input (it failed, or changed): the next run renders it. */
  forget(input: string): void {
    const path = this.#resolve(input);
    this.#looked.add(path);
    if (this.#entries.delete(path)) this.#changed = true;
  }

  /**
   * Writes the record, without the entries that no longer match a file, when it changed; a run
   * that recorded nothing adds none to a folder.
   */
  async save(): Promise<void> {
    await this.#prune();
    if (!this.#existed && this.#entries.size === 0) return;
    const candidate = this.#built === undefined ? undefined : this.#stateOf(this.#built);
    // The state takes room only when every entry fits beside it: else the entries have it all.
    let kept = this.#linesWithinBound(candidate === undefined ? 0 : stateBytes(candidate), false);
    // Asked again without the state's room, the entries may fit whole, the heads filling the
    // room the state would have taken: whether the state fits is the first answer's.
    const stateFits = candidate !== undefined && kept.whole;
    if (!kept.whole) kept = this.#linesWithinBound(0, true);
    const body = recordBody(kept.lines);
    const state = !stateFits ? undefined : { ...candidate, bytes: utf8Length(body) };
    if (!this.#changed && sameState(state, this.#state)) return;
    const text = state === undefined ? recordText(kept.lines) : recordWithState(body, state);
    await writeAtomic(this.#path(MANIFEST_NAME), text, { force: true });
  }

  /**
   * The folder's state, for a rerun to tell from stats alone that nothing changed: kept only when
   * every entry vouches for its input and has its outputs in the listing the index was built from
   * with the stamps it records, no two entries naming one output. An entry of another key than
   * the run's is kept as no stamp: a rerun that names its input goes the whole way.
   */
  #stateOf(built: BuiltIndex): FolderState | undefined {
    const named = new Set<string>();
    const inputs: Record<string, string> = {};
    let outputs = 0;
    for (const [path, entry] of this.#entries) {
      if (entry.input === "") return undefined;
      for (const { name, stamp } of entry.outputs) {
        if (named.has(name) || built.pages.get(name) !== stamp) return undefined;
        named.add(name);
      }
      // An input of another key (a project's, found in a folder): no stamp a rerun finds, so only
      // the index is told current by the state, never the input.
      inputs[path] = entry.key === built.key
        ? entry.input
        : JSON.stringify([entry.key, entry.input]);
      outputs += entry.outputs.length;
    }
    const pages = Object.fromEntries(built.pages);
    return { key: built.key, inputs, pages, index: built.index, outputs, bytes: 0 };
  }

  /**
   * The entries' lines in input order, as many as the bound holds: this run's first. Those left
   * out are read again next time; that is said.
   */
  #linesWithinBound(reserved: number, say: boolean): { lines: string[]; whole: boolean } {
    const order = [
      ...this.#recorded,
      ...[...this.#entries.keys()].filter((input) => !this.#recorded.has(input)),
    ];
    const kept: [string, string][] = [];
    let bytes = EMPTY_RECORD_BYTES + reserved;
    for (const input of order) {
      const line = entryLine(input, this.#entries.get(input)!, false);
      const size = utf8Length(line) + 2;
      if (bytes + size > this.#maxBytes) continue;
      bytes += size;
      kept.push([input, line]);
    }
    // The pages' heads fill the room the entries leave: a page without one is read back.
    for (const pair of kept) {
      const entry = this.#entries.get(pair[0])!;
      if (!entry.outputs.some((o) => o.head !== undefined)) continue;
      const line = entryLine(pair[0], entry);
      const more = utf8Length(line) - utf8Length(pair[1]);
      if (bytes + more > this.#maxBytes) continue;
      bytes += more;
      pair[1] = line;
    }
    const left = order.length - kept.length;
    if (left > 0 && say) {
      this.#say(
        `${this.#path(MANIFEST_NAME)} is full (${
          mib(this.#maxBytes)
        }): ${left} of ${order.length} inputs are not in it, and are read again next time`,
      );
    }
    const lines = kept.sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0).map(([, line]) => line);
    return { lines, whole: left === 0 };
  }
}

/** The most bytes the state's line adds to a record (its room is kept in the record's bound). */
function stateBytes(state: FolderState): number {
  return utf8Length(recordWithState("", { ...state, bytes: Number.MAX_SAFE_INTEGER }));
}

/** A record's stamps as a map (those whose value is a stamp). */
function stampMap(stamps: Stamps): Map<string, string> {
  const map = new Map<string, string>();
  for (const [name, stamp] of Object.entries(stamps)) {
    if (typeof stamp === "string") map.set(name, stamp);
  }
  return map;
}

/** Whether two states are the same (both none included). */
function sameState(a: FolderState | undefined, b: FolderState | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  return a.key === b.key && a.index === b.index && a.outputs === b.outputs &&
    a.bytes === b.bytes && sameStamps(a.inputs, stampMap(b.inputs)) &&
    sameStamps(a.pages, stampMap(b.pages));
}
