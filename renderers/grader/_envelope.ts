// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// The grader's named boundary (`envelope: true`): a marker line before and after the transcript,
// derived from the transcript's digest.

/** The marker's form: its hex digest between fixed words. */
export const MARKER = /^<<<transcript [0-9a-f]{16}(?:-\d+)?>>>$/;

/** The UTF-8 bytes the two marker lines add, at most (a counter after the digest is rare). */
export const ENVELOPE_BYTES = 2 * ("<<<transcript >>>".length + 16 + 8 + 1);

/**
 * The transcript between two marker lines: `<<<transcript HEX>>>`, HEX the
 * first 16 hex digits of the SHA-256 of the transcript, so that the same
 * transcript is always wrapped the same way, and no text could hold its own
 * digest. Should the transcript hold the marker all the same, a counter is
 * added to the digest's input until it does not.
 */
export async function envelope(transcript: string): Promise<string> {
  for (let round = 0;; round++) {
    const input = round === 0 ? transcript : `${transcript}\n${round}`;
    const hex = await digestHex(input);
    const marker = `<<<transcript ${hex.slice(0, 16)}${round === 0 ? "" : `-${round}`}>>>`;
    if (!transcript.includes(marker)) return `${marker}\n${transcript}${marker}\n`;
  }
}

async function digestHex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("");
}
