// Copyright 2026 the brigade authors. MIT license.
// This module is browser compatible.

// A subagent's work folded under the call that started it. The page's items
// stream in order and a subagent's items arrive between its call and the
// call's result, so each fold is a flow of its own that the page writes right
// after the call's block: nothing is held beyond the page's own budget.

import { type Html, markup } from "./_html.ts";

/** Blocks in order, each possibly followed by the folds of the subagents it started. */
export interface Flow {
  parts: Html[];
  /** Part index → the folds written right after that part. */
  after: Map<number, Fold[]>;
}

/** One subagent's items, in a `<details>` named after it. */
export interface Fold {
  /** The thread's name (its agent's type and task), as the page shows it. */
  name: string;
  /** The thread's palette slot. */
  slot: number;
  /** How many items it holds. */
  items: number;
  flow: Flow;
}

/** A flow with nothing in it yet. */
export function newFlow(): Flow {
  return { parts: [], after: new Map() };
}

/** Puts a fold right after a part of a flow (after the folds already there). */
export function attach(flow: Flow, part: number, fold: Fold): void {
  const folds = flow.after.get(part);
  if (folds === undefined) flow.after.set(part, [fold]);
  else folds.push(fold);
}

/** A flow's markup: each part, then the folds it started. */
export function flowHtml(flow: Flow): Html {
  return markup`${flow.parts.map((part, i) => markup`${part}${flow.after.get(i)?.map(foldHtml)}`)}`;
}

/** The most bytes a fold's frame takes besides its name (its count in the summary included). */
export const FOLD_FRAME_BYTES = 320;

/** A fold's markup: closed, its summary naming the subagent and counting its items. */
function foldHtml(fold: Fold): Html {
  return markup`<details class="subagent t${fold.slot}"><summary><span class="who">subagent</span><span class="agent-name">${fold.name}</span><span class="size">${fold.items} ${
    fold.items === 1 ? "item" : "items"
  }</span></summary><div class="subagent-items">
${flowHtml(fold.flow)}</div></details>
`;
}
