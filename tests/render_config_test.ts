// Copyright 2026 the brigade authors. MIT license.

/**
 * `deno task render` and a project's configured renderers, as a user runs it from the project's
 * folder: the modules are code from that folder, imported only when a renderer they define is
 * named.
 */

import assert from "node:assert/strict";
import { inTempDir, task } from "./_cli.ts";

/** A module that leaves a file behind the moment it is imported. */
const HOSTILE = `
Deno.writeTextFileSync(new URL("./IMPORTED", import.meta.url), "ran on import\\n");
export const renderers = [{ name: "evil", description: "Runs on import", render: async () => "evil\\n" }];
`;

async function exists(path: string): Promise<boolean> {
  return await Deno.stat(path).then(() => true, () => false);
}

Deno.test("render: a deno.json's modules are never imported for --help or a built-in", async (t) => {
  for (
    const [form, renderers] of [
      ["a list of modules", ["./hostile.ts"]],
      ["renderers by name", { evil: "./hostile.ts" }],
    ] as const
  ) {
    await t.step(form, async () => {
      await inTempDir(async (dir) => {
        await Deno.writeTextFile(`${dir}/hostile.ts`, HOSTILE);
        await Deno.writeTextFile(`${dir}/deno.json`, JSON.stringify({ transcript: { renderers } }));
        const marker = `${dir}/IMPORTED`;

        const help = await task("render", ["--help"], { cwd: dir });
        assert.equal(help.code, 0, help.stderr);
        assert.match(help.stdout, /hostile\.ts\n/);
        assert.equal(await exists(marker), false, "--help imported the module");

        const grader = await task("render", ["--renderer", "grader"], { cwd: dir });
        assert.equal(grader.code, 0, grader.stderr);
        assert.match(grader.stdout, /^\[user\]\n/);
        assert.equal(await exists(marker), false, "--renderer grader imported the module");

        const skipped = await task("render", ["--no-config", "--renderer", "evil"], { cwd: dir });
        assert.equal(skipped.code, 2);
        assert.match(skipped.stderr, /Unknown renderer "evil"/);
        assert.equal(await exists(marker), false, "--no-config imported the module");

        // Named, it is imported: the marker shows the test would have seen an import. (Into a
        // file: a team's module rendering to standard output may not write at all.)
        const out = `${dir}/out.txt`;
        const named = await task("render", ["--renderer", "evil", "--out", out], { cwd: dir });
        assert.equal(named.code, 0, named.stderr);
        assert.equal(await Deno.readTextFile(out), "evil\n");
        assert.equal(await exists(marker), true);
      });
    });
  }
});

Deno.test("render: a renderer declared by name imports its own module only", async () => {
  await inTempDir(async (dir) => {
    await Deno.writeTextFile(`${dir}/hostile.ts`, HOSTILE);
    await Deno.writeTextFile(
      `${dir}/plain.ts`,
      `export const renderers = [{ name: "plain", description: "Plain", render: async () => "plain\\n" }];\n`,
    );
    await Deno.writeTextFile(
      `${dir}/deno.json`,
      JSON.stringify({ transcript: { renderers: { evil: "./hostile.ts", plain: "./plain.ts" } } }),
    );
    const help = await task("render", ["--help"], { cwd: dir });
    assert.match(
      help.stdout,
      new RegExp(`\\n  evil {7}${dir}/hostile\\.ts\\n  plain {6}${dir}/plain\\.ts\\n`),
    );
    const plain = await task("render", ["--renderer", "plain"], { cwd: dir });
    assert.equal(plain.code, 0, plain.stderr);
    assert.equal(plain.stdout, "plain\n");
    assert.equal(await exists(`${dir}/IMPORTED`), false);
    // A name the module does not define is reported, not guessed.
    await Deno.writeTextFile(
      `${dir}/deno.json`,
      JSON.stringify({ transcript: { renderers: { other: "./plain.ts" } } }),
    );
    const other = await task("render", ["--renderer", "other"], { cwd: dir });
    assert.equal(other.code, 2);
    assert.match(
      other.stderr,
      /^render: Cannot load renderer "other" from .*plain\.ts \(named in .*deno\.json\): the module exports no renderer of that name\n/,
    );
  });
});

Deno.test("render: a mistyped renderer name imports no team module and says the name meant", async () => {
  await inTempDir(async (dir) => {
    // Printing shows an import whatever the run may write.
    await Deno.writeTextFile(
      `${dir}/loud.ts`,
      `console.error("LOUD IMPORTED");
export const renderers = [{ name: "team-md", description: "Loud", render: async () => "loud\\n" }];
`,
    );
    for (
      const [renderers, typed, meant] of [
        [["./loud.ts"], "gradr", "grader"],
        [["./loud.ts"], "JSON", "json"],
        [["./loud.ts"], "drema", "dream"],
        [{ "team-md": "./loud.ts" }, "team-mdd", "team-md"],
      ] as const
    ) {
      await Deno.writeTextFile(`${dir}/deno.json`, JSON.stringify({ transcript: { renderers } }));
      const typo = await task("render", ["--renderer", typed], { cwd: dir });
      assert.equal(typo.code, 2, typo.stderr);
      assert.match(
        typo.stderr,
        new RegExp(
          `^render: Unknown renderer "${typed}": known renderers are grader, .* \\(did you mean "${meant}"\\?\\)\\n`,
        ),
      );
      assert.doesNotMatch(typo.stderr, /LOUD IMPORTED/, `${typed} imported the module`);
    }
    // A name that is no near miss is looked for in the list of modules: the import shows.
    await Deno.writeTextFile(
      `${dir}/deno.json`,
      JSON.stringify({ transcript: { renderers: ["./loud.ts"] } }),
    );
    const named = await task("render", ["--renderer", "team-md"], { cwd: dir });
    assert.equal(named.code, 0, named.stderr);
    assert.equal(named.stdout, "loud\n");
    assert.match(named.stderr, /LOUD IMPORTED/);
  });
});
