// Copyright 2026 the brigade authors. MIT license.

/**
 * The built-in renderers as the `render` command finds them: by name, each imported when it is
 * the one named, so that a grader run loads neither the dream, the json nor the html renderer
 * (the html one's folder index alone costs a start-up more than the grader does). The same
 * renderers, in the same order, as `createRegistry()` of `renderers/builtin.ts` registers.
 *
 * @module
 */

import type { Renderer } from "../renderers/registry.ts";

/** The built-in renderers' names, in the order `createRegistry()` lists them. */
export const BUILTIN_NAMES = ["grader", "dream", "index", "json", "html"] as const;

/** A built-in renderer's name. */
export type BuiltinName = typeof BUILTIN_NAMES[number];

/**
 * What the command knows of a built-in renderer without importing it: what a rerun that finds
 * nothing changed needs (the folder's record is keyed by it), and no more. The same as each
 * renderer's own fields (a test holds them equal).
 */
export interface BuiltinFacts {
  /** The renderer's `extension`, when it has one. */
  extension?: string;
  /** The renderer's `optionNames`. */
  optionNames: readonly string[];
  /** Its folder's index (`folder.indexName`), when it has one. */
  indexName?: string;
  /** Whether it takes every input as one batch (`batch`). */
  batch: boolean;
}

/** Each built-in renderer's {@linkcode BuiltinFacts}. */
export const BUILTIN_FACTS: Readonly<Record<BuiltinName, BuiltinFacts>> = {
  grader: {
    optionNames: [
      "itemBudget",
      "transcriptBudget",
      "keep",
      "ids",
      "thread",
      "threads",
      "outcome",
      "envelope",
      "chunks",
    ],
    batch: false,
  },
  dream: {
    extension: ".md",
    optionNames: ["cap", "previous", "previousName"],
    indexName: "INDEX.md",
    batch: false,
  },
  index: { extension: ".md", optionNames: ["cap", "previous", "previousName"], batch: true },
  json: {
    extension: ".ndjson",
    optionNames: ["view", "itemBudget", "transcriptBudget", "redact"],
    batch: false,
  },
  html: {
    extension: ".html",
    optionNames: ["itemBudget", "transcriptBudget", "redact", "thinking"],
    indexName: "index.html",
    batch: false,
  },
};

const LOADERS: Record<BuiltinName, () => Promise<Renderer>> = {
  grader: async () => (await import("../renderers/grader/grader.ts")).graderRenderer as Renderer,
  dream: async () => (await import("../renderers/dream/dream.ts")).dreamRenderer as Renderer,
  index: async () => (await import("../renderers/dream/dream_index.ts")).indexRenderer as Renderer,
  json: async () => (await import("../renderers/json/json.ts")).jsonRenderer as Renderer,
  html: async () => (await import("../renderers/html/lazy.ts")).htmlRenderer as Renderer,
};

/** Whether `name` is a built-in renderer's. */
export function isBuiltin(name: string): name is BuiltinName {
  return (BUILTIN_NAMES as readonly string[]).includes(name);
}

/** The built-in renderer named `name`, its module imported on the first call. */
export async function loadBuiltin(name: BuiltinName): Promise<Renderer> {
  return await LOADERS[name]();
}

/** Every built-in renderer, in the order of {@linkcode BUILTIN_NAMES} (for `--help`). */
export async function loadBuiltins(): Promise<Renderer[]> {
  return await Promise.all(BUILTIN_NAMES.map((name) => loadBuiltin(name)));
}
