// Copyright 2026 the brigade authors. MIT license.

/**
 * `render --session` may reach the Managed Agents API and nothing else: `deno task render` allows
 * api.anthropic.com only, since configured renderer modules run in the same process as the key.
 * A gateway (`ANTHROPIC_BASE_URL` on another host) needs its host allowed by the one who runs
 * the command; before any request, the command checks that it is, and if not prints the exact
 * command that allows it. A base URL the source would refuse (`http:` on a host that is not
 * loopback, a password in it) is refused first, for itself: allowing its host would not help.
 *
 * @module
 */

import { fileURLToPath } from "node:url";
import { VERSION } from "./_version.ts";
import { MANAGED_AGENTS_DEFAULTS } from "../sources/managed_agents/from_managed_agents.ts";
import { checkBaseUrl } from "../sources/managed_agents/_base_url.ts";

/** The permissions `render --session` needs besides the network. */
const OTHER_PERMISSIONS = [
  "--allow-read",
  "--allow-write",
  "--allow-env=ANTHROPIC_API_KEY,ANTHROPIC_BASE_URL",
];

/**
 * The host (and port, when not the scheme's default) the API requests go to, or undefined when
 * the base URL does not parse (the API client says so).
 */
export function apiHost(baseUrl: string | undefined): string | undefined {
  try {
    // Without ANTHROPIC_BASE_URL, the source's own default.
    return new URL(baseUrl || MANAGED_AGENTS_DEFAULTS.baseUrl).host;
  } catch {
    return undefined;
  }
}

/**
 * How to run this module again with the network allowed to `host`, the same arguments and
 * everything else `render --session` needs: from JSR, the package's entry point; from files,
 * the script with its `deno.json` (whose lockfile, beside it, Deno then uses too).
 */
export function rerunCommand(
  host: string,
  args: readonly string[],
  moduleUrl: string = import.meta.url,
): string {
  const permissions = [`--allow-net=${host}`, ...OTHER_PERMISSIONS];
  const url = new URL(moduleUrl);
  let target: string[];
  if (url.protocol === "file:") {
    const config = fileURLToPath(new URL("../deno.json", url));
    target = ["--config", config, ...permissions, fileURLToPath(new URL("render.ts", url))];
  } else {
    target = [...permissions, `jsr:@brigade/transcript@${VERSION}/render`];
  }
  return ["deno", "run", ...target, ...args].map(shellQuote).join(" ");
}

/** The variables `render --session` reads. */
const VARIABLES = ["ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL"] as const;

/**
 * What stops `render --session` from reaching the API, with the command to run instead, or
 * undefined when nothing does. It asks without prompting and sends nothing: the environment it
 * needs must be readable, `ANTHROPIC_BASE_URL` (when set) a URL the source sends the key to, and
 * its host (else api.anthropic.com) reachable.
 */
export async function apiAccessProblem(args: readonly string[]): Promise<string | undefined> {
  for (const variable of VARIABLES) {
    if ((await Deno.permissions.query({ name: "env", variable })).state !== "granted") {
      return `Cannot read ${variable}: this command may not read it. Run, with your gateway's ` +
        `host if ANTHROPIC_BASE_URL names one:\n  ${rerunCommand(apiHost(undefined)!, args)}`;
    }
  }
  const baseUrl = Deno.env.get("ANTHROPIC_BASE_URL");
  // Before the network: a URL the source refuses must not be answered with a host to allow.
  const checked = baseUrl ? checkBaseUrl(baseUrl, "ANTHROPIC_BASE_URL") : undefined;
  if (checked?.problem !== undefined) {
    return `Cannot read a session from the Managed Agents API as ${checked.problem}`;
  }
  const host = apiHost(baseUrl);
  if (host === undefined) return undefined;
  if ((await Deno.permissions.query({ name: "net", host })).state === "granted") return undefined;
  return `Cannot reach ${host}: this command may not connect to it (ANTHROPIC_BASE_URL names it). ` +
    `Allow that host alone by running:\n  ${rerunCommand(host, args)}`;
}

/** Quotes an argument for a POSIX shell, only when it needs it. */
export function shellQuote(arg: string): string {
  if (/^[A-Za-z0-9_\-.,:/=@%+]+$/.test(arg)) return arg;
  return `'${arg.replaceAll("'", `'\\''`)}'`;
}
