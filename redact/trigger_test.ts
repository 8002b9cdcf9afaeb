// Copyright 2026 the brigade authors. MIT license.

import { redact } from "@brigade/transcript/redact";
import assert from "node:assert/strict";
import fc from "fast-check";
import { AWS_KEY_ID, JWT, NUM_RUNS, PROJECT_KEY, R } from "../tests/_redact_cases.ts";

// `redact()` scans a text once for the first place where any shape could
// start, and reads every shape only from a little before it: these check that
// every shape is found after that scan wherever it sits, before or after any
// other, and that a long stretch of text with no shape in it changes nothing.

/** A secret of each shape, as written and as redacted. */
const SHAPES: [text: string, redacted: string][] = [
  [PROJECT_KEY, R],
  [AWS_KEY_ID, R],
  ["ghp_16C7e42F292c6912E7710c838347Ae178B4a", R],
  ["github_pat_11ABCDEFG0123456789abcdef", R],
  ["xoxb-1234567890-abcdef", R],
  ["sk_live_4eC39HqLyjWDarjtT1zdp7dc", R],
  ["AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY", R],
  ["glpat-AbCdEfGhIjKlMnOp1234", R],
  [JWT, R],
  ["Bearer eyJhbGciOi.e30.sig1", `Bearer ${R}`],
  ["Authorization: Basic dXNlcjpwYXNzd29yZA==", `Authorization: Basic ${R}`],
  ["postgres://app:s3cr3t@db:5432/app", `postgres://app:${R}@db:5432/app`],
  [
    "https://e3b0c44298fc1c149afbf4c8996fb924@o1.ingest.sentry.io/2",
    `https://${R}@o1.ingest.sentry.io/2`,
  ],
  ["API_KEY=A0b1c2d3e4", `API_KEY=${R}`],
  ["api-key: A0b1c2d3e4", `api-key: ${R}`],
  ["apiKey=A0b1c2d3e4", `apiKey=${R}`],
  ["TOKEN=A0b1c2d3e4", `TOKEN=${R}`],
  ['secret: "abc def"', `secret: "${R}"`],
  ["db_Password=hunter2", `db_Password=${R}`],
  ["AccountName=a;AccountKey=Eby8vd+M02==;", `AccountName=a;AccountKey=${R};`],
  ["SharedAccessKey=Eby8vd+M02==", `SharedAccessKey=${R}`],
  // The shape whose trigger (the `k` of `access_key`) sits deepest in its match: 14 units.
  ["shared_access_key=Eby8vd+M02==", `shared_access_key=${R}`],
  ["b.txt?sv=1&sig=abcDEF123%2Bxyz%3D", `b.txt?sv=1&sig=${R}`],
  ["b.txt?SIG=abcDEF123%2Bxyz%3D", `b.txt?SIG=${R}`],
  [String.raw`b.txt?sv=1\u0026sig=abcDEF123`, String.raw`b.txt?sv=1\u0026sig=${R}`],
  ["<password>hunter2</password>", `<password>${R}</password>`],
  ["mysql -u root -pS3cret app", `mysql -u root -p${R} app`],
  ["mariadb -pS3cret app", `mariadb -p${R} app`],
  ["machine h login u password hunter2", `machine h login u password ${R}`],
];

// Text that holds no shape's trigger, nor any part of one that a shape after a
// line break could read back into: no `c`, `k`, `w`, `b`, `z`, `j`, `q` or `f`
// (so no `token`, `secret`, `passw`, `bearer`, `machine`, `default`…), no
// `-`, `_`, `:`, `=`, `%`, backslash or ESC.
const PLAIN_CHARS = "adeghilmnoprstuvxy ADEGHILMNOPRSTUVXY0123456789.,;!?()'\"é😀中\n";
const plain: fc.Arbitrary<string> = fc.array(fc.constantFrom(...PLAIN_CHARS), { maxLength: 120 })
  .map((chars) => chars.join(""));
const shape = fc.constantFrom(...SHAPES);

Deno.test("redact() finds every shape's trigger in one scan, wherever it sits", async (t) => {
  await t.step("one secret of each shape after a long stretch of plain text", () => {
    const stretch = "the reader yields each entry as soon as its line is parsed. ".repeat(40)
      .replaceAll("c", "s");
    for (const [text, redacted] of SHAPES) {
      assert.equal(redact(`${stretch}\n${text}`), `${stretch}\n${redacted}`);
      assert.equal(redact(`${text}\n${stretch}`), `${redacted}\n${stretch}`);
    }
  });
  await t.step("any two shapes, either first, with plain text around them", () => {
    fc.assert(
      fc.property(plain, shape, plain, shape, plain, (a, [s1, r1], b, [s2, r2], c) => {
        assert.equal(
          redact(`${a}\n${s1}\n${b}\n${s2}\n${c}`),
          `${a}\n${r1}\n${b}\n${r2}\n${c}`,
        );
      }),
      { numRuns: NUM_RUNS },
    );
  });
  await t.step("a plain prefix changes nothing after it", () => {
    const fragments = fc.array(
      fc.oneof(
        shape.map(([text]) => text),
        fc.constantFrom(" ", "\n", "=", ": ", '"', "token", "&", "sig", "?", "z", "-", "_"),
      ),
      { maxLength: 8 },
    ).map((parts) => parts.join(""));
    fc.assert(
      fc.property(plain, fragments, (prefix, text) => {
        assert.equal(redact(`${prefix}\n${text}`), `${prefix}\n${redact(text)}`);
      }),
      { numRuns: NUM_RUNS },
    );
  });
});
