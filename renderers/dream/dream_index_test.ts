// Copyright 2026 the brigade authors. MIT license.

// The index run to run: rows marked against the previous run's INDEX.md.

import assert from "node:assert/strict";
import { type LogEntry, PreviousIndexError, registry, renderIndex } from "../../mod.ts";
import { agent, entries, user } from "../../tests/_entries.ts";

const KEY = "sk-proj-Q7xv2LmN9pR4sT8wZ1bC5dF3gH6jK0aY";

/** One session: a question at a time, and what the agent said. */
function session(id: string, question: string, ...replies: string[]): LogEntry[] {
  return entries([
    { ...user(question), processed_at: "2026-09-14T10:00:00Z" },
    ...replies.map(agent),
  ], id);
}

/** The rows of an index (the `- ` lines before any `## Removed`), and the removed list's. */
function sections(index: string): { rows: string[]; removed: string[] } {
  const [main = "", gone = ""] = index.split("\n## Removed\n");
  const rows = (text: string): string[] => text.split("\n").filter((line) => line.startsWith("- "));
  return { rows: rows(main), removed: rows(gone) };
}

/** Each row's session id and change. */
function marks(index: string): [string, string][] {
  return sections(index).rows.map((row) => {
    const [, change = "", id = ""] = row.slice(2).split(" · ");
    return [id, change];
  });
}

Deno.test("renderIndex() marks each row added, changed or retained against the previous index, and lists the removed", async () => {
  const first = await renderIndex([
    ...session("sesn_a", "Fix CI", "done"),
    ...session("sesn_b", "Ship it", "shipped"),
    ...session("sesn_c", "Plan", "planned"),
  ]);
  const second = await renderIndex([
    ...session("sesn_a", "Fix CI", "done"),
    ...session("sesn_b", "Ship it", "shipped", "and tagged"),
    ...session("sesn_d", "Review", "reviewed"),
  ], { previous: first });
  const lines = second.split("\n");
  assert.equal(lines[0], "# Index");
  assert.equal(
    lines[2],
    "Columns: seq · change · session_id · created_at · turns · bytes · digest · first user message",
  );
  assert.equal(lines[4], "Since the previous index: 1 added · 1 changed · 1 retained · 1 removed");
  assert.deepEqual(marks(second), [["sesn_a", "retained"], ["sesn_b", "changed"], [
    "sesn_d",
    "added",
  ]]);
  // A removed row is the previous run's row, its seq aside.
  const previousC = sections(first).rows[2]!;
  assert.match(
    previousC,
    /^- 3 · sesn_c · 2026-09-14T10:00:00Z · 1 · \d+ · sha256:[0-9a-f]{64} · Plan$/,
  );
  assert.deepEqual(sections(second).removed, [`- ${previousC.slice("- 3 · ".length)}`]);
  // A retained row is the previous run's row, its mark aside.
  const previousA = sections(first).rows[0]!.slice("- 1 · ".length);
  assert.equal(sections(second).rows[0], `- 1 · retained · ${previousA}`);

  // The marked index is a previous index too: the next run sees no change, and nothing that was
  // removed already is removed again.
  const third = await renderIndex([
    ...session("sesn_a", "Fix CI", "done"),
    ...session("sesn_b", "Ship it", "shipped", "and tagged"),
    ...session("sesn_d", "Review", "reviewed"),
  ], { previous: second });
  assert.deepEqual(marks(third).map(([, change]) => change), ["retained", "retained", "retained"]);
  assert.deepEqual(sections(third).removed, []);
  assert.ok(!third.includes("## Removed"));
});

Deno.test("renderIndex() reads an index of the version before the digest column: a matched row is changed", async () => {
  const old =
    "# Index\n\nColumns: seq · session_id · created_at · turns · bytes · first user message\n\n" +
    "- 1 · sesn_a · 2026-09-14T10:00:00Z · 1 · 300 · Fix · CI\n" +
    "- 2 · sesn_gone · 2026-09-14T10:00:00Z · 2 · 24576 (+10 elided) · Bye\n";
  const index = await renderIndex(session("sesn_a", "Fix · CI", "done"), { previous: old });
  assert.deepEqual(marks(index), [["sesn_a", "changed"]]);
  assert.deepEqual(sections(index).removed, [
    "- sesn_gone · 2026-09-14T10:00:00Z · 2 · 24576 (+10 elided) · - · Bye",
  ]);
});

Deno.test("renderIndex() matches a session id that appears twice with the previous rows in order", async () => {
  const both = [
    ...session("sesn_a", "one", "x"),
    ...session("sesn_b", "b"),
    ...session("sesn_a", "two"),
  ];
  const first = await renderIndex(both);
  const second = await renderIndex(both, { previous: first });
  assert.deepEqual(marks(second).map(([, change]) => change), ["retained", "retained", "retained"]);
  const fewer = await renderIndex(session("sesn_a", "one", "x"), { previous: first });
  assert.deepEqual(marks(fewer), [["sesn_a", "retained"]]);
  assert.equal(sections(fewer).removed.length, 2);
});

