// Copyright 2026 the brigade authors. MIT license.

/**
 * Ctrl-C and `kill` during a batch: the first SIGINT or SIGTERM aborts a
 * signal the run passes to its sources (the session in flight is finished or
 * dropped whole, never half written) and the run ends with 130 or 143; a
 * second one exits at once.
 *
 * @module
 */

const EXIT_CODES: Partial<Record<Deno.Signal, number>> = { SIGINT: 130, SIGTERM: 143 };

/** The signals a run stops on, while it is listening. */
export class Interrupt implements Disposable {
  readonly #controller = new AbortController();
  readonly #listeners: Array<[Deno.Signal, () => void]> = [];
  #code: number | undefined;

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
    if (this.#code !== undefined) Deno.exit(this.#code);
    this.#code = EXIT_CODES[signal] ?? 130;
    this.#controller.abort(new DOMException(`Interrupted by ${signal}`, "AbortError"));
  }

  /** Stops listening. */
  [Symbol.dispose](): void {
    for (const [signal, listener] of this.#listeners) Deno.removeSignalListener(signal, listener);
    this.#listeners.length = 0;
  }
}
