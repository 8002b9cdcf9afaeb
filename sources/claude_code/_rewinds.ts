// Copyright 2026 the brigade authors. MIT license.

import type { SessionEvent } from "../../events/types.ts";
import { BRANCH_RECORDS_MAX, type BranchPlan } from "./_branches.ts";
import { ClaudeCodeMapper, type Mapped } from "./_map.ts";

/**
 * The abandoned branches of a transcript as its second pass meets them: their
 * records are passed over, counted as the items they would have been, and
 * where each branch ends one note says how many were rewound.
 */
export class Rewinds {
  #plan: BranchPlan | undefined;
  /** Maps the abandoned records, to count their items, apart from the live mapping's state. */
  #counter: ClaudeCodeMapper;
  #counts = new Map<number, number>();

  /**
   * @param plan The first pass's plan (none for a stream).
   * @param mapping The live mapping's options, so that items are counted as they would show.
   */
  constructor(plan: BranchPlan | undefined, mapping: { thinking: boolean }) {
    this.#plan = plan;
    this.#counter = new ClaudeCodeMapper({ thinking: mapping.thinking, usage: false });
  }

  /** Whether the record on this line is in an abandoned branch. */
  abandoned(line: number): boolean {
    return this.#plan !== undefined && this.#plan.abandoned.has(line);
  }

  /** Counts an abandoned record's items; at its branch's last record, the note. */
  take(record: unknown, line: number): Mapped | undefined {
    const plan = this.#plan!;
    const branch = plan.abandoned.get(line)!;
    const mapped = this.#counter.map(record, line);
    const items = typeof mapped === "string"
      ? 0
      : mapped.filter(({ event }) => event.type !== "session.thread_created").length;
    const count = (this.#counts.get(branch) ?? 0) + items;
    if (plan.ends.get(branch) !== line) {
      this.#counts.set(branch, count);
      return undefined;
    }
    this.#counts.delete(branch);
    const at = typeof (record as { timestamp?: unknown }).timestamp === "string"
      ? { processed_at: (record as { timestamp: string }).timestamp }
      : {};
    return { threadId: null, event: rewindNote(branch, count, at) };
  }
}

/**
 * The note where a branch was abandoned: a `system.message` saying how many
 * items were rewound, its count in `rewound`.
 */
function rewindNote(branch: number, count: number, at: { processed_at?: string }): SessionEvent {
  const items = count === 1 ? "1 item" : `${count} items`;
  return {
    id: `rewind-${branch}`,
    type: "system.message",
    ...at,
    content: `Rewound: ${items} of a branch the session left (a rewind or an edited prompt) ` +
      "are not shown; the conversation goes on from an earlier point.",
    rewound: count,
  } as SessionEvent;
}

/** The note of a transcript too big to follow its branches: it reads in file order. */
export function overflowNote(): Mapped {
  return {
    threadId: null,
    event: {
      id: "branches",
      type: "system.message",
      content: `Branches not followed: the transcript has over ${
        BRANCH_RECORDS_MAX.toLocaleString("en-US")
      } records, so it reads in file order (a rewound branch, if any, shows in line).`,
    } as SessionEvent,
  };
}