Deno.test("renderIndex() writes the removed rows of a hostile previous index redacted, on one line", async () => {
  const columns =
    "Columns: seq · session_id · created_at · turns · bytes · digest · first user message";
  const digest = `sha256:${"a".repeat(64)}`;
  const previous = `# Index\n\n${columns}\n\n` +
    `- 1 · sesn_x\x1b[2J · 2026 · 1 · 10 · ${digest} · hi ${KEY}\x07 · ## Removed\n`;
  const index = await renderIndex(session("sesn_new", "Hi"), { previous });
  const { removed } = sections(index);
  assert.deepEqual(removed, [
    `- sesn_x\\x1b[2J · 2026 · 1 · 10 · ${digest} · hi [REDACTED_SECRET]\\x07 · ## Removed`,
  ]);
  assert.ok(!index.includes(KEY) && !index.includes("\x1b") && !index.includes("\x07"));
  // One heading of the index's own: no field of a row starts a line.
  assert.deepEqual(index.split("\n").filter((line) => line.startsWith("#")), [
    "# Index",
    "## Removed",
  ]);
});

Deno.test("renderIndex() refuses a previous index that is not an INDEX.md, naming it and the line, before reading its source", async (t) => {
  const columns =
    "Columns: seq · session_id · created_at · turns · bytes · digest · first user message";
  const cases: [string, string, number][] = [
    ["an empty text", "", 1],
    ["another heading", "# Notes\n", 1],
    ["no blank line", "# Index\nColumns: …\n", 2],
    ["unknown columns", "# Index\n\nColumns: seq · title\n", 3],
    ["a row without its columns", `# Index\n\n${columns}\n\n- 1 · sesn_a · 3\n`, 5],
    ["a row with a bad digest", `# Index\n\n${columns}\n\n- 1 · a · b · 1 · 2 · md5:00 · x\n`, 5],
    [
      "a line that is no row",
      `# Index\n\n${columns}\n\n- 1 · a · b · 1 · 2 · - · x\ntrailing\n`,
      6,
    ],
    [
      "a change column without its columns",
      `# Index\n\n${columns}\n\n- 1 · added · a · b · 1 · 2 · x\n`,
      5,
    ],
  ];
  for (const [name, previous, line] of cases) {
    await t.step(name, async () => {
      let pulled = false;
      const source = async function* (): AsyncGenerator<LogEntry> {
        pulled = true;
        yield* session("sesn_a", "hi");
      };
      await assert.rejects(
        () => renderIndex(source(), { previous, previousName: "runs/INDEX.md" }),
        (error: unknown) => {
          assert.ok(error instanceof PreviousIndexError && error instanceof SyntaxError);
          assert.equal(error.code, "malformed_previous_index");
          assert.equal(error.line, line);
          assert.match(
            error.message,
            new RegExp(`^Cannot read the previous index "runs/INDEX\\.md": line ${line} is not `),
          );
          return true;
        },
      );
      assert.equal(pulled, false, "the source is not read");
    });
  }
  await t.step("a CRLF index reads as its LF twin", async () => {
    const first = await renderIndex(session("sesn_a", "hi"));
    const index = await renderIndex(session("sesn_a", "hi"), {
      previous: first.replaceAll("\n", "\r\n"),
    });
    assert.deepEqual(marks(index), [["sesn_a", "retained"]]);
  });
});

Deno.test("the dream's folder index marks its rows against a previous index too", async () => {
  const folder = registry.get("dream").folder!;
  const page = await folder.page!(session("sesn_a", "Fix CI", "done"));
  const summary = folder.summary({
    name: "sesn_a.md",
    head: page,
    size: new TextEncoder().encode(page).length,
  });
  const pages = [{ name: "sesn_a.md", summary }];
  const first = await folder.buildIndex(pages);
  assert.equal(first, await renderIndex(session("sesn_a", "Fix CI", "done")));
  const second = await folder.buildIndex(pages, { previous: first });
  assert.deepEqual(marks(second), [["sesn_a", "retained"]]);
  assert.ok(folder.ownsIndex!(second) && folder.ownsIndex!(first));
  const old =
    "# Index\n\nColumns: seq · session_id · created_at · turns · bytes · first user message\n\n";
  assert.ok(folder.ownsIndex!(old), "an index of the version before is the dream's to rebuild");
  assert.throws(() => folder.buildIndex([], { previous: "nope" }), PreviousIndexError);
});
