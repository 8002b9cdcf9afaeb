// Copyright 2026 the brigade authors. MIT license.

import assert from "node:assert/strict";
import fc from "fast-check";
import { redact } from "../redact/mod.ts";
import { cutBodyParts } from "./budget.ts";
import { utf8Length } from "./utf8.ts";
import { Redacted } from "./_redacted.ts";

// Texts made of secrets, their near misses, multi-byte and astral characters,
// lone surrogates and whitespace, so that cuts fall inside and around secrets.
const piece = fc.oneof(
  fc.constantFrom(
    "sk-proj-Q7xv2LmN9pR4sT8wZ1bC5dF3gH6jK0aY",
    "AKIAIOSFODNN7EXAMPLE",
    "Authorization: Bearer abcdEFGH1234ijkl",
    'password="hunter2 and more"',
    "api_key: SecretStr = 'x1'",
    "token=abc&def123&next=1",
    "ghp_16C7e42F292c6912E7710c838347Ae178B4a",
    "xoxb-17653672481-19874698323-pdFZKVeTuE8sk7oOcBrzbqgy",
    "sk_live_4eC39HqLyjWDarjtT1zdp7dc",
    "AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY",
    "glpat-Ab1Cd2Ef3Gh4Ij5Kl6Mn.01.x",
    "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.sig",
    "Authorization: Basic dXNlcjpwYXNzd29yZA==",
    "postgres://app:s3cr3t@db/app",
    "é",
    "😀",
    "\ud83d",
    "\ude00",
    " ",
    "\n",
    "[REDACTED_SECRET]",
  ),
  fc.string({ maxLength: 20 }),
);
const text = fc.array(piece, { maxLength: 30 }).map((parts) => parts.join(""));

Deno.test("Redacted reads in part exactly what redact() gives whole", () => {
  fc.assert(
    fc.property(text, fc.integer({ min: 0, max: 400 }), (input, n) => {
      const whole = redact(input);
      const redacted = new Redacted(input);
      assert.equal(redacted.length, whole.length);
      assert.equal(redacted.head(n), whole.slice(0, n));
      assert.equal(redacted.head(Infinity), whole);
      assert.deepEqual(redacted.cut(Math.max(1, n)), cutBodyParts(whole, Math.max(1, n)));
    }),
    { numRuns: 2_000 },
  );
});

Deno.test("Redacted reads a text past a few pages in part exactly as redact() gives it whole", () => {
  // A text of more than 8,192 units is not redacted whole: its redaction is read from its pieces.
  const pages = "a line of the session's output, with no secret in it\n".repeat(160);
  fc.assert(
    fc.property(text, text, fc.integer({ min: 0, max: 12_000 }), (before, after, n) => {
      const input = `${before}${pages}${after}`;
      const whole = redact(input);
      const redacted = new Redacted(input);
      assert.equal(redacted.length, whole.length);
      assert.equal(redacted.head(n), whole.slice(0, n));
      assert.equal(redacted.head(Infinity), whole);
      assert.equal(redacted.utf8Length(), utf8Length(whole));
      assert.deepEqual(redacted.cut(Math.max(1, n)), cutBodyParts(whole, Math.max(1, n)));
    }),
    { numRuns: 300 },
  );
});
