// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// A session's name as Claude Code gives it: the name the person set (`custom-title`), else the
// one Claude Code generated (`ai-title`), else the latest `summary`. The renderers take the
// latest `session.updated` title; this keeps a weaker name from replacing a stronger one.

/** Where a title came from, weakest first. */
export type TitleSource = "summary" | "ai-title" | "custom-title";

const RANK: Readonly<Record<TitleSource, number>> = {
  "summary": 0,
  "ai-title": 1,
  "custom-title": 2,
};

/** The title a record names, and its source; undefined for a record that names none. */
export function recordTitle(
  record: Record<string, unknown>,
): { title: string; source: TitleSource } | undefined {
  const [source, value] = record.type === "custom-title"
    ? ["custom-title" as const, record.customTitle]
    : record.type === "ai-title"
    ? ["ai-title" as const, record.aiTitle]
    : record.type === "summary"
    ? ["summary" as const, record.summary]
    : [undefined, undefined];
  if (source === undefined || typeof value !== "string") return undefined;
  const title = value.replace(/\s+/g, " ").trim();
  return title === "" ? undefined : { title, source };
}

/** The session's title so far: a new one is taken when its source is as strong or stronger. */
export class SessionTitle {
  #rank = -1;
  #title: string | undefined;

  /** Takes a title; returns whether it is now the session's (a change to announce). */
  take(title: string, source: TitleSource): boolean {
    const rank = RANK[source];
    if (rank < this.#rank) return false;
    this.#rank = rank;
    if (title === this.#title) return false;
    this.#title = title;
    return true;
  }
}
