// Copyright 2026 the brigade authors. MIT license.

// What the redactor's suites share: case tables, realistic fakes, and the generators of text
// and secrets their properties draw from.

import { redact, REDACTED_SECRET } from "@brigade/transcript/redact";
import assert from "node:assert/strict";
import fc from "fast-check";

export const R = REDACTED_SECRET;
export const NUM_RUNS = 200;

/** A row of a case table: what goes in, what must come out. */
export type Case = [input: string, expected: string];

export async function checkTable(t: Deno.TestContext, cases: Case[]): Promise<void> {
  for (const [input, expected] of cases) {
    await t.step(JSON.stringify(input), () => {
      assert.equal(redact(input), expected);
      assert.equal(redact(expected), expected, "redacting the output again changes it");
    });
  }
}

export async function checkUnchanged(t: Deno.TestContext, inputs: string[]): Promise<void> {
  await checkTable(t, inputs.map((input): Case => [input, input]));
}

// Realistic-looking fakes: none of these is a live credential.
export const LEGACY_KEY = "sk-T3BlbkFJ9a8b7c6d5e4f3g2h1i0jKLMNOPQRSTUVWXYZabcd";
export const PROJECT_KEY = "sk-proj-4fJx9_Qe-L2mZpR8tWc3YvHs_kN7bD1eG5aT0uIo-Xw6yZ2q";
export const ANTHROPIC_KEY = "sk-ant-api03-AbCdEf0123456789_-xyzXYZ-QrStUv98765_wXyZ-AA";
export const AWS_KEY_ID = "AKIAIOSFODNN7EXAMPLE";
export const JWT =
  "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";

export const UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
export const LOWER = "abcdefghijklmnopqrstuvwxyz";
export const DIGITS = "0123456789";
export const ALNUM = UPPER + LOWER + DIGITS;
export const KEY_CHARS = ALNUM + "_-";
export const TOKEN_CHARS = KEY_CHARS + ".~+/=";
export const UNQUOTED_CHARS = KEY_CHARS + "+/=~!@#$%^*|?.:";
export const QUOTED_CHARS = ALNUM + " -_.:=,;/{}()!?@é😀中";

export function stringOf(
  chars: string,
  minLength: number,
  maxLength: number,
): fc.Arbitrary<string> {
  return fc.string({ unit: fc.constantFrom(...chars), minLength, maxLength });
}

/** Strings of `chars` with one digit inserted somewhere. */
export function withDigit(
  chars: string,
  minLength: number,
  maxLength: number,
): fc.Arbitrary<string> {
  return fc.tuple(stringOf(chars, minLength, maxLength), fc.nat(), fc.integer({ min: 0, max: 9 }))
    .map(([s, at, digit]) => {
      const i = at % (s.length + 1);
      return s.slice(0, i) + digit + s.slice(i);
    });
}

/** A generated secret: its text, its distinctive body, and its redaction. */
export interface Secret {
  text: string;
  body: string;
  redacted: string;
}

// prose phrases below are separated by whitespace from fillers that have no
// letters, `:` or `=`, so no name meets a separator and no key grows.
export const PROSE = [
  "sk-learn",
  "risk-adjusted",
  "task-runner",
  "max_tokens: 4096",
  "input_tokens: 12",
  '"input_tokens": 12',
  "passwords are hashed",
  "use a Bearer token",
  "the token: it expires",
  "AKIA123456789012345",
  "Token::new()",
  `token: ${R}`,
];

export const FILLER_CHARS = DIGITS + "-_.,;!?()[]{}<>\"'`/\\|+*&^%$#@~é😀中\u00a0";

export const safeText: fc.Arbitrary<string> = fc.array(
  fc.oneof(fc.constantFrom(...PROSE), stringOf(FILLER_CHARS, 1, 12)),
  { maxLength: 8 },
).chain((words) =>
  fc.array(fc.constantFrom(" ", "\n", "\t", " \n"), {
    minLength: words.length,
    maxLength: words.length,
  }).map((spaces) => words.map((word, i) => word + spaces[i]).join(""))
);
