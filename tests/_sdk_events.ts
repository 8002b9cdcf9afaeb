// Copyright 2026 the brigade authors. MIT license.

// One event of every member of the official SDK's session event union (`@anthropic-ai/sdk`
// 1.10.0, `BetaManagedAgentsSessionEvent`), typed by the SDK's own interfaces. The mapped type
// makes the list exhaustive: a member the SDK adds is a compile error here until it has a value
// and a rule.

import type Anthropic from "@anthropic-ai/sdk";
import type { BetaManagedAgentsSessionEvent } from "@anthropic-ai/sdk/resources/beta/sessions/events";
import type { LogEntry } from "@brigade/transcript";

/** A `type` of the SDK's union. */
export type SdkEventType = BetaManagedAgentsSessionEvent["type"];

/** The SDK's event interface of a type. */
export type SdkEvent<T extends SdkEventType> = Extract<BetaManagedAgentsSessionEvent, { type: T }>;

/** How the renderers treat an event type (the table in docs/renderers.md says the same). */
export type Rule = "conversation" | "control" | "bookkeeping";

const T = "2026-10-30T09:00:00Z";
const CHILD = "sthr_01Child";
const usage = {
  input_tokens: 10,
  output_tokens: 2,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 5,
};
const retrying = { type: "retrying" } as const;

