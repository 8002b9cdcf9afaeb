// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// The options of fromManagedAgents() checked, with their defaults applied,
// before any request: every refusal is a ManagedAgentsError with code
// `invalid_option` that names the option and its value (never the key's).

import { checkBaseUrl } from "./_base_url.ts";
import type { ClientContext, ManagedAgentsClient } from "./_client.ts";
import { MANAGED_AGENTS_DEFAULTS } from "./_defaults.ts";
import { ManagedAgentsError } from "./_error.ts";
import type { HttpContext } from "./_http.ts";
import type { ManagedAgentsOptions, ManagedAgentsStopAt } from "./_options.ts";
import { isDotSegment } from "./_pages.ts";
import { keyScrubber } from "./_scrub.ts";
import { eventsTarget } from "./_targets.ts";
import type { Scope } from "../../events/types.ts";

/** The options with every default applied and every value checked. */
export interface Resolved {
  sessionId: string;
  scope: Scope;
  follow: boolean;
  stopAt: ManagedAgentsStopAt;
  settleTries: number;
  settleDelayMs: number;
  pageSize: number;
  signal: AbortSignal | undefined;
  /** The built-in client, or the caller's. */
  via: { http: HttpContext } | { client: ClientContext };
}

/**
 * An error in the options, thrown before any request. Its source is the
 * session's events path once the session id is known to be valid.
 */
function optionError(reason: string, sessionId?: string): ManagedAgentsError {
  const source = sessionId === undefined ? "fromManagedAgents" : eventsTarget(sessionId).source;
  return new ManagedAgentsError(reason, { code: "invalid_option", source });
}

/** The options checked, with their defaults; throws the first refusal. */
export function resolve(options: ManagedAgentsOptions): Resolved {
  const { sessionId } = options;
  if (typeof sessionId !== "string" || sessionId === "") {
    const value = JSON.stringify(sessionId) ?? String(sessionId);
    throw optionError(
      `Cannot list a session as "sessionId" must be a non-empty string: current value is ${value}`,
    );
  }
  const cannot = (why: string): never => {
    throw optionError(`Cannot list session "${sessionId}" as ${why}`, sessionId);
  };
  const scope = options.scope ?? MANAGED_AGENTS_DEFAULTS.scope;
  if (scope !== "session" && scope !== "all") {
    cannot(`"scope" must be "session" or "all": current value is ${JSON.stringify(scope)}`);
  }
  if (isDotSegment(sessionId)) {
    // Encoding cannot help: a URL reads `%2E` as `.` too.
    cannot(`"sessionId" must not be "." or "..", which a URL reads as a step of the path`);
  }
  const pageSize = integerOption(options, "pageSize", 1, cannot);
  const follow = options.follow ?? MANAGED_AGENTS_DEFAULTS.follow;
  if (typeof follow !== "boolean") {
    cannot(`"follow" must be a boolean: current value is ${JSON.stringify(follow)}`);
  }
  const stopAt = options.stopAt ?? MANAGED_AGENTS_DEFAULTS.stopAt;
  if (stopAt !== "idle" && stopAt !== "terminated") {
    const shown = JSON.stringify(stopAt) ?? String(stopAt);
    cannot(`"stopAt" must be "idle" or "terminated": current value is ${shown}`);
  }
  if (options.stopAt !== undefined && !follow) {
    cannot(`"stopAt" ends a follow: it needs "follow: true"`);
  }
  const settleTries = integerOption(options, "settleTries", 0, cannot);
  const settleDelayMs = delayOption(options, "settleDelayMs", cannot);
  const common = { sessionId, scope, follow, stopAt, settleTries, settleDelayMs, pageSize };
  if (options.client !== undefined) {
    return {
      ...common,
      signal: options.signal,
      via: { client: { client: clientOf(options, follow, cannot), signal: options.signal } },
    };
  }
  // Before the key: a URL the key may not go to is refused for itself, before the user is
  // told to set or allow reading a key.
  const baseUrl = baseUrlOf(options.baseUrl ?? MANAGED_AGENTS_DEFAULTS.baseUrl, cannot);
  const apiKey = apiKeyOf(options.apiKey ?? envApiKey(cannot), cannot);
  return {
    ...common,
    signal: options.signal,
    via: {
      http: {
        apiKey,
        apiVersion: apiVersionOf(options.apiVersion, cannot),
        scrub: keyScrubber(apiKey),
        baseUrl,
        fetch: options.fetch ?? globalThis.fetch,
        signal: options.signal,
        maxRetries: integerOption(options, "maxRetries", 0, cannot),
        retryBaseDelayMs: delayOption(options, "retryBaseDelayMs", cannot),
        timeoutMs: integerOption(options, "timeoutMs", 1, cannot),
        maxPageBytes: integerOption(options, "maxPageBytes", 1, cannot),
      },
    },
  };
}

/** The options that configure the built-in client, which a caller's client configures itself. */
const BUILT_IN_CLIENT_OPTIONS = [
  "apiKey",
  "baseUrl",
  "apiVersion",
  "fetch",
  "maxRetries",
  "retryBaseDelayMs",
  "timeoutMs",
  "maxPageBytes",
] as const;

