// Copyright 2026 the brigade authors. MIT license.

/**
 * Session logs whose tool calls and results come in every order a renderer
 * must label the same way: a result before its call, two results for one
 * call, thousands of calls outstanding at once (more than the renderers
 * remember), a call id used again for another tool, a denial after the
 * result, ids with wide and empty units, and a child thread's calls
 * cross-posted to the primary long after, or never. Deterministic.
 */

import type { LogEntry } from "../mod.ts";

const SESSION = "sesn_hostile";
const CHILD = "sthr_hostile_child";

/** The entries of one such session, `outstanding` calls at once in its widest stretch. */
export function hostileLog(outstanding = 5_000): LogEntry[] {
  const entries: LogEntry[] = [];
  const add = (event: Record<string, unknown>, thread: string | null = null): void => {
    const seq = entries.length + 1;
    entries.push({
      seq,
      session_id: SESSION,
      thread_id: thread,
      event: { id: `sevt_${seq}`, processed_at: "2026-09-14T10:02:12.904Z", ...event },
    } as LogEntry);
  };
  const call = (id: string, name: string, thread: string | null = null): void =>
    add({ type: "agent.tool_use", id, name, input: { n: id } }, thread);
  const result = (id: string, text = "ok"): void =>
    add({ type: "agent.tool_result", tool_use_id: id, content: [{ type: "text", text }] });
  add({ type: "user.message", content: [{ type: "text", text: "Go." }] });
  add({ type: "session.thread_created", session_thread_id: CHILD, agent_name: "Scout" });
  // A result before its call; two results for one call; a denial after the result.
  result("toolu_early");
  call("toolu_early", "read");
  call("toolu_twice", "grep");
  result("toolu_twice");
  result("toolu_twice", "again");
  add({ type: "user.tool_confirmation", tool_use_id: "toolu_twice", result: "deny" });
  // A call id used again, for another tool, and a result after each use.
  call("toolu_reused", "bash");
  result("toolu_reused");
  call("toolu_reused", "web_fetch");
  result("toolu_reused");
  // Ids of wide units, an empty id, and a unit 0xff.
  for (const id of ["日本🚀", "", "\u00ff", "\u00ff\u0000", "toolu_\u0100"]) {
    call(id, `tool_${id.length}`);
    result(id);
  }
  // Many calls outstanding, then their results in order: the first ones are forgotten.
  for (let i = 0; i < outstanding; i++) call(`toolu_out_${i}`, i % 3 === 0 ? "read" : "bash");
  for (let i = 0; i < outstanding; i++) result(`toolu_out_${i}`);
  // The early ones again, and results of ids long forgotten.
  result("toolu_early");
  result("toolu_twice");
  // A child's calls, never cross-posted, then one cross-posted after thousands more.
  for (let i = 0; i < outstanding; i++) {
    add({ type: "agent.tool_use", id: `toolu_child_${i}`, name: "read", input: { i } }, CHILD);
  }
  for (const i of [0, outstanding - 1, outstanding - 1, 7]) {
    add({
      type: "agent.tool_use",
      id: `toolu_copy_${i}`,
      name: "read",
      input: { i },
      session_thread_id: CHILD,
    });
  }
  add({ type: "agent.message", content: [{ type: "text", text: "Done." }] });
  return entries;
}
