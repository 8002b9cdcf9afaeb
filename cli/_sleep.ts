// Copyright 2026 the brigade authors. MIT license.

/**
 * Waits `ms` milliseconds, or less when the signal is aborted (at once when it already is); never
 * rejects, so a loop that polls ends by checking its signal, not by catching.
 *
 * @param ms How long to wait.
 * @param signal Ends the wait early.
 */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((done) => {
    if (signal.aborted) return done();
    const stop = (): void => {
      clearTimeout(timer);
      done();
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", stop);
      done();
    }, ms);
    signal.addEventListener("abort", stop, { once: true });
  });
}
