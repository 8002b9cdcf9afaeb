// Copyright 2026 the brigade authors. MIT license.

// Imported as JSON, not read from disk: it works from a checkout, an install and JSR alike.
import config from "../deno.json" with { type: "json" };

/** The package's version, from `deno.json`. */
export const VERSION: string = config.version;

/** What `--version` prints: the package and its version. */
export const VERSION_LINE: string = `${config.name} ${config.version}`;
