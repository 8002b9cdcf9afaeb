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
  /** Taken as the next prompt, not yet shown: shown before the next response unless repeated. */
  #taken: Queued[] = [];
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
    if (next !== undefined) this.#taken.push(next);
  }

  /**
   * A queued message was given to the running turn: the message to show now,
   * or undefined when it was shown already (its attachment came first).
   */
  remove(content: unknown, line: number): Queued | undefined {
    const text = queuedText(content);
    const at = text === undefined || text === ""
      ? 0
      : this.#pending.findIndex((q) => q.text === text);
    const found = at >= 0 ? this.#pending.splice(at, 1)[0] : undefined;
    const message = found ??
      (text === undefined || text === ""
        ? undefined
        : { content: content as string | unknown[], text, line });
    if (message === undefined) return undefined;
    return this.#show(message);
  }

  /** Every queued message was taken back into the prompt, unread: they are returned. */
  popAll(): Queued[] {
    const withdrawn = this.#pending;
    this.#pending = [];
    return withdrawn;
  }

  /**
   * A message a `queued_command` attachment gives the running turn: the
   * message to show, or undefined when its `remove` showed it already.
   */
  delivered(content: unknown, line: number): Queued | undefined {
    const text = queuedText(content);
    if (text === undefined || text === "") return undefined;
    const at = this.#pending.findIndex((q) => q.text === text);
    if (at >= 0) this.#pending.splice(at, 1);
    return this.#show({ content: content as string | unknown[], text, line });
  }

  /**
   * Whether a person's prompt record repeats a queued message already shown
   * (drop it), or takes one taken as the next prompt (it is shown by the record).
   */
  repeats(text: string): boolean {
    const trimmed = text.trim();
    const taken = this.#taken.findIndex((q) => q.text === trimmed);
    if (taken >= 0) {
      this.#taken.splice(taken, 1);
      return false;
    }
    if (!this.#shown.has(trimmed)) return false;
    this.#shown.delete(trimmed);
    return true;
  }

  /**
   * A response begins: the messages taken as its prompt and not repeated by a
   * record are shown before it; repeats of older shown messages are no longer dropped.
   */
  response(): Queued[] {
    this.#responses++;
    for (const [text, at] of this.#shown) {
      if (at < this.#responses - 1) this.#shown.delete(text);
    }
    const taken = this.#taken;
    this.#taken = [];
    return taken;
  }

  /**
   * The end of the transcript: the messages taken as a prompt and never
   * shown (to show), and those still queued, never read (to count).
   */
  finish(): { taken: Queued[]; unread: Queued[] } {
    const out = { taken: this.#taken, unread: this.#pending };
    this.#taken = [];
    this.#pending = [];
    return out;
  }

  #show(message: Queued): Queued | undefined {
    if (this.#shown.has(message.text)) {
      this.#shown.delete(message.text);
      return undefined;
    }
    this.#shown.set(message.text, this.#responses);
    if (this.#shown.size > KEPT) this.#shown.delete(this.#shown.keys().next().value!);
    return message;
  }
}
