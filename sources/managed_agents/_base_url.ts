// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// Which base URLs the key may be sent to. The library checks `baseUrl` with it
// when `fromManagedAgents` is called, and `render --session` checks
// ANTHROPIC_BASE_URL with it before its own network check, so that a user is
// never told to allow a host the source would then refuse.

/**
 * Checks a base URL: it must be `https:`, or `http:` on a loopback host only
 * (the key would cross any other network in clear text), hold no user name or
 * password, and not be on a port the fetch standard blocks. `name` says what
 * holds it in the reason (`"baseUrl"`, `ANTHROPIC_BASE_URL`).
 *
 * @returns The URL requests are built on (a path kept, a trailing `/` not),
 * or the reason it is refused, starting with `name`.
 */
export function checkBaseUrl(
  value: string,
  name: string,
): { url: string; problem?: undefined } | { problem: string } {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    return { problem: `${name} is not a URL: current value is "${value}"` };
  }
  if (url.username !== "" || url.password !== "") {
    // The value is not quoted: it holds a password. Checked first, so no reason below quotes it.
    return { problem: `${name} must not hold a user name or password` };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    return { problem: `${name} must be an http or https URL: current value is "${value}"` };
  }
  if (url.protocol === "http:" && !isLoopback(url.hostname)) {
    return {
      problem: `${name} is http: on a host that is not loopback, so the API key would cross ` +
        `the network in clear text; use https:, or http: only on localhost, 127.0.0.0/8 or ` +
        `[::1]: current value is "${value}"`,
    };
  }
  const port = url.port === "" ? undefined : Number(url.port);
  if (port !== undefined && BLOCKED_PORTS.has(port)) {
    return {
      problem: `${name} is on port ${port}, which the fetch standard blocks (a "bad port"), so ` +
        `no request could reach it: current value is "${value}"`,
    };
  }
  return { url: `${url.origin}${url.pathname.replace(/\/+$/, "")}` };
}

/**
 * The ports the fetch standard blocks ("bad ports"): `fetch` refuses them
 * before connecting, so trying again could never help.
 */
const BLOCKED_PORTS: ReadonlySet<number> = new Set([
  0,
  1,
  7,
  9,
  11,
  13,
  15,
  17,
  19,
  20,
  21,
  22,
  23,
  25,
  37,
  42,
  43,
  53,
  69,
  77,
  79,
  87,
  95,
  101,
  102,
  103,
  104,
  109,
  110,
  111,
  113,
  115,
  117,
  119,
  123,
  135,
  137,
  139,
  143,
  161,
  179,
  389,
  427,
  465,
  512,
  513,
  514,
  515,
  526,
  530,
  531,
  532,
  540,
  548,
  554,
  556,
  563,
  587,
  601,
  636,
  989,
  990,
  993,
  995,
  1719,
  1720,
  1723,
  2049,
  3659,
  4045,
  4190,
  5060,
  5061,
  6000,
  6566,
  6665,
  6666,
  6667,
  6668,
  6669,
  6679,
  6697,
  10080,
]);

/** Whether a URL's host is this machine: `localhost`, `127.0.0.0/8` or `[::1]`. */
function isLoopback(hostname: string): boolean {
  // The URL parser has already made any IPv4 form (`0x7f.1`, `2130706433`) dotted decimal.
  return hostname === "localhost" || hostname === "[::1]" ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}
