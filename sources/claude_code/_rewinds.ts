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
  /** Per branch not ended yet: its items counted, and their text (its head) for the html fold. */
  #branches = new Map<number, { count: number; text: string }>();

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
    const events = typeof mapped === "string"
      ? []
      : mapped.filter(({ event }) => event.type !== "session.thread_created");
    const taken = this.#branches.get(branch) ?? { count: 0, text: "" };
    taken.count += events.length;
    for (const { event } of events) {
      if (taken.text.length < REWOUND_TEXT_KEPT) taken.text += itemText(event);
    }
    if (plan.ends.get(branch) !== line) {
      this.#branches.set(branch, taken);
      return undefined;
    }
    this.#branches.delete(branch);
    const at = typeof (record as { timestamp?: unknown }).timestamp === "string"
      ? { processed_at: (record as { timestamp: string }).timestamp }
      : {};
    const text = taken.text.length > REWOUND_TEXT_KEPT
      ? `${taken.text.slice(0, REWOUND_TEXT_KEPT)}\n[…]`
      : taken.text.trimEnd();
    return { threadId: null, event: rewindNote(branch, taken.count, text, at) };
  }
}

/**
 * How much of an abandoned branch's text (UTF-16 units) its note carries for
 * the html page's fold; the rest is marked cut. The page cuts it to its item
 * budget again.
 */
const REWOUND_TEXT_KEPT = 16 * 1024;

/** An abandoned item as the fold shows it: who spoke, then the words (a call's input as JSON). */
function itemText(event: SessionEvent): string {
  const fields = event as unknown as Record<string, unknown>;
  const who = event.type === "user.message"
    ? "user"
    : event.type === "agent.tool_use"
    ? `agent → tool ${String(fields.name)}`
    : event.type === "agent.tool_result"
    ? "tool result"
    : event.type === "agent.thinking"
    ? "agent thinking"
    : event.type.startsWith("agent.")
    ? "agent"
    : "system";
  const body = event.type === "agent.tool_use"
    ? JSON.stringify(fields.input)
    : event.type === "agent.thinking"
    ? String(fields.thinking)
    : flat(fields.content);
  return `[${who}]\n${body}\n\n`;
}

/** A content's text: a string, or its blocks' texts. */
function flat(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((b) =>
    typeof b === "object" && b !== null && typeof b.text === "string" ? b.text : `[${b?.type}]`
  ).join("\n");
}

/**
 * The note where a branch was abandoned: a `system.message` saying how many
 * items were rewound, its count in `rewound` and their text in `rewound_text`
 * (which only the html page shows, folded).
 */
function rewindNote(
  branch: number,
  count: number,
  text: string,
  at: { processed_at?: string },
): SessionEvent {
  const items = count === 1 ? "1 item" : `${count} items`;
  return {
    id: `rewind-${branch}`,
    type: "system.message",
    ...at,
    content: `Rewound: ${items} of a branch the session left (a rewind or an edited prompt) ` +
      "are not shown; the conversation goes on from an earlier point.",
    rewound: count,
    rewound_text: text,
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
