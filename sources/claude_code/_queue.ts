// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// What a person types while the agent works. Claude Code queues it (`queue-operation`
// `enqueue`, with its `content`) and later either takes it as the next prompt (`dequeue`: a
// user record usually repeats it, but not always) or gives it to the running turn at its next
// request (`remove`; newer versions also write a `queued_command` attachment, before or after
// the `remove`). `popAll` takes every queued message back into the prompt to edit, unread.
// Each message is shown once, as the person's, where a request read it.

/** A queued message: its content as queued, and its text for matching a repeat. */
export interface Queued {
  content: string | unknown[];
  text: string;
  /** The line of the record that queued it (or gave it), for the counts of unread ones. */
  line: number;
}

/** How many queued messages, and recently shown ones, are remembered. */
const KEPT = 1_000;

/** The text of a queued content: a string, or the text blocks of a block array. */
export function queuedText(content: unknown): string | undefined {
  if (typeof content === "string") return content.trim();
  if (!Array.isArray(content)) return undefined;
  return content
    .map((b) =>
      typeof b === "string"
        ? b
        : typeof b === "object" && b !== null && typeof (b as { text?: unknown }).text === "string"
        ? (b as { text: string }).text
        : ""
    )
    .join("\n").trim();
}

/** The queue of steering messages, and which were shown lately (to drop their repeats). */
export class SteeringQueue {
  #pending: Queued[] = [];
  /**
   * Taken by a request (`dequeue` as its prompt, `remove` into the running
   * turn), not yet shown: shown before the next response, unless a record
   * repeats one first (a user record, a `queued_command` attachment), which
   * then shows it there.
   */
  #held: Queued[] = [];
  /** Text → the response count when it was shown; a repeat within a response is dropped. */
  #shown = new Map<string, number>();
  #responses = 0;

  /** A message was queued. */
  enqueue(content: unknown, line: number): void {
    const text = queuedText(content);
    if (text === undefined || text === "") return;
    this.#pending.push({ content: content as string | unknown[], text, line });
    if (this.#pending.length > KEPT) this.#pending.shift();
  }

  /** The next request takes the oldest queued message as its prompt. */
  dequeue(): void {
    const next = this.#pending.shift();
    if (next !== undefined) this.#hold(next);
  }

  /** A queued message (the one named, else the oldest) was given to the running turn. */
  remove(content: unknown, line: number): void {
    const text = queuedText(content);
    const at = text === undefined || text === ""
      ? 0
      : this.#pending.findIndex((q) => q.text === text);
    const found = at >= 0 ? this.#pending.splice(at, 1)[0] : undefined;
    if (found !== undefined) return this.#hold(found);
    if (text === undefined || text === "") return;
    // Its attachment came first and showed it.
    if (this.#shown.delete(text)) return;
    this.#hold({ content: content as string | unknown[], text, line });
  }

  /** Every queued message was taken back into the prompt, unread: they are returned. */
  popAll(): Queued[] {
    const withdrawn = this.#pending;
    this.#pending = [];
    return withdrawn;
  }

  /**
   * A message a `queued_command` attachment gives the running turn: the
   * message to show here, or undefined when it was shown already.
   */
  delivered(content: unknown, line: number): Queued | undefined {
    const text = queuedText(content);
    if (text === undefined || text === "") return undefined;
    const held = this.#held.findIndex((q) => q.text === text);
    if (held >= 0) {
      this.#held.splice(held, 1);
    } else if (this.#shown.delete(text)) {
      return undefined;
    } else {
      const at = this.#pending.findIndex((q) => q.text === text);
      if (at >= 0) this.#pending.splice(at, 1);
    }
    const message = { content: content as string | unknown[], text, line };
    this.#mark(message);
    return message;
  }

  /**
   * Whether a person's prompt record repeats a queued message already shown
   * (drop the record); a held one it repeats is shown by the record.
   */
  repeats(text: string): boolean {
    const trimmed = text.trim();
    const held = this.#held.findIndex((q) => q.text === trimmed);
    if (held >= 0) {
      this.#mark(this.#held.splice(held, 1)[0]!);
      return false;
    }
    return this.#shown.delete(trimmed);
  }

  /**
   * A slash command the person queued is written as a command record: the
   * record shows it, and the queued copy is no longer held.
   */
  command(line: string): void {
    const held = this.#held.findIndex((q) => q.text === line.trim());
    if (held >= 0) this.#held.splice(held, 1);
    else this.#shown.delete(line.trim());
  }

  /**
   * A response begins: the held messages its request read, to show before
   * it; repeats of messages shown before the previous response are no longer dropped.
   */
  response(): Queued[] {
    this.#responses++;
    for (const [text, at] of this.#shown) {
      if (at < this.#responses - 1) this.#shown.delete(text);
    }
    const held = this.#held;
    this.#held = [];
    for (const message of held) this.#mark(message);
    return held;
  }

  /**
   * The end of the transcript: the held messages never shown (to show), and
   * those still queued, never read (to count).
   */
  finish(): { taken: Queued[]; unread: Queued[] } {
    const out = { taken: this.#held, unread: this.#pending };
    this.#held = [];
    this.#pending = [];
    return out;
  }

  #hold(message: Queued): void {
    this.#held.push(message);
    if (this.#held.length > KEPT) this.#held.shift();
  }

  #mark(message: Queued): void {
    this.#shown.set(message.text, this.#responses);
    if (this.#shown.size > KEPT) this.#shown.delete(this.#shown.keys().next().value!);
  }
}