/** The caller's client, once its shape and the options around it are checked. */
function clientOf(
  options: ManagedAgentsOptions,
  follow: boolean,
  cannot: Cannot,
): ManagedAgentsClient {
  const given = BUILT_IN_CLIENT_OPTIONS.filter((name) => options[name] !== undefined);
  if (given.length > 0) {
    cannot(
      `"client" comes with ${given.map((name) => `"${name}"`).join(", ")}, which configure ` +
        "the built-in client: configure the client you pass instead",
    );
  }
  const client = options.client as unknown as Record<string, unknown> | null;
  const fn = (path: string): boolean => {
    let value: unknown = client;
    for (const step of path.split(".")) {
      value = typeof value === "object" && value !== null
        ? (value as Record<string, unknown>)[step]
        : undefined;
    }
    return typeof value === "function";
  };
  const needed = ["events.list", "threads.list", "threads.events.list"];
  if (follow) needed.push("events.stream");
  if (follow && options.scope === "all") needed.push("threads.events.stream");
  const missing = needed.filter((path) => !fn(path));
  if (missing.length > 0) {
    cannot(
      `"client" is not a sessions client (the SDK's client.beta.sessions): it has no ` +
        missing.map((path) => `${path}()`).join(", "),
    );
  }
  return options.client!;
}

/** Throws the option error that says why the session cannot be listed. */
type Cannot = (why: string) => never;

/** The whole-number options; each has its default in {@linkcode MANAGED_AGENTS_DEFAULTS}. */
type IntegerOption = "pageSize" | "maxRetries" | "timeoutMs" | "maxPageBytes" | "settleTries";

function integerOption(
  options: ManagedAgentsOptions,
  name: IntegerOption,
  min: number,
  cannot: Cannot,
): number {
  const value = options[name];
  if (value === undefined) return MANAGED_AGENTS_DEFAULTS[name];
  if (!Number.isSafeInteger(value) || value < min) {
    cannot(`"${name}" must be an integer >= ${min}: current value is ${value}`);
  }
  return value;
}

/** The waits in milliseconds; each has its default in {@linkcode MANAGED_AGENTS_DEFAULTS}. */
type DelayOption = "retryBaseDelayMs" | "settleDelayMs";

function delayOption(options: ManagedAgentsOptions, name: DelayOption, cannot: Cannot): number {
  const value = options[name];
  if (value === undefined) return MANAGED_AGENTS_DEFAULTS[name];
  if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
    cannot(`"${name}" must be a finite number >= 0: current value is ${value}`);
  }
  return value;
}

function baseUrlOf(value: string, cannot: Cannot): string {
  const checked = checkBaseUrl(value, '"baseUrl"');
  return checked.problem === undefined ? checked.url : cannot(checked.problem);
}

function apiVersionOf(value: string | undefined, cannot: Cannot): string {
  if (value === undefined) return MANAGED_AGENTS_DEFAULTS.apiVersion;
  if (typeof value !== "string" || value === "" || !isHeaderValue(value)) {
    const shown = JSON.stringify(value) ?? String(value);
    cannot(`"apiVersion" must be a non-empty header value: current value is ${shown}`);
  }
  return value;
}

const KEY_VARIABLE = "ANTHROPIC_API_KEY";

/** The part of the `Deno` namespace this module uses: its environment. */
interface DenoEnv {
  readonly env: { get(key: string): string | undefined };
}

/**
 * `globalThis.Deno`, absent in browsers; typed locally so that this module type-checks
 * without Deno's types.
 */
function denoGlobal(): DenoEnv | undefined {
  return (globalThis as { Deno?: DenoEnv }).Deno;
}

function apiKeyOf(key: string | undefined, cannot: Cannot): string {
  if (key === undefined || key === "") {
    // Without Deno the variable cannot be read, so setting it would not help.
    const how = denoGlobal() === undefined ? "" : ` or set ${KEY_VARIABLE}`;
    cannot(`there is no API key: pass "apiKey"${how}`);
  }
  // Checked here so that `Headers` never throws an error about the key itself.
  if (typeof key !== "string" || !isHeaderValue(key)) {
    cannot("the API key is not a valid header value");
  }
  return key;
}

/** Reads the key from the environment; `globalThis.Deno` is absent in browsers. */
function envApiKey(cannot: Cannot): string | undefined {
  try {
    return denoGlobal()?.env.get(KEY_VARIABLE);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return cannot(
      `${KEY_VARIABLE} cannot be read: ${reason}; ` +
        `pass "apiKey" or allow reading it (--allow-env=${KEY_VARIABLE})`,
    );
  }
}

/** Printable Latin-1 without line breaks or edge spaces: what `Headers` keeps as is. */
function isHeaderValue(value: string): boolean {
  return /^[\t\x20-\x7e\x80-\xff]*$/.test(value) && value.trim() === value;
}
