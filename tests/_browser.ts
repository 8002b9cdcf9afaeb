// Copyright 2026 the brigade authors. MIT license.

// A small driver for a headless Chromium through the DevTools protocol (CDP),
// over Deno's own WebSocket: launch, open a page, evaluate in it, watch its
// network requests, take a screenshot, shut down with nothing left running.
// One WebSocket to the browser endpoint carries every page's session
// (`Target.attachToTarget` with `flatten: true`).

/** Where Chromium is looked for, in order, after `$CHROMIUM_PATH`. */
const CANDIDATES = [
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome",
  "/usr/bin/google-chrome-stable",
];

/** How long any one step (launch, command, page load) may take. */
const STEP_TIMEOUT_MS = 30_000;

/** The path of a Chromium executable, or `undefined` when none is installed. */
export async function findChromium(): Promise<string | undefined> {
  const named = Deno.env.get("CHROMIUM_PATH");
  for (const path of named ? [named] : CANDIDATES) {
    const info = await Deno.stat(path).catch(() => undefined);
    if (info?.isFile) return path;
  }
  return undefined;
}

/** One network request a page made, as the DevTools protocol reported it. */
export interface PageRequest {
  url: string;
  /** `Network.loadingFailed`'s `blockedReason` (`"csp"` when the page's policy stopped it). */
  blockedReason?: string;
  /** `Network.loadingFailed`'s `errorText`. */
  failed?: string;
}

interface Pending {
  resolve(result: Record<string, unknown>): void;
  reject(error: Error): void;
  timer: ReturnType<typeof setTimeout>;
  method: string;
}

type Listener = (params: Record<string, unknown>, sessionId: string | undefined) => void;

/** How {@linkcode Browser.open} opens a page. */
export interface OpenOptions {
  /** The viewport's width in CSS pixels (default 1000). */
  width?: number;
  /** The viewport's height in CSS pixels (default 800). */
  height?: number;
  /** Whether the page's own scripts may run (default true). */
  scripts?: boolean;
}

/** A running headless Chromium. */
export class Browser {
  #child: Deno.ChildProcess;
  #socket: WebSocket;
  #profile: string;
  #stderrDrained: Promise<void>;
  #closed: Promise<void>;
  #nextId = 1;
  #pending = new Map<number, Pending>();
  #listeners = new Set<{ method: string; listener: Listener }>();

