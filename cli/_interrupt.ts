// Copyright 2026 the brigade authors. MIT license.

/**
 * Ctrl-C and `kill` during a batch: the first SIGINT or SIGTERM aborts a
 * signal the run passes to its sources (the session in flight is finished or
 * dropped whole, never half written) and the run ends with 130 or 143; a
 * second one, at least {@linkcode REPEAT_AFTER_MS} later, exits at once.
 *
 * Under `deno task`, one Ctrl-C can arrive twice within milliseconds: the
 * terminal signals the whole process group and `deno task` forwards what it
 * gets (sometimes twice) to the command. A second signal that close to the
 * first is the same Ctrl-C, not a user insisting, and is ignored.
 *
 * @module
 */

const EXIT_CODES: Partial<Record<Deno.Signal, number>> = { SIGINT: 130, SIGTERM: 143 };

/** How long after the first signal a second one counts as a new one (and exits at once). */
export const REPEAT_AFTER_MS = 500;

/** The signals a run stops on, while it is listening. */
export class Interrupt implements Disposable {
  readonly #controller = new AbortController();
  readonly #listeners: Array<[Deno.Signal, () => void]> = [];
  #code: number | undefined;
  #firstAt = 0;

  /** Starts listening for SIGINT (and SIGTERM where the platform has it). */
  constructor() {
    const signals: Deno.Signal[] = Deno.build.os === "windows" ? ["SIGINT"] : ["SIGINT", "SIGTERM"];
    for (const signal of signals) {
      const listener = (): void => this.#receive(signal);
      Deno.addSignalListener(signal, listener);
      this.#listeners.push([signal, listener]);
    }
  }

  /** Aborted on the first signal. */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** The exit code the signal received asks for (130, 143); undefined when none came. */
  get exitCode(): number | undefined {
    return this.#code;
  }

  #receive(signal: Deno.Signal): void {
    if (this.#code !== undefined) {
      if (performance.now() - this.#firstAt < REPEAT_AFTER_MS) return;
      Deno.exit(this.#code);
    }
    this.#firstAt = performance.now();
    this.#code = EXIT_CODES[signal] ?? 130;
    this.#controller.abort(new DOMException(`Interrupted by ${signal}`, "AbortError"));
  }

  /** Stops listening. */
  [Symbol.dispose](): void {
    for (const [signal, listener] of this.#listeners) Deno.removeSignalListener(signal, listener);
    this.#listeners.length = 0;
  }
}
