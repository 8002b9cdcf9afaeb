// Copyright 2026 the brigade authors. MIT license.

/** What `_bounded_render.ts` reports of a rendering. */
export interface BoundedRun {
  /** The process's exit code. */
  code: number;
  /** Its standard error (the heap-limit report when it ran out). */
  stderr: string;
  /** Its report, when it finished. */
  report?: {
    streamedMiB: number;
    outputBytes: number;
    head: string;
    /** The first 200 characters after a front matter (the whole head when there is none). */
    bodyHead: string;
    tail: string;
    leaked: boolean;
    /** `grader-chunks`: the chunks, the largest, the items and whether their numbers ran on. */
    chunks?: number;
    maxChunkBytes?: number;
    items?: number;
    continuous?: boolean;
  };
}

/**
 * Renders a hostile log of `mib` MiB, generated as a stream, with a renderer
 * in a subprocess whose V8 heap is limited to `heapMib` MiB; the huge
 * scenario's messages are of `messageMib` MiB.
 */
export async function renderBounded(
  scenario: "held" | "threads" | "huge" | "turns",
  renderer: string,
  mib: number,
  heapMib: number,
  messageMib = 4,
): Promise<BoundedRun> {
  const script = new URL("./_bounded_render.ts", import.meta.url);
  const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-read",
      `--v8-flags=--max-old-space-size=${heapMib}`,
      script.pathname,
      scenario,
      renderer,
      String(mib),
      String(messageMib),
    ],
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
  const out = new TextDecoder().decode(stdout).trim();
  const run: BoundedRun = { code, stderr: new TextDecoder().decode(stderr).slice(-2_000) };
  if (code === 0) run.report = JSON.parse(out);
  return run;
}