/** One SDK event of each type, in an order a session could hold them. */
export const SDK_EVENTS: { [K in SdkEventType]: SdkEvent<K> } = {
  "user.define_outcome": {
    type: "user.define_outcome",
    id: "sevt_outcome",
    processed_at: T,
    description: "Ship the release notes for 1.32",
    rubric: { type: "text", content: "Every KV change is listed with its version." },
    max_iterations: 3,
    outcome_id: "outc_01",
  },
  "user.message": {
    type: "user.message",
    id: "sevt_user",
    processed_at: T,
    content: [
      { type: "text", text: "Summarize the attached notes." },
      {
        type: "document",
        source: { type: "text", data: "KV landed in 1.32.", media_type: "text/plain" },
        title: "notes.txt",
        context: "written by the release team",
      },
    ],
  },
  "system.message": {
    type: "system.message",
    id: "sevt_system",
    processed_at: T,
    content: [{ type: "text", text: "The workspace is read-only." }],
  },
  "session.status_running": { type: "session.status_running", id: "sevt_running", processed_at: T },
  "span.model_request_start": {
    type: "span.model_request_start",
    id: "sevt_span_start",
    processed_at: T,
  },
  "agent.thinking": { type: "agent.thinking", id: "sevt_thinking", processed_at: T },
  "agent.message": {
    type: "agent.message",
    id: "sevt_agent",
    processed_at: T,
    content: [{ type: "text", text: "Reading the notes." }, { type: "redacted" }],
  },
  "agent.tool_use": {
    type: "agent.tool_use",
    id: "sevt_tool_use",
    processed_at: T,
    name: "bash",
    input: { command: "ls" },
    evaluated_permission: "ask",
    evaluation: { type: "always_ask" },
  },
  "user.tool_confirmation": {
    type: "user.tool_confirmation",
    id: "sevt_confirm",
    processed_at: T,
    tool_use_id: "sevt_tool_use",
    result: "deny",
    deny_message: "Not in my home folder, please.",
  },
  "agent.tool_result": {
    type: "agent.tool_result",
    id: "sevt_tool_result",
    processed_at: T,
    tool_use_id: "sevt_tool_use",
    is_error: true,
    content: [
      { type: "text", text: "denied" },
      {
        type: "search_result",
        source: "https://example.org/notes",
        title: "Notes",
        citations: { enabled: false },
        content: [{ type: "text", text: "nothing" }],
      },
    ],
  },
  "agent.mcp_tool_use": {
    type: "agent.mcp_tool_use",
    id: "sevt_mcp_use",
    processed_at: T,
    name: "search",
    mcp_server_name: "github",
    input: { q: "kv" },
  },
  "agent.mcp_tool_result": {
    type: "agent.mcp_tool_result",
    id: "sevt_mcp_result",
    processed_at: T,
    mcp_tool_use_id: "sevt_mcp_use",
    content: [{ type: "text", text: "3 issues" }],
  },
  "agent.custom_tool_use": {
    type: "agent.custom_tool_use",
    id: "sevt_custom_use",
    processed_at: T,
    name: "lookup",
    input: { key: "kv" },
  },
  "user.custom_tool_result": {
    type: "user.custom_tool_result",
    id: "sevt_custom_result",
    processed_at: T,
    custom_tool_use_id: "sevt_custom_use",
    content: [{ type: "text", text: "found" }],
  },
  "user.tool_result": {
    type: "user.tool_result",
    id: "sevt_user_tool_result",
    processed_at: T,
    tool_use_id: "sevt_tool_use",
    content: [{ type: "text", text: "ran it myself" }],
    is_error: false,
  },
  "span.model_request_end": {
    type: "span.model_request_end",
    id: "sevt_span_end",
    processed_at: T,
    model_request_start_id: "sevt_span_start",
    is_error: false,
    model_usage: { ...usage, speed: "standard" },
  },
  "session.thread_created": {
    type: "session.thread_created",
    id: "sevt_thread_created",
    processed_at: T,
    session_thread_id: CHILD,
    agent_name: "Changelog reader",
    workflow_run_id: null,
  },
  "session.thread_status_running": {
    type: "session.thread_status_running",
    id: "sevt_thread_running",
    processed_at: T,
    session_thread_id: CHILD,
    agent_name: "Changelog reader",
  },
  "agent.thread_message_sent": {
    type: "agent.thread_message_sent",
    id: "sevt_sent",
    processed_at: T,
    to_session_thread_id: CHILD,
    to_agent_name: "Changelog reader",
    content: [{ type: "text", text: "List the KV entries." }],
  },
  "agent.thread_message_received": {
    type: "agent.thread_message_received",
    id: "sevt_received",
    processed_at: T,
    from_session_thread_id: CHILD,
    from_agent_name: "Changelog reader",
    content: [{ type: "text", text: "Three entries." }],
  },
  "session.thread_status_idle": {
    type: "session.thread_status_idle",
    id: "sevt_thread_idle",
    processed_at: T,
    session_thread_id: CHILD,
    agent_name: "Changelog reader",
    stop_reason: { type: "end_turn" },
    stop_details: null,
  },
  "session.thread_status_rescheduled": {
    type: "session.thread_status_rescheduled",
    id: "sevt_thread_rescheduled",
    processed_at: T,
    session_thread_id: CHILD,
    agent_name: "Changelog reader",
  },
  "session.thread_status_terminated": {
    type: "session.thread_status_terminated",
    id: "sevt_thread_terminated",
    processed_at: T,
    session_thread_id: CHILD,
    agent_name: "Changelog reader",
  },
  "agent.thread_context_compacted": {
    type: "agent.thread_context_compacted",
    id: "sevt_compacted",
    processed_at: T,
  },
  "session.error": {
    type: "session.error",
    id: "sevt_error",
    processed_at: T,
    error: {
      type: "mcp_connection_failed_error",
      mcp_server_name: "github",
      message: "connection refused",
      retry_status: retrying,
    },
  },
  "session.status_rescheduled": {
    type: "session.status_rescheduled",
    id: "sevt_rescheduled",
    processed_at: T,
  },
  "span.outcome_evaluation_start": {
    type: "span.outcome_evaluation_start",
    id: "sevt_eval_start",
    processed_at: T,
    outcome_id: "outc_01",
    iteration: 0,
  },
  "span.outcome_evaluation_ongoing": {
    type: "span.outcome_evaluation_ongoing",
    id: "sevt_eval_ongoing",
    processed_at: T,
    outcome_id: "outc_01",
    iteration: 0,
  },
  "span.outcome_evaluation_end": {
    type: "span.outcome_evaluation_end",
    id: "sevt_eval_end",
    processed_at: T,
    outcome_evaluation_start_id: "sevt_eval_start",
    outcome_id: "outc_01",
    iteration: 0,
    result: "needs_revision",
    explanation: "One entry is missing.",
    usage,
  },
  "user.interrupt": { type: "user.interrupt", id: "", processed_at: T },
  "session.status_idle": {
    type: "session.status_idle",
    id: "sevt_idle",
    processed_at: T,
    stop_reason: { type: "requires_action", event_ids: ["sevt_custom_use"] },
    stop_details: null,
  },
  "session.usage": {
    type: "session.usage",
    id: "sevt_usage",
    processed_at: T,
    usage: { input_tokens: 10, output_tokens: 2, list_cost: { amount: "12", currency: "USD" } },
  },
  "session.updated": { type: "session.updated", id: "sevt_updated", processed_at: T },
  "workflow_run.created": {
    type: "workflow_run.created",
    id: "sevt_wr_created",
    processed_at: T,
    workflow_run_id: "wfr_01",
    name: "nightly",
    description: null,
    phases: [{ id: "ph_1", name: "build", description: null }],
  },
  "workflow_run.status_running": {
    type: "workflow_run.status_running",
    id: "sevt_wr_running",
    processed_at: T,
    workflow_run_id: "wfr_01",
  },
  "workflow_run.phase_started": {
    type: "workflow_run.phase_started",
    id: "sevt_wr_phase_started",
    processed_at: T,
    workflow_run_id: "wfr_01",
    workflow_run_phase_id: "ph_1",
  },
  "workflow_run.phase_ended": {
    type: "workflow_run.phase_ended",
    id: "sevt_wr_phase_ended",
    processed_at: T,
    workflow_run_id: "wfr_01",
    workflow_run_phase_id: "ph_1",
    phase_started_id: "sevt_wr_phase_started",
  },
  "workflow_run.error": {
    type: "workflow_run.error",
    id: "sevt_wr_error",
    processed_at: T,
    workflow_run_id: "wfr_01",
    error: { type: "timeout_error", message: "the run took too long" },
  },
  "workflow_run.status_idle": {
    type: "workflow_run.status_idle",
    id: "sevt_wr_idle",
    processed_at: T,
    workflow_run_id: "wfr_01",
  },
  "workflow_run.status_ended": {
    type: "workflow_run.status_ended",
    id: "sevt_wr_ended",
    processed_at: T,
    workflow_run_id: "wfr_01",
    result: { type: "completed" },
  },
  "session.status_terminated": {
    type: "session.status_terminated",
    id: "sevt_terminated",
    processed_at: T,
  },
  "session.deleted": { type: "session.deleted", id: "sevt_deleted", processed_at: T },
};

