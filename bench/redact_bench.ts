// Copyright 2026 the brigade authors. MIT license.

// `deno bench bench/redact_bench.ts`: redact() over one typical event text
// (about 2 KB) with no trigger word, with trigger words but no secret, and
// with secrets; JSON.parse of the same text as one NDJSON line, for scale;
// and 64 KB and 1 MB inputs built to make a pattern backtrack or rescan
// (`bench/redact_compare.ts` prints their medians and the 1 MB / 64 KB ratio).

import { redact } from "@brigade/transcript/redact";
import { ADVERSARIAL, fill } from "./redact_compare.ts";

const KB = 1024;
const MB = KB * KB;

// What an agent's tool result or reply often looks like: prose, a path, code.
const PROSE = `I read the module and the failing test. The reader keeps one page of
entries in memory and yields each event as soon as its line is parsed, so the
peak stays flat however long the log is. The failure comes from the renderer:
it joins the head and the tail before it checks the cap, which doubles the
buffer for a moment. Here is the change I propose in renderers/dream.ts:

\`\`\`ts
export function render(events: Iterable<Event>, cap = 24 * 1024): string {
  const head: string[] = [];
  let used = 0;
  for (const event of events) {
    const text = format(event);
    if (used + text.length > cap / 2) break;
    head.push(text);
    used += text.length;
  }
  return head.join("\\n");
}
\`\`\`

Running the suite again: 48 passed, 0 failed (1.2s). The benchmark shows the
same throughput as before, within noise. Next I will look at the index rows,
where a dot inside the first user message could be read as a column.
`;

const PLAIN_2KB = fill(PROSE + "\n", 2 * KB);

const TRIGGERS_2KB = fill(
  PROSE.replace(
    "The failure",
    "The usage block says max_tokens: 4096 and input_tokens: 12. The failure",
  )
    .replace("Next I", "The token: it expires, and passwords are hashed. Next I") + "\n",
  2 * KB,
);

const SECRETS_2KB = fill(
  "export OPENAI_API_KEY=sk-proj-4fJx9_Qe-L2mZpR8tWc3YvHs_kN7bD1eG5aT0uIo\n" +
    'curl -H "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.e30.dBjftJeZ4CVP" \\\n' +
    '  -d \'{"password": "hunter2", "id": "AKIAIOSFODNN7EXAMPLE"}\'\n' +
    PROSE,
  2 * KB,
);

const LINE_2KB = JSON.stringify({
  type: "agent.message",
  content: [{ type: "text", text: TRIGGERS_2KB }],
});

let sink = 0;

Deno.bench({
  name: "redact 2 KB, no trigger word",
  group: "2 KB event text",
  fn(): void {
    sink += redact(PLAIN_2KB).length;
  },
});

Deno.bench({
  name: "redact 2 KB, trigger words, no secret",
  group: "2 KB event text",
  baseline: true,
  fn(): void {
    sink += redact(TRIGGERS_2KB).length;
  },
});

Deno.bench({
  name: "redact 2 KB with 4 secrets",
  group: "2 KB event text",
  fn(): void {
    sink += redact(SECRETS_2KB).length;
  },
});

Deno.bench({
  name: "JSON.parse of the same 2 KB as an NDJSON line (for scale)",
  group: "2 KB event text",
  fn(): void {
    sink += (JSON.parse(LINE_2KB) as { type: string }).type.length;
  },
});

for (const [label, size] of [["64 KB", 64 * KB], ["1 MB", MB]] as const) {
  for (const [name, build] of Object.entries(ADVERSARIAL)) {
    const text = build(size);
    Deno.bench({
      name: `redact ${label}: ${name}`,
      group: `${label} adversarial`,
      n: size === MB ? 20 : 100,
      fn(): void {
        sink += redact(text).length;
      },
    });
  }
}

globalThis.addEventListener("unload", () => {
  if (sink < 0) throw new Error("Cannot happen: the sink only grows");
});