  private constructor(
    child: Deno.ChildProcess,
    socket: WebSocket,
    profile: string,
    stderrDrained: Promise<void>,
  ) {
    this.#child = child;
    this.#socket = socket;
    this.#profile = profile;
    this.#stderrDrained = stderrDrained;
    this.#closed = new Promise((resolve) => socket.addEventListener("close", () => resolve()));
    socket.addEventListener("message", (event) => this.#receive(String(event.data)));
    socket.addEventListener("close", () => this.#failAll("the DevTools connection closed"));
  }

  /**
   * Starts Chromium headless with a fresh profile and connects to it. As root
   * it needs `--no-sandbox`; the other flags keep the browser itself from
   * making any request of its own.
   */
  static async launch(path: string): Promise<Browser> {
    const profile = await Deno.makeTempDir({ prefix: "transcript_chromium_" });
    const child = new Deno.Command(path, {
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--no-first-run",
        "--no-default-browser-check",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-extensions",
        "--disable-dev-shm-usage",
        "--hide-scrollbars",
        "--mute-audio",
        `--user-data-dir=${profile}`,
        "--remote-debugging-address=127.0.0.1",
        "--remote-debugging-port=0",
        "about:blank",
      ],
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).spawn();
    const lines = child.stderr.pipeThrough(new TextDecoderStream()).pipeThrough(lineSplitter());
    const reader = lines.getReader();
    let endpoint: string | undefined;
    try {
      endpoint = await withTimeout(devToolsEndpoint(reader), "Chromium's DevTools endpoint");
    } catch (error) {
      reader.releaseLock();
      child.kill("SIGKILL");
      await Promise.all([lines.cancel().catch(() => {}), child.status]);
      await Deno.remove(profile, { recursive: true }).catch(() => {});
      throw error;
    }
    // Chromium keeps logging; the pipe is drained so it never blocks on a full buffer.
    const drained = (async () => {
      while (!(await reader.read()).done) { /* discard */ }
    })();
    const socket = new WebSocket(endpoint);
    await withTimeout(
      new Promise<void>((resolve, reject) => {
        socket.addEventListener("open", () => resolve(), { once: true });
        socket.addEventListener(
          "error",
          () => reject(new Error("Cannot open the DevTools socket")),
          {
            once: true,
          },
        );
      }),
      "the DevTools socket",
    );
    return new Browser(child, socket, profile, drained);
  }

  /**
   * Sends one DevTools command and waits for its answer.
   *
   * @param method The command, e.g. `Runtime.evaluate`.
   * @param params Its parameters.
   * @param sessionId The page session it is for; the browser's own when absent.
   */
  send(
    method: string,
    params: Record<string, unknown> = {},
    sessionId?: string,
  ): Promise<Record<string, unknown>> {
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(new Error(`DevTools command ${method} timed out after ${STEP_TIMEOUT_MS} ms`));
      }, STEP_TIMEOUT_MS);
      this.#pending.set(id, { resolve, reject, timer, method });
      this.#socket.send(
        JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }),
      );
    });
  }

  /** Calls `listener` for every event named `method`; returns the unsubscribe function. */
  on(method: string, listener: Listener): () => void {
    const entry = { method, listener };
    this.#listeners.add(entry);
    return () => {
      this.#listeners.delete(entry);
    };
  }

  /**
   * Opens a new tab on `url` and waits for its load event.
   *
   * @param url A `file:` or loopback URL.
   * @param options The viewport, in CSS pixels; `scripts: false` opens it
   * as a reader who turned JavaScript off (the protocol's evaluation still works).
   */
  async open(url: string, options: OpenOptions = {}): Promise<Page> {
    const { targetId } = await this.send("Target.createTarget", { url: "about:blank" });
    const { sessionId } = await this.send("Target.attachToTarget", { targetId, flatten: true });
    const page = new Page(this, String(targetId), String(sessionId));
    await page.start(url, options);
    return page;
  }

  /** Closes the browser and waits until its process, socket and pipe are gone. */
  async close(): Promise<void> {
    try {
      await this.send("Browser.close");
    } catch {
      this.#child.kill("SIGKILL");
    }
    // A browser that does not go is killed, bounded in time like every step.
    const timer = setTimeout(() => {
      try {
        this.#child.kill("SIGKILL");
      } catch { /* already gone */ }
    }, STEP_TIMEOUT_MS);
    await this.#child.status;
    clearTimeout(timer);
    if (this.#socket.readyState !== WebSocket.CLOSED) this.#socket.close();
    await Promise.all([this.#closed, this.#stderrDrained]);
    this.#failAll("the browser closed");
    await Deno.remove(this.#profile, { recursive: true }).catch(() => {});
  }

  #receive(data: string): void {
    const message = JSON.parse(data) as {
      id?: number;
      method?: string;
      params?: Record<string, unknown>;
      result?: Record<string, unknown>;
      error?: { message: string };
      sessionId?: string;
    };
    if (message.id !== undefined) {
      const pending = this.#pending.get(message.id);
      if (pending === undefined) return;
      this.#pending.delete(message.id);
      clearTimeout(pending.timer);
      if (message.error) {
        pending.reject(new Error(`DevTools ${pending.method} failed: ${message.error.message}`));
      } else pending.resolve(message.result ?? {});
      return;
    }
    for (const { method, listener } of [...this.#listeners]) {
      if (method === message.method) listener(message.params ?? {}, message.sessionId);
    }
  }

  #failAll(reason: string): void {
    for (const [id, pending] of this.#pending) {
      clearTimeout(pending.timer);
      pending.reject(new Error(`DevTools ${pending.method} got no answer: ${reason}`));
      this.#pending.delete(id);
    }
  }
}

/** A tab of the browser, with the requests it made since it was opened. */
export class Page {
  #browser: Browser;
  #targetId: string;
  #sessionId: string;
  #requests = new Map<string, PageRequest>();
  #unsubscribe: Array<() => void> = [];

  /** @internal Made by {@linkcode Browser.open}. */
  constructor(browser: Browser, targetId: string, sessionId: string) {
    this.#browser = browser;
    this.#targetId = targetId;
    this.#sessionId = sessionId;
  }

  /** Every request the page made, the document's own included. */
  get requests(): PageRequest[] {
    return [...this.#requests.values()];
  }

  /** @internal Enables the domains, then navigates to `url` and waits for its load event. */
  async start(url: string, options: OpenOptions): Promise<void> {
    const mine = (listener: Listener): Listener => (params, sessionId) => {
      if (sessionId === this.#sessionId) listener(params, sessionId);
    };
    this.#unsubscribe.push(
      this.#browser.on(
        "Network.requestWillBeSent",
        mine((params) => {
          const request = params.request as { url: string };
          this.#requests.set(String(params.requestId), { url: request.url });
        }),
      ),
      this.#browser.on(
        "Network.loadingFailed",
        mine((params) => {
          const request = this.#requests.get(String(params.requestId));
          if (request === undefined) return;
          if (typeof params.blockedReason === "string") {
            request.blockedReason = params.blockedReason;
          }
          request.failed = String(params.errorText ?? "");
        }),
      ),
    );
    for (const domain of ["Page", "Network", "Runtime"]) {
      await this.send(`${domain}.enable`);
    }
    if (options.scripts === false) {
      await this.send("Emulation.setScriptExecutionDisabled", { value: true });
    }
    await this.send("Emulation.setDeviceMetricsOverride", {
      width: options.width ?? 1000,
      height: options.height ?? 800,
      deviceScaleFactor: 1,
      mobile: false,
    });
    let stopWaiting = (): void => {};
    const loaded = new Promise<void>((resolve) => {
      stopWaiting = this.#browser.on("Page.loadEventFired", mine(() => resolve()));
    });
    try {
      const navigated = await this.send("Page.navigate", { url });
      if (typeof navigated.errorText === "string" && navigated.errorText !== "") {
        throw new Error(`Cannot open ${url}: ${navigated.errorText}`);
      }
      await withTimeout(loaded, `the load of ${url}`);
    } finally {
      stopWaiting();
    }
  }

  /** Sends a DevTools command to this page. */
  send(method: string, params: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    return this.#browser.send(method, params, this.#sessionId);
  }

  /**
   * Evaluates an expression in the page and returns its value (JSON-able
   * values only). A promise is awaited. A thrown exception is an error.
   */
  async evaluate<T>(expression: string): Promise<T> {
    const answer = await this.send("Runtime.evaluate", {
      expression,
      returnByValue: true,
      awaitPromise: true,
    });
    const thrown = answer.exceptionDetails as
      | { text?: string; exception?: { description?: string } }
      | undefined;
    if (thrown) {
      throw new Error(
        `The page threw: ${thrown.exception?.description ?? thrown.text ?? "an exception"}`,
      );
    }
    return (answer.result as { value: T }).value;
  }

  /** A PNG of the whole page (beyond the viewport when it is longer). */
  async screenshot(): Promise<Uint8Array> {
    const { data } = await this.send("Page.captureScreenshot", {
      format: "png",
      captureBeyondViewport: false,
    });
    return Uint8Array.from(atob(String(data)), (char) => char.charCodeAt(0));
  }

  /** Closes the tab. */
  async close(): Promise<void> {
    for (const unsubscribe of this.#unsubscribe) unsubscribe();
    await this.#browser.send("Target.closeTarget", { targetId: this.#targetId });
  }
}

/**
 * Requests that left the page: every request but the document's own, except
 * those the page's Content-Security-Policy blocked (they never left) and
 * `data:` URLs (Chromium's own placeholder images for a blocked frame: they
 * are decoded in place, nothing is fetched).
 */
export function requestsThatLeft(page: Page, documentUrl: string): PageRequest[] {
  return page.requests.filter((request) =>
    request.url !== documentUrl && request.blockedReason !== "csp" &&
    !request.url.startsWith("data:")
  );
}

/** Runs `body` with a browser, closed afterwards whatever happens. */
export async function withBrowser<T>(
  path: string,
  body: (browser: Browser) => Promise<T>,
): Promise<T> {
  const browser = await Browser.launch(path);
  try {
    return await body(browser);
  } finally {
    await browser.close();
  }
}

async function devToolsEndpoint(reader: ReadableStreamDefaultReader<string>): Promise<string> {
  const seen: string[] = [];
  while (true) {
    const { value, done } = await reader.read();
    if (done) {
      throw new Error(
        `Chromium exited before its DevTools endpoint was printed: ${seen.slice(-5).join(" | ")}`,
      );
    }
    const match = value.match(/DevTools listening on (ws:\/\/\S+)/);
    if (match) return match[1]!;
    seen.push(value);
  }
}

function lineSplitter(): TransformStream<string, string> {
  let rest = "";
  return new TransformStream({
    transform(chunk, controller): void {
      const lines = (rest + chunk).split("\n");
      rest = lines.pop()!;
      for (const line of lines) controller.enqueue(line);
    },
    flush(controller): void {
      if (rest !== "") controller.enqueue(rest);
    },
  });
}

async function withTimeout<T>(promise: Promise<T>, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`Timed out after ${STEP_TIMEOUT_MS} ms waiting for ${what}`)),
      STEP_TIMEOUT_MS,
    );
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