/** The rule of every SDK event type. */
export const SDK_RULES: { [K in SdkEventType]: Rule } = {
  "user.message": "conversation",
  "system.message": "conversation",
  "agent.message": "conversation",
  "agent.tool_use": "conversation",
  "agent.tool_result": "conversation",
  "agent.mcp_tool_use": "conversation",
  "agent.mcp_tool_result": "conversation",
  "agent.custom_tool_use": "conversation",
  "user.custom_tool_result": "conversation",
  "user.tool_result": "conversation",
  "agent.thread_message_sent": "conversation",
  "agent.thread_message_received": "conversation",
  "session.error": "conversation",
  "user.define_outcome": "control",
  "user.interrupt": "control",
  "user.tool_confirmation": "control",
  "agent.thinking": "bookkeeping",
  "agent.thread_context_compacted": "bookkeeping",
  "span.model_request_start": "bookkeeping",
  "span.model_request_end": "bookkeeping",
  "span.outcome_evaluation_start": "bookkeeping",
  "span.outcome_evaluation_ongoing": "bookkeeping",
  "span.outcome_evaluation_end": "bookkeeping",
  "session.status_running": "bookkeeping",
  "session.status_idle": "bookkeeping",
  "session.status_rescheduled": "bookkeeping",
  "session.status_terminated": "bookkeeping",
  "session.thread_created": "bookkeeping",
  "session.thread_status_running": "bookkeeping",
  "session.thread_status_idle": "bookkeeping",
  "session.thread_status_rescheduled": "bookkeeping",
  "session.thread_status_terminated": "bookkeeping",
  "session.usage": "bookkeeping",
  "session.updated": "bookkeeping",
  "session.deleted": "bookkeeping",
  "workflow_run.created": "bookkeeping",
  "workflow_run.status_running": "bookkeeping",
  "workflow_run.phase_started": "bookkeeping",
  "workflow_run.phase_ended": "bookkeeping",
  "workflow_run.error": "bookkeeping",
  "workflow_run.status_idle": "bookkeeping",
  "workflow_run.status_ended": "bookkeeping",
};

/** Every SDK event above, in order, typed as the SDK's union. */
export function sdkEvents(): BetaManagedAgentsSessionEvent[] {
  return Object.values(SDK_EVENTS);
}

/**
 * What the SDK's own list calls yield, as log entries (primary thread, then each thread): the
 * SDK's events go into `LogEntry` with no cast.
 */
export async function* fromSdkList(
  client: Anthropic,
  sessionId: string,
): AsyncGenerator<LogEntry> {
  let seq = 0;
  for await (const event of client.beta.sessions.events.list(sessionId)) {
    yield { seq: ++seq, session_id: sessionId, thread_id: null, event };
  }
  for await (const thread of client.beta.sessions.threads.list(sessionId)) {
    const events = client.beta.sessions.threads.events.list(thread.id, { session_id: sessionId });
    for await (const event of events) {
      yield { seq: ++seq, session_id: sessionId, thread_id: thread.id, event };
    }
  }
}
