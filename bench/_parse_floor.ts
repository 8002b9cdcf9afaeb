// Copyright 2026 the brigade authors. MIT license.

/**
 * The parse floor of the benchmarks: a log read as a stream, split on `\n`
 * and every line `JSON.parse`d. A module of its own, with no import, so that
 * a measuring child (`bench/_cost_child.ts`) loads nothing else with it.
 *
 * @module
 */

/**
 * The floor: reads the file a chunk at a time as `fromNdjson` does (its
 * `ReadableStream`, a streaming `TextDecoder`, a split on `\n`) and
 * `JSON.parse`s every non-blank line, with no entry checks and no generator
 * per line.
 *
 * @param path The NDJSON file.
 * @returns How many lines were parsed.
 */
export async function parseEveryLine(path: string): Promise<number> {
  const file = await Deno.open(path, { read: true });
  const reader = file.readable.getReader();
  const decoder = new TextDecoder();
  let rest = "";
  let parsed = 0;
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (done) break;
      const text = rest + decoder.decode(value, { stream: true });
      let start = 0;
      for (let end = text.indexOf("\n"); end !== -1; end = text.indexOf("\n", start)) {
        if (end > start) {
          JSON.parse(text.slice(start, end));
          parsed++;
        }
        start = end + 1;
      }
      rest = text.slice(start);
    }
    rest += decoder.decode();
    if (rest.trim() !== "") {
      JSON.parse(rest);
      parsed++;
    }
  } finally {
    await reader.cancel().catch(() => {});
    reader.releaseLock();
  }
  return parsed;
}
