// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// The grader's options, apart from its functions: the plan that reads them and the functions
// that take them both name them.

/** Options for `renderGrader`. */
export interface GraderOptions {
  /**
   * The most UTF-8 bytes of one item's body; a longer body is cut, with a note.
   *
   * @default {GRADER_ITEM_BUDGET}
   */
  itemBudget?: number;
  /**
   * The most UTF-8 bytes of the whole transcript, its final note included;
   * `Infinity` shows every item (as `render --follow` does, so a long live
   * session is followed to its end), and memory is then not bounded by it.
   *
   * @default {GRADER_TRANSCRIPT_BUDGET}
   */
  transcriptBudget?: number;
  /**
   * Which part of a transcript over its budget is kept: `"head"`, the
   * session's start up to the budget, then a note (and the source is not read
   * further); or `"ends"`, its start and its end, each up to about half the
   * budget, with one note between them naming the bytes elided, so a grader
   * sees how the session ended (the whole source is read; memory stays near
   * the budget).
   *
   * @default {"head"}
   */
  keep?: GraderKeep;
  /**
   * Whether each label starts with the entry's `seq` as a citable id,
   * `[M12 · user]`: the number json's `seq` carries for the same item, so a
   * judge's citation resolves to the entry. The ids count in the transcript
   * budget.
   *
   * @default {false}
   */
  ids?: boolean;
  /**
   * Renders one thread only: `"primary"`, a child thread's id, or its agent
   * name (`"Reader"` or `"@Reader"`). Its items keep their consumption
   * order; a thread message is in the thread of each of its ends.
   *
   * @default {undefined}
   */
  thread?: string;
  /**
   * `"each"`: each thread as a section of its own, headed `[thread agent]`
   * or `[thread @name · id]` at the margin, the threads in the order they
   * first appear, the items of each in consumption order (a thread message
   * in both its ends' sections). Within the transcript budget, from the
   * head; not with `keep: "ends"` or `thread`.
   *
   * @default {undefined}
   */
  threads?: "each";
  /**
   * Whether the transcript starts with a `[session outcome]` block, framed
   * as an item: the session's last status (`idle`, `terminated`,
   * `running`), the last `session.status_idle`'s `stop_reason` (`end_turn`,
   * `requires_action` with the events it waits on, `retries_exhausted`,
   * `budget_reached`, `refusal`) and `stop_details`, the latest
   * `session.error`s by type with their counts, the outcome evaluations'
   * results, whether the transcript budget cut the transcript, and the
   * `user.define_outcome` task with its rubric. The block counts in the
   * budget. The end is where these are: the whole source is read (only the
   * block's facts kept past the budget), and `stream()` gives the text at
   * the end.
   *
   * @default {false}
   */
  outcome?: boolean;
  /**
   * Whether the transcript is wrapped in two marker lines,
   * `<<<transcript HEX>>>`, HEX from the SHA-256 of the transcript (so the
   * same input gives the same output, and no content can hold it), for a
   * judge's prompt to name with `envelopeInstruction(text)`. The markers
   * count in the budget; `stream()` gives the text at the end.
   *
   * @default {false}
   */
  envelope?: boolean;
  /**
   * Renders the whole session, no transcript budget, as ordered chunks of
   * at most `bytes` UTF-8 bytes each (at least 4,096), for a judge whose
   * window is that size: each chunk starts with `[chunk i · items a–b]`
   * (items numbered from 1 in the grader's order), the last with
   * `[chunk n of n · items a–b]`, since only the end knows how many there
   * are; chunks are cut between items, an item too long for a chunk of its
   * own has its body cut with a note, and no item is lost or repeated.
   * `stream()` gives one chunk at a time, as soon as the next item does not
   * fit it, holding no more than one chunk. Not with `transcriptBudget`,
   * `keep: "ends"`, `threads`, `outcome` or `envelope`.
   *
   * @default {undefined}
   */
  chunks?: GraderChunks;
  /**
   * Stops the rendering with the signal's reason when aborted.
   *
   * @default {undefined}
   */
  signal?: AbortSignal;
}

/** The size of the grader's chunks: see {@linkcode GraderOptions.chunks}. */
export interface GraderChunks {
  /** The most UTF-8 bytes of one chunk, its heading included: at least 4,096. */
  bytes: number;
}

/** Which part of a transcript over its budget the grader keeps: see {@linkcode GraderOptions.keep}. */
export type GraderKeep = "head" | "ends";
