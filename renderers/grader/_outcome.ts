// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// The grader's outcome block (`outcome: true`): how the session ended, read from its bookkeeping
// (status, errors, outcome evaluations) as the entries go by, only those facts kept, so that a
// source read to its end to find them costs no more memory than the block.

import type { ConversationItem } from "../../kit/conversation_item.ts";
import type { LogEntry } from "../../events/types.ts";
import { utf8Head } from "../../kit/utf8.ts";
import { visibleControls } from "../../redact/excerpt.ts";

/** How many error types, and outcome evaluations, the block names (the latest ones). */
const ERROR_TYPES_KEPT = 8;
const EVALUATIONS_KEPT = 8;
/** The most UTF-8 bytes of one fact taken from an event (a message, an explanation). */
const FACT_BYTES = 600;

/** The label of the block, at the margin: no item's label reads so. */
export const OUTCOME_LABEL = "session outcome";

/** Every way a reader may end a line, as the kit's framing breaks them. */
const LINE_BREAK = /\r\n|[\n\r\v\f\x85\u2028\u2029]/;

interface Evaluation {
  iteration: string;
  result: string;
  explanation: string;
}

/** The facts of how a session ended, learned from its entries. */
export class OutcomeFacts {
  #status: string | undefined;
  #stopReason: string | undefined;
  #stopDetails: string | undefined;
  #errors: Map<string, { count: number; message: string }> = new Map();
  #evaluations: Evaluation[] = [];
  #evaluationCount = 0;
  #task: string | undefined;

  /** Learns from one entry of the session. */
  learn(entry: LogEntry): void {
    const event = entry.event as unknown as Record<string, unknown>;
    const type = event.type;
    if (type === "session.status_idle") {
      this.#status = "idle";
      this.#idle(event);
    } else if (type === "session.status_terminated") {
      this.#status = "terminated";
    } else if (type === "session.status_running" || type === "session.status_rescheduled") {
      this.#status = type.slice("session.status_".length);
    } else if (type === "session.error") {
      this.#error(event.error);
    } else if (type === "span.outcome_evaluation_end") {
      this.#evaluation(event);
    }
  }

  /** Takes the session's task (its `user.define_outcome`), as the grader's item shows it. */
  item(item: ConversationItem): void {
    if (item.kind === "control" && item.label.endsWith(", task")) this.#task = item.text;
  }

  /**
   * The block's body: one fact a line, each value on one line (its controls
   * made visible) but the task's, whose further lines are indented under it,
   * so nothing a value holds can read as a fact of its own.
   */
  text(cut: string | undefined): string {
    const lines = [`status: ${this.#status ?? "none seen"}`];
    if (this.#stopReason !== undefined) lines.push(`last idle stop_reason: ${this.#stopReason}`);
    if (this.#stopDetails !== undefined) lines.push(`stop details: ${this.#stopDetails}`);
    const errors = [...this.#errors].reverse().map(([kind, { count, message }]) =>
      `${kind} ×${count}${message === "" ? "" : ` (last: ${message})`}`
    );
    if (errors.length > 0) lines.push(`errors, latest first: ${errors.join("; ")}`);
    const earlier = this.#evaluationCount - this.#evaluations.length;
    if (this.#evaluationCount > 0) {
      lines.push(
        `outcome evaluations: ${this.#evaluationCount}${
          earlier > 0 ? ` (the ${earlier} earliest not listed)` : ""
        }`,
      );
    }
    for (const { iteration, result, explanation } of this.#evaluations) {
      lines.push(
        `evaluation ${iteration}: ${result}${explanation === "" ? "" : ` (${explanation})`}`,
      );
    }
    lines.push(`transcript: ${cut ?? "whole"}`);
    if (this.#task !== undefined) {
      const [first, ...rest] = this.#task.split(LINE_BREAK);
      const under = rest.map((line) => line === "" ? "" : `  ${line}`);
      lines.push([`task: ${first}`, ...under].join("\n"));
    } else {
      lines.push("task: none defined");
    }
    return lines.join("\n");
  }

  #idle(event: Record<string, unknown>): void {
    const reason = record(event.stop_reason);
    const kind = oneLine(reason?.type) || "unknown";
    const waiting = Array.isArray(reason?.event_ids)
      ? reason.event_ids.slice(0, 8).map(oneLine).join(", ")
      : "";
    this.#stopReason = waiting === "" ? kind : `${kind} (waiting on ${waiting})`;
    const details = record(event.stop_details);
    if (details === undefined) {
      this.#stopDetails = undefined;
      return;
    }
    const parts = [oneLine(details.type), oneLine(details.category), oneLine(details.explanation)];
    this.#stopDetails = parts.filter((part) => part !== "").join(", ");
  }

  #error(error: unknown): void {
    const fields = record(error);
    const kind = oneLine(fields?.type) || "error";
    const known = this.#errors.get(kind);
    this.#errors.delete(kind);
    this.#errors.set(kind, { count: (known?.count ?? 0) + 1, message: oneLine(fields?.message) });
    if (this.#errors.size > ERROR_TYPES_KEPT) {
      this.#errors.delete(this.#errors.keys().next().value!);
    }
  }

  #evaluation(event: Record<string, unknown>): void {
    this.#evaluationCount++;
    const iteration = typeof event.iteration === "number" ? String(event.iteration) : "?";
    this.#evaluations.push({
      iteration: `${this.#evaluationCount} (iteration ${iteration})`,
      result: oneLine(event.result) || "no result",
      explanation: oneLine(event.explanation),
    });
    if (this.#evaluations.length > EVALUATIONS_KEPT) this.#evaluations.shift();
  }
}

function record(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null ? value as Record<string, unknown> : undefined;
}

/** A value from an event as one line of a fact: a string's head, its controls made visible. */
function oneLine(value: unknown): string {
  if (typeof value !== "string") return "";
  const head = utf8Head(value, FACT_BYTES);
  return visibleControls(head.length < value.length ? `${head}…` : head, { oneLine: true });
}
