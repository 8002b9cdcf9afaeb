// Copyright 2026 the brigade authors. MIT license.

// A stand-in for JSR on 127.0.0.1: the registry protocol Deno speaks to `JSR_URL`
// (`/@scope/name/meta.json`, `/@scope/name/VERSION_meta.json` with the manifest of every file's
// size and sha256 checksum and the normalised `exports`, then each file at
// `/@scope/name/VERSION/PATH`), serving this package's published file set, as `deno publish`
// would upload it, beside any package a test makes.

import { relative } from "node:path";
import { fileURLToPath } from "node:url";
import { ROOT, run } from "./_command.ts";
import config from "../deno.json" with { type: "json" };

/** One version of a package the stand-in serves. */
export interface JsrPackage {
  /** `@scope/name`. */
  name: string;
  /** Its version. */
  version: string;
  /** Its entry points, `"."` or `"./sub"` to a path from the package's root (`"./mod.ts"`). */
  exports: Record<string, string>;
  /** Its files by path from the package's root, without the leading `/`. */
  files: Map<string, Uint8Array>;
}

/** A running stand-in. */
export interface JsrStandIn {
  /** What `JSR_URL` is set to: `http://127.0.0.1:PORT/`. */
  url: string;
  /** `127.0.0.1:PORT`, for `--allow-import`. */
  host: string;
  /** The paths asked for, in order. */
  requests: string[];
  /** Stops the server. */
  shutdown(): Promise<void>;
}

/** The files `deno publish` would upload, relative to the repository, as its dry run lists them. */
export async function publishedFiles(): Promise<string[]> {
  const result = await run("deno", ["publish", "--dry-run", "--allow-dirty"], { cwd: ROOT });
  if (result.code !== 0) throw new Error(`deno publish --dry-run failed:\n${result.stderr}`);
  const urls = `${result.stdout}\n${result.stderr}`.match(/^\s+file:\/\/\S+/gm) ?? [];
  return urls.map((url) => relative(ROOT, fileURLToPath(url.trim())));
}

/** As `deno publish` does, the package's own mapped imports written out in full. */
function unfurl(text: string): string {
  return text.replace(
    /((?:from|import)\s*\(?\s*)"([^"./][^"]*)"/g,
    (whole: string, lead: string, name: string): string => {
      const value = (config.imports as Record<string, string>)[name];
      return value !== undefined && /^(npm|jsr):/.test(value) ? `${lead}"${value}"` : whole;
    },
  );
}

/** This package, `config.name` at `config.version`, as `deno publish` would upload it. */
export async function thisPackage(): Promise<JsrPackage> {
  const files = new Map<string, Uint8Array>();
  for (const path of await publishedFiles()) {
    const bytes = await Deno.readFile(new URL(path, `file://${ROOT}`));
    files.set(
      path,
      /\.[cm]?[jt]sx?$/.test(path)
        ? new TextEncoder().encode(unfurl(new TextDecoder().decode(bytes)))
        : bytes,
    );
  }
  return { name: config.name, version: config.version, exports: config.exports, files };
}

async function sha256(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

async function versionMeta(pkg: JsrPackage): Promise<unknown> {
  const manifest: Record<string, { size: number; checksum: string }> = {};
  for (const [path, bytes] of pkg.files) {
    manifest[`/${path}`] = { size: bytes.length, checksum: `sha256-${await sha256(bytes)}` };
  }
  return { manifest, exports: pkg.exports };
}

function contentType(path: string): string {
  if (/\.[cm]?tsx?$/.test(path)) return "application/typescript";
  if (/\.[cm]?jsx?$/.test(path)) return "application/javascript";
  if (path.endsWith(".json")) return "application/json";
  return "application/octet-stream";
}

/**
 * Starts the stand-in on 127.0.0.1, on a free port, serving `packages`, and beside them `plain`
 * modules by path (`/remote.ts`), as any web server would.
 */
export function startJsrStandIn(
  packages: JsrPackage[],
  plain: Record<string, string> = {},
): JsrStandIn {
  const requests: string[] = [];
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen(): void {} },
    async (request): Promise<Response> => {
      const path = decodeURIComponent(new URL(request.url).pathname);
      requests.push(path);
      const text = plain[path];
      if (text !== undefined) {
        return new Response(text, { headers: { "content-type": contentType(path) } });
      }
      const match = /^\/(@[^/]+\/[^/]+)\/(.+)$/.exec(path);
      const versions = packages.filter((p) => p.name === match?.[1]);
      if (match === null || versions.length === 0) return new Response(null, { status: 404 });
      const rest = match[2]!;
      if (rest === "meta.json") {
        const [scope, name] = match[1]!.slice(1).split("/");
        return Response.json({
          scope,
          name,
          latest: versions.at(-1)!.version,
          versions: Object.fromEntries(versions.map((p) => [p.version, {}])),
        });
      }
      const meta = /^([^/]+)_meta\.json$/.exec(rest);
      if (meta !== null) {
        const pkg = versions.find((p) => p.version === meta[1]);
        return pkg === undefined
          ? new Response(null, { status: 404 })
          : Response.json(await versionMeta(pkg));
      }
      const slash = rest.indexOf("/");
      const pkg = versions.find((p) => p.version === rest.slice(0, slash));
      const file = pkg?.files.get(rest.slice(slash + 1));
      if (slash < 0 || file === undefined) return new Response(null, { status: 404 });
      return new Response(file as Uint8Array<ArrayBuffer>, {
        headers: { "content-type": contentType(rest) },
      });
    },
  );
  const host = `127.0.0.1:${server.addr.port}`;
  return { url: `http://${host}/`, host, requests, shutdown: () => server.shutdown() };
}

/** A package of text files, encoded. */
export function textPackage(
  name: string,
  version: string,
  exports: Record<string, string>,
  files: Record<string, string>,
): JsrPackage {
  const encoded = new Map(
    Object.entries(files).map(([path, text]) => [path, new TextEncoder().encode(text)]),
  );
  return { name, version, exports, files: encoded };
}
