// Copyright 2026 the brigade authors. MIT license.

/**
 * One run at a time writes into a folder: its index and record are the folder's whole.
 *
 * @module
 */

/** What {@linkcode lockFolder} needs besides the folder. */
export interface LockFolderOptions {
  /** Aborted: the wait ends, without the lock. */
  signal: AbortSignal;
  /** Says that the run waits for another. */
  say: (message: string) => void;
}

/** False after about a millisecond, by a timer of Deno's web timers, not `setTimeout`'s. */
function aMoment(): Promise<false> {
  return new Promise((resolve) => {
    AbortSignal.timeout(1).addEventListener("abort", () => resolve(false), { once: true });
  });
}

/** How long a run waits for the lock before it says so. */
const QUIET_WAIT_MS = 200;

/**
 * Takes the folder's lock (an exclusive `flock` of the folder itself, which the system
 * releases when the process ends, however it ends), saying so when another run holds it;
 * null where a folder cannot be locked (the run goes on as before) or when the signal was
 * aborted first.
 */
export async function lockFolder(
  dir: string,
  options: LockFolderOptions,
): Promise<Disposable | null> {
  const { signal, say } = options;
  let folder: Deno.FsFile;
  try {
    folder = await Deno.open(dir, { read: true });
  } catch {
    return null;
  }
  const locked = folder.lock(true).then(() => true, () => false);
  // A free folder's lock comes within a millisecond: then no `setTimeout`, whose first call
  // loads some twenty of Deno's Node modules (its timers), the cost of a rerun's stats.
  if (await Promise.race([locked, aMoment()])) return { [Symbol.dispose]: () => folder.close() };
  const waited = setTimeout(
    () => say(`waiting for another render into ${dir} to finish`),
    QUIET_WAIT_MS,
  );
  const stopped = new Promise<false>((resolve) => {
    if (signal.aborted) resolve(false);
    signal.addEventListener("abort", () => resolve(false), { once: true });
  });
  const got = await Promise.race([locked, stopped]);
  clearTimeout(waited);
  if (!got) {
    // A lock call still waiting keeps its file: the process's exit releases both.
    if (!signal.aborted) folder.close();
    return null;
  }
  return { [Symbol.dispose]: () => folder.close() };
}
